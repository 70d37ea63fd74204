//! `realm arena` and `realm sprt`: many matches in parallel into the results store, with a live
//! progress display, resumable after any interruption, then the report.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use realm_arena::report::{HeadToHead, SprtVerdict};
use realm_arena::tournament::{shell_quote, Played, BOT_SEED};
use realm_arena::{unique_labels, Entrant, KeepReplays, OutputLimits, Schedule, Tournament};
use realm_stats::{Sprt, SprtConfig, SprtDecision, SprtModel, SprtStatus};
use realm_store::{BotRecord, Journal, RunRecord, Store};
use serde_json::json;

use crate::cmd_play::{entrants_from_args, missing_parent};
use crate::cmd_report::{elo_text, print_report, ReportFormat};
use crate::live::{LiveScore, Progress};
use crate::options::{at_least_one, game, note_negative_seed, parse_seed, MatchFlags, TimeFlags};
use realm_games::Catalog;

/// Exit code of a run that ended with matches its external referee failed to play.
const EXIT_REFEREE_ERRORS: u8 = 3;
/// A run whose first this-many matches all failed in the external referee stops early.
const HOPELESS_AFTER: usize = 20;

/// The exit statuses of `arena` and `sprt`, after each one's examples (`concat!` needs a literal).
macro_rules! exit_status_help {
    () => {
        "\n\nExit status: 0 when every scheduled match has a result; 3 when some matches have none \
         because the external referee (--referee) failed on them or a bot was killed by SIGINT, \
         SIGTERM or SIGHUP (the report shows them apart, no statistic counts them, and running the \
         same command again replays them); 2 on an error; 130 when interrupted (running the same \
         command again resumes the run)."
    };
}

const ARENA_HELP: &str = concat!(
    "Examples:
  realm arena kingdomino ./v2 ./v1 --games 1000 --jobs 2
  realm arena carcassonne ./a ./b ./c --players 3 --games 300
  realm arena blocking ./mybot builtin:greedy --variant duo --keep-replays faults
  realm arena ice-and-fire ./v2 ./v1 --games 5000 --shard 1/4 --db shard1.sqlite",
    exit_status_help!()
);

const SPRT_HELP: &str = concat!(
    "Examples:
  realm sprt carcassonne ./v2 ./v1 --elo0 0 --elo1 10
  realm sprt kingdomino builtin:mcts:c=0.3 builtin:mcts --elo0 0 --elo1 20",
    exit_status_help!()
);

const REFEREE_HELP: &str = "\
Drive an external CodinGame-SDK-style referee instead of realm's own (GAME is then only a label). \
By default (--referee-args sdk) it runs as `CMD -p1 BOT1 -p2 BOT2 ... -d PARAMETERS`, plus \
`-league L` when --league is given, PARAMETERS being `seed=N` (the match's seed, N in 0..2^31: \
realm's own referee plays the same seed, so the two can be compared game by game), then \
`league=L`, `variant=V` and every --option KEY=VALUE, one per line (Java Properties, as SDK \
referees read -d; `realm referee` understands it too). Built-in bots are sent as `realm bot GAME \
NAME --seed S` commands, S derived from the match seed and seat as for realm's own referee. The \
referee must print one integer score per player; lines before the scores are skipped, as \
cg-brutaltester does, and a negative score is a loss with that score, not a fault. A referee \
that fails gives no result: see the exit status";

