//! Many matches in parallel into the results store. Workers take scheduled matches in index
//! order, play them (natively through a `GameCatalog`, or through an external CodinGame-style
//! referee process) and hand the records to the calling thread, which alone writes the store.
//!
//! **Invariant**: a match is stored only when it ran to its natural end; a match interrupted by
//! a stop request is dropped, and one whose external referee failed is recorded apart as a match
//! error (never as a result); both are played again when the run resumes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use realm_core::{Bot, MatchSpec, Referee, Replay, ReplayPlayer, SetupError, SplitMix64};
use realm_store::{MatchErrorRecord, MatchRecord, Store, StoreError};

use crate::entrant::Entrant;
use crate::process::{BotProcess, OutputLimits};
use crate::runner::{run_match, MatchOptions, MatchResult};
use crate::schedule::{Schedule, ScheduledMatch};
use crate::seat::Seat;

/// What the arena needs from the games: a referee for a spec and built-in bots by name.
pub trait GameCatalog: Sync {
    fn referee(&self, spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError>;
    /// A built-in bot for a seat of a match of `spec` (its game and league), with its own seed.
    fn builtin_bot(
        &self,
        spec: &MatchSpec,
        name: &str,
        seed: u64,
    ) -> Result<Box<dyn Bot>, SetupError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot start bot `{command}`: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("cannot write replay {path}: {source}")]
    Replay {
        path: String,
        source: std::io::Error,
    },
}

/// Which replays a tournament writes to disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeepReplays {
    All,
    Faults,
    None,
}

/// In a player command sent to an external referee, the seat's `bot_seed`: built-in bots go
/// there as `realm bot GAME NAME --seed {BOT_SEED}`, so they play as they would in-process.
pub const BOT_SEED: &str = "{BOT_SEED}";

