//! The text protocol (spec §4): initial input, per-turn input with the `x` anchor marks and
//! the deduplicated valid-move list in the spec's order (§4.3), and the two-step reading of an
//! answer: syntax (§4.4, `malformed`) then meaning (R10, `invalid`).
//!
//! Bots and the referee share these functions, so what a built-in bot parses is exactly what
//! the referee writes.

use std::fmt;

use crate::rules::{Placement, Position};
use crate::shapes::{letter_char, letters_string, tables, N_LETTERS};

/// A syntactically valid answer `X Y Lfrk` (§4.4). Values are kept as read; X and Y saturate
/// at `u32::MAX` so that huge numbers stay `invalid` rather than `malformed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    pub x: u32,
    pub y: u32,
    /// The letter as written, `b'A'..=b'Z'`.
    pub letter: u8,
    pub f: u8,
    pub r: u8,
    pub k: u8,
}

impl Name {
    /// The 4-character `Lfrk` part.
    pub fn code(&self) -> String {
        format!("{}{}{}{}", self.letter as char, self.f, self.r, self.k)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.x, self.y, self.code())
    }
}

/// Parses a decimal run, saturating instead of overflowing.
fn parse_number(digits: &str) -> u32 {
    digits.bytes().fold(0u32, |acc, d| {
        acc.saturating_mul(10).saturating_add((d - b'0') as u32)
    })
}

/// Reads one answer line with the grammar of §4.4; `None` means `malformed`.
pub fn parse_answer(line: &str) -> Option<Name> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let line = line.trim_matches(|c| c == ' ' || c == '\t');
    let bytes = line.as_bytes();
    let mut i = 0;
    let take = |pred: fn(u8) -> bool, i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && pred(bytes[*i]) {
            *i += 1;
        }
        start..*i
    };
    let is_blank = |c: u8| c == b' ' || c == b'\t';
    let x = take(|c| c.is_ascii_digit(), &mut i);
    let gap1 = take(is_blank, &mut i);
    let y = take(|c| c.is_ascii_digit(), &mut i);
    let gap2 = take(is_blank, &mut i);
    if x.is_empty() || gap1.is_empty() || y.is_empty() || gap2.is_empty() {
        return None;
    }
    let name = bytes.get(i..i + 4)?;
    if !name[0].is_ascii_uppercase() || !name[1..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    i += 4;
    if i < bytes.len() && !is_blank(bytes[i]) {
        return None;
    }
    Some(Name {
        x: parse_number(&line[x]),
        y: parse_number(&line[y]),
        letter: name[0],
        f: name[1] - b'0',
        r: name[2] - b'0',
        k: name[3] - b'0',
    })
}

/// R10: the placement an answer denotes for the player to move, or why it is `invalid`.
pub fn resolve(pos: &Position, player: usize, name: &Name) -> Result<Placement, String> {
    let t = tables();
    let l = (name.letter - b'A') as usize;
    if l >= N_LETTERS {
        return Err(format!("there is no shape {}", name.letter as char));
    }
    if pos.set() >> l & 1 == 0 {
        return Err(format!(
            "shape {} is not in this game's set",
            name.letter as char
        ));
    }
    if pos.remaining(player) >> l & 1 == 0 {
        return Err(format!("shape {} was already placed", name.letter as char));
    }
    if name.f > 1 {
        return Err(format!("flip {} is not 0 or 1", name.f));
    }
    if name.r > 3 {
        return Err(format!("rotation {} is not in 0..3", name.r));
    }
    let n = t.sizes[l];
    if name.k < 1 || name.k > n {
        return Err(format!("square {} is not in 1..{n}", name.k));
    }
    let size = pos.size() as u32;
    if name.x >= size || name.y >= size {
        return Err(format!("cell ({}, {}) is off the board", name.x, name.y));
    }
    let entry = &t.names[l][name.f as usize * 4 + name.r as usize];
    let (sx, sy) = entry.squares[name.k as usize - 1];
    let x = name.x as i64 - sx as i64;
    let y = name.y as i64 - sy as i64;
    pos.check(player, entry.orient as usize, x, y)
        .map_err(|e| e.describe().to_string())
}