#[derive(Args)]
pub struct RunFlags {
    /// Parallel matches (default: cores / players per match, at least 1); -t as in
    /// cg-brutaltester
    #[arg(long, short, short_alias = 't', allow_negative_numbers = true,
          value_parser = at_least_one::<usize>)]
    jobs: Option<usize>,
    /// Players per match (default: the game's smallest count)
    #[arg(long)]
    players: Option<usize>,
    /// Play every permutation of seats for each seed, not just rotations
    #[arg(long)]
    permute: bool,
    /// Results store
    #[arg(long, default_value = "realm.sqlite")]
    db: PathBuf,
    /// SQLite journal of the store: wal (fast; local disks only) or delete (for network file
    /// systems such as NFS or Lustre, where WAL is unsafe); default: wal for a new store, an
    /// existing store keeps its own
    #[arg(long, value_enum)]
    db_journal: Option<DbJournal>,
    /// Which replays to keep on disk
    #[arg(long, value_enum, default_value_t = Keep::Faults)]
    keep_replays: Keep,
    /// Where kept replays go (default: replays/run-KEY/)
    #[arg(long)]
    replay_dir: Option<PathBuf>,
    /// Record each call's response time in kept replays (the viewer shows it on the call).
    /// On by default with --keep-replays faults, where every kept replay is a fault to debug;
    /// off otherwise, so the same seed and answers give the same replay bytes
    #[arg(long)]
    timings: bool,
    /// Run only shard K of N (1-based), e.g. 2/8; merge shards with `realm merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    #[arg(
        long,
        value_name = "CMD",
        help = "Drive an external CodinGame-SDK-style referee instead of realm's own (GAME is \
                then only a label; --help tells what it is sent)",
        long_help = REFEREE_HELP
    )]
    referee: Option<String>,
    /// How the external referee's command line is written: `sdk` (`-p1 CMD -p2 CMD -d PARAMS`,
    /// plus `-league L` when --league is given, as SDK referee front-ends take it), `seed`
    /// (`-p1 CMD -p2 CMD -seed N`, plus `-league L`), or a template with {PLAYERS}, {P1}..{P8},
    /// {SEED}, {PARAMS} and {LEAGUE}
    #[arg(
        long,
        value_name = "STYLE|TEMPLATE",
        default_value = "sdk",
        allow_hyphen_values = true
    )]
    referee_args: String,
    /// Play every scheduled match through realm's own referee and through the referee CMD (same
    /// seeds, same seats, sent as --referee would), store nothing, and print every match whose
    /// scores differ: checks a referee port against realm's, or realm's against an official
    /// one. Bots must be deterministic for the comparison to mean anything. Exit 3 when any
    /// match differs or the referee fails
    #[arg(long, value_name = "CMD", conflicts_with = "referee")]
    compare_referee: Option<String>,
    /// Wall-clock limit of one external-referee match; a referee still running then has failed
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 600.0,
        allow_negative_numbers = true
    )]
    referee_timeout: f64,
    /// No progress display (on a terminal a bar; elsewhere a status line after 3 s, then every
    /// 10 s, and a last one at the end)
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    time: TimeFlags,
    #[command(flatten)]
    setup: MatchFlags,
}

#[derive(Args)]
#[command(after_help = ARENA_HELP)]
pub struct ArenaArgs {
    /// The game, e.g. kingdomino
    game: String,
    /// Two or more bots: `builtin:NAME` or shell commands
    #[arg(required = true, num_args = 2..)]
    bots: Vec<String>,
    /// Matches to play, rounded up to whole cycles (every pairing in every seat order) so that
    /// every bot plays as often in every seat; a note says so when the count changes
    #[arg(long, short = 'n', default_value_t = 100, allow_negative_numbers = true,
          value_parser = at_least_one::<u64>)]
    games: u64,
    /// Report layout
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    format: ReportFormat,
    #[command(flatten)]
    run: RunFlags,
}

#[derive(Args)]
#[command(after_help = SPRT_HELP)]
pub struct SprtArgs {
    /// The game, e.g. kingdomino
    game: String,
    /// The bot under test
    candidate: String,
    /// The bot to beat
    baseline: String,
    /// Elo difference of the null hypothesis, in normalized Elo as fastchess and fishtest use
    /// it; -1000 to 1000, below --elo1
    #[arg(long, allow_hyphen_values = true, default_value_t = 0.0)]
    elo0: f64,
    /// Elo difference of the alternative hypothesis (normalized Elo, -1000 to 1000). Beyond
    /// 1000 a hypothesis means a candidate that wins nearly every pair of games, and the test
    /// can no longer tell such hypotheses apart
    #[arg(long, allow_hyphen_values = true, default_value_t = 10.0)]
    elo1: f64,
    /// The chance of accepting H1 when H0 holds (a false "stronger")
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    alpha: f64,
    /// The chance of accepting H0 when H1 holds (a missed improvement)
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    beta: f64,
    /// Give up (no decision) after this many games
    #[arg(long, default_value_t = 100_000, allow_negative_numbers = true,
          value_parser = at_least_one::<u64>)]
    max_games: u64,
    #[command(flatten)]
    run: RunFlags,
}

#[derive(Clone, Copy, ValueEnum)]
enum DbJournal {
    Wal,
    Delete,
}