/// The seed of a built-in bot's own randomness: distinct per seat, fixed by the match seed.
pub fn bot_seed(match_seed: u64, seat: usize) -> u64 {
    SplitMix64::new(match_seed ^ (seat as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// Starts the seats of one match: built-in bots in-process, anything else as a process.
pub fn make_seats(
    catalog: &dyn GameCatalog,
    spec: &MatchSpec,
    entrants: &[&Entrant],
    limits: OutputLimits,
) -> Result<Vec<Seat>, ArenaError> {
    entrants
        .iter()
        .enumerate()
        .map(|(seat, entrant)| make_seat(catalog, spec, seat, entrant, limits))
        .collect()
}

/// Starts seat `seat` of a match, a built-in bot seeded by match seed and seat.
pub fn make_seat(
    catalog: &dyn GameCatalog,
    spec: &MatchSpec,
    seat: usize,
    entrant: &Entrant,
    limits: OutputLimits,
) -> Result<Seat, ArenaError> {
    match entrant {
        Entrant::Builtin(name) => Ok(Seat::builtin(catalog.builtin_bot(
            spec,
            name,
            bot_seed(spec.seed, seat),
        )?)),
        Entrant::Command(cmd) => {
            BotProcess::spawn(cmd, limits)
                .map(Seat::process)
                .map_err(|source| ArenaError::Spawn {
                    command: cmd.clone(),
                    source,
                })
        }
    }
}

/// A tournament's fixed configuration.
pub struct Tournament {
    /// Game, variant, league, seats and options; the seed comes from the schedule.
    pub template: MatchSpec,
    pub entrants: Vec<Entrant>,
    pub labels: Vec<String>,
    pub schedule: Schedule,
    pub jobs: usize,
    pub options: MatchOptions,
    pub limits: OutputLimits,
    pub keep_replays: KeepReplays,
    pub replay_dir: PathBuf,
    /// An external referee command; it prints one score per player on stdout.
    pub external_referee: Option<String>,
    /// Its arguments, a template: `{PLAYERS}` (`-p1 CMD -p2 CMD ...`), `{P1}`...`{P8}` (one
    /// command each), `{SEED}`, `{PARAMS}` (the `-d` value of `game_parameters`), every value
    /// shell-quoted. The CodinGame SDK's form is `{PLAYERS} -d {PARAMS}`.
    pub external_args: String,
    /// Wall-clock cap of one external-referee match.
    pub external_timeout: Duration,
}

impl Tournament {
    /// Plays scheduled match `m` to its end.
    pub fn play_one(
        &self,
        catalog: &dyn GameCatalog,
        m: &ScheduledMatch,
    ) -> Result<Played, ArenaError> {
        self.play_noting(catalog, m).map(|(played, _)| played)
    }

    /// `play_one`, with a line for each bot data value dropped from the record (see `BotData`).
    fn play_noting(
        &self,
        catalog: &dyn GameCatalog,
        m: &ScheduledMatch,
    ) -> Result<(Played, Vec<String>), ArenaError> {
        if let Some(referee) = &self.external_referee {
            return Ok((self.play_external(referee, m), Vec::new()));
        }
        let started = Instant::now();
        let mut spec = self.template.clone();
        spec.seed = m.seed;
        let referee = catalog.referee(&spec)?;
        let entrants: Vec<&Entrant> = m.seats.iter().map(|&e| &self.entrants[e]).collect();
        let seats = make_seats(catalog, &spec, &entrants, self.limits)?;
        let players = m
            .seats
            .iter()
            .map(|&e| ReplayPlayer {
                name: self.labels[e].clone(),
                command: self.entrants[e].command(),
            })
            .collect();
        let result = run_match(&spec, players, referee, seats, self.options);
        let duration_ms = started.elapsed().as_millis() as u64;
        if let Some((seat, signal)) = result.interrupted {
            // Killed from outside (a cluster's scancel or time limit signals every process of
            // the job, and a bot may die before realm handles its own signal): no result and no
            // replay, so the match is played again on resume.
            return Ok((
                Played::Interrupted(MatchErrorRecord {
                    match_idx: m.index,
                    seed: m.seed,
                    seats: m.seats.clone(),
                    reason: format!(
                        "the bot in seat {seat} was killed by {signal}, which realm takes as an \
                         interruption: not a result"
                    ),
                }),
                Vec::new(),
            ));
        }
        let replay_path = self.keep_replay(m, &result.replay)?;
        let (record, dropped) = record_of(m, &result, duration_ms, replay_path);
        let warnings = dropped
            .into_iter()
            .map(|(seat, why)| {
                let label = &self.labels[m.seats[seat]];
                format!("match {}, bot `{label}`: {why}; dropped", m.index)
            })
            .collect();
        Ok((Played::Finished(Box::new(record)), warnings))
    }

    fn keep_replay(
        &self,
        m: &ScheduledMatch,
        replay: &Replay,
    ) -> Result<Option<String>, ArenaError> {
        let faulted = replay.outcome.faults.iter().any(Option::is_some);
        let keep = match self.keep_replays {
            KeepReplays::All => true,
            KeepReplays::Faults => faulted,
            KeepReplays::None => false,
        };
        if !keep {
            return Ok(None);
        }
        let path = self.replay_dir.join(format!("match-{:06}.json", m.index));
        // Written under a pending name; `run` renames it into place when the match is stored
        // and removes it when the match is dropped, so no replay shows an unstored match.
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&self.replay_dir)?;
            let json = serde_json::to_vec_pretty(replay).map_err(std::io::Error::other)?;
            crate::files::write_atomically(&pending_replay(&path), &json)
        };
        write().map_err(|source| ArenaError::Replay {
            path: path.display().to_string(),
            source,
        })?;
        Ok(Some(path.display().to_string()))
    }

    /// Plays match `m` through the external referee: its command line gets the seats as
    /// `-p1 CMD -p2 CMD ...` and the game parameters as `-d`, and it must print one score per
    /// player. A referee that fails gives no result (`Played::RefereeFailed`).
    fn play_external(&self, referee: &str, m: &ScheduledMatch) -> Played {
        let started = Instant::now();
        let seed = m.seed;
        let command = format!("{referee} {}", self.external_arguments(&m.seats, seed));
        let n = m.seats.len();
        // Any number of lines may come before the scores; the byte cap still holds.
        let limits = OutputLimits {
            max_pending_lines: usize::MAX,
            ..self.limits
        };
        let scores = match BotProcess::spawn(&command, limits) {
            Ok(mut process) => read_scores(&mut process, n, self.external_timeout),
            Err(e) => Err(format!("cannot start the referee: {e}")),
        };
        let scores = match scores {
            Ok(scores) => scores,
            Err(reason) => {
                return Played::RefereeFailed(MatchErrorRecord {
                    match_idx: m.index,
                    seed,
                    seats: m.seats.clone(),
                    reason,
                })
            }
        };
        // A negative score is a loss with that score (an SDK referee gives -1 to a player whose
        // HQ fell as well as to one that crashed): the referee tells no faults realm could read.
        let faults = vec![None; n];
        Played::Finished(Box::new(MatchRecord {
            match_idx: m.index,
            seed,
            seats: m.seats.clone(),
            ranks: realm_core::ranks_from_keys(&scores),
            scores,
            end_reason: "finished".to_string(),
            detail: String::new(),
            faults,
            n_calls: 0,
            duration_ms: started.elapsed().as_millis() as u64,
            replay_path: None,
            times_us: vec![Vec::new(); n],
            data: vec![BTreeMap::new(); n],
            late_calls: vec![0; n],
        }))
    }

    /// The external referee's arguments for a match: `external_args` with its placeholders
    /// filled in.
    fn external_arguments(&self, seats: &[usize], seed: u64) -> String {
        let commands: Vec<String> = seats
            .iter()
            .enumerate()
            .map(|(seat, &e)| {
                let command = self.entrants[e].command();
                shell_quote(&command.replace(BOT_SEED, &bot_seed(seed, seat).to_string()))
            })
            .collect();
        let players: Vec<String> = commands
            .iter()
            .enumerate()
            .map(|(i, c)| format!("-p{} {c}", i + 1))
            .collect();
        let mut args = self
            .external_args
            .replace("{PLAYERS}", &players.join(" "))
            .replace("{SEED}", &seed.to_string())
            .replace(
                "{PARAMS}",
                &shell_quote(&game_parameters(&self.template, seed)),
            );
        for (i, command) in commands.iter().enumerate() {
            args = args.replace(&format!("{{P{}}}", i + 1), command);
        }
        args
    }

    /// Plays the matches `indices` with `jobs` workers and stores each as it finishes (a failed
    /// one as a match error), calling `on_played` after each. When `stop` becomes true, no new
    /// match starts and results still arriving are dropped (they will be replayed on resume).
    pub fn run(
        &self,
        catalog: &dyn GameCatalog,
        store: &mut Store,
        run_id: i64,
        indices: &[u64],
        stop: &AtomicBool,
        on_played: impl FnMut(&Played),
    ) -> Result<RunCounts, ArenaError> {
        let next = AtomicUsize::new(0);
        let next_match = || {
            let i = next.fetch_add(1, Ordering::SeqCst);
            indices.get(i).map(|&index| self.schedule.get(index))
        };
        self.run_with(catalog, store, run_id, &next_match, stop, on_played)
    }

    /// `run` with the matches chosen as the run goes: each worker asks `next_match` for its
    /// next match and stops at `None` (a league's matchmaker decides from the results so far).
    pub fn run_with(
        &self,
        catalog: &dyn GameCatalog,
        store: &mut Store,
        run_id: i64,
        next_match: &(dyn Fn() -> Option<ScheduledMatch> + Sync),
        stop: &AtomicBool,
        mut on_played: impl FnMut(&Played),
    ) -> Result<RunCounts, ArenaError> {
        let (tx, rx) = mpsc::channel::<Result<(Played, Vec<String>), ArenaError>>();
        thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                let tx = tx.clone();
                scope.spawn(move || loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Some(m) = next_match() else { return };
                    let result = self.play_noting(catalog, &m);
                    if tx.send(result).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            let mut counts = RunCounts::default();
            for result in rx {
                if stop.load(Ordering::SeqCst) {
                    if let Ok((Played::Finished(record), _)) = &result {
                        discard_pending_replay(record);
                    }
                    continue;
                }
                let (played, warnings) = match result {
                    Ok(noted) => noted,
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        return Err(e);
                    }
                };
                match &played {
                    Played::Finished(record) => {
                        publish_pending_replay(record)?;
                        counts.stored +=
                            store.insert_matches(run_id, std::slice::from_ref(record))?;
                        counts.data_warnings.extend(warnings);
                    }
                    Played::RefereeFailed(error) => {
                        store.record_match_error(run_id, error)?;
                        counts.referee_errors += 1;
                    }
                    Played::Interrupted(error) => {
                        store.record_match_error(run_id, error)?;
                        counts.interrupted += 1;
                    }
                }
                on_played(&played);
            }
            Ok(counts)
        })
    }
}

