//! The full game's text protocol (PROTOCOL.md, "Full game"): the initial and per-turn input a
//! seat reads, and the answer line, a `;`-separated list of commands that is the whole turn.
//! Syntax is checked here; legality is the engine's (`GameState::is_legal`), and `illegal_reason`
//! says why a command is not legal.

use std::fmt;

use crate::board::{row_text, Pos, SIZE};
use crate::game::{cell_index, cell_pos, Action, GameState, MapCell, Phase, Terrain, TileKind};
use crate::score::LordsRule;

/// The map letter of a terrain card (G C D F T, the letters of RULES.md's G5).
pub fn card_letter(terrain: Terrain) -> char {
    MapCell::Open(terrain).token()
}

/// The terrain card of a map letter.
pub fn card_of_letter(text: &str) -> Option<Terrain> {
    match MapCell::from_token(text)? {
        MapCell::Open(t) if t.is_buildable() => Some(t),
        _ => None,
    }
}

/// A tile's protocol name: `ORACLE`, `FARM`, ...
pub fn tile_name(kind: TileKind) -> String {
    kind.name().to_ascii_uppercase()
}

/// The tile of a protocol name, in any letter case.
pub fn tile_of_name(text: &str) -> Option<TileKind> {
    TileKind::ALL
        .into_iter()
        .find(|k| k.name().eq_ignore_ascii_case(text))
}

/// The initial input of `seat` (sent once, before its first turn input): seats and seat, the
/// scoring cards and the Lords rule, the 20 map rows.
pub fn initial_lines(state: &GameState, seat: usize) -> Vec<String> {
    let n = realm_core::State::n_players(state);
    let cards: Vec<String> = state
        .cards()
        .iter()
        .map(|c| c.number().to_string())
        .collect();
    let zero = u8::from(state.lords_rule() == LordsRule::ZeroCountsRank);
    let mut lines = vec![format!("{n} {seat}"), format!("{} {zero}", cards.join(" "))];
    lines.extend(state.map().to_text().lines().map(str::to_string));
    lines
}

/// The board rows of a position: each cell's map letter, or the digit of the seat whose
/// settlement stands on it.
pub fn board_rows(state: &GameState) -> Vec<String> {
    (0..SIZE)
        .map(|row| {
            row_text(row, |pos| match state.occupant(pos.index()) {
                Some(p) => char::from(b'1' + p as u8),
                None => state.map().cell(pos).token(),
            })
        })
        .collect()
}

/// One character per seat for a location hex: `-` never took a tile from it, `H` holds its
/// tile, `U` holds it and may use it in this call (only the reader's own), `X` took it and
/// lost it.
fn holder_marks(state: &GameState, seat: usize, hex: usize) -> String {
    let n = realm_core::State::n_players(state);
    let usable = state.usable_tiles();
    (0..n)
        .map(|p| {
            if state.held_tiles(p).contains(hex) {
                let mine_now = p == seat && state.mover() == seat && usable.contains(hex);
                if mine_now {
                    'U'
                } else {
                    'H'
                }
            } else if state.taken_tiles(p).contains(hex) {
                'X'
            } else {
                '-'
            }
        })
        .collect()
}

/// The per-turn input of `seat` (the seat to move).
pub fn turn_lines(state: &GameState, seat: usize) -> Vec<String> {
    let n = realm_core::State::n_players(state);
    let (built, left) = state.build_progress();
    let mut lines = vec![format!(
        "{} {left} {built} {}",
        card_letter(state.revealed()),
        u8::from(state.is_last_round())
    )];
    let gold = state.gold();
    for (p, gold) in gold.iter().enumerate().take(n) {
        lines.push(if state.is_eliminated(p) {
            "-1 -1".to_string()
        } else {
            format!("{} {gold}", state.supply(p))
        });
    }
    lines.extend(board_rows(state));
    let mut discards = [0usize; 5];
    for &card in state.deck().discards() {
        discards[usize::from(card)] += 1;
    }
    lines.push(format!(
        "{} {}",
        state.deck().pile().len(),
        discards.map(|d| d.to_string()).join(" ")
    ));
    let hexes = state.terrain_cells(Terrain::Location);
    lines.push(hexes.len().to_string());
    for hex in hexes.iter() {
        let pos = Pos::from_index(hex);
        lines.push(format!(
            "{} {} {} {} {}",
            pos.row,
            pos.col,
            tile_name(state.tile_kind(hex)),
            state.tiles_left(hex),
            holder_marks(state, seat, hex)
        ));
    }
    lines
}