impl DbJournal {
    fn journal(self) -> Journal {
        match self {
            DbJournal::Wal => Journal::Wal,
            DbJournal::Delete => Journal::Delete,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Keep {
    All,
    Faults,
    None,
}

impl Keep {
    /// Whether kept replays record response times: when asked, and always when only faulted
    /// replays are kept (a fault is what a bot author debugs, and its timing is part of it).
    pub(crate) fn records_timings(self, asked: bool) -> bool {
        asked || matches!(self, Keep::Faults)
    }
}

impl From<Keep> for KeepReplays {
    fn from(keep: Keep) -> KeepReplays {
        match keep {
            Keep::All => KeepReplays::All,
            Keep::Faults => KeepReplays::Faults,
            Keep::None => KeepReplays::None,
        }
    }
}

/// Everything fixed about a run before it starts.
struct Prepared {
    tournament: Tournament,
    run: RunRecord,
    bots: Vec<BotRecord>,
    shard: Option<(u64, u64)>,
    quiet: bool,
    db: PathBuf,
    journal: Option<Journal>,
}

fn prepare(
    game_slug: &str,
    bot_args: &[String],
    n_matches: u64,
    kind: &str,
    flags: &RunFlags,
) -> Result<Prepared> {
    let mut entrants = entrants_from_args(bot_args)?;
    let labels = unique_labels(&entrants);
    let (template, n_seats) = if flags.referee.is_some() {
        if flags.setup.league.is_none() {
            errln!(
                "warning: no --league given: an SDK referee plays its own default league \
                 (usually the lowest); pass --league L to choose"
            );
        }
        // An external referee starts bots itself: built-in bots go as `realm bot` processes.
        entrants = entrants
            .iter()
            .map(|e| builtin_as_process(e, game_slug, flags.setup.league))
            .collect::<Result<Vec<_>>>()?;
        let n = flags.players.unwrap_or(2);
        // Nothing is validated (realm may not know the game); league, variant and options
        // are passed on to the referee.
        (flags.setup.unchecked_spec(game_slug, n, 0)?, n)
    } else {
        let game = game(game_slug)?;
        let n = flags
            .players
            .unwrap_or(game.info().variant(flags.setup.variant.as_deref())?.players[0]);
        // Validates game, variant, league and options; the seed comes from the schedule.
        let template = flags.setup.spec_quietly(game, n)?;
        for e in &entrants {
            if let Entrant::Builtin(name) = e {
                game.new_bot(name, 0, template.league)?;
            }
        }
        (template, n)
    };
    if entrants.len() < n_seats {
        bail!("{} bots cannot fill {n_seats} seats", entrants.len());
    }
    if !(flags.referee_timeout.is_finite() && flags.referee_timeout > 0.0) {
        bail!(
            "--referee-timeout must be a positive number of seconds, not {}",
            flags.referee_timeout
        );
    }
    let run_seed = match &flags.setup.seed {
        Some(s) => {
            note_negative_seed(s);
            parse_seed(s)?
        }
        // A fixed default, so running the same command again resumes the same run.
        None => 1,
    };
    let schedule = Schedule::new(entrants.len(), n_seats, n_matches, run_seed, flags.permute);
    let bots: Vec<BotRecord> = entrants
        .iter()
        .zip(&labels)
        .map(|(e, label)| BotRecord {
            name: label.clone(),
            command: e.command(),
            hash: e.content_hash(),
        })
        .collect();
    let config = json!({
        "kind": kind,
        "game": template.game, "variant": template.variant, "league": template.league,
        "options": template.options, "n_players": n_seats,
        "bots": bots.iter().map(|b| json!([b.command, b.hash])).collect::<Vec<_>>(),
        "seed": run_seed, "permute": flags.permute,
        "referee": flags.referee, "group_size": schedule.group_size(),
    });
    // The number of matches is not part of the run's identity: match i does not depend on it,
    // so the same command with more games extends the run and reuses what it has.
    let key = short_hash(&config.to_string());
    let run = RunRecord {
        id: 0,
        key: key.clone(),
        kind: kind.to_string(),
        created_at: now_utc(),
        game: template.game.clone(),
        variant: template.variant.clone(),
        league: template.league.map(i64::from),
        n_players: n_seats,
        seed: run_seed,
        n_matches: schedule.n_matches(),
        config: config.to_string(),
    };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let jobs = flags.jobs.unwrap_or((cores / n_seats).max(1));
    if let Some(warning) = oversubscription_warning(jobs, n_seats, cores, &entrants) {
        errln!("{warning}");
    }
    let keep_replays = flags.keep_replays.into();
    if let Some(dir) = &flags.replay_dir {
        if let Some(parent) = missing_parent(dir) {
            bail!(
                "--replay-dir {}: no directory {}",
                dir.display(),
                parent.display()
            );
        }
    }
    let tournament = Tournament {
        template,
        entrants,
        labels,
        schedule,
        jobs,
        options: flags
            .time
            .match_options(flags.keep_replays.records_timings(flags.timings))?,
        limits: OutputLimits::default(),
        keep_replays,
        // Absolute, so the paths in the store still lead to the replays from any directory
        // (`realm serve` is often started elsewhere).
        replay_dir: std::path::absolute(
            flags
                .replay_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("replays").join(format!("run-{key}"))),
        )?,
        external_referee: flags.referee.clone(),
        external_args: referee_args_template(&flags.referee_args, flags.setup.league)?,
        external_timeout: Duration::from_secs_f64(flags.referee_timeout),
    };
    let shard = flags.shard.as_deref().map(parse_shard).transpose()?;
    Ok(Prepared {
        tournament,
        run,
        bots,
        shard,
        quiet: flags.quiet,
        db: flags.db.clone(),
        journal: flags.db_journal.map(DbJournal::journal),
    })
}

fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        _ => bail!("--shard {text}: expected K/N with 1 <= K <= N"),
    }
}

