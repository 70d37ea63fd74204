//! Built-in bots: they read the same text a bot process reads and answer with the same lines,
//! so `builtin:NAME` in a match and `realm bot GAME NAME` as a process behave alike.

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

/// Reads one line and parses it as a whitespace-trimmed value, for bots reading their input.
pub fn read_parsed<T: std::str::FromStr>(input: &mut dyn Input) -> Result<T, BotError> {
    let line = input.next_line().ok_or(BotError::EndOfInput)?;
    line.trim().parse().map_err(|_| BotError::BadInput(line))
}

/// Reads one line.
pub fn read_line(input: &mut dyn Input) -> Result<String, BotError> {
    input.next_line().ok_or(BotError::EndOfInput)
}
