//! One seat of a match: a built-in bot called in-process, or a bot process. Both read the same
//! text and give the same kind of report, so the match loop does not care which it drives.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use realm_core::referee::LineRules;
use realm_core::{Bot, FaultKind, LinesInput};

use crate::process::{BotProcess, CallReport};

pub enum Seat {
    /// Built-in bots are ours: their time is measured and recorded but not enforced, so a debug
    /// build or a loaded machine cannot make them time out.
    Builtin {
        bot: Box<dyn Bot>,
        pending: VecDeque<String>,
    },
    Process(Box<BotProcess>),
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
            Seat::Builtin { bot, pending } => {
                let started = Instant::now();
                let result = bot.play_turn(&mut LinesInput::new(lines));
                let elapsed = started.elapsed();
                let (answer, partial) = match result {
                    Ok(answer) => {
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
                    Err(e) => (
                        Err((FaultKind::Crashed, format!("built-in bot failed: {e}"))),
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