/// Why the scheduled number of matches differs from `--games`, if it does.
fn rounding_note(requested: u64, schedule: &Schedule) -> Option<String> {
    let scheduled = schedule.n_matches();
    if scheduled == requested {
        return None;
    }
    let cycle = schedule.cycle_len();
    Some(if scheduled % cycle == 0 {
        format!(
            "note: --games {requested} rounded up to {scheduled}: whole cycles of {cycle} matches \
             (every pairing in every seat order), so every bot plays as often in every seat"
        )
    } else {
        format!(
            "note: --games {requested} rounded up to {scheduled} (whole seat rotations); a full \
             cycle of every pairing is {cycle} matches, so bots play slightly different numbers \
             of games"
        )
    })
}

/// Ctrl-C asks the run to stop: bots are killed, matches in flight are dropped, the store keeps
/// everything finished, and the same command resumes.
pub(crate) fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || {
        handler_stop.store(true, Ordering::SeqCst);
        realm_arena::kill_all_bots();
    });
    stop
}

/// Watches the external referee: a run whose first matches all fail is stopped, because the
/// referee command itself is broken and every further match would fail the same way.
#[derive(Default)]
struct RefereeWatch {
    finished: usize,
    failed: usize,
    first_reason: Option<String>,
}

impl RefereeWatch {
    /// Records one played match; true when the run should stop.
    fn record(&mut self, played: &Played) -> bool {
        match played {
            Played::Finished(_) => self.finished += 1,
            Played::RefereeFailed(e) => {
                self.failed += 1;
                self.first_reason.get_or_insert_with(|| e.reason.clone());
            }
            Played::Interrupted(_) => {}
        }
        self.hopeless()
    }

    fn hopeless(&self) -> bool {
        self.finished == 0 && self.failed >= HOPELESS_AFTER
    }

    fn give_up(&self) -> Result<()> {
        if self.hopeless() {
            bail!(
                "the external referee failed the first {} matches, stopping (first reason: {})",
                self.failed,
                self.first_reason.as_deref().unwrap_or("unknown")
            );
        }
        Ok(())
    }
}

fn interrupted(db: &std::path::Path) -> ExitCode {
    errln!(
        "interrupted: finished matches are stored in {}; run the same command to resume",
        db.display()
    );
    ExitCode::from(130)
}

