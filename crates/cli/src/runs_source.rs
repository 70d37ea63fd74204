//! The results store as the viewer's `RunSource`: runs, leaderboards with ratings, pairwise
//! records, the fault codes that occur, and filterable match lists paged by the viewer, read
//! fresh on every request.

use std::path::PathBuf;
use std::sync::Mutex;

use realm_arena::report::RunReport;
use realm_stats::{Placing, Tally};
use realm_store::{MatchRecord, RunRecord, Store};
use realm_viewer::{
    replay_neighbours_in, LeaderRow, MatchFilter, MatchRow, PairRecord, RunDetail, RunSource,
    RunSummary, SeatResult, SourceError,
};

pub struct StoreRuns {
    store: Mutex<Store>,
    /// Relative replay paths (stores written before paths were absolute) are relative to this.
    base_dir: PathBuf,
}

impl StoreRuns {
    pub fn new(store: Store, base_dir: PathBuf) -> StoreRuns {
        StoreRuns {
            store: Mutex::new(store),
            base_dir,
        }
    }

    fn with<T>(&self, f: impl FnOnce(&Store) -> Result<T, SourceError>) -> Result<T, SourceError> {
        let store = self
            .store
            .lock()
            .map_err(|_| "results store lock poisoned")?;
        f(&store)
    }
}

fn summary(store: &Store, run: &RunRecord) -> Result<RunSummary, SourceError> {
    let bots = store.run_bots(run.id)?;
    let done = store.done_matches(run.id)?.len() as u64;
    let mut game = run.game.clone();
    if let Some(v) = &run.variant {
        game.push_str(&format!(" {v}"));
    }
    if let Some(l) = run.league {
        game.push_str(&format!(" league {l}"));
    }
    // A league has no planned size and no end: its label names it and its status says so.
    let (label, planned, status) = if run.kind == "league" {
        let name = run.key.strip_prefix("league:").unwrap_or(&run.key);
        (
            format!("league {name} ({} bots)", bots.len()),
            0,
            "league".to_string(),
        )
    } else {
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        let label = format!("{} ({})", names.join(" vs "), run.kind);
        (label, run.n_matches, run_status(store, run, done)?)
    };
    Ok(RunSummary {
        id: run.id,
        label,
        game,
        started: run.created_at.clone(),
        n_bots: bots.len(),
        n_matches_done: done,
        n_matches_planned: planned,
        status,
    })
}

/// `done`, `incomplete`, an SPRT decision (`H1 accepted after 152 games`) for a run the test
/// stopped early, plus the count of matches an external referee failed, which are no results.
fn run_status(store: &Store, run: &RunRecord, done: u64) -> Result<String, SourceError> {
    let sprt = store
        .verdict(run.id)?
        .and_then(|v| serde_json::from_str::<realm_arena::report::SprtVerdict>(&v).ok());
    let mut status = match sprt {
        Some(v) => format!("{} accepted after {} games", v.decision, v.games),
        None if done >= run.n_matches => "done".into(),
        None => "incomplete".into(),
    };
    let failed = store.match_errors(run.id)?.len();
    if failed > 0 {
        status.push_str(&format!(", {failed} failed by the referee"));
    }
    Ok(status)
}

fn group_size(run: &RunRecord) -> u64 {
    serde_json::from_str::<serde_json::Value>(&run.config)
        .ok()
        .and_then(|c| c["group_size"].as_u64())
        .unwrap_or(2)
}

fn row_of(m: &MatchRecord, names: &[String], base_dir: &std::path::Path) -> MatchRow {
    MatchRow {
        id: m.match_idx as i64,
        seed: m.seed,
        seats: m
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &bot)| SeatResult {
                bot: names.get(bot).cloned().unwrap_or_default(),
                score: m.scores[seat],
                rank: m.ranks[seat],
                fault: m.faults.get(seat).cloned().flatten().map(|(code, _)| code),
            })
            .collect(),
        end: m.end_reason.clone(),
        turns: Some(m.n_calls as u32),
        duration_ms: Some(m.duration_ms),
        has_replay: m.replay_path.is_some(),
        replay_missing: m
            .replay_path
            .as_ref()
            .is_some_and(|p| !base_dir.join(p).is_file()),
    }
}

impl RunSource for StoreRuns {
    fn runs(&self) -> Result<Vec<RunSummary>, SourceError> {
        self.with(|store| {
            store
                .runs()?
                .iter()
                .map(|run| summary(store, run))
                .collect()
        })
    }