/// What became of one scheduled match.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// The match ran to its end: a result.
    Finished(Box<MatchRecord>),
    /// The external referee crashed, hung or printed no scores: not a result, never counted in
    /// any statistic, and played again when the run resumes.
    RefereeFailed(MatchErrorRecord),
    /// A bot was killed by a signal realm takes as an interruption (SIGINT, SIGTERM, SIGHUP):
    /// recorded apart like a referee failure, never a result, played again on resume.
    Interrupted(MatchErrorRecord),
}

/// Where a kept replay waits until its match is stored.
fn pending_replay(path: &std::path::Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".pending");
    PathBuf::from(name)
}

/// Moves a stored match's replay from its pending name into place.
fn publish_pending_replay(record: &MatchRecord) -> Result<(), ArenaError> {
    let Some(path) = &record.replay_path else {
        return Ok(());
    };
    let path = std::path::Path::new(path);
    std::fs::rename(pending_replay(path), path).map_err(|source| ArenaError::Replay {
        path: path.display().to_string(),
        source,
    })
}

/// Removes the pending replay of a match that is dropped (it will be played again).
fn discard_pending_replay(record: &MatchRecord) {
    if let Some(path) = &record.replay_path {
        let _ = std::fs::remove_file(pending_replay(std::path::Path::new(path)));
    }
}

