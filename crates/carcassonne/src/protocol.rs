//! The text protocol (§4): initial and turn input lines, tile lines with the links notation,
//! man tokens, and the two-step parse of an answer (syntax here, legality in the referee).

use crate::board::{Board, Placement, SIZE, TOKEN_MONASTERY};
use crate::tiles::tileset;

/// The text of a man token: `s0`, `s-`, `s+` or `40`.
pub fn token_text(token: u8) -> String {
    if token == TOKEN_MONASTERY {
        return "40".to_string();
    }
    let mark = ['0', '-', '+'][(token % 3) as usize];
    format!("{}{mark}", token / 3)
}

/// Parses a man token; `None` for `-1` and for anything that is not a token form.
pub fn parse_token(text: &str) -> Option<u8> {
    if text == "40" {
        return Some(TOKEN_MONASTERY);
    }
    let bytes = text.as_bytes();
    if bytes.len() != 2 || !(b'0'..=b'3').contains(&bytes[0]) {
        return None;
    }
    let mark = match bytes[1] {
        b'0' => 0,
        b'-' => 1,
        b'+' => 2,
        _ => return None,
    };
    Some((bytes[0] - b'0') * 3 + mark)
}

/// The initial input (§4.1).
pub fn initial_lines(n_players: usize, me: usize) -> Vec<String> {
    vec![format!("{n_players} {me}"), format!("{SIZE} {SIZE}")]
}

/// The tile line of the tile in `slot` (§4.3).
pub fn placed_line(board: &Board, slot: usize) -> String {
    let p = &board.placed()[slot];
    let ty = tileset().get(p.ty);
    let tile = &ty.angles[p.angle as usize];
    let (owner, man) = match p.man {
        Some((player, token)) => (player.to_string(), token_text(token)),
        None => ("-1".to_string(), "-1".to_string()),
    };
    let e = tile.edges.map(|e| e.letter());
    format!(
        "{} {} {} {} {} {} {} {owner} {man} {} {}",
        p.row,
        p.col,
        e[0],
        e[1],
        e[2],
        e[3],
        u8::from(ty.center),
        u8::from(ty.shield),
        tile.links
    )
}

/// The last tile line: the tile to place, CSV orientation and links (§4.3).
pub fn to_place_line(ty: u8) -> String {
    let t = tileset().get(ty);
    let e = t.base().edges.map(|e| e.letter());
    format!(
        "-1 -1 {} {} {} {} {} -1 -1 {} {}",
        e[0],
        e[1],
        e[2],
        e[3],
        u8::from(t.center),
        u8::from(t.shield),
        t.csv_links
    )
}

/// The turn input (§4.2): the count, every placed tile, the tile to place.
pub fn turn_lines(board: &Board, ty: u8) -> Vec<String> {
    let n = board.placed().len();
    let mut lines = Vec::with_capacity(n + 2);
    lines.push((n + 1).to_string());
    lines.extend((0..n).map(|slot| placed_line(board, slot)));
    lines.push(to_place_line(ty));
    lines
}

/// An answer that passed the syntax check (§4.4); legality is checked against the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub row: i64,
    pub col: i64,
    pub angle: i64,
    /// The fourth token as written.
    pub man: String,
    /// True when tokens after the fourth were ignored.
    pub extra: bool,
}

/// Why an answer is malformed (§3.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    TooFewTokens(usize),
    NotAnInteger(String),
}

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Malformed::TooFewTokens(n) => write!(f, "expected 4 tokens, got {n}"),
            Malformed::NotAnInteger(t) => write!(f, "`{t}` is not a decimal integer"),
        }
    }
}

/// A decimal integer: optional `-`, then digits. Values too large for i64 saturate, which
/// keeps them out of every range without calling them malformed.
fn parse_int(text: &str) -> Result<i64, Malformed> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Malformed::NotAnInteger(text.to_string()));
    }
    Ok(text.parse().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// Splits an answer line on runs of spaces and tabs and checks its syntax. A stray `\r` or `\n`
/// at the end is taken as part of the line terminator.
pub fn parse_answer(line: &str) -> Result<Answer, Malformed> {
    let line = line.trim_end_matches(['\r', '\n']);
    let tokens: Vec<&str> = line.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
    if tokens.len() < 4 {
        return Err(Malformed::TooFewTokens(tokens.len()));
    }
    Ok(Answer {
        row: parse_int(tokens[0])?,
        col: parse_int(tokens[1])?,
        angle: parse_int(tokens[2])?,
        man: tokens[3].to_string(),
        extra: tokens.len() > 4,
    })
}

/// The output line for a placement and man token.
pub fn answer_line(at: Placement, token: Option<u8>) -> String {
    let man = token.map_or("-1".to_string(), token_text);
    format!("{} {} {} {man}", at.row, at.col, at.angle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r4_tokens_round_trip() {
        for token in 0..13 {
            assert_eq!(parse_token(&token_text(token)), Some(token));
        }
        for bad in ["-1", "4-", "00x", "x", "", "50", "1*"] {
            assert_eq!(parse_token(bad), None, "{bad}");
        }
    }

    #[test]
    fn r4_4_answers_split_on_blanks_and_need_four_integers_first() {
        let a = parse_answer("  70\t71  2 20 extra ").unwrap();
        assert_eq!(
            (a.row, a.col, a.angle, a.man.as_str(), a.extra),
            (70, 71, 2, "20", true)
        );
        assert_eq!(parse_answer("70 71 2"), Err(Malformed::TooFewTokens(3)));
        assert_eq!(parse_answer("70 71 2 20\r").unwrap().man, "20");
        assert_eq!(
            parse_answer("a b c d"),
            Err(Malformed::NotAnInteger("a".into()))
        );
        assert_eq!(
            parse_answer("70 +71 2 -1"),
            Err(Malformed::NotAnInteger("+71".into()))
        );
        assert_eq!(
            parse_answer("99999999999999999999 0 0 -1").unwrap().row,
            i64::MAX
        );
    }
}
