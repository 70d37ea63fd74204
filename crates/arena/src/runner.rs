//! The match loop: asks the referee who plays next, calls that seat with the time limit, hands
//! the answer or the fault back, and records every call into a replay. Game-agnostic: it only
//! speaks `realm_core::Referee`.

use std::time::Duration;

use realm_core::{
    Engine, Fault, FaultKind, MatchSpec, Referee, Replay, ReplayPlayer, ReplayTurn, Request, Table,
    Verdict, REPLAY_FORMAT_VERSION,
};

use crate::seat::Seat;

/// Time control and recording options of one match.
#[derive(Clone, Copy, Debug)]
pub struct MatchOptions {
    /// Multiplies every time limit (slow machines, debugging).
    pub time_scale: f64,
    /// Disables time limits entirely (stepping through a bot in a debugger).
    pub no_timeout: bool,
    /// Writes response times into the replay (they make two runs of one match differ).
    pub timings: bool,
    /// Lateness forgiven beyond each (scaled) limit, as fastchess's `timemargin`: an answer
    /// recorded within limit + margin is accepted and counted in `MatchResult::late_calls`.
    pub time_margin: Duration,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            time_scale: 1.0,
            no_timeout: false,
            timings: false,
            time_margin: Duration::ZERO,
        }
    }
}

/// A finished match: its replay and every call's response time (always measured).
pub struct MatchResult {
    pub replay: Replay,
    /// `(player, microseconds)` per call, in call order.
    pub response_times: Vec<(usize, u64)>,
    /// `(player, signal)` when a bot was killed by a signal realm takes as an interruption
    /// (see `CallReport::interrupted_by`): then the outcome is not the bots' result.
    pub interrupted: Option<(usize, &'static str)>,
    /// Per player: answers recorded after the limit but within the time margin.
    pub late_calls: Vec<u64>,
}

/// What judges a match: a referee, and for a match with a person's seat the position it holds.
trait Judge {
    fn referee(&mut self) -> &mut dyn Referee;
    fn position(&self) -> Option<Box<dyn Engine>>;
}

impl Judge for Box<dyn Referee> {
    fn referee(&mut self) -> &mut dyn Referee {
        self.as_mut()
    }

    fn position(&self) -> Option<Box<dyn Engine>> {
        None
    }
}

impl Judge for Box<dyn Table> {
    fn referee(&mut self) -> &mut dyn Referee {
        self.as_mut().referee()
    }

