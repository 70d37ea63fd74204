//! The text protocol of §3: the lines a player reads (initial and per phase) and the parsing
//! of an answer line with Java's `split`, `trim`, regex and `Integer.parseInt` semantics
//! (R22–R23). This module only turns text into commands and back; the state-dependent filters
//! of R24 and the execution live in `referee`.

use realm_core::PlayerId;

use crate::geom::{Cell, SIZE};
use crate::rules::{BuildingKind, GameState};

/// One recognised piece of an answer line (R23.1–4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Wait,
    Msg(String),
    Move { id: u32, x: u32, y: u32 },
    Train { level: u32, x: u32, y: u32 },
    Build { kind: BuildingKind, x: u32, y: u32 },
}

/// The initial lines (§3.2): the number of mine spots, then one `x y` line per spot in
/// row-major order.
pub fn initial_lines(state: &GameState) -> Vec<String> {
    let spots = state.map().spots();
    let mut lines = vec![spots.count().to_string()];
    lines.extend(spots.iter().map(|c| format!("{} {}", c.x(), c.y())));
    lines
}

/// The lines of one phase for player `p` (§3.3).
pub fn phase_lines(state: &GameState, p: PlayerId) -> Vec<String> {
    let q = 1 - p;
    let mut lines = vec![
        state.gold(p).to_string(),
        state.income(p).to_string(),
        state.gold(q).to_string(),
        state.income(q).to_string(),
    ];
    lines.extend(grid_rows(state, p, ['O', 'o', 'X', 'x']));
    let buildings: Vec<_> = state
        .buildings(p)
        .into_iter()
        .chain(state.buildings(q))
        .collect();
    lines.push(buildings.len().to_string());
    for b in buildings {
        let owner = usize::from(b.owner != p);
        lines.push(format!(
            "{owner} {} {} {}",
            b.kind as u8,
            b.cell.x(),
            b.cell.y()
        ));
    }
    let units: Vec<_> = state.units(p).into_iter().chain(state.units(q)).collect();
    lines.push(units.len().to_string());
    for u in units {
        let owner = usize::from(u.owner != p);
        lines.push(format!(
            "{owner} {} {} {} {}",
            u.id,
            u.level,
            u.cell.x(),
            u.cell.y()
        ));
    }
    lines
}