/// Exit code 3 and one line on stderr when matches of `wanted` have no result (the external
/// referee failed, or a bot was killed by an interruption signal); success otherwise.
fn referee_error_exit(store: &Store, run_id: i64, wanted: &BTreeSet<u64>) -> Result<ExitCode> {
    let failed = store
        .match_errors(run_id)?
        .iter()
        .filter(|e| wanted.contains(&e.match_idx))
        .count();
    if failed == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    errln!(
        "{failed} matches have no result (a failed referee, or a bot killed by an interruption \
         signal); no statistic counts them; run the same command again to replay them"
    );
    Ok(ExitCode::from(EXIT_REFEREE_ERRORS))
}

/// The external referee's argument template for `--referee-args` (see its help).
fn referee_args_template(style: &str, league: Option<u32>) -> Result<String> {
    let league_flag = league.map(|l| format!(" -league {l}")).unwrap_or_default();
    let template = match style {
        "sdk" => format!("{{PLAYERS}} -d {{PARAMS}}{league_flag}"),
        "seed" => format!("{{PLAYERS}} -seed {{SEED}}{league_flag}"),
        custom if custom.contains('{') => custom.to_string(),
        other => bail!(
            "--referee-args {other}: expected sdk, seed, or a template with {{PLAYERS}}, \
             {{P1}}..{{P8}}, {{SEED}}, {{PARAMS}} or {{LEAGUE}}"
        ),
    };
    Ok(template.replace(
        "{LEAGUE}",
        &league.map(|l| l.to_string()).unwrap_or_default(),
    ))
}

/// A built-in bot as the command an external referee can start: `realm bot GAME NAME`, seeded
/// per match and seat as the in-process bot would be (`BOT_SEED`, filled in per match).
fn builtin_as_process(entrant: &Entrant, game_slug: &str, league: Option<u32>) -> Result<Entrant> {
    let Entrant::Builtin(name) = entrant else {
        return Ok(entrant.clone());
    };
    let game = game(game_slug).context("built-in bots under --referee need a game realm knows")?;
    game.new_bot(name, 0, league)?;
    let exe = std::env::current_exe().context("cannot find realm's own executable")?;
    let league = league.map(|l| format!(" --league {l}")).unwrap_or_default();
    Ok(Entrant::Command(format!(
        "{} bot {game_slug} {name}{league} --seed {}",
        shell_quote(&exe.to_string_lossy()),
        BOT_SEED
    )))
}

/// More bots than cores may be running at once: a bot's measured time can then include waiting
/// for a core, and under load that decides timeouts. Built-in bots are not limited, so only runs
/// with a process bot are warned.
fn oversubscription_warning(
    jobs: usize,
    seats: usize,
    cores: usize,
    entrants: &[Entrant],
) -> Option<String> {
    let processes = entrants.iter().any(|e| matches!(e, Entrant::Command(_)));
    (processes && jobs * seats > cores).then(|| {
        format!(
            "warning: {jobs} jobs x {seats} seats = {} bots may think at once on {cores} cores; \
             a bot's time can include waiting for a core (fewer --jobs, or --time-margin MS)",
            jobs * seats
        )
    })
}

/// Prints the report; a reader that closed the pipe early is not an error here, so that the
/// exit code still tells about failed matches.
fn print_final_report(store: &Store, key: &str, format: ReportFormat) -> Result<()> {
    match print_report(store, key, format) {
        Err(e) if crate::is_broken_pipe(&e) => Ok(()),
        result => result,
    }
}