/// What one `Tournament::run` call did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// Matches newly stored (a match another process stored first is not counted).
    pub stored: usize,
    /// Matches whose external referee failed.
    pub referee_errors: usize,
    /// Matches a bot's interruption signal left without a result.
    pub interrupted: usize,
    /// One line per bot data value dropped from a stored match (see `BotData`).
    pub data_warnings: Vec<String>,
}

/// The `-d` value for an external referee: `seed=N`, then `league=L`, `variant=V` and every game
/// option as `KEY=VALUE`, one per line. CodinGame SDK referees read it as Java `Properties`
/// (one entry per line); `realm referee` accepts lines, commas or spaces between entries.
pub fn game_parameters(template: &MatchSpec, seed: u64) -> String {
    game_parameter_list(template, seed).join("\n")
}

/// The entries of `game_parameters`, one `KEY=VALUE` each (`realm referee` prints them too).
pub fn game_parameter_list(template: &MatchSpec, seed: u64) -> Vec<String> {
    let mut params = vec![format!("seed={seed}")];
    if let Some(league) = template.league {
        params.push(format!("league={league}"));
    }
    if let Some(variant) = &template.variant {
        params.push(format!("variant={variant}"));
    }
    params.extend(template.options.iter().map(|(k, v)| format!("{k}={v}")));
    params
}

/// How long a referee that printed its scores may take to exit by itself (to finish writing
/// its log, say) before it is killed.
const REFEREE_EXIT_GRACE: Duration = Duration::from_secs(5);

