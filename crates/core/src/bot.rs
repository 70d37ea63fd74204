//! Built-in bots: they read the same text a bot process reads and answer with the same lines,
//! so `builtin:NAME` in a match and `realm bot GAME NAME` as a process behave alike.

use std::time::Instant;

/// Where a bot reads its input from, one line at a time (without terminators).
pub trait Input {
    /// The next line, or `None` at the end of the input.
    fn next_line(&mut self) -> Option<String>;
}

/// Why a bot could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("the input ended")]
    EndOfInput,
    #[error("unexpected input: {0}")]
    BadInput(String),
    /// The bot's own code failed (a Python bot that raised, say).
    #[error("{0}")]
    Failed(String),
}

/// A bot that plays one seat of one match. It keeps whatever it learned from earlier turns.
pub trait Bot: Send {
    /// Reads exactly the lines of one call (the initial input too, on the first call) and returns
    /// the answer lines.
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError>;
}

/// An `Input` over lines already in memory.
pub struct LinesInput<'a> {
    lines: &'a [String],
    next: usize,
}

impl<'a> LinesInput<'a> {
    pub fn new(lines: &'a [String]) -> Self {
        LinesInput { lines, next: 0 }
    }

    /// Lines not read yet.
    pub fn remaining(&self) -> usize {
        self.lines.len() - self.next
    }
}

impl Input for LinesInput<'_> {
    fn next_line(&mut self) -> Option<String> {
        let line = self.lines.get(self.next).cloned();
        self.next += usize::from(line.is_some());
        line
    }
}

/// An `Input` that notes when its first line arrived. A bot's thinking time starts then, not
/// when its call began: a bot run as a process (`realm bot`) starts its next call as soon as
/// it has answered, and waits there while the opponent thinks.
pub struct ClockedInput<'a> {
    inner: &'a mut dyn Input,
    first_line: Option<Instant>,
}

impl<'a> ClockedInput<'a> {
    pub fn new(inner: &'a mut dyn Input) -> Self {
        ClockedInput {
            inner,
            first_line: None,
        }
    }

    /// When the first line arrived (now, if none has been read yet).
    pub fn started(&self) -> Instant {
        self.first_line.unwrap_or_else(Instant::now)
    }
}

impl Input for ClockedInput<'_> {
    fn next_line(&mut self) -> Option<String> {
        let line = self.inner.next_line();
        self.first_line.get_or_insert_with(Instant::now);
        line
    }
}

/// Reads one line and parses it as a whitespace-trimmed value, for bots reading their input.
pub fn read_parsed<T: std::str::FromStr>(input: &mut dyn Input) -> Result<T, BotError> {
    let line = input.next_line().ok_or(BotError::EndOfInput)?;
    line.trim().parse().map_err(|_| BotError::BadInput(line))
}

/// Reads one line.
pub fn read_line(input: &mut dyn Input) -> Result<String, BotError> {
    input.next_line().ok_or(BotError::EndOfInput)
}

/// The text a panic was raised with (`panic!`'s message), or a placeholder: what the arena
/// records when a built-in bot panics, and what the Python package raises instead.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Notes when it was asked for its first line, as a pipe would deliver it then.
    struct Delivering {
        lines: Vec<String>,
        asked: Option<Instant>,
    }

    impl Input for Delivering {
        fn next_line(&mut self) -> Option<String> {
            self.asked.get_or_insert_with(Instant::now);
            self.lines.pop()
        }
    }

    /// The clock starts when the first line arrives, not when the input is wrapped (a process
    /// bot wraps it while the opponent is still thinking).
    #[test]
    fn the_clock_starts_at_the_first_line() {
        let mut inner = Delivering {
            lines: vec!["2".to_string(), "1".to_string()],
            asked: None,
        };
        let wrapped_at = Instant::now();
        let mut clocked = ClockedInput::new(&mut inner);
        assert_eq!(clocked.next_line().as_deref(), Some("1"));
        assert_eq!(clocked.next_line().as_deref(), Some("2"));
        let started = clocked.started();
        let asked = inner.asked.expect("the first line was asked for");
        assert!(started >= asked && asked >= wrapped_at);

        // Before any line, the start is open ("now" whenever asked); an ended input is None.
        let mut clocked = ClockedInput::new(&mut inner);
        let before = clocked.started();
        assert_eq!(clocked.next_line(), None);
        assert!(clocked.started() >= before);
    }
}
