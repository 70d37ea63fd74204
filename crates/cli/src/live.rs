//! What `realm arena` and `realm sprt` show while they run: an indicatif bar on a terminal; on
//! any other stderr (a log file, a CI job, a Slurm task) plain status lines paced by `Pacing`,
//! since a bar would not be drawn there; nothing but warnings with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use realm_arena::report::{placings, HeadToHeadTally};
use realm_stats::WengLinTable;
use realm_store::{MatchErrorRecord, MatchRecord};

use crate::cmd_report::elo_text;

/// When stderr is not a terminal, the first status line waits this long after the start: a line
/// at the first match said "1/2000", which looked stuck, and had no rate worth reading.
const FIRST_LINE_AFTER: Duration = Duration::from_secs(3);
/// The wait between two status lines after the first.
const STATUS_EVERY: Duration = Duration::from_secs(10);
/// Referee errors reported one by one; later ones are only counted.
const WARNINGS_SHOWN: usize = 5;

pub struct Progress {
    bar: ProgressBar,
    /// Print status lines (stderr is not a terminal and not `--quiet`).
    lines: bool,
    label: &'static str,
    pacing: Pacing,
    done_at_start: u64,
    referee_errors: usize,
}

/// When status lines are due: the first `FIRST_LINE_AFTER` after the start, then every
/// `STATUS_EVERY`, and a last one at the end unless the last line already said the same.
struct Pacing {
    started: Instant,
    last_line: Option<Instant>,
    /// Matches done and the message of the last line printed.
    last_said: Option<(u64, String)>,
}

impl Pacing {
    fn new(started: Instant) -> Pacing {
        Pacing {
            started,
            last_line: None,
            last_said: None,
        }
    }

    /// Whether a line is due at `now` while the run goes on.
    fn due(&self, now: Instant) -> bool {
        match self.last_line {
            None => now.saturating_duration_since(self.started) >= FIRST_LINE_AFTER,
            Some(last) => now.saturating_duration_since(last) >= STATUS_EVERY,
        }
    }

    /// Whether the run's last line is still to be printed.
    fn final_due(&self, done: u64, message: &str) -> bool {
        self.last_said
            .as_ref()
            .is_none_or(|(d, m)| *d != done || m != message)
    }

    fn said(&mut self, now: Instant, done: u64, message: String) {
        self.last_line = Some(now);
        self.last_said = Some((done, message));
    }
}

/// A rate as people read it: one decimal below 100 per second, none above (`84.1/s`, `212/s`).
fn rate_text(per_second: f64) -> String {
    if per_second >= 99.95 {
        format!("{per_second:.0}/s")
    } else {
        format!("{per_second:.1}/s")
    }
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
            ProgressStyle::with_template("{bar:30} {pos}/{len} matches  {rate}  ETA {eta}  {msg}")
                .expect("valid template")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&rate_text(state.per_sec()));
                    },
                ),
        );
        bar.set_position(done);
        Progress {
            bar,
            lines: !quiet && !terminal,
            label,
            pacing: Pacing::new(Instant::now()),
            done_at_start: done,
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
        let now = Instant::now();
        if self.lines && self.progressed() && self.pacing.due(now) {
            self.print_status(now);
        }
    }

    /// Something happened in this run (a match played, or one left without a result).
    fn progressed(&self) -> bool {
        self.bar.position() > self.done_at_start || self.referee_errors > 0
    }

    fn print_status(&mut self, now: Instant) {
        let done = self.bar.position();
        let elapsed = now.saturating_duration_since(self.pacing.started);
        let rate = (done - self.done_at_start) as f64 / elapsed.as_secs_f64().max(1e-3);
        let message = self.bar.message();
        errln!(
            "{}: {done}/{} matches, {}  {message}",
            self.label,
            self.bar.length().unwrap_or(0),
            rate_text(rate)
        );
        self.pacing.said(now, done, message);
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

    /// Ends the display: the bar goes, and status lines end with where the run got to.
    pub fn finish(&mut self) {
        let (done, message) = (self.bar.position(), self.bar.message());
        if self.lines && self.progressed() && self.pacing.final_due(done, &message) {
            self.print_status(Instant::now());
        }
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
    fn status_lines_wait_for_a_rate_then_come_every_ten_seconds_and_end_the_run() {
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        let mut pacing = Pacing::new(start);
        // Not at the first match: a line then said "1/2000".
        assert!(!pacing.due(start));
        assert!(!pacing.due(at(2)));
        assert!(pacing.due(at(3)));
        pacing.said(at(3), 40, "40-0-0".into());
        assert!(!pacing.due(at(12)));
        assert!(pacing.due(at(13)));
        // The last line unless the last one printed already said the same.
        assert!(!pacing.final_due(40, "40-0-0"));
        assert!(pacing.final_due(41, "41-0-0"));
        assert!(Pacing::new(start).final_due(2, "2-0-0"));
    }

    #[test]
    fn rates_are_rounded() {
        assert_eq!(rate_text(84.0554), "84.1/s");
        assert_eq!(rate_text(0.04), "0.0/s");
        assert_eq!(rate_text(99.96), "100/s");
        assert_eq!(rate_text(212.49), "212/s");
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
