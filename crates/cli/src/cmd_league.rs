//! `realm league`: a living league of bot versions in the results store. A league is a run
//! of kind `league` (key `league:NAME`) whose entrants grow with `add`; `run` plays matches
//! chosen by `realm_arena::league::Matchmaker` until stopped, stable or out of budget, and
//! notices bots added or retired from another terminal within a second.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use realm_arena::league::Matchmaker;
use realm_arena::report::RunReport;
use realm_arena::tournament::Played;
use realm_arena::{
    Entrant, KeepReplays, MatchOptions, OutputLimits, Schedule, ScheduledMatch, Tournament,
};
use realm_core::MatchSpec;
use realm_games::{Catalog, GameKind};
use realm_store::{BotRecord, RunRecord, Store, StoreError};
use serde_json::json;

use crate::cmd_arena::{now_utc, short_hash, stop_flag, Keep};
use crate::options::TimeFlags;

const HELP: &str = "Examples:
  realm league new main kingdomino
  realm league add main ./bot_v1 --note \"first try\"
  realm league add main builtin:greedy
  realm league run main --jobs 2            # until Ctrl-C; add bots from another terminal
  realm league show main
  realm league info main bot_v1
  realm league retire main bot_v1           # keeps its games, schedules it no more
  realm league remove main bot_v1           # deletes its games";

#[derive(Args)]
#[command(after_help = HELP)]
pub struct LeagueArgs {
    #[command(subcommand)]
    action: Action,
    /// The results store
    #[arg(long, global = true, default_value = "realm.sqlite")]
    db: PathBuf,
}

#[derive(Subcommand)]
enum Action {
    /// Create a league bound to one game, variant, league level and player count
    New {
        /// The league's name: one printable line of at most 64 characters
        name: String,
        /// The game, e.g. kingdomino
        game: String,
        /// Variant, e.g. `duo`, `classic`, `duel` (default: the game's standard one)
        #[arg(long)]
        variant: Option<String>,
        /// League level (default: the game's full rules)
        #[arg(long)]
        league: Option<u32>,
        /// Players per match (default: the game's usual count for the variant)
        #[arg(long)]
        players: Option<usize>,
        /// Seed of the league's seed stream
        #[arg(long, default_value_t = 1)]
        seed: u64,
        // The league's time control: every `add` check and `run` uses it unless told otherwise.
        #[command(flatten)]
        time: TimeFlags,
    },
    /// Add a bot (a built-in or a command; an edited file is a new version): it first plays
    /// itself twice, and a bot that faults there is reported and not scheduled. A version
    /// retired, removed or rejected before is taken back the same way
    Add {
        /// The league
        name: String,
        /// `builtin:NAME` or a shell command speaking the game's protocol
        bot: String,
        /// Its label in the league (default: the label `realm arena` gives)
        #[arg(long = "as")]
        label: Option<String>,
        /// A note shown with the bot (`league show`, `league info`), e.g. what changed
        #[arg(long)]
        note: Option<String>,
        #[command(flatten)]
        time: TimeOverrides,
    },
    /// Stop scheduling a bot; its games stay
    Retire {
        /// The league
        name: String,
        /// The bot's label in the league
        label: String,
    },
    /// Delete a bot's games from the league (the ratings follow)
    Remove {
        /// The league
        name: String,
        /// The bot's label in the league
        label: String,
    },
    /// Play matches until interrupted, until the budget is spent or until the order is stable
    Run {
        /// The league
        name: String,
        /// Matches played at once (default: the cores divided by the players per match)
        #[arg(long)]
        jobs: Option<usize>,
        /// Stop after this many matches
        #[arg(long)]
        games: Option<u64>,
        /// Stop once every bot has its first games and every two neighbours in the ranking
        /// are ordered with 95% confidence
        #[arg(long)]
        until_stable: bool,
        /// Which matches keep their replay file
        #[arg(long, value_enum, default_value_t = Keep::Faults)]
        keep_replays: Keep,
        /// Where kept replays go (default: replays/league-HASH of the league's name)
        #[arg(long)]
        replay_dir: Option<PathBuf>,
        /// Record each call's response time in kept replays (on by default with
        /// --keep-replays faults)
        #[arg(long)]
        timings: bool,
        /// No progress lines on stderr
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        time: TimeOverrides,
    },
    /// The leaderboard: batch rating with its interval, games, win rate, faults, [PDATA]
    /// averages and the chance that each bot is better than the one below
    Show {
        /// The league
        name: String,
        /// Output layout
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// One bot's results against every opponent
    Info {
        /// The league
        name: String,
        /// The bot's label in the league
        label: String,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Json,
    Csv,
}

/// `league add`'s and `league run`'s time flags: each one given replaces the league's own
/// setting (from `league new`) for this command only.
#[derive(Args, Clone, Copy, Debug)]
struct TimeOverrides {
    /// Multiply every time limit by X (0 < X <= 1000) (default: the league's, set by `league new`)
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    time_scale: Option<f64>,
    /// No time limits at all (default: the league's, set by `league new`)
    #[arg(long)]
    no_timeout: bool,
    /// Forgive answers up to MS milliseconds over each limit, counted as late answers
    /// (default: the league's, set by `league new`)
    #[arg(long, value_name = "MS", allow_negative_numbers = true,
          value_parser = crate::options::zero_or_more::<u64>)]
    time_margin: Option<u64>,
}

