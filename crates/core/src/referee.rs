//! The text-level contract the arena drives: which player must answer next, the exact lines it
//! reads, how many lines it must write back and how fast, and the referee's verdict on them.
//!
//! A referee knows nothing of processes or clocks: the runner measures time and reports process
//! failures through `Referee::fault`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Fault, FaultKind, Outcome, PlayerId};

/// One call to one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub player: PlayerId,
    /// The game's own turn number, for people and fault records.
    pub turn: u32,
    /// Every line the player reads for this call, the initial input included on its first call.
    pub lines: Vec<String>,
    /// How many lines the player must answer.
    pub expected_lines: usize,
    /// The time limit before `--time-scale` is applied.
    pub time_limit: Duration,
}

/// The referee's judgement of one answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "fault")]
pub enum VerdictKind {
    /// Accepted as sent.
    Ok,
    /// Accepted, but part of it was ignored or refused without penalty (see `detail`).
    Warning,
    /// The answer faulted the player; the game's rules decide what follows.
    Fault(FaultKind),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    #[serde(flatten)]
    pub kind: VerdictKind,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

impl Verdict {
    pub fn ok() -> Self {
        Verdict {
            kind: VerdictKind::Ok,
            detail: String::new(),
        }
    }

    pub fn warning(detail: impl Into<String>) -> Self {
        Verdict {
            kind: VerdictKind::Warning,
            detail: detail.into(),
        }
    }

    pub fn fault(kind: FaultKind, detail: impl Into<String>) -> Self {
        Verdict {
            kind: VerdictKind::Fault(kind),
            detail: detail.into(),
        }
    }

    pub fn is_fault(&self) -> bool {
        matches!(self.kind, VerdictKind::Fault(_))
    }
}

/// How a game's protocol cuts a bot's output into answer lines (its spec's protocol section).
/// The runner frames stdout by these rules; referees see the lines without their terminators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRules {
    pub ends: LineEnds,
    /// The longest answer line the spec accepts, in bytes before its terminator. A longer line
    /// is an `output_flood` fault, whose consequence the referee decides. `None`: the spec sets
    /// no limit, and only the runner's safety cap (`OutputLimits`) applies.
    pub max_line_bytes: Option<usize>,
}

/// Which bytes end an answer line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnds {
    /// Only LF ends a line; a CR is part of the line (parsers remove a final one themselves).
    Lf,
    /// LF, CR or CRLF (counted once, even split across reads), as the CodinGame SDK runner reads.
    LfCrCrlf,
}

impl LineRules {
    /// Lines end with `\n`, with no length limit of their own: the reading of a spec that says
    /// "every line ends with `\n`".
    pub const LF: LineRules = LineRules {
        ends: LineEnds::Lf,
        max_line_bytes: None,
    };
    /// The CodinGame SDK runner's framing (LF, CR or CRLF), with no length limit of its own.
    pub const CODINGAME: LineRules = LineRules {
        ends: LineEnds::LfCrCrlf,
        max_line_bytes: None,
    };

    /// The same terminators with a longest accepted line of `bytes`.
    pub const fn with_max_line_bytes(self, bytes: usize) -> LineRules {
        LineRules {
            ends: self.ends,
            max_line_bytes: Some(bytes),
        }
    }
}

impl Default for LineRules {
    fn default() -> Self {
        LineRules::LF
    }
}

/// A match in progress, driven one call at a time:
///
/// ```text
/// while let Some(request) = referee.next_request() {
///     match run(request) { Ok(lines) => referee.answer(p, &lines), Err(fault) => referee.fault(p, fault) }
/// }
/// let outcome = referee.outcome();
/// ```
///
/// **Invariant**: after `next_request` returns `Some`, the caller answers it (with `answer` or
/// `fault`) before calling `next_request` again. No input makes a referee panic.
pub trait Referee: Send {
    /// Advances the game to the next call and returns it, or `None` when the game is over.
    fn next_request(&mut self) -> Option<Request>;

    /// Judges the lines the player of the pending request wrote (exactly `expected_lines` of
    /// them, without their line terminators) and applies them.
    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict;

    /// Records a fault the runner detected (timeout, crash, closed output, flood) for the
    /// player of the pending request and applies the game's consequence.
    fn fault(&mut self, player: PlayerId, fault: Fault);

    /// The data a viewer needs to draw the current moment (game-specific JSON).
    fn frame(&self) -> serde_json::Value;

    /// The result; final once `next_request` has returned `None`.
    fn outcome(&self) -> Outcome;

    /// How the runner frames this game's answer lines. The default, LF-terminated lines with no
    /// limit of the spec's own, fits a spec that says only that lines end with `\n`.
    fn line_rules(&self) -> LineRules {
        LineRules::default()
    }
}
