//! The wire text of §3: the lines a bot reads each call (initial input, grids, CURRENT, NEXT)
//! and the strict grammar of its two answer lines (§3.4).
//!
//! Parsing here is syntax only; whether a well-formed PUT or PICK is legal is decided by the
//! referee against the game state.

use std::fmt;

use crate::bits::Bits;
use crate::rules::{Game, Slot};
use crate::setup::Mode;
use crate::tiles::tile;

/// A relative player id as the reader sees it: (seat − reader) mod n (§3).
pub fn relative(seat: usize, reader: usize, n: usize) -> usize {
    (seat + n - reader) % n
}

/// Every line `reader` reads for the current call of `game`: the initial input if `first_call`
/// in a standard mode, the grids (own first), CURRENT and NEXT (§3.1, §3.2).
pub fn input_lines<B: Bits>(game: &Game<B>, reader: usize, first_call: bool) -> Vec<String> {
    let config = game.config();
    let n = config.n_players;
    let mut lines = Vec::with_capacity(2 + n * B::S + 2 * config.line_len());
    if first_call && config.mode == Mode::Standard {
        lines.push(n.to_string());
        lines.push(config.line_len().to_string());
    }
    for k in 0..n {
        let seat = (reader + k) % n;
        lines.extend(game.kingdom(seat).rows_text());
    }
    let owner = |slot: &Slot| match slot.owner {
        Some(seat) => relative(seat as usize, reader, n).to_string(),
        None => "-1".to_string(),
    };
    for (i, slot) in game.current().iter().enumerate() {
        let flag = u8::from(i == game.slot_index());
        lines.push(format!("{} {} {flag}", tile_text(slot.id), owner(slot)));
    }
    for slot in game.next() {
        lines.push(format!("{} {}", tile_text(slot.id), owner(slot)));
    }
    lines
}

/// `ID CELL CELL` of a tile, or the placeholder `0 _0 _0` for ID 0.
pub fn tile_text(id: u8) -> String {
    match tile(id) {
        Some(t) => format!("{} {} {}", t.id, t.a.code(), t.b.code()),
        None => "0 _0 _0".to_string(),
    }
}

/// Why an answer line is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    pub expected: &'static str,
    pub line: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected `{}`, got {:?}", self.expected, self.line)
    }
}

/// A well-formed PICK line: the ID (saturated to i64) and the optional message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub id: i64,
    pub message: Option<String>,
}

/// Parses `PUT x y r` (§3.4). Numbers too large for i64 saturate; they are well formed but
/// can never be legal.
pub fn parse_put(line: &str) -> Result<[i64; 3], Malformed> {
    let bad = || Malformed {
        expected: "PUT x y rotation",
        line: line.to_string(),
    };
    let mut words = Words::new(strip_cr(line));
    if words.next_word() != Some("PUT") {
        return Err(bad());
    }
    let mut values = [0i64; 3];
    for v in &mut values {
        *v = words.next_word().and_then(parse_int).ok_or_else(bad)?;
    }
    if words.next_word().is_some() {
        return Err(bad());
    }
    Ok(values)
}

/// Parses `PICK id [message]` (§3.4). The message is everything after the ID's separating
/// whitespace, with trailing whitespace removed.
pub fn parse_pick(line: &str) -> Result<Pick, Malformed> {
    let bad = || Malformed {
        expected: "PICK id [message]",
        line: line.to_string(),
    };
    let mut words = Words::new(strip_cr(line));
    if words.next_word() != Some("PICK") {
        return Err(bad());
    }
    let id = words.next_word().and_then(parse_int).ok_or_else(bad)?;
    let rest = words.rest().trim_matches(is_ws);
    let message = (!rest.is_empty()).then(|| rest.to_string());
    Ok(Pick { id, message })
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

// `'-'? DIGIT+` in ASCII, saturating on overflow.
fn parse_int(word: &str) -> Option<i64> {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: i64 = 0;
    for b in digits.bytes() {
        value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    Some(if negative { -value } else { value })
}

// Splits on runs of spaces and tabs only (no other whitespace is a separator).
struct Words<'a> {
    rest: &'a str,
}

impl<'a> Words<'a> {
    fn new(line: &'a str) -> Self {
        Words { rest: line }
    }

    fn next_word(&mut self) -> Option<&'a str> {
        let trimmed = self.rest.trim_start_matches(is_ws);
        if trimmed.is_empty() {
            self.rest = trimmed;
            return None;
        }
        let end = trimmed.find(is_ws).unwrap_or(trimmed.len());
        let (word, rest) = trimmed.split_at(end);
        self.rest = rest;
        Some(word)
    }

    fn rest(&self) -> &'a str {
        self.rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_grammar() {
        assert_eq!(parse_put("PUT 4 5 1"), Ok([4, 5, 1]));
        assert_eq!(parse_put("  PUT  4 5 1 "), Ok([4, 5, 1]));
        assert_eq!(parse_put("PUT\t4\t5\t1\r"), Ok([4, 5, 1]));
        assert_eq!(parse_put("PUT 99 -7 9"), Ok([99, -7, 9]));
        assert_eq!(
            parse_put("PUT 99999999999999999999999 0 0"),
            Ok([i64::MAX, 0, 0])
        );
        for bad in [
            "",
            "put 4 5 1",
            "PUT 4 5",
            "PUT 4 5 1 0",
            "PUT 4 x 1",
            "PUT +4 5 1",
            "PUT 4 5 1\r\r",
            "PUT -4- 5 1",
            "PUT - 5 1",
            "PUT4 5 1",
            "PUT 4 5 1\u{a0}",
        ] {
            assert!(parse_put(bad).is_err(), "{bad:?} should be malformed");
        }
    }

    #[test]
    fn pick_grammar() {
        assert_eq!(
            parse_pick("PICK 40 mine first"),
            Ok(Pick {
                id: 40,
                message: Some("mine first".into())
            })
        );
        assert_eq!(
            parse_pick("PICK\t11"),
            Ok(Pick {
                id: 11,
                message: None
            })
        );
        assert_eq!(
            parse_pick(" PICK 11  "),
            Ok(Pick {
                id: 11,
                message: None
            })
        );
        assert_eq!(
            parse_pick("PICK 99"),
            Ok(Pick {
                id: 99,
                message: None
            })
        );
        for bad in [
            "PICK",
            "PICK x",
            "pick 3",
            "PICK 3x",
            "",
            "PUT 1 2 3",
            "PICK +3",
        ] {
            assert!(parse_pick(bad).is_err(), "{bad:?} should be malformed");
        }
    }

    #[test]
    fn relative_ids() {
        assert_eq!(relative(0, 1, 2), 1);
        assert_eq!(relative(3, 1, 4), 2);
        assert_eq!(relative(0, 3, 4), 1);
    }
}