    fn position(&self) -> Option<Box<dyn Engine>> {
        Some(self.engine())
    }
}

/// Plays a match to the end. Every seat is stopped (processes killed) before this returns.
pub fn run_match(
    spec: &MatchSpec,
    players: Vec<ReplayPlayer>,
    referee: Box<dyn Referee>,
    seats: Vec<Seat>,
    options: MatchOptions,
) -> MatchResult {
    play(spec, players, referee, seats, options)
}

/// `run_match` judged by a table, so that a person's seat (`Seat::Human`) is called on the
/// referee's position; recorded exactly as `run_match` records.
pub fn run_table_match(
    spec: &MatchSpec,
    players: Vec<ReplayPlayer>,
    table: Box<dyn Table>,
    seats: Vec<Seat>,
    options: MatchOptions,
) -> MatchResult {
    play(spec, players, table, seats, options)
}

fn play(
    spec: &MatchSpec,
    players: Vec<ReplayPlayer>,
    mut judge: impl Judge,
    mut seats: Vec<Seat>,
    options: MatchOptions,
) -> MatchResult {
    let rules = judge.referee().line_rules();
    for seat in &mut seats {
        seat.set_line_rules(rules);
    }
    let initial_frame = judge.referee().frame();
    let mut turns = Vec::new();
    let mut response_times = Vec::new();
    let mut interrupted = None;
    let mut late_calls = vec![0; seats.len()];
    while let Some(request) = judge.referee().next_request() {
        let player = request.player;
        let limit = (!options.no_timeout).then(|| scale(request.time_limit, options.time_scale));
        // One rule: the recorded time is the time judged, against the limit plus the margin.
        let judged = limit.map(|l| l.saturating_add(options.time_margin));
        let position = matches!(seats[player], Seat::Human(_))
            .then(|| judge.position())
            .flatten();
        let report = seats[player].call_on(&request, position, || judge.referee().frame(), judged);
        let time_us = report.elapsed.as_micros() as u64;
        let late = report.answer.is_ok()
            && seats[player].is_limited()
            && limit.is_some_and(|l| report.elapsed > l);
        if late {
            late_calls[player] += 1;
        }
        // Both warnings depend on timing, so like `time_us` they are recorded only with timings on.
        if options.timings && report.stderr_after_previous_answer {
            if let Some(previous) = turns
                .iter_mut()
                .rev()
                .find(|t: &&mut ReplayTurn| t.player == player)
            {
                previous.stderr_after_answer = true;
            }
        }
        if let Some(signal) = report.interrupted_by {
            interrupted.get_or_insert((player, signal));
        }
        response_times.push((player, time_us));
        let (output, verdict) =
            settle_call(judge.referee(), &request, report.answer, report.partial);
        // A faulted player is never called again, so its process can go now.
        if verdict.is_fault() {
            seats[player].stop();
        }
        turns.push(ReplayTurn {
            player,
            turn: request.turn,
            input: request.lines,
            output,
            stderr: report.stderr,
            time_us: options.timings.then_some(time_us),
            late: options.timings && late,
            stderr_after_answer: false,
            verdict,
            frame: judge.referee().frame(),
        });
    }
    for seat in &mut seats {
        seat.stop();
    }
    let replay = Replay {
        format_version: REPLAY_FORMAT_VERSION,
        realm_version: env!("CARGO_PKG_VERSION").to_string(),
        spec: spec.clone(),
        players,
        initial_frame,
        turns,
        outcome: judge.referee().outcome(),
    };
    MatchResult {
        replay,
        response_times,
        interrupted,
        late_calls,
    }
}

/// Hands one call's result to the referee: the answer lines, or the fault the call ended in.
/// Returns what the bot printed and the turn's verdict.
pub fn settle_call(
    referee: &mut dyn Referee,
    request: &Request,
    answer: Result<Vec<String>, (FaultKind, String)>,
    partial: Vec<String>,
) -> (Vec<String>, Verdict) {
    let player = request.player;
    match answer {
        Ok(lines) => {
            let verdict = referee.answer(player, &lines);
            (lines, verdict)
        }
        Err((kind, detail)) => {
            referee.fault(
                player,
                Fault {
                    kind,
                    turn: request.turn,
                    detail: detail.clone(),
                },
            );
            // The turn's verdict is the fault as the game records it: a spec may class a
            // runner fault differently (Blocking's R17 counts an exit as a timeout).
            let (kind, detail) = match referee.outcome().faults.get(player) {
                Some(Some(recorded)) => (recorded.kind, recorded.detail.clone()),
                _ => (kind, detail),
            };
            // What the bot did print before the fault, e.g. one line of a two-line answer.
            (partial, Verdict::fault(kind, detail))
        }
    }
}

/// `limit × factor`, saturating: a product too large for a `Duration` (or infinite) is
/// `Duration::MAX`, which the process layer treats as no limit; NaN and negatives give zero.
fn scale(limit: Duration, factor: f64) -> Duration {
    let seconds = limit.as_secs_f64() * factor.max(0.0);
    Duration::try_from_secs_f64(seconds).unwrap_or(if seconds > 0.0 {
        Duration::MAX
    } else {
        Duration::ZERO
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_saturates_instead_of_panicking() {
        let second = Duration::from_secs(1);
        assert_eq!(scale(second, 1e30), Duration::MAX);
        assert_eq!(scale(second, f64::INFINITY), Duration::MAX);
        assert_eq!(scale(Duration::MAX, 2.0), Duration::MAX);
        assert_eq!(scale(second, f64::NAN), Duration::ZERO);
        assert_eq!(scale(second, -3.0), Duration::ZERO);
        assert_eq!(scale(second, 0.5), Duration::from_millis(500));
    }
}
