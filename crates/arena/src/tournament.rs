//! Many matches in parallel into the results store. Workers take scheduled matches in index
//! order, play them (natively through a `GameCatalog`, or through an external CodinGame-style
//! referee process) and hand the records to the calling thread, which alone writes the store.
//!
//! **Invariant**: a match is stored only when it ran to its natural end; a match interrupted by
//! a stop request is dropped and will be played again when the run resumes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use realm_core::{Bot, MatchSpec, Referee, Replay, ReplayPlayer, SetupError, SplitMix64};
use realm_store::{MatchRecord, Store, StoreError};

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
        .map(|(seat, entrant)| match entrant {
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
        })
        .collect()
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
    /// An external referee command following the CodinGame SDK command line
    /// (`-p1 CMD -p2 CMD -d seed=N`, one score per player on stdout).
    pub external_referee: Option<String>,
    /// Wall-clock cap of one external-referee match.
    pub external_timeout: Duration,
}

impl Tournament {
    /// Plays scheduled match `m` to its end.
    pub fn play_one(
        &self,
        catalog: &dyn GameCatalog,
        m: &ScheduledMatch,
    ) -> Result<MatchRecord, ArenaError> {
        if let Some(referee) = &self.external_referee {
            return Ok(self.play_external(referee, m));
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
        let replay_path = self.keep_replay(m, &result.replay)?;
        Ok(record_of(m, &result, duration_ms, replay_path))
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
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&self.replay_dir)?;
            let json = serde_json::to_vec_pretty(replay).map_err(std::io::Error::other)?;
            std::fs::write(&path, json)
        };
        write().map_err(|source| ArenaError::Replay {
            path: path.display().to_string(),
            source,
        })?;
        Ok(Some(path.display().to_string()))
    }

    fn play_external(&self, referee: &str, m: &ScheduledMatch) -> MatchRecord {
        let started = Instant::now();
        let mut command = referee.to_string();
        for (seat, &e) in m.seats.iter().enumerate() {
            command.push_str(&format!(
                " -p{} {}",
                seat + 1,
                shell_quote(&self.entrants[e].command())
            ));
        }
        command.push_str(&format!(" -d seed={}", m.seed as i64));
        let n = m.seats.len();
        let limits = OutputLimits {
            max_pending_lines: usize::MAX,
            ..self.limits
        };
        let answer = match BotProcess::spawn(&command, limits) {
            Ok(mut process) => process.call(&[], n, Some(self.external_timeout)).answer,
            Err(e) => Err((realm_core::FaultKind::Crashed, e.to_string())),
        };
        let scores: Result<Vec<i64>, String> = match answer {
            Ok(lines) => lines
                .iter()
                .map(|l| {
                    l.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("referee printed {l:?}, not a score"))
                })
                .collect(),
            Err((_, detail)) => Err(format!("referee failed: {detail}")),
        };
        let (scores, end_reason, detail, faults) = match scores {
            Ok(scores) => {
                let faults = scores
                    .iter()
                    .map(|&s| (s < 0).then(|| ("referee_fault".to_string(), format!("score {s}"))))
                    .collect();
                (scores, "finished".to_string(), String::new(), faults)
            }
            Err(reason) => (
                vec![0; n],
                "referee_error".to_string(),
                reason,
                vec![None; n],
            ),
        };
        MatchRecord {
            match_idx: m.index,
            seed: m.seed,
            seats: m.seats.clone(),
            ranks: realm_core::ranks_from_keys(&scores),
            scores,
            end_reason,
            detail,
            faults,
            n_calls: 0,
            duration_ms: started.elapsed().as_millis() as u64,
            replay_path: None,
            times_us: vec![Vec::new(); n],
            data: vec![BTreeMap::new(); n],
        }
    }

    /// Plays the matches `indices` with `jobs` workers and stores each as it finishes, calling
    /// `on_stored` after each. Returns how many were stored. When `stop` becomes true, no new
    /// match starts and results still arriving are dropped (they will be replayed on resume).
    pub fn run(
        &self,
        catalog: &dyn GameCatalog,
        store: &mut Store,
        run_id: i64,
        indices: &[u64],
        stop: &AtomicBool,
        mut on_stored: impl FnMut(&MatchRecord),
    ) -> Result<usize, ArenaError> {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Result<MatchRecord, ArenaError>>();
        thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                let tx = tx.clone();
                let next = &next;
                scope.spawn(move || loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&index) = indices.get(i) else { return };
                    let result = self.play_one(catalog, &self.schedule.get(index));
                    if tx.send(result).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            let mut stored = 0;
            for result in rx {
                if stop.load(Ordering::SeqCst) {
                    continue;
                }
                let record = match result {
                    Ok(record) => record,
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        return Err(e);
                    }
                };
                stored += store.insert_matches(run_id, std::slice::from_ref(&record))?;
                on_stored(&record);
            }
            Ok(stored)
        })
    }
}

/// The store's record of a finished native match.
fn record_of(
    m: &ScheduledMatch,
    result: &MatchResult,
    duration_ms: u64,
    replay_path: Option<String>,
) -> MatchRecord {
    let outcome = &result.replay.outcome;
    let n = m.seats.len();
    let mut times_us = vec![Vec::new(); n];
    for &(player, us) in &result.response_times {
        times_us[player].push(us);
    }
    let mut data = vec![BTreeMap::new(); n];
    for turn in &result.replay.turns {
        collect_bot_data(&turn.stderr, &mut data[turn.player]);
    }
    MatchRecord {
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
        data,
    }
}

/// Reads `[TDATA] key = value` and `[PDATA] key = value` lines (the psyleague/cgarena
/// convention); the last value of a key in a match is kept.
pub fn collect_bot_data(stderr: &str, into: &mut BTreeMap<String, f64>) {
    for line in stderr.lines() {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("[TDATA]")
            .or_else(|| line.strip_prefix("[PDATA]"))
        else {
            continue;
        };
        if let Some((key, value)) = rest.split_once('=') {
            if let Ok(v) = value.trim().parse::<f64>() {
                if v.is_finite() && !key.trim().is_empty() {
                    into.insert(key.trim().to_string(), v);
                }
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
        let mut data = BTreeMap::new();
        collect_bot_data(
            "[TDATA] nodes = 120\nhello\n[PDATA] depth=3.5\n[TDATA] bad = x\n[TDATA] nodes = 130\n",
            &mut data,
        );
        assert_eq!(
            data,
            BTreeMap::from([("depth".into(), 3.5), ("nodes".into(), 130.0)])
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
    fn bot_seeds_differ_per_seat_and_repeat_per_match() {
        assert_ne!(bot_seed(5, 0), bot_seed(5, 1));
        assert_eq!(bot_seed(5, 1), bot_seed(5, 1));
    }
}