/// One command of an answer, as written (coordinates not range-checked yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Build(i64, i64),
    Tile(TileKind, i64, i64),
    Move(TileKind, i64, i64, i64, i64),
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Command::Build(r, c) => write!(f, "BUILD {r} {c}"),
            Command::Tile(k, r, c) => write!(f, "TILE {} {r} {c}", tile_name(k)),
            Command::Move(k, r1, c1, r2, c2) => {
                write!(f, "MOVE {} {r1} {c1} {r2} {c2}", tile_name(k))
            }
        }
    }
}

/// Why an answer does not follow the grammar (a `malformed` fault).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// 1-based index of the command among the non-empty ones.
    pub command: usize,
    pub text: String,
    pub reason: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "command {} `{}`: {}",
            self.command, self.text, self.reason
        )
    }
}

/// A decimal integer: optional `-`, then digits; too large values saturate (they are then
/// off the board, an invalid answer, not a malformed one).
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn parse_command(tokens: &[&str]) -> Result<Command, String> {
    let ints = |args: &[&str]| -> Result<Vec<i64>, String> {
        args.iter()
            .map(|t| parse_int(t).ok_or_else(|| format!("`{t}` is not a decimal integer")))
            .collect()
    };
    let arity = |want: usize| -> Result<(), String> {
        if tokens.len() == want + 1 {
            Ok(())
        } else {
            Err(format!(
                "{} takes {want} arguments, found {}",
                tokens[0].to_ascii_uppercase(),
                tokens.len() - 1
            ))
        }
    };
    let tile = |name: &str, moving: bool| -> Result<TileKind, String> {
        let kind = tile_of_name(name).ok_or_else(|| format!("unknown tile `{name}`"))?;
        match (kind.is_move(), moving) {
            (true, false) => Err(format!(
                "{} moves a settlement: MOVE {} r1 c1 r2 c2",
                tile_name(kind),
                tile_name(kind)
            )),
            (false, true) => Err(format!(
                "{} builds a settlement: TILE {} r c",
                tile_name(kind),
                tile_name(kind)
            )),
            _ => Ok(kind),
        }
    };
    let word = tokens[0].to_ascii_uppercase();
    match word.as_str() {
        "BUILD" => {
            arity(2)?;
            let v = ints(&tokens[1..])?;
            Ok(Command::Build(v[0], v[1]))
        }
        "TILE" => {
            arity(3)?;
            let kind = tile(tokens[1], false)?;
            let v = ints(&tokens[2..])?;
            Ok(Command::Tile(kind, v[0], v[1]))
        }
        "MOVE" => {
            arity(5)?;
            let kind = tile(tokens[1], true)?;
            let v = ints(&tokens[2..])?;
            Ok(Command::Move(kind, v[0], v[1], v[2], v[3]))
        }
        _ => Err(format!(
            "unknown command `{}` (BUILD, TILE or MOVE)",
            tokens[0]
        )),
    }
}

/// Splits an answer line into commands: `;` separates them, blanks (spaces, tabs) separate
/// tokens, empty commands are skipped, a final CR is ignored.
pub fn parse_answer(line: &str) -> Result<Vec<Command>, Malformed> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut commands = Vec::new();
    for part in line.split(';') {
        let tokens: Vec<&str> = part.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
        if tokens.is_empty() {
            continue;
        }
        let command = parse_command(&tokens).map_err(|reason| Malformed {
            command: commands.len() + 1,
            text: tokens.join(" "),
            reason,
        })?;
        commands.push(command);
    }
    Ok(commands)
}

/// A cell index for on-board coordinates.
fn cell_at(row: i64, col: i64) -> Option<u16> {
    let range = 0..SIZE as i64;
    (range.contains(&row) && range.contains(&col))
        .then(|| cell_index(Pos::new(row as usize, col as usize)))
}

/// The engine action of a command, or why its coordinates are off the board.
pub fn command_action(command: &Command) -> Result<Action, String> {
    let on_board =
        |r: i64, c: i64| cell_at(r, c).ok_or_else(|| format!("({r},{c}) is off the board"));
    Ok(match *command {
        Command::Build(r, c) => Action::Build(on_board(r, c)?),
        Command::Tile(tile, r, c) => Action::UseTile {
            tile,
            from: None,
            to: on_board(r, c)?,
        },
        Command::Move(tile, r1, c1, r2, c2) => Action::UseTile {
            tile,
            from: Some(on_board(r1, c1)?),
            to: on_board(r2, c2)?,
        },
    })
}

