//! One seat of a match: a built-in bot called in-process, or a bot process. Both read the same
//! text and give the same kind of report, so the match loop does not care which it drives.
//! A person's seat (`Seat::Human`) answers from the referee's position instead of the text, so
//! only `run_table_match`, which holds that position, can call it.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use realm_core::referee::LineRules;
use realm_core::{panic_message, Bot, Engine, FaultKind, LinesInput, Request};

use crate::process::{BotProcess, CallReport};

pub enum Seat {
    /// Built-in bots are ours: their time is measured and recorded but not enforced, so a debug
    /// build or a loaded machine cannot make them time out.
    Builtin {
        bot: Box<dyn Bot>,
        pending: VecDeque<String>,
    },
    Process(Box<BotProcess>),
    /// A person (in the browser): never timed; answers action by action on the position.
    Human(Box<dyn HumanSeat>),
}

/// A seat whose answer is chosen among the legal actions of the referee's position (a person's
/// seat in the browser) rather than written as text by a bot.
pub trait HumanSeat: Send {
    /// Answers one call. `position` is the referee's position, with `request.player` to move;
    /// `frame` is the referee's frame, what the viewer draws. Blocks until the answer is chosen,
    /// or returns the fault that ends the seat (a resignation, an abandoned page).
    fn answer(
        &mut self,
        request: &Request,
        position: Box<dyn Engine>,
        frame: &serde_json::Value,
    ) -> Result<Vec<String>, (FaultKind, String)>;
}

impl Seat {
    pub fn builtin(bot: Box<dyn Bot>) -> Seat {
        Seat::Builtin {
            bot,
            pending: VecDeque::new(),
        }
    }

    pub fn process(process: BotProcess) -> Seat {
        Seat::Process(Box::new(process))
    }

    /// Frames a process's output by the game's rules; built-in bots answer in lines already.
    pub fn set_line_rules(&mut self, rules: LineRules) {
        if let Seat::Process(process) = self {
            process.set_line_rules(rules);
        }
    }

    /// Sends one call's lines and collects `expected` answer lines within `limit`.
    pub fn call(
        &mut self,
        lines: &[String],
        expected: usize,
        limit: Option<Duration>,
    ) -> CallReport {
        match self {
            Seat::Process(process) => process.call(lines, expected, limit),
            Seat::Human(_) => CallReport {
                answer: Err((
                    FaultKind::Crashed,
                    "a person's seat is played only in a match with the referee's position \
                     (run_table_match)"
                        .to_string(),
                )),
                partial: Vec::new(),
                elapsed: Duration::ZERO,
                stderr: String::new(),
                stderr_after_previous_answer: false,
                interrupted_by: None,
            },
            Seat::Builtin { bot, pending } => {
                let started = Instant::now();
                // A panic in a built-in bot is a bug of ours, but it ends that seat as a fault
                // with the panic's message rather than the whole match (or arena run).
                let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    bot.play_turn(&mut LinesInput::new(lines))
                }));
                let elapsed = started.elapsed();
                let (answer, partial) = match result {
                    Ok(Ok(answer)) => {
                        pending.extend(answer);
                        if pending.len() >= expected {
                            (Ok(pending.drain(..expected).collect()), Vec::new())
                        } else {
                            let detail =
                                format!("built-in bot gave {} of {expected} lines", pending.len());
                            (
                                Err((FaultKind::ClosedOutput, detail)),
                                pending.drain(..).collect(),
                            )
                        }
                    }
                    Ok(Err(e)) => (
                        Err((FaultKind::Crashed, format!("built-in bot failed: {e}"))),
                        Vec::new(),
                    ),
                    Err(payload) => (
                        Err((
                            FaultKind::Crashed,
                            format!(
                                "built-in bot panicked (a bug in realm, please report it): {}",
                                panic_message(payload.as_ref())
                            ),
                        )),
                        Vec::new(),
                    ),
                };
                CallReport {
                    answer,
                    partial,
                    elapsed,
                    stderr: String::new(),
                    stderr_after_previous_answer: false,
                    interrupted_by: None,
                }
            }
        }
    }

    /// Calls a person's seat on `position`; any other seat as `call` does.
    pub fn call_on(
        &mut self,
        request: &Request,
        position: Option<Box<dyn Engine>>,
        frame: impl FnOnce() -> serde_json::Value,
        limit: Option<Duration>,
    ) -> CallReport {
        let (Seat::Human(person), Some(position)) = (&mut *self, position) else {
            return self.call(&request.lines, request.expected_lines, limit);
        };
        let started = Instant::now();
        let answer = person.answer(request, position, &frame());
        CallReport {
            answer,
            partial: Vec::new(),
            elapsed: started.elapsed(),
            stderr: String::new(),
            stderr_after_previous_answer: false,
            interrupted_by: None,
        }
    }

    /// Whether the seat's time limit is enforced (processes) rather than only measured.
    pub fn is_limited(&self) -> bool {
        matches!(self, Seat::Process(_))
    }

    /// Ends the seat's bot; for a process, kills its whole process group.
    pub fn stop(&mut self) {
        if let Seat::Process(process) = self {
            process.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use realm_core::{BotError, Input};

    use super::*;

    /// Answers once, then panics on its second call.
    struct PanicsSecond(bool);

    impl Bot for PanicsSecond {
        fn play_turn(&mut self, _input: &mut dyn Input) -> Result<Vec<String>, BotError> {
            if std::mem::replace(&mut self.0, true) {
                panic!("index 6 out of range");
            }
            Ok(vec!["WAIT".to_string()])
        }
    }

    /// A built-in bot's panic ends its seat as a crash with the panic's message; the call
    /// before it was answered as usual.
    #[test]
    fn a_panicking_builtin_bot_is_a_crash_fault() {
        let mut seat = Seat::builtin(Box::new(PanicsSecond(false)));
        let first = seat.call(&["1".to_string()], 1, None);
        assert_eq!(first.answer, Ok(vec!["WAIT".to_string()]));
        let second = seat.call(&["2".to_string()], 1, None);
        let (kind, detail) = second.answer.unwrap_err();
        assert_eq!(kind, FaultKind::Crashed);
        assert_eq!(
            detail,
            "built-in bot panicked (a bug in realm, please report it): index 6 out of range"
        );
    }
}
