//! The results store as the viewer's `RunSource`: runs, leaderboards with ratings, pairwise
//! records, the fault codes that occur, and filterable match lists paged by the viewer, read
//! fresh on every request.

use std::path::PathBuf;
use std::sync::Mutex;

use realm_arena::report::RunReport;
use realm_stats::{Placing, Tally};
use realm_store::{MatchRecord, RunRecord, Store};
use realm_viewer::{
    replay_neighbours_by_listing, BotDetails, LeaderRow, MatchFilter, MatchRow, PairRecord,
    RunDetail, RunSource, RunSummary, SeatRecord, SeatResult, SourceError,
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
    let activity = store.last_activity(run.id)?;
    let age = activity.as_ref().map(|(_, age)| *age);
    // A league has no planned size and no end: its label names it.
    let (label, planned, status) = if run.kind == "league" {
        let name = run.key.strip_prefix("league:").unwrap_or(&run.key);
        let active = store
            .run_bot_statuses(run.id)?
            .iter()
            .filter(|(status, _)| status == "active")
            .count();
        (
            format!("league {name} ({active} bots)"),
            0,
            league_state(age).to_string(),
        )
    } else {
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        let label = format!("{} ({})", names.join(" vs "), run.kind);
        (label, run.n_matches, run_status(store, run, done, age)?)
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
        last_activity: activity.map(|(when, _)| when),
    })
}

/// How long after its last stored match (or its start) an unfinished run still counts as
/// running. Nothing tells a live run from a killed one (`kill -9` leaves no trace), so a run
/// that stored nothing for this long is taken as interrupted; a slow match may make a live
/// run read so for a while.
const RUNNING_WINDOW_SECS: f64 = 600.0;

/// `running` while the last activity is recent, else `interrupted` (`None`: a store from
/// before schema 5, which never noted activity).
fn unfinished_state(age_secs: Option<f64>) -> &'static str {
    match age_secs {
        Some(age) if age < RUNNING_WINDOW_SECS => "running",
        _ => "interrupted",
    }
}

/// A league never completes: `running` while it stores matches, else `idle`.
fn league_state(age_secs: Option<f64>) -> &'static str {
    match unfinished_state(age_secs) {
        "running" => "running",
        _ => "idle",
    }
}

/// `complete`, `running`, `interrupted`, an SPRT decision (`H1 accepted after 152 games`) for
/// a run the test stopped early, plus the count of matches an external referee failed, which
/// are no results.
fn run_status(
    store: &Store,
    run: &RunRecord,
    done: u64,
    age_secs: Option<f64>,
) -> Result<String, SourceError> {
    let sprt = store
        .verdict(run.id)?
        .and_then(|v| serde_json::from_str::<realm_arena::report::SprtVerdict>(&v).ok());
    let mut status = match sprt {
        Some(v) => format!("{} accepted after {} games", v.decision, v.games),
        None if done >= run.n_matches => "complete".into(),
        None => unfinished_state(age_secs).into(),
    };
    let failed = store.match_errors(run.id)?.len();
    if failed > 0 {
        status.push_str(&format!(", {failed} failed by the referee"));
    }
    Ok(status)
}

/// What `realm report` shows of one bot beyond its record.
fn details_of(b: &realm_arena::report::BotReport) -> BotDetails {
    BotDetails {
        response_p50_us: b.response_us.as_ref().map(|p| p.p50),
        response_p99_us: b.response_us.as_ref().map(|p| p.p99),
        fault_kinds: b.faults.clone(),
        seats: b
            .seats
            .iter()
            .map(|s| SeatRecord {
                seat: s.seat,
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
            })
            .collect(),
        data: b.data.clone(),
        ..BotDetails::default()
    }
}

/// A league's leaderboard as `realm league show` orders it (its removed bots left out), with
/// each entrant's status, note, version, rating and P(better than next).
fn league_order(
    store: &Store,
    run: &RunRecord,
    rows: Vec<LeaderRow>,
) -> Result<Vec<LeaderRow>, SourceError> {
    let name = run.key.strip_prefix("league:").unwrap_or(&run.key);
    let (_, shown) = crate::cmd_league::leaderboard(store, name).map_err(|e| e.to_string())?;
    let hashes: std::collections::HashMap<String, String> = store
        .run_bots(run.id)?
        .into_iter()
        .map(|b| (b.name, b.hash))
        .collect();
    let mut by_name: std::collections::HashMap<String, LeaderRow> =
        rows.into_iter().map(|r| (r.bot.clone(), r)).collect();
    Ok(shown
        .into_iter()
        .filter_map(|league| {
            let mut row = by_name.remove(&league.label)?;
            row.rating = league.rating;
            row.rating_error = league.interval;
            let hash = hashes.get(&league.label).map(String::as_str).unwrap_or("");
            row.details.version = Some(if hash.is_empty() {
                league.command
            } else {
                format!("{} @{}", league.command, &hash[..hash.len().min(8)])
            });
            row.details.status = Some(league.status);
            row.details.note = league.note;
            row.details.p_better_than_next = league.p_better_than_next;
            Some(row)
        })
        .collect())
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
                    details: details_of(b),
                })
                .collect();
            if run.kind == "league" {
                leaderboard = league_order(store, &run, leaderboard)?;
            } else {
                let key = |row: &LeaderRow| {
                    let points = row.wins as f64 + row.draws as f64 / 2.0;
                    (row.rating.unwrap_or(0.0), points / row.games.max(1) as f64)
                };
                leaderboard.sort_by(|a, b| {
                    key(b)
                        .partial_cmp(&key(a))
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
            }
            for (i, row) in leaderboard.iter_mut().enumerate() {
                row.rank = i as u32 + 1;
            }
            // The matrix in the leaderboard's order, so the strongest bots meet top left.
            let order: Vec<usize> = leaderboard
                .iter()
                .filter_map(|row| bots.iter().position(|b| b.name == row.bot))
                .collect();
            let pairwise = order
                .iter()
                .map(|&a| {
                    order
                        .iter()
                        .map(|&b| {
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
                bots: order.iter().map(|&i| bots[i].name.clone()).collect(),
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
            return replay_neighbours_by_listing(self, run_id, match_id, filter);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unfinished_run_is_running_until_it_has_been_quiet_for_the_window() {
        assert_eq!(unfinished_state(Some(0.0)), "running");
        assert_eq!(unfinished_state(Some(RUNNING_WINDOW_SECS - 1.0)), "running");
        assert_eq!(unfinished_state(Some(RUNNING_WINDOW_SECS)), "interrupted");
        assert_eq!(unfinished_state(None), "interrupted", "no activity noted");
        assert_eq!(league_state(Some(3.0)), "running");
        assert_eq!(league_state(Some(1e6)), "idle");
    }
}
