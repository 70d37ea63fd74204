//! Byte streams to lines: the framing of a bot's stdout and the capped buffer of its stderr.

use std::collections::VecDeque;

/// Splits a byte stream into lines. LF, CR and CRLF each end one line (CodinGame's runner reads
/// answers this way); a CR followed by LF in a later chunk still counts once.
#[derive(Debug)]
pub(crate) struct LineFramer {
    partial: Vec<u8>,
    after_cr: bool,
    max_line: usize,
}

/// A line grew past the cap before its terminator arrived.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LineTooLong;

impl LineFramer {
    pub(crate) fn new(max_line: usize) -> Self {
        LineFramer {
            partial: Vec::new(),
            after_cr: false,
            max_line,
        }
    }

    /// Appends the complete lines of `chunk` to `lines`; an unterminated tail waits for more.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        lines: &mut VecDeque<String>,
    ) -> Result<usize, LineTooLong> {
        let mut added = 0;
        for &byte in chunk {
            if self.after_cr && byte == b'\n' {
                self.after_cr = false;
                continue;
            }
            self.after_cr = false;
            if byte == b'\n' || byte == b'\r' {
                self.after_cr = byte == b'\r';
                lines.push_back(String::from_utf8_lossy(&self.partial).into_owned());
                self.partial.clear();
                added += 1;
            } else {
                self.partial.push(byte);
                if self.partial.len() > self.max_line {
                    return Err(LineTooLong);
                }
            }
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

    /// The last non-blank line seen, for the reason of a crash.
    pub(crate) fn last_line(&self) -> &str {
        &self.last_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(chunks: &[&[u8]]) -> Vec<String> {
        let mut framer = LineFramer::new(100);
        let mut lines = VecDeque::new();
        for chunk in chunks {
            framer.feed(chunk, &mut lines).unwrap();
        }
        lines.into()
    }

    #[test]
    fn lf_cr_and_crlf_each_end_one_line_even_across_chunks() {
        assert_eq!(frame(&[b"a\nb\rc\r\nd"]), ["a", "b", "c"]);
        assert_eq!(frame(&[b"a\r", b"\nb\n"]), ["a", "b"]);
        assert_eq!(frame(&[b"\r\r\n"]), ["", ""]);
        assert_eq!(frame(&[b"PUT ", b"1 2", b" 3\n"]), ["PUT 1 2 3"]);
    }

    #[test]
    fn a_line_past_the_cap_is_an_error() {
        let mut framer = LineFramer::new(4);
        let mut lines = VecDeque::new();
        assert_eq!(framer.feed(b"1234\n", &mut lines), Ok(1));
        assert_eq!(framer.feed(b"123", &mut lines), Ok(0));
        assert_eq!(framer.feed(b"45", &mut lines), Err(LineTooLong));
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