    fn run(&self, run_id: i64) -> Result<Option<RunDetail>, SourceError> {
        self.with(|store| {
            let Ok(run) = store.run(&run_id.to_string()) else {
                return Ok(None);
            };
            let bots = store.run_bots(run.id)?;
            let matches = store.matches(run.id)?;
            let report = RunReport::build(&run, &bots, &matches, group_size(&run));
            let mut tally = Tally::new(bots.len());
            for m in &matches {
                let placings: Vec<Placing> = m
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(seat, &bot)| Placing {
                        bot,
                        rank: m.ranks[seat],
                        score: m.scores[seat] as f64,
                    })
                    .collect();
                let _ = tally.add_match(&placings);
            }
            // Ratings: Elo difference for two bots, the batch fit for more.
            let ratings: Vec<Option<(f64, f64)>> =
                match (&report.head_to_head, report.batch_fit.is_empty()) {
                    (Some(h), _) => {
                        let e = h.elo_pentanomial.as_ref().or(h.elo.as_ref());
                        vec![
                            e.map(|e| (e.elo, e.elo_error)),
                            e.map(|e| (-e.elo, e.elo_error)),
                        ]
                    }
                    (None, false) => {
                        let mut r = vec![None; bots.len()];
                        for b in &report.batch_fit {
                            r[b.bot] = Some((b.elo, (b.upper - b.lower) / 2.0));
                        }
                        r
                    }
                    _ => vec![None; bots.len()],
                };
            let mut leaderboard: Vec<LeaderRow> = report
                .bots
                .iter()
                .enumerate()
                .map(|(i, b)| LeaderRow {
                    rank: 0,
                    bot: b.name.clone(),
                    games: b.games,
                    wins: b.wins,
                    draws: b.draws,
                    losses: b.losses,
                    rating: ratings.get(i).copied().flatten().map(|r| r.0),
                    rating_error: ratings.get(i).copied().flatten().map(|r| r.1),
                    faults: b.faults.values().sum(),
                })
                .collect();
            // A league's removed bots are gone from its table (their matches were deleted).
            if run.kind == "league" {
                let statuses = store.run_bot_statuses(run.id)?;
                let removed: Vec<&str> = bots
                    .iter()
                    .zip(&statuses)
                    .filter(|(_, (status, _))| status == "removed")
                    .map(|(b, _)| b.name.as_str())
                    .collect();
                leaderboard.retain(|row| !removed.contains(&row.bot.as_str()));
            }
            let key = |row: &LeaderRow| {
                let points = row.wins as f64 + row.draws as f64 / 2.0;
                (row.rating.unwrap_or(0.0), points / row.games.max(1) as f64)
            };
            leaderboard.sort_by(|a, b| {
                key(b)
                    .partial_cmp(&key(a))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            for (i, row) in leaderboard.iter_mut().enumerate() {
                row.rank = i as u32 + 1;
            }
            let n = bots.len();
            let pairwise = (0..n)
                .map(|a| {
                    (0..n)
                        .map(|b| {
                            let w = tally.pair(a, b);
                            (a != b && w.games() > 0).then_some(PairRecord {
                                wins: w.wins,
                                draws: w.draws,
                                losses: w.losses,
                            })
                        })
                        .collect()
                })
                .collect();
            let mut fault_codes: Vec<String> = matches
                .iter()
                .flat_map(|m| m.faults.iter().flatten().map(|(code, _)| code.clone()))
                .collect();
            fault_codes.sort();
            fault_codes.dedup();
            Ok(Some(RunDetail {
                summary: summary(store, &run)?,
                leaderboard,
                bots: bots.iter().map(|b| b.name.clone()).collect(),
                pairwise,
                fault_codes,
            }))
        })
    }

    fn matches(&self, run_id: i64, filter: &MatchFilter) -> Result<Vec<MatchRow>, SourceError> {
        self.with(|store| {
            let Ok(run) = store.run(&run_id.to_string()) else {
                return Ok(Vec::new());
            };
            let names: Vec<String> = store
                .run_bots(run.id)?
                .into_iter()
                .map(|b| b.name)
                .collect();
            Ok(store
                .matches(run.id)?
                .iter()
                .map(|m| row_of(m, &names, &self.base_dir))
                .filter(|row| filter.accepts(row))
                .skip(filter.offset)
                .take(filter.limit)
                .collect())
        })
    }

    fn replay_file(&self, run_id: i64, match_id: i64) -> Result<Option<PathBuf>, SourceError> {
        self.with(|store| {
            let Ok(match_idx) = u64::try_from(match_id) else {
                return Ok(None);
            };
            Ok(store
                .replay_path(run_id, match_idx)?
                .flatten()
                .map(|p| self.base_dir.join(p)))
        })
    }

    /// Without a filter, two reads along the matches' primary key; with one, the filtered list
    /// once.
    fn replay_neighbours(
        &self,
        run_id: i64,
        match_id: i64,
        filter: &MatchFilter,
    ) -> Result<(Option<i64>, Option<i64>), SourceError> {
        if !filter.passes_all() {
            let every = MatchFilter {
                offset: 0,
                limit: usize::MAX,
                ..filter.clone()
            };
            return Ok(replay_neighbours_in(
                &self.matches(run_id, &every)?,
                match_id,
            ));
        }
        self.with(|store| {
            let Ok(match_idx) = u64::try_from(match_id) else {
                return Ok((None, None));
            };
            let (prev, next) = store.kept_replay_neighbours(run_id, match_idx)?;
            Ok((prev.map(|i| i as i64), next.map(|i| i as i64)))
        })
    }
}