/// Reads one score per player from an external referee, as cg-brutaltester does: integers
/// separated by whitespace, on one line or several; a line that does not start with the next
/// integer (a message before the scores) is skipped; output after the scores is read and
/// ignored until the referee exits (briefly: see `REFEREE_EXIT_GRACE`).
fn read_scores(process: &mut BotProcess, n: usize, timeout: Duration) -> Result<Vec<i64>, String> {
    let deadline = Instant::now() + timeout;
    let mut scanner = ScoreScanner::new(n);
    while !scanner.is_complete() {
        let left = deadline.saturating_duration_since(Instant::now());
        let report = process.call(&[], 1, Some(left));
        scanner.note_stderr(&report.stderr);
        match report.answer {
            Ok(lines) => lines.iter().for_each(|line| scanner.feed(line)),
            Err((kind, detail)) => {
                let what = match kind {
                    realm_core::FaultKind::Timeout => {
                        return Err(scanner.failure(&format!(
                            "printed {} of {n} scores within {} s",
                            scanner.scores.len(),
                            timeout.as_secs_f64()
                        )))
                    }
                    realm_core::FaultKind::OutputFlood => "flooded its output".to_string(),
                    // `exited (exit status: 1) after ...; last stderr line: ...`: the exit, and
                    // the stderr line comes from the scanner.
                    _ => detail
                        .split(';')
                        .next()
                        .and_then(|d| d.split(" after ").next())
                        .unwrap_or(&detail)
                        .to_string(),
                };
                return Err(scanner.failure(&format!(
                    "{what} after {} of {n} scores",
                    scanner.scores.len()
                )));
            }
        }
    }
    let grace_end = deadline.min(Instant::now() + REFEREE_EXIT_GRACE);
    loop {
        let left = grace_end.saturating_duration_since(Instant::now());
        if left.is_zero() || process.call(&[], 1, Some(left)).answer.is_err() {
            return Ok(scanner.scores);
        }
    }
}

/// cg-brutaltester's reading of referee output (`Scanner.hasNextInt`, skipping a line otherwise).
#[derive(Debug)]
struct ScoreScanner {
    wanted: usize,
    scores: Vec<i64>,
    /// The first line that was not scores, for the error message.
    first_skipped: Option<String>,
    /// The referee's last stderr line so far, for the error message.
    last_stderr: Option<String>,
}

impl ScoreScanner {
    fn new(wanted: usize) -> Self {
        ScoreScanner {
            wanted,
            scores: Vec::with_capacity(wanted),
            first_skipped: None,
            last_stderr: None,
        }
    }

    fn note_stderr(&mut self, stderr: &str) {
        if let Some(line) = stderr.lines().rev().find(|l| !l.trim().is_empty()) {
            self.last_stderr = Some(line.trim().to_string());
        }
    }

    fn is_complete(&self) -> bool {
        self.scores.len() == self.wanted
    }

    fn feed(&mut self, line: &str) {
        for token in line.split_whitespace() {
            if self.is_complete() {
                return;
            }
            match token.parse::<i64>() {
                Ok(score) => self.scores.push(score),
                Err(_) => {
                    self.first_skipped.get_or_insert_with(|| line.to_string());
                    return;
                }
            }
        }
    }

    /// Why the referee gave no result: what happened, then what it printed instead of scores
    /// and its last stderr line.
    fn failure(&self, what: &str) -> String {
        let shown = |line: &str| line.chars().take(120).collect::<String>();
        let mut reason = format!("referee {what}");
        if let Some(line) = &self.first_skipped {
            reason.push_str(&format!("; it printed {:?}", shown(line)));
        }
        if let Some(line) = &self.last_stderr {
            reason.push_str(&format!("; last stderr line: {}", shown(line)));
        }
        reason
    }
}

/// The store's record of a finished native match, and the bot data values it leaves out (seat
/// and why).
fn record_of(
    m: &ScheduledMatch,
    result: &MatchResult,
    duration_ms: u64,
    replay_path: Option<String>,
) -> (MatchRecord, Vec<(usize, String)>) {
    let outcome = &result.replay.outcome;
    let n = m.seats.len();
    let mut times_us = vec![Vec::new(); n];
    for &(player, us) in &result.response_times {
        times_us[player].push(us);
    }
    let mut data: Vec<BotData> = (0..n).map(|_| BotData::default()).collect();
    for turn in &result.replay.turns {
        data[turn.player].collect(&turn.stderr);
    }
    let dropped = data
        .iter_mut()
        .enumerate()
        .flat_map(|(seat, d)| d.dropped.drain(..).map(move |why| (seat, why)))
        .collect();
    let record = MatchRecord {
        match_idx: m.index,
        seed: m.seed,
        seats: m.seats.clone(),
        scores: outcome.scores.clone(),
        ranks: outcome.ranks.clone(),
        end_reason: outcome.end.code().to_string(),
        detail: outcome.detail.clone(),
        faults: outcome
            .faults
            .iter()
            .map(|f| {
                f.as_ref()
                    .map(|f| (f.kind.code().to_string(), f.detail.clone()))
            })
            .collect(),
        n_calls: result.replay.turns.len() as u64,
        duration_ms,
        replay_path,
        times_us,
        data: data.into_iter().map(|d| d.values).collect(),
        late_calls: result.late_calls.clone(),
    };
    (record, dropped)
}

