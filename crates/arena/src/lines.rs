//! Byte streams to lines: the framing of a bot's stdout (by the game's `LineRules`) and the
//! capped buffer of its stderr.

use std::collections::VecDeque;

use realm_core::referee::LineEnds;

/// Splits a byte stream into lines. With `LineEnds::Lf` only LF ends a line and a CR stays in
/// it; with `LineEnds::LfCrCrlf`, LF, CR and CRLF each end one line (CodinGame's runner reads
/// answers this way), and a CR followed by LF in a later chunk still counts once.
#[derive(Debug)]
pub(crate) struct LineFramer {
    partial: Vec<u8>,
    after_cr: bool,
    cr_ends_line: bool,
    max_line: usize,
}

/// A line grew past the cap (before or at its terminator).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LineTooLong;

impl LineFramer {
    /// A framer for `ends`; a line longer than `max_line` bytes (terminator excluded) is an error.
    pub(crate) fn new(ends: LineEnds, max_line: usize) -> Self {
        LineFramer {
            partial: Vec::new(),
            after_cr: false,
            cr_ends_line: ends == LineEnds::LfCrCrlf,
            max_line,
        }
    }

    /// Changes the rules; bytes already buffered stay the start of the next line.
    pub(crate) fn set_rules(&mut self, ends: LineEnds, max_line: usize) {
        self.cr_ends_line = ends == LineEnds::LfCrCrlf;
        self.max_line = max_line;
    }

    /// Appends the complete lines of `chunk` to `lines` and returns how many; an unterminated
    /// tail waits for more.
    pub(crate) fn feed(
        &mut self,
        mut chunk: &[u8],
        lines: &mut VecDeque<String>,
    ) -> Result<usize, LineTooLong> {
        let mut added = 0;
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
            }
        }
        while !chunk.is_empty() {
            let end = if self.cr_ends_line {
                chunk.iter().position(|&b| b == b'\n' || b == b'\r')
            } else {
                chunk.iter().position(|&b| b == b'\n')
            };
            let body = &chunk[..end.unwrap_or(chunk.len())];
            if self.partial.len() + body.len() > self.max_line {
                return Err(LineTooLong);
            }
            self.partial.extend_from_slice(body);
            let Some(end) = end else { break };
            lines.push_back(String::from_utf8_lossy(&self.partial).into_owned());
            self.partial.clear();
            added += 1;
            let crlf = chunk[end] == b'\r' && chunk.get(end + 1) == Some(&b'\n');
            self.after_cr = chunk[end] == b'\r' && end + 1 == chunk.len();
            chunk = &chunk[end + if crlf { 2 } else { 1 }..];
        }
        Ok(added)
    }
}

/// stderr gathered since the last call, capped; the bytes beyond the cap are counted, not kept.
#[derive(Debug)]
pub(crate) struct StderrBuffer {
    bytes: Vec<u8>,
    dropped: usize,
    cap: usize,
    last_line: String,
}

impl StderrBuffer {
    pub(crate) fn new(cap: usize) -> Self {
        StderrBuffer {
            bytes: Vec::new(),
            dropped: 0,
            cap,
            last_line: String::new(),
        }
    }

    pub(crate) fn push(&mut self, chunk: &[u8]) {
        let room = self.cap.saturating_sub(self.bytes.len());
        let kept = room.min(chunk.len());
        self.bytes.extend_from_slice(&chunk[..kept]);
        self.dropped += chunk.len() - kept;
        let text = String::from_utf8_lossy(chunk);
        if let Some(line) = text.lines().rev().find(|l| !l.trim().is_empty()) {
            self.last_line = line.chars().take(200).collect();
        }
    }

    pub(crate) fn take(&mut self) -> String {
        let mut text = String::from_utf8_lossy(&self.bytes).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!(
                "\n[realm: {} more bytes of stderr dropped]\n",
                self.dropped
            ));
        }
        self.bytes.clear();
        self.dropped = 0;
        text
    }

    /// Whether nothing was gathered since the last `take`.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.dropped == 0
    }

    /// The last non-blank line seen, for the reason of a crash.
    pub(crate) fn last_line(&self) -> &str {
        &self.last_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(ends: LineEnds, chunks: &[&[u8]]) -> Vec<String> {
        let mut framer = LineFramer::new(ends, 100);
        let mut lines = VecDeque::new();
        for chunk in chunks {
            framer.feed(chunk, &mut lines).unwrap();
        }
        lines.into()
    }

    #[test]
    fn lf_cr_and_crlf_each_end_one_line_even_across_chunks() {
        let any = LineEnds::LfCrCrlf;
        assert_eq!(frame(any, &[b"a\nb\rc\r\nd"]), ["a", "b", "c"]);
        assert_eq!(frame(any, &[b"a\r", b"\nb\n"]), ["a", "b"]);
        assert_eq!(frame(any, &[b"a\r", b"", b"\nb\n"]), ["a", "b"]);
        assert_eq!(frame(any, &[b"\r\r\n"]), ["", ""]);
        assert_eq!(frame(any, &[b"WAIT\rWAIT\n"]), ["WAIT", "WAIT"]);
        assert_eq!(frame(any, &[b"PUT ", b"1 2", b" 3\n"]), ["PUT 1 2 3"]);
    }

    #[test]
    fn with_lf_only_a_cr_stays_inside_the_line() {
        let lf = LineEnds::Lf;
        assert_eq!(frame(lf, &[b"0 0 A001\rjunk\n"]), ["0 0 A001\rjunk"]);
        assert_eq!(
            frame(lf, &[b"PUT 4 5 1\r", b"\nPICK 3\r\n"]),
            ["PUT 4 5 1\r", "PICK 3\r"]
        );
        assert_eq!(frame(lf, &[b"a\n\nb"]), ["a", ""]);
    }

    #[test]
    fn a_line_past_the_cap_is_an_error_and_one_at_the_cap_is_not() {
        for ends in [LineEnds::Lf, LineEnds::LfCrCrlf] {
            let mut framer = LineFramer::new(ends, 4);
            let mut lines = VecDeque::new();
            assert_eq!(framer.feed(b"1234\n", &mut lines), Ok(1));
            assert_eq!(framer.feed(b"123", &mut lines), Ok(0));
            assert_eq!(framer.feed(b"45", &mut lines), Err(LineTooLong));
            let mut framer = LineFramer::new(ends, 4);
            assert_eq!(framer.feed(b"12345\n", &mut lines), Err(LineTooLong));
        }
    }

    #[test]
    fn stderr_is_capped_and_the_rest_counted() {
        let mut buffer = StderrBuffer::new(4);
        buffer.push(b"abc\n");
        buffer.push(b"last words\n");
        assert_eq!(buffer.last_line(), "last words");
        assert_eq!(
            buffer.take(),
            "abc\n\n[realm: 11 more bytes of stderr dropped]\n"
        );
        assert_eq!(buffer.take(), "");
    }
}