impl TimeOverrides {
    fn over(self, league: TimeFlags) -> TimeFlags {
        TimeFlags {
            time_scale: self.time_scale.unwrap_or(league.time_scale),
            no_timeout: self.no_timeout || league.no_timeout,
            time_margin: self.time_margin.unwrap_or(league.time_margin),
        }
    }
}

/// The time control stored with the league (`league new`); a league from before time flags
/// has the games' own limits.
fn league_time(run: &RunRecord) -> TimeFlags {
    let config: serde_json::Value = serde_json::from_str(&run.config).unwrap_or_default();
    TimeFlags {
        time_scale: config["time_scale"].as_f64().unwrap_or(1.0),
        no_timeout: config["no_timeout"].as_bool().unwrap_or(false),
        time_margin: config["time_margin_ms"].as_u64().unwrap_or(0),
    }
}

/// The time control in words, as `league new` and `league show` say it.
fn describe_time(time: TimeFlags) -> String {
    if time.no_timeout {
        return "no time limits".into();
    }
    let mut words = if time.time_scale == 1.0 {
        "the game's time limits".to_string()
    } else {
        format!("time limits x{}", time.time_scale)
    };
    if time.time_margin > 0 {
        words += &format!(" + {} ms margin", time.time_margin);
    }
    words
}

fn key(name: &str) -> String {
    format!("league:{name}")
}

fn find(store: &Store, name: &str) -> Result<RunRecord> {
    let missing = || {
        anyhow::anyhow!(
            "no league `{name}` in this store (create it with `realm league new {name} GAME`)"
        )
    };
    match store.run(&key(name)) {
        Ok(run) if run.kind == "league" => Ok(run),
        Ok(_) | Err(StoreError::NoSuchRun(_)) => Err(missing()),
        Err(e) => Err(e.into()),
    }
}

fn template(run: &RunRecord) -> MatchSpec {
    let mut spec = MatchSpec::new(&run.game, run.n_players, run.seed);
    spec.variant = run.variant.clone();
    spec.league = run.league.map(|l| l as u32);
    spec
}

/// Where `league add` puts a bot version.
enum Place {
    /// Back into its existing entry (re-admitted unless it is active).
    Back(usize),
    /// Into a new entry with this label.
    New(String),
}

/// The league's entrants with their statuses, in entrant order.
struct Roster {
    bots: Vec<BotRecord>,
    status: Vec<String>,
    notes: Vec<Option<String>>,
}

impl Roster {
    fn load(store: &Store, run_id: i64) -> Result<Roster> {
        let bots = store.run_bots(run_id)?;
        let (status, notes) = store.run_bot_statuses(run_id)?.into_iter().unzip();
        Ok(Roster {
            bots,
            status,
            notes,
        })
    }

    fn index(&self, label: &str) -> Result<usize> {
        self.bots
            .iter()
            .position(|b| b.name == label)
            .with_context(|| format!("no bot `{label}` in this league"))
    }

    /// The entrants to schedule: neither `pending` (checking itself), `retired`, `removed`
    /// nor `rejected`.
    fn active(&self) -> Vec<usize> {
        (0..self.bots.len())
            .filter(|&i| self.status[i] == "active")
            .collect()
    }

