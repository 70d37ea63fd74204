//! What `realm arena` and `realm sprt` show while they run: an indicatif bar on a terminal; on
//! any other stderr (a log file, a CI job, a Slurm task) a plain status line at most every
//! `STATUS_EVERY`, since a bar would not be drawn there; nothing but warnings with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use realm_arena::report::{placings, HeadToHeadTally};
use realm_stats::WengLinTable;
use realm_store::{MatchErrorRecord, MatchRecord};

use crate::cmd_report::elo_text;

/// The longest wait between two status lines when stderr is not a terminal.
const STATUS_EVERY: Duration = Duration::from_secs(10);
/// Referee errors reported one by one; later ones are only counted.
const WARNINGS_SHOWN: usize = 5;

pub struct Progress {
    bar: ProgressBar,
    /// Print status lines (stderr is not a terminal and not `--quiet`).
    lines: bool,
    label: &'static str,
    started: Instant,
    done_at_start: u64,
    last_line: Option<Instant>,
    referee_errors: usize,
}

impl Progress {
    /// `total` matches of which `done` are already stored; `label` starts each status line.
    pub fn new(label: &'static str, total: u64, done: u64, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(
            Some(total),
            if quiet || !terminal {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            },
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} matches  {per_sec}  ETA {eta}  {msg}",
            )
            .expect("valid template"),
        );
        bar.set_position(done);
        Progress {
            bar,
            lines: !quiet && !terminal,
            label,
            started: Instant::now(),
            done_at_start: done,
            last_line: None,
            referee_errors: 0,
        }
    }

    /// One more match stored.
    pub fn inc(&mut self) {
        self.bar.inc(1);
    }

    /// Shows `message` (the score so far); prints a status line when one is due.
    pub fn update(&mut self, message: String) {
        let message = match self.referee_errors {
            0 => message,
            n => format!("{message}  ({n} without a result)"),
        };
        self.bar.set_message(message);
        let progressed = self.bar.position() > self.done_at_start || self.referee_errors > 0;
        if self.lines && progressed && self.last_line.is_none_or(|t| t.elapsed() >= STATUS_EVERY) {
            self.print_status();
        }
    }

    /// Prints the status line now (when status lines are on), e.g. as the final word.
    pub fn print_status(&mut self) {
        if !self.lines {
            return;
        }
        let done = self.bar.position();
        let rate = (done - self.done_at_start) as f64 / self.started.elapsed().as_secs_f64();
        errln!(
            "{}: {done}/{} matches, {rate:.1}/s  {}",
            self.label,
            self.bar.length().unwrap_or(0),
            self.bar.message()
        );
        self.last_line = Some(Instant::now());
    }

    /// Warns about a match whose external referee failed (the first few, one line each).
    pub fn referee_failed(&mut self, error: &MatchErrorRecord) {
        self.no_result(error, "its referee failed: ");
    }

    /// Warns about a match left without a result because a bot was killed by an interruption
    /// signal (see `Played::Interrupted`).
    pub fn interrupted(&mut self, error: &MatchErrorRecord) {
        self.no_result(error, "");
    }

    fn no_result(&mut self, error: &MatchErrorRecord, cause: &str) {
        self.referee_errors += 1;
        let text = match self.referee_errors {
            n if n <= WARNINGS_SHOWN => format!(
                "warning: match {} has no result, {cause}{} (not counted; running the same \
                 command again replays it)",
                error.match_idx, error.reason
            ),
            n if n == WARNINGS_SHOWN + 1 => {
                "warning: more matches have no result; the report counts them".to_string()
            }
            _ => return,
        };
        self.bar.suspend(|| errln!("{text}"));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The score so far, kept up to date one match at a time: for two bots the W-D-L and the Elo
/// difference with its margin; for more, the Weng-Lin leader.
pub struct LiveScore {
    names: Vec<String>,
    head: Option<HeadToHeadTally>,
    ratings: WengLinTable,
}

impl LiveScore {
    pub fn new(names: Vec<String>, group_size: u64) -> LiveScore {
        LiveScore {
            head: (names.len() == 2).then(|| HeadToHeadTally::new(group_size)),
            ratings: WengLinTable::new(names.len()),
            names,
        }
    }

    pub fn add(&mut self, m: &MatchRecord) {
        match &mut self.head {
            Some(head) => head.add(m),
            // A malformed record (impossible from realm's own writer) is left out.
            None => {
                let _ = self.ratings.update(&placings(m));
            }
        }
    }

    pub fn message(&self) -> String {
        match &self.head {
            Some(head) => {
                let h = head.summary();
                let w = h.wdl;
                format!(
                    "{}-{}-{}  Elo {}",
                    w.wins,
                    w.draws,
                    w.losses,
                    elo_text(&w, h.elo_pentanomial.as_ref().or(h.elo.as_ref()))
                )
            }
            None => {
                let entries = self.ratings.entries();
                match entries
                    .iter()
                    .filter(|e| e.matches > 0)
                    .max_by(|a, b| a.conservative.total_cmp(&b.conservative))
                {
                    Some(best) => format!(
                        "leader {} (Weng-Lin {:.1} ± {:.1})",
                        self.names[best.bot], best.rating, best.uncertainty
                    ),
                    None => String::new(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn three_player_match(idx: u64, ranks: [u32; 3]) -> MatchRecord {
        MatchRecord {
            match_idx: idx,
            seed: 1,
            seats: vec![0, 1, 2],
            scores: ranks.iter().map(|&r| 10 - r as i64).collect(),
            ranks: ranks.to_vec(),
            end_reason: "finished".into(),
            detail: String::new(),
            faults: vec![None; 3],
            n_calls: 1,
            duration_ms: 1,
            replay_path: None,
            times_us: vec![Vec::new(); 3],
            data: vec![BTreeMap::new(); 3],
            late_calls: vec![0; 3],
        }
    }

    #[test]
    fn more_than_two_bots_show_the_weng_lin_leader() {
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let mut live = LiveScore::new(names, 3);
        assert_eq!(live.message(), "");
        for i in 0..6 {
            live.add(&three_player_match(i, [2, 1, 3]));
        }
        assert!(
            live.message().starts_with("leader b (Weng-Lin "),
            "{}",
            live.message()
        );
    }
}