/// The 12 grid rows seen by `p`, with `marks` = [own active, own inactive, opponent active,
/// opponent inactive]; void is `#` and neutral `.`.
pub fn grid_rows(state: &GameState, p: PlayerId, marks: [char; 4]) -> Vec<String> {
    (0..SIZE)
        .map(|y| {
            (0..SIZE)
                .map(|x| {
                    let c = Cell::new(x, y);
                    if !state.map().is_playable(c) {
                        return '#';
                    }
                    match state.owner(c) {
                        None => '.',
                        Some(o) => {
                            let base = if o == p { 0 } else { 2 };
                            marks[base + usize::from(!state.active(o).has(c))]
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// Java's `line.split(";")`: every piece is kept except empty pieces at the end; a line with
/// no `;` at all is returned whole, even when empty (R22).
pub fn java_split(line: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = line.split(';').collect();
    if pieces.len() > 1 {
        while pieces.last() == Some(&"") {
            pieces.pop();
        }
    }
    pieces
}

/// Java's `String.trim`: removes every character up to U+0020 from both ends (R23).
pub fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= '\u{20}')
}

/// The characters Java's regex treats as line terminators (`.` does not match them).
fn is_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// What a Java `$` lets through at the end: the text without one final terminator, when the
/// piece ends with one.
fn strip_final_terminator(s: &str) -> &str {
    match s.chars().last() {
        Some(c) if is_terminator(c) => &s[..s.len() - c.len_utf8()],
        _ => s,
    }
}

/// `Integer.parseInt` of a non-empty ASCII digit string: `None` when it exceeds 2^31 − 1.
fn parse_java_int(digits: &str) -> Option<u32> {
    if digits.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        // Leading zeros keep the value at 0, so any number of them is accepted.
        value = value * 10 + u64::from(b - b'0');
        if value > i32::MAX as u64 {
            return None;
        }
    }
    Some(value as u32)
}

/// Classifies one trimmed piece (R23). `None` means unrecognised, which is fatal (R34).
pub fn parse_piece(piece: &str) -> Option<Command> {
    if piece == "WAIT" {
        return Some(Command::Wait);
    }
    if let Some(text) = piece.strip_prefix("MSG ") {
        // `^MSG (.*)$`: `.` stops at the first terminator, after which only the end of the
        // piece or one final terminator may follow.
        let ok = match text.char_indices().find(|(_, c)| is_terminator(*c)) {
            None => true,
            Some((i, c)) => i + c.len_utf8() == text.len(),
        };
        return ok.then(|| Command::Msg(text.to_string()));
    }
    let body = strip_final_terminator(piece);
    // Exactly four words (no list: this runs for every command of every answer).
    let mut split = body.split(' ');
    let words = [split.next()?, split.next()?, split.next()?, split.next()?];
    if split.next().is_some() {
        return None;
    }
    match words {
        [verb @ ("MOVE" | "TRAIN"), a, b, c] => {
            let (a, x, y) = (parse_java_int(a)?, parse_java_int(b)?, parse_java_int(c)?);
            Some(if verb == "MOVE" {
                Command::Move { id: a, x, y }
            } else {
                Command::Train { level: a, x, y }
            })
        }
        ["BUILD", kind @ ("MINE" | "TOWER"), x, y] => {
            let kind = if kind == "MINE" {
                BuildingKind::Mine
            } else {
                BuildingKind::Tower
            };
            Some(Command::Build {
                kind,
                x: parse_java_int(x)?,
                y: parse_java_int(y)?,
            })
        }
        _ => None,
    }
}

/// A parsed answer line: the recognised commands with their trimmed text, or the first
/// unrecognised piece.
pub fn parse_line(line: &str) -> Result<Vec<(Command, &str)>, &str> {
    // `java_split` without its list: empty pieces are held back until a later piece shows
    // they are not trailing (Java drops trailing empty pieces unless the line is one piece).
    let mut commands = Vec::with_capacity(4);
    let (mut pieces, mut held) = (0, 0);
    for piece in line.split(';') {
        pieces += 1;
        if piece.is_empty() {
            held += 1;
            continue;
        }
        if held > 0 {
            return Err("");
        }
        let piece = java_trim(piece);
        commands.push((parse_piece(piece).ok_or(piece)?, piece));
    }
    if pieces == 1 && held == 1 {
        return Err("");
    }
    Ok(commands)
}

/// What a bot reads in one phase, parsed (§3.2–3.3). The initial lines are parsed separately.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub gold: i32,
    pub income: i32,
    pub opp_gold: i32,
    pub opp_income: i32,
    /// The 12 rows, as sent.
    pub rows: Vec<String>,
    /// (owner 0 = me / 1 = opponent, type, x, y).
    pub buildings: Vec<(u8, u8, usize, usize)>,
    /// (owner, id, level, x, y).
    pub units: Vec<(u8, u32, u8, usize, usize)>,
}

/// Errors reading the protocol as a bot.
pub type ReadError = realm_core::BotError;

fn bad(line: &str) -> ReadError {
    ReadError::BadInput(line.to_string())
}

fn numbers<const N: usize>(input: &mut dyn realm_core::Input) -> Result<[i64; N], ReadError> {
    let line = realm_core::read_line(input)?;
    let mut out = [0; N];
    let mut words = line.split_whitespace();
    for slot in &mut out {
        *slot = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| bad(&line))?;
    }
    Ok(out)
}

/// Reads the initial lines: the mine spots.
pub fn read_initial(input: &mut dyn realm_core::Input) -> Result<Vec<Cell>, ReadError> {
    let [n] = numbers::<1>(input)?;
    (0..n.max(0))
        .map(|_| {
            let [x, y] = numbers::<2>(input)?;
            Cell::checked(x, y).ok_or_else(|| bad(&format!("{x} {y}")))
        })
        .collect()
}

/// Reads the lines of one phase.
pub fn read_observation(input: &mut dyn realm_core::Input) -> Result<Observation, ReadError> {
    let [gold] = numbers::<1>(input)?;
    let [income] = numbers::<1>(input)?;
    let [opp_gold] = numbers::<1>(input)?;
    let [opp_income] = numbers::<1>(input)?;
    let rows = (0..SIZE)
        .map(|_| {
            let row = realm_core::read_line(input)?;
            if row.chars().count() == SIZE {
                Ok(row)
            } else {
                Err(bad(&row))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let [n] = numbers::<1>(input)?;
    let mut buildings = Vec::new();
    for _ in 0..n.max(0) {
        let [o, t, x, y] = numbers::<4>(input)?;
        Cell::checked(x, y).ok_or_else(|| bad("building outside the grid"))?;
        buildings.push((o as u8, t as u8, x as usize, y as usize));
    }
    let [n] = numbers::<1>(input)?;
    let mut units = Vec::new();
    for _ in 0..n.max(0) {
        let [o, id, level, x, y] = numbers::<5>(input)?;
        Cell::checked(x, y).ok_or_else(|| bad("unit outside the grid"))?;
        units.push((
            o as u8,
            id as u32,
            level.clamp(1, 3) as u8,
            x as usize,
            y as usize,
        ));
    }
    Ok(Observation {
        gold: gold as i32,
        income: income as i32,
        opp_gold: opp_gold as i32,
        opp_income: opp_income as i32,
        rows,
        buildings,
        units,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse_piece` spelled out with a list of words and `str::parse` (its first form).
    fn reference_piece(piece: &str) -> Option<Command> {
        if piece == "WAIT" || piece.starts_with("MSG ") {
            return parse_piece(piece);
        }
        let words: Vec<&str> = strip_final_terminator(piece).split(' ').collect();
        let int = |w: &str| -> Option<u32> {
            let all_digits = !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
            let significant = w.trim_start_matches('0');
            if !all_digits || significant.len() > 10 {
                return None;
            }
            let v: u64 = if significant.is_empty() {
                0
            } else {
                significant.parse().ok()?
            };
            (v <= i32::MAX as u64).then_some(v as u32)
        };
        Some(match words.as_slice() {
            ["MOVE", a, b, c] => Command::Move {
                id: int(a)?,
                x: int(b)?,
                y: int(c)?,
            },
            ["TRAIN", a, b, c] => Command::Train {
                level: int(a)?,
                x: int(b)?,
                y: int(c)?,
            },
            ["BUILD", k @ ("MINE" | "TOWER"), x, y] => Command::Build {
                kind: if *k == "MINE" {
                    BuildingKind::Mine
                } else {
                    BuildingKind::Tower
                },
                x: int(x)?,
                y: int(y)?,
            },
            _ => return None,
        })
    }

    /// `parse_line` spelled out with `java_split` (its first form).
    fn reference(line: &str) -> Result<Vec<(Command, &str)>, &str> {
        java_split(line)
            .into_iter()
            .map(|piece| {
                let piece = java_trim(piece);
                reference_piece(piece).map(|c| (c, piece)).ok_or(piece)
            })
            .collect()
    }

    #[test]
    fn parse_line_matches_its_spelled_out_form_on_the_edges() {
        for line in [
            "",
            ";",
            ";;",
            " ",
            "WAIT",
            "WAIT;",
            "WAIT;;",
            ";WAIT",
            " ;WAIT",
            "WAIT; ",
            "WAIT;;MSG a",
            "MOVE 1 2 3;;TRAIN 1 0 0",
            "MOVE 01 2 3",
            "MOVE 0000000000001 2 3",
            "MOVE 2147483647 0 0",
            "MOVE 2147483648 0 0",
            "MOVE 99999999999999999999 0 0",
            "MOVE 1 2",
            "MOVE 1 2 3 4",
            "MOVE 1  2 3",
            "MOVE +1 2 3",
            "MOVE -1 2 3",
            "BUILD MINE 3 4\n",
            "BUILD MINE 3 4\n\n",
            "BUILD TOWER 3 4",
            "BUILD HQ 3 4",
            "TRAIN 3 11 11 ",
            "\tTRAIN 3 11 11",
            "MSG hi;WAIT",
            "move 1 2 3",
            "MOVE 1 2 3;BUILD MINE 1 1;TRAIN 2 5 5;WAIT",
        ] {
            assert_eq!(parse_line(line), reference(line), "{line:?}");
        }
    }

    fn verdict(line: &str) -> Result<Vec<Command>, String> {
        parse_line(line)
            .map(|v| v.into_iter().map(|(c, _)| c).collect())
            .map_err(|p| p.to_string())
    }

    fn mv(id: u32, x: u32, y: u32) -> Command {
        Command::Move { id, x, y }
    }

    #[test]
    fn r22_java_split_drops_only_trailing_empty_pieces() {
        assert_eq!(java_split(""), vec![""]);
        assert!(java_split(";").is_empty());
        assert!(java_split(";;;").is_empty());
        assert_eq!(java_split("WAIT;"), vec!["WAIT"]);
        assert_eq!(java_split(";WAIT"), vec!["", "WAIT"]);
        assert_eq!(java_split("A;;B;;"), vec!["A", "", "B"]);
        assert_eq!(java_split("WAIT; "), vec!["WAIT", " "]);
    }

    #[test]
    fn e8_parsing_table() {
        assert_eq!(verdict(""), Err(String::new()));
        assert_eq!(verdict(";"), Ok(vec![]));
        assert_eq!(verdict("WAIT;"), Ok(vec![Command::Wait]));
        assert_eq!(verdict("WAIT; "), Err(String::new()));
        assert_eq!(verdict("WAIT;;MOVE 1 2 3"), Err(String::new()));
        assert_eq!(verdict(";WAIT"), Err(String::new()));
        assert_eq!(
            verdict(" MOVE 1 2 3 ;\tTRAIN 1 0 1\t"),
            Ok(vec![
                mv(1, 2, 3),
                Command::Train {
                    level: 1,
                    x: 0,
                    y: 1
                }
            ])
        );
        assert_eq!(verdict("MSG"), Err("MSG".into()));
        assert_eq!(verdict("MSG "), Err("MSG".into()));
        assert_eq!(verdict("MSG  x"), Ok(vec![Command::Msg(" x".into())]));
        assert_eq!(verdict("MSG a;b"), Err("b".into()));
        assert_eq!(verdict("MOVE 01 002 3"), Ok(vec![mv(1, 2, 3)]));
        assert_eq!(
            verdict("MOVE 2147483647 1 1"),
            Ok(vec![mv(2147483647, 1, 1)])
        );
        assert!(verdict("MOVE 2147483648 1 1").is_err());
        assert_eq!(
            verdict("MOVE 0000000000002147483647 1 1"),
            Ok(vec![mv(2147483647, 1, 1)])
        );
        for fatal in [
            "TRAIN  1 1",
            "TRAIN 1 2",
            "WAIT 1",
            "move 1 2 3",
            "MOVE 1  2 3",
            "MOVE 1 2 -3",
            "MOVE +1 2 3",
            "BUILD MINE  3",
            "BUILD MINE 3",
            "BUILD tower 1 1",
            "WAIT\u{2028}",
            "MSG a\u{2028}b",
            "MOVE 1 2 3\u{a0}",
            "MOVE 1 2 3\u{2028}\u{2028}",
            "MOVE １ 2 3",
        ] {
            assert!(verdict(fatal).is_err(), "{fatal:?} must be fatal");
        }
        assert_eq!(verdict("MOVE 1 2 3\u{2028}"), Ok(vec![mv(1, 2, 3)]));
        assert_eq!(
            verdict("MSG a\u{2028}"),
            Ok(vec![Command::Msg("a\u{2028}".into())])
        );
        assert_eq!(verdict("\u{0}WAIT\u{1f}"), Ok(vec![Command::Wait]));
        assert_eq!(
            verdict("TRAIN 1 12 3"),
            Ok(vec![Command::Train {
                level: 1,
                x: 12,
                y: 3
            }])
        );
        assert_eq!(
            verdict("BUILD TOWER 4 05"),
            Ok(vec![Command::Build {
                kind: BuildingKind::Tower,
                x: 4,
                y: 5
            }])
        );
        assert_eq!(verdict("MOVE 1 2 3; move 1 2 3"), Err("move 1 2 3".into()));
    }
}