/// Which psyleague/cgarena data line a stderr line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// `[TDATA] key = value`: about the test (the seed, the map), last value kept.
    Test,
    /// `[PDATA] key = value`: about the player, last value kept.
    Player,
    /// `[PDATA+] key = value`: about the player, values summed over the match.
    PlayerSum,
}

/// One `[TDATA]`/`[PDATA]`/`[PDATA+]` line: its kind, the turn of the per-turn form
/// (`[PDATA][12] gold = 40`, as cgarena charts them), its key and its (trimmed) value text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataLine<'a> {
    pub kind: DataKind,
    pub turn: Option<u32>,
    pub key: &'a str,
    pub value: &'a str,
}

/// Each data line's tag (`[PDATA+]` before `[PDATA]`, which it starts with).
const DATA_TAGS: [(&str, DataKind); 3] = [
    ("[TDATA]", DataKind::Test),
    ("[PDATA+]", DataKind::PlayerSum),
    ("[PDATA]", DataKind::Player),
];

impl DataKind {
    /// The tag that starts the line, `[PDATA+]` say.
    pub fn tag(self) -> &'static str {
        DATA_TAGS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(t, _)| t)
    }
}

/// Reads a data line; anything else is `None`.
pub fn parse_data_line(line: &str) -> Option<DataLine<'_>> {
    let line = line.trim();
    let (kind, rest) = DATA_TAGS
        .iter()
        .find_map(|(tag, kind)| line.strip_prefix(tag).map(|rest| (*kind, rest)))?;
    let (turn, rest) = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((digits, rest)) => (Some(digits.parse().ok()?), rest),
        None => (None, rest),
    };
    let (key, value) = rest.split_once('=')?;
    let key = key.trim();
    (!key.is_empty()).then_some(DataLine {
        kind,
        turn,
        key,
        value: value.trim(),
    })
}

/// `sum + value` for a `[PDATA+]` line, or `None` when the value is not a finite number or the
/// sum overflows: no finite number is then the true sum, and JSON (hence the store) has no
/// infinity.
pub fn add_to_data_sum(sum: f64, value: f64) -> Option<f64> {
    Some(sum + value).filter(|s| value.is_finite() && s.is_finite())
}

/// One seat's numeric bot data over a match, from its `[TDATA]`, `[PDATA]` and `[PDATA+]`
/// lines (the psyleague/cgarena convention): the last value of a key is kept, `[PDATA+]` values
/// are summed. Text values are not numbers and are skipped; a number that is not finite
/// (`1e999`, `inf`) is dropped, and so is a key whose sum overflows, for the rest of the match
/// (a sum restarted from zero would be wrong); `dropped` says why for each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotData {
    pub values: BTreeMap<String, f64>,
    /// One line per dropped value.
    pub dropped: Vec<String>,
    overflowed: BTreeSet<String>,
}

impl BotData {
    /// Adds the data lines of one call's stderr.
    pub fn collect(&mut self, stderr: &str) {
        stderr
            .lines()
            .filter_map(parse_data_line)
            .for_each(|line| self.add(line));
    }

    fn add(&mut self, line: DataLine) {
        let DataLine {
            kind, key, value, ..
        } = line;
        let Ok(v) = value.parse::<f64>() else {
            return;
        };
        if !v.is_finite() {
            let tag = kind.tag();
            self.dropped
                .push(format!("`{tag} {key} = {value}` is not a finite number"));
            return;
        }
        if kind != DataKind::PlayerSum {
            self.values.insert(key.to_string(), v);
            return;
        }
        if self.overflowed.contains(key) {
            return;
        }
        let sum = self.values.get(key).copied().unwrap_or(0.0);
        match add_to_data_sum(sum, v) {
            Some(sum) => {
                self.values.insert(key.to_string(), sum);
            }
            None => {
                self.values.remove(key);
                self.overflowed.insert(key.to_string());
                self.dropped
                    .push(format!("the `[PDATA+] {key}` sum overflowed"));
            }
        }
    }
}