pub fn run_arena(args: ArenaArgs) -> Result<ExitCode> {
    let prepared = prepare(&args.game, &args.bots, args.games, "arena", &args.run)?;
    if let Some(referee) = &args.run.compare_referee {
        return compare_referees(&prepared.tournament, referee, &args.run);
    }
    let schedule = &prepared.tournament.schedule;
    if let Some(note) = rounding_note(args.games, schedule) {
        errln!("{note}");
    }
    let mut store = Store::open_with_journal(&prepared.db, prepared.journal)?;
    let run_id = store.ensure_run(&prepared.run, &prepared.bots)?;
    let wanted: BTreeSet<u64> = match prepared.shard {
        Some((k, n)) => schedule.shard(k, n).collect(),
        None => (0..schedule.n_matches()).collect(),
    };
    let stored = store.matches(run_id)?;
    let done: BTreeSet<u64> = stored.iter().map(|m| m.match_idx).collect();
    let todo: Vec<u64> = wanted.difference(&done).copied().collect();
    if todo.is_empty() && !wanted.is_empty() && !prepared.quiet {
        errln!(
            "{}",
            already_complete(run_id, prepared.shard, wanted.len(), "report")
        );
    }
    let stop = stop_flag();
    let mut progress = Progress::new(
        "arena",
        wanted.len() as u64,
        (wanted.len() - todo.len()) as u64,
        prepared.quiet,
    );
    let names = prepared.bots.iter().map(|b| b.name.clone()).collect();
    let mut live = LiveScore::new(names, schedule.group_size());
    stored.iter().for_each(|m| live.add(m));
    let mut watch = RefereeWatch::default();
    let counts = prepared
        .tournament
        .run(&Catalog, &mut store, run_id, &todo, &stop, |played| {
            match played {
                Played::Finished(record) => {
                    progress.inc();
                    live.add(record);
                }
                Played::RefereeFailed(error) => progress.referee_failed(error),
                Played::Interrupted(error) => progress.interrupted(error),
            }
            if watch.record(played) {
                stop.store(true, Ordering::SeqCst);
            }
            progress.update(live.message());
        })?;
    progress.finish();
    warn_dropped_data(&counts.data_warnings);
    store.verify_still_intact()?;
    watch.give_up()?;
    if stop.load(Ordering::SeqCst) {
        return Ok(interrupted(&prepared.db));
    }
    print_final_report(&store, &prepared.run.key, args.format)?;
    referee_error_exit(&store, run_id, &wanted)
}

/// Said when a run (or shard) is run again with every match already stored, so that the report
/// that follows is not taken for a new one.
fn already_complete(run_id: i64, shard: Option<(u64, u64)>, matches: usize, what: &str) -> String {
    let run = match shard {
        Some((k, n)) => format!("shard {k}/{n} of run {run_id}"),
        None => format!("run {run_id}"),
    };
    format!("{run} is already complete ({matches} matches): nothing to play; the {what} follows")
}