/// §4.3: the representative name of a legal placement of `player`: the smallest (f, r, k)
/// whose square k lies on an anchor cell.
pub fn representative(pos: &Position, player: usize, mv: Placement) -> Name {
    let t = tables();
    let l = mv.letter();
    let n = t.sizes[l] as usize;
    for fr in 0..8 {
        let entry = &t.names[l][fr];
        if entry.orient != mv.orient {
            continue;
        }
        for (k, &(sx, sy)) in entry.squares[..n].iter().enumerate() {
            let (x, y) = (mv.x as usize + sx as usize, mv.y as usize + sy as usize);
            if pos.is_anchor(player, x, y) {
                return Name {
                    x: x as u32,
                    y: y as u32,
                    letter: b'A' + l as u8,
                    f: (fr / 4) as u8,
                    r: (fr % 4) as u8,
                    k: k as u8 + 1,
                };
            }
        }
    }
    unreachable!("a legal placement covers an anchor cell (R9)")
}

/// §4.3: the valid-move list of `player`, one representative name per placement, sorted by
/// (letter, f, r, k, Y, X).
pub fn valid_moves(pos: &Position, player: usize) -> Vec<(Name, Placement)> {
    let mut moves = Vec::new();
    pos.generate(player, &mut moves);
    let mut named: Vec<(Name, Placement)> = moves
        .into_iter()
        .map(|mv| (representative(pos, player, mv), mv))
        .collect();
    named.sort_by_key(|(n, _)| (n.letter, n.f, n.r, n.k, n.y, n.x));
    named
}

/// §4.1: the initial input of `player`.
pub fn initial_input(pos: &Position, player: usize) -> Vec<String> {
    let t = tables();
    let set = pos.set();
    let mut lines = vec![set.count_ones().to_string()];
    lines.extend(
        (0..N_LETTERS)
            .filter(|l| set >> l & 1 == 1)
            .map(|l| t.lines[l].to_string()),
    );
    lines.push(pos.player_count().to_string());
    lines.push(player.to_string());
    lines.push(pos.size().to_string());
    lines.push(letters_string(set));
    lines
}

/// The board rows as `player` sees them: colours, its anchors as `x`, `.` elsewhere.
pub fn board_rows(pos: &Position, player: Option<usize>) -> Vec<String> {
    let n = pos.size();
    (0..n)
        .map(|y| {
            (0..n)
                .map(|x| match pos.owner(x, y) {
                    Some(q) => char::from_digit(q as u32, 10).unwrap_or('?'),
                    None if player.is_some_and(|p| pos.is_anchor(p, x, y)) => 'x',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

/// §4.2: one turn's input of `player`, given the other players' moves since its last turn
/// (already formatted as `pid X Y Lfrk`).
pub fn turn_input(pos: &Position, player: usize, others: &[String]) -> Vec<String> {
    let mut lines = board_rows(pos, Some(player));
    lines.push(others.len().to_string());
    lines.extend(others.iter().cloned());
    let valid = valid_moves(pos, player);
    lines.push(valid.len().to_string());
    lines.extend(valid.iter().map(|(n, _)| n.to_string()));
    lines
}

/// The letter of a placement as a one-character string.
pub fn letter_str(l: usize) -> String {
    letter_char(l).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A8: the output grammar.
    #[test]
    fn a8_grammar() {
        let q = Some(Name {
            x: 0,
            y: 0,
            letter: b'Q',
            f: 0,
            r: 0,
            k: 1,
        });
        for ok in [
            " 0 0 Q001 ",
            "0 0 Q001\r",
            "00 00 Q001",
            "0\t0\tQ001",
            "0 0 Q001 hi there",
        ] {
            assert_eq!(parse_answer(ok), q, "{ok:?}");
        }
        for bad in [
            "",
            "0 0 Q001x",
            "0 0 q001",
            "0 0 Q0011",
            "0 0 Q01",
            "0,0 Q001",
            "-1 0 A001",
        ] {
            assert_eq!(parse_answer(bad), None, "{bad:?}");
        }
        assert_eq!(
            parse_answer("99999999999999999999 0 A001").map(|n| n.x),
            Some(u32::MAX)
        );
    }
}