/// The command of an engine action (`None` for `EndTurn`, which the end of the line is).
pub fn action_command(action: &Action) -> Option<Command> {
    let rc = |cell: u16| {
        let p = cell_pos(cell);
        (p.row as i64, p.col as i64)
    };
    match *action {
        Action::Build(cell) => {
            let (r, c) = rc(cell);
            Some(Command::Build(r, c))
        }
        Action::UseTile {
            tile,
            from: None,
            to,
        } => {
            let (r, c) = rc(to);
            Some(Command::Tile(tile, r, c))
        }
        Action::UseTile {
            tile,
            from: Some(from),
            to,
        } => {
            let ((r1, c1), (r2, c2)) = (rc(from), rc(to));
            Some(Command::Move(tile, r1, c1, r2, c2))
        }
        Action::EndTurn => None,
    }
}

/// The answer line of a turn's actions (`EndTurn` dropped).
pub fn answer_line(actions: &[Action]) -> String {
    actions
        .iter()
        .filter_map(action_command)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

fn at(cell: u16) -> String {
    let p = cell_pos(cell);
    format!("({},{})", p.row, p.col)
}

/// Why a mover's action is not legal now, in words (the `invalid` fault's detail).
pub fn illegal_reason(state: &GameState, action: &Action) -> String {
    let phase = state.phase();
    let (built, left) = state.build_progress();
    match *action {
        Action::Build(cell) => {
            if phase == Phase::AfterBuild {
                return "the mandatory build is already complete".to_string();
            }
            let index = usize::from(cell);
            if state.occupied().contains(index) {
                return format!("{} is occupied", at(cell));
            }
            let card = state.revealed();
            if !state.terrain_cells(card).contains(index) {
                let here = state.map().at(index).terrain();
                return format!(
                    "{} is {}, the card is {}",
                    at(cell),
                    here.name(),
                    card.name()
                );
            }
            format!(
                "{} is not next to your settlements, and another empty {} cell is",
                at(cell),
                card.name()
            )
        }
        Action::UseTile { tile, from, to } => {
            let name = tile_name(tile);
            if phase == Phase::Building {
                return format!(
                    "no tile inside the mandatory build ({built} of {} settlements placed)",
                    built + left
                );
            }
            let usable = state.usable_tiles();
            let has_kind = usable.iter().any(|hex| state.tile_kind(hex) == tile);
            if !has_kind {
                return format!("you have no {name} tile to use this turn");
            }
            if !tile.is_move() && state.supply(state.mover()) == 0 {
                return "no settlement left in your supply".to_string();
            }
            if let Some(from) = from {
                if state.occupant(usize::from(from)) != Some(state.mover()) {
                    return format!("{} is not your settlement", at(from));
                }
            }
            format!("{} is not a {name} target", at(to))
        }
        Action::EndTurn => "the mandatory build is not complete".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_split_on_semicolons_and_blanks() {
        let cmds = parse_answer(
            " build 3 4;TILE farm\t5 6 ; ;MOVE Paddock 1 2 -3 99999999999999999999;\r",
        )
        .unwrap();
        assert_eq!(
            cmds,
            [
                Command::Build(3, 4),
                Command::Tile(TileKind::Farm, 5, 6),
                Command::Move(TileKind::Paddock, 1, 2, -3, i64::MAX)
            ]
        );
        assert_eq!(parse_answer("").unwrap(), []);
        let err = |line: &str| parse_answer(line).unwrap_err().to_string();
        assert_eq!(
            err("BUILD 1 2; BUILD 1"),
            "command 2 `BUILD 1`: BUILD takes 2 arguments, found 1"
        );
        assert_eq!(
            err("PLACE 1 2"),
            "command 1 `PLACE 1 2`: unknown command `PLACE` (BUILD, TILE or MOVE)"
        );
        assert_eq!(
            err("TILE BARN 1 2"),
            "command 1 `TILE BARN 1 2`: BARN moves a settlement: MOVE BARN r1 c1 r2 c2"
        );
        assert_eq!(
            err("MOVE FARM 1 2 3 4"),
            "command 1 `MOVE FARM 1 2 3 4`: FARM builds a settlement: TILE FARM r c"
        );
        assert_eq!(
            err("TILE CASTLE 1 2"),
            "command 1 `TILE CASTLE 1 2`: unknown tile `CASTLE`"
        );
        assert_eq!(
            err("BUILD +1 2"),
            "command 1 `BUILD +1 2`: `+1` is not a decimal integer"
        );
    }

    #[test]
    fn commands_and_actions_round_trip() {
        for cmd in [
            Command::Build(0, 19),
            Command::Tile(TileKind::Tower, 19, 0),
            Command::Move(TileKind::Harbor, 3, 4, 5, 6),
        ] {
            let action = command_action(&cmd).unwrap();
            assert_eq!(action_command(&action), Some(cmd.clone()));
            assert_eq!(parse_answer(&cmd.to_string()).unwrap(), [cmd]);
        }
        assert_eq!(
            command_action(&Command::Build(20, 0)),
            Err("(20,0) is off the board".to_string())
        );
    }
}