/// `--compare-referee`: every scheduled match through both referees, differences printed.
fn compare_referees(native: &Tournament, referee: &str, flags: &RunFlags) -> Result<ExitCode> {
    let league = native.template.league;
    // Nothing is kept or stored: the comparison is its printed lines.
    let copy = |entrants: Vec<Entrant>, external: Option<String>| -> Result<Tournament> {
        Ok(Tournament {
            template: native.template.clone(),
            entrants,
            labels: native.labels.clone(),
            schedule: native.schedule.clone(),
            jobs: 1,
            options: native.options,
            limits: native.limits,
            keep_replays: KeepReplays::None,
            replay_dir: native.replay_dir.clone(),
            external_referee: external,
            external_args: referee_args_template(&flags.referee_args, league)?,
            external_timeout: native.external_timeout,
        })
    };
    let ours = copy(native.entrants.clone(), None)?;
    let game_slug = native.template.game.clone();
    let as_processes = native
        .entrants
        .iter()
        .map(|e| builtin_as_process(e, &game_slug, league))
        .collect::<Result<Vec<_>>>()?;
    let theirs = copy(as_processes, Some(referee.to_string()))?;
    let stop = stop_flag();
    let (mut agree, mut differ) = (0, 0);
    for index in 0..native.schedule.n_matches() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let m = native.schedule.get(index);
        let scores = |played: Played| match played {
            Played::Finished(record) => Ok(record.scores),
            Played::RefereeFailed(e) | Played::Interrupted(e) => Err(e.reason),
        };
        let a = scores(ours.play_one(&Catalog, &m)?);
        let b = scores(theirs.play_one(&Catalog, &m)?);
        if matches!((&a, &b), (Ok(a), Ok(b)) if a == b) {
            agree += 1;
            continue;
        }
        differ += 1;
        outln!(
            "match {index} (seed {}, seats {:?}): realm {} vs referee {}",
            m.seed,
            m.seats,
            shown_scores(&a),
            shown_scores(&b)
        )?;
    }
    outln!(
        "{agree} of {} matches agree between realm's referee and `{referee}`",
        agree + differ
    )?;
    Ok(if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

fn shown_scores(scores: &std::result::Result<Vec<i64>, String>) -> String {
    match scores {
        Ok(scores) => format!("{scores:?}"),
        Err(reason) => format!("failed ({reason})"),
    }
}

/// The largest |elo0|, |elo1| of `realm sprt`, in normalized Elo: at 1000 a pair of games is
/// won by four standard deviations of its score above even; beyond that the maximum-likelihood
/// distributions of two hypotheses barely differ (and past about 3000 they are not found), so
/// the test would play on without deciding.
const MAX_SPRT_ELO: f64 = 1000.0;

/// Refuses Elo bounds the test cannot decide between.
fn check_elo_bounds(elo0: f64, elo1: f64) -> Result<()> {
    for (flag, elo) in [("--elo0", elo0), ("--elo1", elo1)] {
        if !(-MAX_SPRT_ELO..=MAX_SPRT_ELO).contains(&elo) {
            bail!(
                "{flag} must be between -{MAX_SPRT_ELO} and {MAX_SPRT_ELO} (normalized Elo), \
                 not {elo}"
            );
        }
    }
    if elo0 >= elo1 {
        bail!("--elo0 must be less than --elo1, not {elo0} against {elo1}");
    }
    Ok(())
}

pub fn run_sprt(args: SprtArgs) -> Result<ExitCode> {
    check_elo_bounds(args.elo0, args.elo1)?;
    let sprt = Sprt::new(SprtConfig {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        model: SprtModel::Normalized,
    })?;
    let bots = [args.candidate.clone(), args.baseline.clone()];
    let prepared = prepare(&args.game, &bots, args.max_games, "sprt", &args.run)?;
    if prepared.tournament.schedule.n_seats != 2 {
        bail!("sprt compares two bots in two-player matches");
    }
    let mut store = Store::open_with_journal(&prepared.db, prepared.journal)?;
    let run_id = store.ensure_run(&prepared.run, &prepared.bots)?;
    let stop = stop_flag();
    let schedule = &prepared.tournament.schedule;
    let group_size = schedule.group_size();
    let batch_groups = (prepared.tournament.jobs as u64 * 2).max(2);
    let total_groups = schedule.n_groups();
    let mut records = store.matches(run_id)?;
    let mut progress = Progress::new(
        "sprt",
        schedule.n_matches(),
        records.len() as u64,
        prepared.quiet,
    );
    let mut watch = RefereeWatch::default();
    let mut next_group = 0;
    let mut played_any = false;
    let status = loop {
        let head = HeadToHead::from_matches(&records, group_size);
        let status = sprt.status_pentanomial(&head.pentanomial()).ok();
        progress.update(sprt_message(&head, status.as_ref()));
        if status
            .as_ref()
            .is_some_and(|s| s.decision != SprtDecision::Continue)
        {
            break status;
        }
        if next_group >= total_groups || stop.load(Ordering::SeqCst) {
            break status;
        }
        let groups = next_group..(next_group + batch_groups).min(total_groups);
        next_group = groups.end;
        let done: BTreeSet<u64> = records.iter().map(|m| m.match_idx).collect();
        let todo: Vec<u64> = groups
            .flat_map(|g| g * group_size..(g + 1) * group_size)
            .filter(|i| !done.contains(i))
            .collect();
        played_any |= !todo.is_empty();
        prepared
            .tournament
            .run(&Catalog, &mut store, run_id, &todo, &stop, |played| {
                match played {
                    Played::Finished(record) => {
                        progress.inc();
                        records.push((**record).clone());
                    }
                    Played::RefereeFailed(error) => progress.referee_failed(error),
                    Played::Interrupted(error) => progress.interrupted(error),
                }
                if watch.record(played) {
                    stop.store(true, Ordering::SeqCst);
                }
            })?;
    };
    progress.finish();
    store.verify_still_intact()?;
    watch.give_up()?;
    if stop.load(Ordering::SeqCst) {
        return Ok(interrupted(&prepared.db));
    }
    if !played_any && !records.is_empty() && !prepared.quiet {
        errln!(
            "{}",
            already_complete(run_id, None, records.len(), "result")
        );
    }
    let head = HeadToHead::from_matches(&records, group_size);
    if let Some(s) = status
        .as_ref()
        .filter(|s| s.decision != SprtDecision::Continue)
    {
        let verdict = SprtVerdict {
            decision: if s.decision == SprtDecision::AcceptH1 {
                "H1"
            } else {
                "H0"
            }
            .into(),
            games: records.len() as u64,
            llr: s.llr,
            lower: s.lower,
            upper: s.upper,
            elo0: args.elo0,
            elo1: args.elo1,
            alpha: args.alpha,
            beta: args.beta,
        };
        store.set_verdict(run_id, &serde_json::to_string(&verdict)?)?;
    }
    let printed = print_sprt_result(
        &args,
        &bots,
        &records,
        &head,
        status.as_ref(),
        (run_id, &prepared.db),
    );
    match printed {
        Err(e) if crate::is_broken_pipe(&e) => {}
        result => result?,
    }
    let wanted = (0..prepared.tournament.schedule.n_matches()).collect();
    referee_error_exit(&store, run_id, &wanted)
}

/// The live SPRT line: score, Elo and the LLR against its bounds.
fn sprt_message(head: &HeadToHead, status: Option<&SprtStatus>) -> String {
    let w = head.wdl;
    let mut msg = format!(
        "{}-{}-{}  Elo {}",
        w.wins,
        w.draws,
        w.losses,
        elo_text(&w, head.elo_pentanomial.as_ref().or(head.elo.as_ref()))
    );
    if let Some(s) = status {
        msg.push_str(&format!(
            "  LLR {:.2} [{:.2}, {:.2}]",
            s.llr, s.lower, s.upper
        ));
    }
    msg
}

fn print_sprt_result(
    args: &SprtArgs,
    bots: &[String; 2],
    records: &[realm_store::MatchRecord],
    head: &HeadToHead,
    status: Option<&SprtStatus>,
    (run_id, db): (i64, &std::path::Path),
) -> Result<()> {
    outln!(
        "SPRT {} vs {}: elo0 {} elo1 {} alpha {} beta {}",
        bots[0],
        bots[1],
        args.elo0,
        args.elo1,
        args.alpha,
        args.beta
    )?;
    outln!(
        "games {}  W-D-L {}-{}-{}  pentanomial {:?}",
        records.len(),
        head.wdl.wins,
        head.wdl.draws,
        head.wdl.losses,
        head.pentanomial
    )?;
    let estimate = head.elo_pentanomial.as_ref().or(head.elo.as_ref());
    let los = estimate
        .map(|e| format!(", LOS {:.1}%", e.los * 100.0))
        .unwrap_or_default();
    outln!("Elo {}{los}", elo_text(&head.wdl, estimate))?;
    match status {
        Some(s) => {
            outln!("LLR {:.3} (bounds {:.3}, {:.3})", s.llr, s.lower, s.upper)?;
            let verdict = match s.decision {
                SprtDecision::AcceptH1 => "H1 accepted: the candidate is stronger",
                SprtDecision::AcceptH0 => "H0 accepted: the candidate is not stronger",
                SprtDecision::Continue => "no decision within --max-games",
            };
            outln!("{verdict}")?;
        }
        None => outln!("no decision: not enough games to compute the LLR")?,
    }
    outln!("run {run_id} stored in {}", db.display())?;
    Ok(())
}

/// Says which bot data values stored matches left out (numbers that are not finite), the first
/// few in full.
pub(crate) fn warn_dropped_data(warnings: &[String]) {
    const SHOWN: usize = 5;
    for warning in warnings.iter().take(SHOWN) {
        errln!("warning: {warning}");
    }
    if warnings.len() > SHOWN {
        errln!(
            "warning: {} more bot data values dropped (not finite numbers)",
            warnings.len() - SHOWN
        );
    }
}

pub(crate) fn short_hash(text: &str) -> String {
    // FNV-1a: a stable, dependency-free digest; the key only needs to tell configurations apart.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

pub(crate) fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil-date algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (era * 400 + yoe + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }

    #[test]
    fn a_changed_match_count_is_explained() {
        let whole = Schedule::new(3, 2, 100, 1, false);
        assert_eq!(
            rounding_note(100, &whole).unwrap(),
            "note: --games 100 rounded up to 102: whole cycles of 6 matches (every pairing in \
             every seat order), so every bot plays as often in every seat"
        );
        assert_eq!(rounding_note(102, &whole), None);
        let short = Schedule::new(6, 2, 5, 1, false);
        assert_eq!(
            rounding_note(5, &short).unwrap(),
            "note: --games 5 rounded up to 6 (whole seat rotations); a full cycle of every \
             pairing is 30 matches, so bots play slightly different numbers of games"
        );
    }

    #[test]
    fn shards_are_checked() {
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("x").is_err());
    }
}