/// Quotes `text` for `sh` with single quotes.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_data_lines_are_parsed() {
        let mut data = BotData::default();
        data.collect(
            "[TDATA] nodes = 120\nhello\n[PDATA] depth=3.5\n[TDATA] bad = x\n[TDATA] nodes = 130\n\
             [PDATA+] evals = 2\n[PDATA+] evals = 5\n",
        );
        assert_eq!(data.dropped, Vec::<String>::new());
        assert_eq!(
            data.values,
            BTreeMap::from([
                ("depth".into(), 3.5),
                ("evals".into(), 7.0),
                ("nodes".into(), 130.0)
            ])
        );
    }

    #[test]
    fn bot_data_that_is_not_finite_is_dropped_and_said() {
        let mut data = BotData::default();
        data.collect("[PDATA+] s = 1e308\n[PDATA] big = 1e999\n[PDATA+] t = 1\n");
        data.collect("[PDATA+] s = 1e308\n[TDATA] n = NaN\n[PDATA+] t = -inf\n");
        data.collect("[PDATA+] s = 1\n[PDATA] big = 2\n");
        assert_eq!(
            data.values,
            BTreeMap::from([("big".into(), 2.0), ("t".into(), 1.0)])
        );
        assert_eq!(
            data.dropped,
            [
                "`[PDATA] big = 1e999` is not a finite number",
                "the `[PDATA+] s` sum overflowed",
                "`[TDATA] n = NaN` is not a finite number",
                "`[PDATA+] t = -inf` is not a finite number",
            ]
        );
    }

    #[test]
    fn shell_quoting_survives_quotes() {
        assert_eq!(
            shell_quote("python3 'my bot.py'"),
            r"'python3 '\''my bot.py'\'''"
        );
    }

    #[test]
    fn referee_output_is_read_as_cg_brutaltester_reads_it() {
        let scan = |lines: &[&str], n| {
            let mut s = ScoreScanner::new(n);
            lines.iter().for_each(|l| s.feed(l));
            s.note_stderr("at Referee.main\n\n");
            (
                s.is_complete().then(|| s.scores.clone()),
                s.failure("exited"),
            )
        };
        assert_eq!(scan(&["12", "-1"], 2).0, Some(vec![12, -1]));
        assert_eq!(
            scan(&["Loading map", "WARN x 3", "7 9"], 2).0,
            Some(vec![7, 9])
        );
        assert_eq!(
            scan(&["5 oops 6", "8"], 2).0,
            Some(vec![5, 8]),
            "rest of a line skipped"
        );
        assert_eq!(scan(&["1", "2", "3", "tail"], 2).0, Some(vec![1, 2]));
        assert_eq!(
            scan(&["Exception in thread main", "3"], 2),
            (
                None,
                "referee exited; it printed \"Exception in thread main\"; last stderr line: \
                 at Referee.main"
                    .into()
            )
        );
        assert_eq!(scan(&["3.5", "1.0"], 2).0, None, "scores are integers");
    }

    #[test]
    fn external_referees_get_every_game_parameter() {
        let mut spec = MatchSpec::new("x", 2, 0);
        assert_eq!(game_parameters(&spec, 5), "seed=5");
        spec.league = Some(2);
        spec.variant = Some("duo".into());
        spec.options.insert("b".into(), "2".into());
        spec.options.insert("a".into(), "1".into());
        assert_eq!(
            game_parameters(&spec, 5),
            "seed=5\nleague=2\nvariant=duo\na=1\nb=2"
        );
    }

    #[test]
    fn bot_seeds_differ_per_seat_and_repeat_per_match() {
        assert_ne!(bot_seed(5, 0), bot_seed(5, 1));
        assert_eq!(bot_seed(5, 1), bot_seed(5, 1));
    }
}