    /// Where `league add` puts `entrant` under `label` (its `--as`): back into the entry of
    /// this version with that label, or without a label into its active entry, else its latest
    /// one; otherwise a new entry, by default labelled as `realm arena` would, with `#N` for
    /// the N-th version.
    fn place_for(&self, entrant: &Entrant, label: Option<String>) -> Place {
        let (command, hash) = (entrant.command(), entrant.content_hash());
        let same_version =
            |&i: &usize| self.bots[i].command == command && self.bots[i].hash == hash;
        let entries = || (0..self.bots.len()).filter(same_version);
        let taken = |l: &str| self.bots.iter().position(|b| b.name == l);
        match label {
            // A label of another version stays a new entry, which the store refuses as taken.
            Some(label) => match taken(&label).filter(same_version) {
                Some(i) => Place::Back(i),
                None => Place::New(label),
            },
            None => match entries()
                .find(|&i| self.status[i] == "active")
                .or_else(|| entries().next_back())
            {
                Some(i) => Place::Back(i),
                None => Place::New(self.free_label(&entrant.label())),
            },
        }
    }

    /// `base`, or for a later version of it the first free `base#N`.
    fn free_label(&self, base: &str) -> String {
        (1..)
            .map(|v| match v {
                1 => base.to_string(),
                _ => format!("{base}#{v}"),
            })
            .find(|l| self.bots.iter().all(|b| &b.name != l))
            .expect("a free label")
    }

    fn entrants(&self) -> Result<Vec<Entrant>> {
        self.bots
            .iter()
            .map(|b| Entrant::from_arg(&b.command).map_err(anyhow::Error::msg))
            .collect()
    }
}

pub fn run(args: LeagueArgs) -> Result<std::process::ExitCode> {
    let db = args.db;
    match args.action {
        Action::New {
            name,
            game,
            variant,
            league,
            players,
            seed,
            time,
        } => new_league(&db, &name, &game, variant, league, players, seed, time),
        Action::Add {
            name,
            bot,
            label,
            note,
            time,
        } => add(&db, &name, &bot, label, note, time),
        Action::Retire { name, label } => set_status(&db, &name, &label, "retired"),
        Action::Remove { name, label } => remove(&db, &name, &label),
        Action::Run {
            name,
            jobs,
            games,
            until_stable,
            keep_replays,
            replay_dir,
            timings,
            quiet,
            time,
        } => run_league(
            &db,
            &name,
            jobs,
            games,
            until_stable,
            (keep_replays.into(), keep_replays.records_timings(timings)),
            replay_dir,
            quiet,
            time,
        ),
        Action::Show { name, format } => show(&db, &name, format),
        Action::Info { name, label } => info(&db, &name, &label),
    }
}

/// The longest league name: it is a label in tables, page titles and file names.
const MAX_NAME_CHARS: usize = 64;

/// Refuses a league name that would break one-line listings or read as a flag: a name is one
/// line of printable characters, without spaces at its ends.
fn check_name(name: &str) -> Result<()> {
    let breaks_line = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    let problem = if name.is_empty() {
        "is empty".to_string()
    } else if name.chars().any(breaks_line) {
        "has a control character (a newline, a tab)".to_string()
    } else if name.trim() != name {
        "starts or ends with a space".to_string()
    } else if name.starts_with('-') {
        "starts with `-` (it would read as a flag)".to_string()
    } else if name.chars().count() > MAX_NAME_CHARS {
        format!("is longer than {MAX_NAME_CHARS} characters")
    } else {
        return Ok(());
    };
    bail!("league name {name:?} {problem}: a name is one printable line")
}

#[allow(clippy::too_many_arguments)]
fn new_league(
    db: &Path,
    name: &str,
    game: &str,
    variant: Option<String>,
    league: Option<u32>,
    players: Option<usize>,
    seed: u64,
    time: TimeFlags,
) -> Result<std::process::ExitCode> {
    check_name(name)?;
    time.match_options(false)?;
    let kind = GameKind::from_slug(game)?;
    let n_players = players.unwrap_or_else(|| kind.default_players(variant.as_deref()));
    let mut spec = MatchSpec::new(game, n_players, seed);
    spec.variant = variant.clone();
    spec.league = league;
    // The same checks as a match: a league that could never play is refused now.
    kind.new_referee(&spec)?;
    let mut store = Store::open(db)?;
    if store.run(&key(name)).is_ok() {
        bail!("a league `{name}` already exists in {}", db.display());
    }
    let config = json!({"kind": "league", "name": name, "game": game, "variant": variant,
        "league": league, "n_players": n_players, "seed": seed, "group_size": n_players,
        "time_scale": time.time_scale, "time_margin_ms": time.time_margin,
        "no_timeout": time.no_timeout});
    store.ensure_run(
        &RunRecord {
            id: 0,
            key: key(name),
            kind: "league".into(),
            created_at: now_utc(),
            game: game.into(),
            variant,
            league: league.map(i64::from),
            n_players,
            seed,
            n_matches: 0,
            config: config.to_string(),
        },
        &[],
    )?;
    outln!(
        "league `{name}` created in {}: {game}, {n_players} players, {}",
        db.display(),
        describe_time(time)
    )?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Plays `entrant` against itself in every seat, twice; returns the first fault.
fn self_play_fault(
    spec: &MatchSpec,
    entrant: &Entrant,
    options: MatchOptions,
) -> Result<Option<String>> {
    let tournament = tournament(
        spec,
        vec![entrant.clone()],
        vec!["candidate".into()],
        1,
        KeepReplays::None,
        std::env::temp_dir(),
        options,
    )?;
    for k in 0..2u64 {
        let m = ScheduledMatch {
            index: k,
            group: k,
            seed: 1 + k,
            seats: vec![0; spec.n_players],
        };
        match tournament.play_one(&Catalog, &m)? {
            Played::Finished(record) => {
                if let Some((code, why)) = record.faults.iter().flatten().next() {
                    return Ok(Some(format!("{code}: {why}")));
                }
            }
            Played::RefereeFailed(e) | Played::Interrupted(e) => return Ok(Some(e.reason)),
        }
    }
    Ok(None)
}

fn add(
    db: &Path,
    name: &str,
    bot: &str,
    label: Option<String>,
    note: Option<String>,
    time: TimeOverrides,
) -> Result<std::process::ExitCode> {
    let mut store = Store::open(db)?;
    let run = find(&store, name)?;
    let options = time.over(league_time(&run)).match_options(false)?;
    let entrant = Entrant::from_arg(bot).map_err(anyhow::Error::msg)?;
    let roster = Roster::load(&store, run.id)?;
    // Pending until its check passes: a running league schedules active bots only.
    let (idx, label, was) = match roster.place_for(&entrant, label) {
        Place::Back(i) if roster.status[i] == "active" => bail!(
            "this version of `{}` is already in league `{name}` as `{}` (to add it again, \
             give it a new label with --as)",
            entrant.command(),
            roster.bots[i].name
        ),
        Place::Back(i) => {
            store.readmit_run_bot(run.id, i, note.as_deref())?;
            let was = format!(" (was {})", roster.status[i]);
            (i, roster.bots[i].name.clone(), was)
        }
        Place::New(label) => {
            let record = BotRecord {
                name: label,
                command: entrant.command(),
                hash: entrant.content_hash(),
            };
            let idx = store.add_run_bot_with_status(run.id, &record, note.as_deref(), "pending")?;
            (idx, record.name, String::new())
        }
    };
    let checked = self_play_fault(&template(&run), &entrant, options);
    let passed = matches!(checked, Ok(None));
    store.set_run_bot_status(run.id, idx, if passed { "active" } else { "rejected" })?;
    match checked? {
        None => {
            outln!(
                "added `{label}`{was} to league `{name}`: it played itself twice without a fault"
            )?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        Some(fault) => {
            errln!("`{label}` faulted playing itself ({fault}); it is in league `{name}` but will not be scheduled");
            Ok(std::process::ExitCode::from(1))
        }
    }
}

fn set_status(db: &Path, name: &str, label: &str, status: &str) -> Result<std::process::ExitCode> {
    let mut store = Store::open(db)?;
    let run = find(&store, name)?;
    let idx = Roster::load(&store, run.id)?.index(label)?;
    store.set_run_bot_status(run.id, idx, status)?;
    outln!("`{label}` is {status} in league `{name}`")?;
    Ok(std::process::ExitCode::SUCCESS)
}

fn remove(db: &Path, name: &str, label: &str) -> Result<std::process::ExitCode> {
    let mut store = Store::open(db)?;
    let run = find(&store, name)?;
    let idx = Roster::load(&store, run.id)?.index(label)?;
    store.set_run_bot_status(run.id, idx, "removed")?;
    let n = store.delete_matches_of(run.id, idx)?;
    outln!("`{label}` removed from league `{name}` with its {n} matches")?;
    Ok(std::process::ExitCode::SUCCESS)
}

fn tournament(
    spec: &MatchSpec,
    entrants: Vec<Entrant>,
    labels: Vec<String>,
    jobs: usize,
    keep_replays: KeepReplays,
    replay_dir: PathBuf,
    options: MatchOptions,
) -> Result<Tournament> {
    let n = entrants.len().max(spec.n_players);
    Ok(Tournament {
        template: spec.clone(),
        // Unused: league matches come from the matchmaker.
        schedule: Schedule::new(n, spec.n_players, 1, spec.seed, false),
        entrants,
        labels,
        jobs,
        options,
        limits: OutputLimits::default(),
        keep_replays,
        replay_dir,
        external_referee: None,
        external_args: String::new(),
        external_timeout: Duration::from_secs(60),
    })
}

#[allow(clippy::too_many_arguments)]
fn run_league(
    db: &Path,
    name: &str,
    jobs: Option<usize>,
    games: Option<u64>,
    until_stable: bool,
    (keep_replays, timings): (KeepReplays, bool),
    replay_dir: Option<PathBuf>,
    quiet: bool,
    time: TimeOverrides,
) -> Result<std::process::ExitCode> {
    let mut store = Store::open(db)?;
    let run = find(&store, name)?;
    let options = time.over(league_time(&run)).match_options(timings)?;
    let spec = template(&run);
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let jobs = jobs.unwrap_or((cores / spec.n_players).max(1));
    let replay_dir =
        std::path::absolute(replay_dir.unwrap_or_else(|| {
            PathBuf::from("replays").join(format!("league-{}", short_hash(name)))
        }))?;
    let stop = stop_flag();
    let started = Instant::now();
    let mut played = 0u64;
    let mut watcher = Store::open_read_only(db)?;
    loop {
        let roster = Roster::load(&store, run.id)?;
        let active = roster.active();
        if active.len() < spec.n_players {
            errln!(
                "league `{name}` has {} active bots for {} seats: add bots with `realm league add`",
                active.len(),
                spec.n_players
            );
            return Ok(std::process::ExitCode::from(2));
        }
        let fingerprint = store.run_bot_statuses(run.id)?;
        let matches = store.matches(run.id)?;
        let mm = Matchmaker::new(
            roster.bots.len(),
            spec.n_players,
            active,
            run.seed,
            store.next_match_idx(run.id)?,
            &matches,
        );
        let labels = roster.bots.iter().map(|b| b.name.clone()).collect();
        let t = tournament(
            &spec,
            roster.entrants()?,
            labels,
            jobs,
            keep_replays,
            replay_dir.clone(),
            options,
        )?;
        let state = Mutex::new((mm, Instant::now(), false, watcher));
        let budget_left = |played: u64| games.is_none_or(|g| played < g);
        let handed = std::sync::atomic::AtomicU64::new(played);
        let next_match = || {
            let mut s = state.lock().expect("not poisoned");
            if !budget_left(handed.load(Ordering::SeqCst)) || (until_stable && s.0.is_stable()) {
                return None;
            }
            // Bots added, retired or removed from another terminal: finish what is in flight
            // and start again with the new roster.
            if s.1.elapsed() >= Duration::from_secs(1) {
                s.1 = Instant::now();
                if s.3
                    .run_bot_statuses(run.id)
                    .is_ok_and(|now| now != fingerprint)
                {
                    s.2 = true;
                }
            }
            if s.2 {
                return None;
            }
            handed.fetch_add(1, Ordering::SeqCst);
            s.0.next_match()
        };
        let counts = t.run_with(&Catalog, &mut store, run.id, &next_match, &stop, |p| {
            if let Played::Finished(record) = p {
                played += 1;
                state.lock().expect("not poisoned").0.record(record);
                if !quiet && played % 50 == 0 {
                    errln!(
                        "league `{name}`: {played} matches in {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            }
        })?;
        crate::cmd_arena::warn_dropped_data(&counts.data_warnings);
        store.verify_still_intact()?;
        let (mm, _, roster_changed, w) = state.into_inner().expect("not poisoned");
        watcher = w;
        if stop.load(Ordering::SeqCst) {
            errln!(
                "interrupted: {played} matches stored in {}; `realm league run {name}` goes on",
                db.display()
            );
            return Ok(std::process::ExitCode::from(130));
        }
        if roster_changed {
            if !quiet {
                errln!("league `{name}`: the roster changed; matchmaking with it now");
            }
            continue;
        }
        if !quiet {
            let why = if until_stable && mm.is_stable() {
                "the order is stable"
            } else {
                "the budget is spent"
            };
            errln!("league `{name}`: {played} matches played; {why}");
        }
        break;
    }
    show(db, name, Format::Table)
}

/// One leaderboard row.
#[derive(serde::Serialize)]
pub(crate) struct Row {
    pub(crate) rank: usize,
    pub(crate) label: String,
    pub(crate) status: String,
    pub(crate) rating: Option<f64>,
    /// Half width of the 95% interval.
    pub(crate) interval: Option<f64>,
    pub(crate) games: u64,
    pub(crate) win_rate: Option<f64>,
    pub(crate) faults: u64,
    /// Probability that this bot is better than the next one down.
    pub(crate) p_better_than_next: Option<f64>,
    pub(crate) data: std::collections::BTreeMap<String, f64>,
    pub(crate) command: String,
    pub(crate) note: Option<String>,
}

pub(crate) fn leaderboard(store: &Store, name: &str) -> Result<(RunRecord, Vec<Row>)> {
    let run = find(store, name)?;
    let roster = Roster::load(store, run.id)?;
    let matches = store.matches(run.id)?;
    let report = RunReport::build(&run, &roster.bots, &matches, run.n_players as u64);
    let mm = Matchmaker::new(
        roster.bots.len(),
        run.n_players,
        roster.active(),
        run.seed,
        0,
        &matches,
    );
    let mut shown: Vec<usize> = (0..roster.bots.len())
        .filter(|&i| roster.status[i] != "removed")
        .collect();
    // A bot without games has no rating of its own (the fit's prior would give it one).
    let fitted = |i: usize| mm.rating(i).filter(|_| report.bots[i].games > 0);
    let rating = |i: usize| fitted(i).map(|r| r.0);
    shown.sort_by(|&a, &b| {
        rating(b)
            .unwrap_or(f64::MIN)
            .total_cmp(&rating(a).unwrap_or(f64::MIN))
            .then(a.cmp(&b))
    });
    let rows = shown
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let b = &report.bots[i];
            let games = b.wins + b.draws + b.losses;
            Row {
                rank: k + 1,
                label: roster.bots[i].name.clone(),
                status: roster.status[i].clone(),
                rating: rating(i),
                interval: fitted(i).map(|r| 1.96 * r.1),
                games: b.games,
                win_rate: (games > 0)
                    .then(|| (b.wins as f64 + 0.5 * b.draws as f64) / games as f64),
                faults: b.faults.values().sum(),
                p_better_than_next: shown.get(k + 1).and_then(|&j| {
                    (fitted(i).is_some() && fitted(j).is_some()).then(|| mm.p_better(i, j))
                }),
                data: b.data.clone(),
                command: roster.bots[i].command.clone(),
                note: roster.notes[i].clone(),
            }
        })
        .collect();
    Ok((run, rows))
}

fn show(db: &Path, name: &str, format: Format) -> Result<std::process::ExitCode> {
    let store = crate::cmd_report::open_to_read(db)?;
    let (run, rows) = leaderboard(&store, name)?;
    let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.1}%", 100.0 * v));
    match format {
        Format::Json => {
            outln!("{}", serde_json::to_string_pretty(&rows)?)?;
        }
        Format::Csv => {
            outln!("rank,label,status,rating,interval,games,win_rate,faults,p_better_than_next")?;
            for r in &rows {
                outln!(
                    "{},{},{},{},{},{},{},{},{}",
                    r.rank,
                    crate::cmd_report::csv(&r.label),
                    r.status,
                    r.rating.map_or(String::new(), |v| format!("{v:.1}")),
                    r.interval.map_or(String::new(), |v| format!("{v:.1}")),
                    r.games,
                    r.win_rate.map_or(String::new(), |v| format!("{v:.4}")),
                    r.faults,
                    r.p_better_than_next
                        .map_or(String::new(), |v| format!("{v:.4}"))
                )?;
            }
        }
        Format::Table => {
            let matches = store.matches(run.id)?.len();
            outln!(
                "league `{name}`: {}{}, {} players, {matches} matches, {}",
                run.game,
                run.variant
                    .as_deref()
                    .map(|v| format!(" {v}"))
                    .unwrap_or_default(),
                run.n_players,
                describe_time(league_time(&run))
            )?;
            outln!(
                "{:>3}  {:<28} {:>16} {:>7} {:>8} {:>6} {:>8}  status",
                "#",
                "bot",
                "rating (95%)",
                "games",
                "win rate",
                "faults",
                "P(>next)"
            )?;
            for r in &rows {
                let rating = match (r.rating, r.interval) {
                    (Some(v), Some(e)) => format!("{v:.0} ± {e:.0}"),
                    _ => "-".to_string(),
                };
                let data: Vec<String> = r.data.iter().map(|(k, v)| format!("{k}={v:.2}")).collect();
                outln!(
                    "{:>3}  {:<28} {:>16} {:>7} {:>8} {:>6} {:>8}  {}{}",
                    r.rank,
                    r.label,
                    rating,
                    r.games,
                    pct(r.win_rate),
                    r.faults,
                    pct(r.p_better_than_next),
                    r.status,
                    if data.is_empty() {
                        String::new()
                    } else {
                        format!("  {}", data.join(" "))
                    }
                )?;
            }
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

fn info(db: &Path, name: &str, label: &str) -> Result<std::process::ExitCode> {
    let store = crate::cmd_report::open_to_read(db)?;
    let run = find(&store, name)?;
    let roster = Roster::load(&store, run.id)?;
    let me = roster.index(label)?;
    let matches = store.matches(run.id)?;
    let report = RunReport::build(&run, &roster.bots, &matches, run.n_players as u64);
    let b = &report.bots[me];
    outln!(
        "`{label}` in league `{name}`: {} ({}), {} games, {}-{}-{} (W-D-L), {} faults{}",
        roster.bots[me].command,
        roster.status[me],
        b.games,
        b.wins,
        b.draws,
        b.losses,
        b.faults.values().sum::<u64>(),
        roster.notes[me]
            .as_deref()
            .map(|n| format!(", note: {n}"))
            .unwrap_or_default()
    )?;
    outln!("{:<28} {:>7} {:>10}", "against", "games", "score")?;
    for (j, other) in roster.bots.iter().enumerate() {
        if j == me {
            continue;
        }
        let games = matches
            .iter()
            .filter(|m| m.seats.contains(&me) && m.seats.contains(&j))
            .count();
        if games == 0 {
            continue;
        }
        let score =
            report.pairwise[me][j].map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        outln!("{:<28} {:>7} {:>10}", other.name, games, score)?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn only_active_bots_are_scheduled() {
        let statuses = [
            "active", "pending", "retired", "active", "removed", "rejected",
        ];
        let roster = Roster {
            bots: (0..statuses.len())
                .map(|i| BotRecord {
                    name: format!("bot{i}"),
                    command: format!("./bot{i}"),
                    hash: String::new(),
                })
                .collect(),
            status: statuses.iter().map(|s| s.to_string()).collect(),
            notes: vec![None; statuses.len()],
        };
        assert_eq!(roster.active(), vec![0, 3]);
    }

    /// `realm league`, every subcommand and every argument of each, all without help text.
    fn without_help(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
        if command.get_about().is_none() {
            missing.push(path.to_string());
        }
        for arg in command.get_arguments() {
            if arg.get_help().is_none() {
                missing.push(format!("{path} {}", arg.get_id()));
            }
        }
        for sub in command.get_subcommands() {
            without_help(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }

    #[test]
    fn every_league_subcommand_and_argument_has_help() {
        let mut realm = crate::Cli::command();
        realm.build();
        let league = realm.find_subcommand("league").expect("realm league");
        let mut missing = Vec::new();
        without_help(league, "league", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }
}
