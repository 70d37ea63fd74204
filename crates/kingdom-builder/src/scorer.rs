//! The `realm score kingdom-builder` command of 6.4 as a library call: options in, the exact
//! stdout text out, or a one-line error.
//!
//! The binary only reads the file (or stdin) and prints; choosing the player count, checking
//! digits against it and formatting the three outputs happen here so they can be tested.

use std::fmt::Write as _;

use crate::board::{Board, MAX_PLAYERS};
use crate::cards::{parse_card_list, CardListError};
use crate::parse::{board_text, parse_located, LocatedBoard, ParseError};
use crate::score::{score_table, LordsRule, ScoreRules, ScoreTable};

/// What the scorer prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ScoreFormat {
    /// One line: the N totals separated by single spaces.
    #[default]
    Totals,
    /// `--detail`: one line per component (`castles`, then the cards ascending), then `total`.
    Detail,
    /// `--json`: `{"players":N,"cards":{"castles":[..],...},"total":[..]}` on one line.
    Json,
}

/// The scorer's command-line options.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ScoreOptions {
    /// The raw `--cards` list (numbers or names, comma-separated); `None` scores the castles
    /// only.
    pub cards: Option<String>,
    /// `--players N` (1..=4); `None` takes the highest digit on the board, at least 1.
    pub players: Option<usize>,
    /// `--lords-zero` (6.2).
    pub lords_zero: bool,
    pub format: ScoreFormat,
}

/// Why a board could not be scored. Every message is one line without a trailing dot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Cards(#[from] CardListError),
    #[error("--players must be 1 to {MAX_PLAYERS}, got {0}")]
    PlayerCount(usize),
    #[error(
        "line {line}, column {column}: settlement of player {digit} but --players is {n_players}"
    )]
    DigitAbovePlayers {
        line: usize,
        column: usize,
        digit: u8,
        n_players: usize,
    },
}

impl ScoreError {
    /// True when the error is about the board's content (so a message may name the board
    /// file); false for the options (`--cards`, `--players`), which no file explains.
    pub fn is_about_board(&self) -> bool {
        matches!(
            self,
            ScoreError::Parse(_) | ScoreError::DigitAbovePlayers { .. }
        )
    }
}

/// Parses and scores a board as the command does, returning the board and its table.
pub fn score_text(
    board_text: &str,
    options: &ScoreOptions,
) -> Result<(Board, ScoreTable), ScoreError> {
    score_located(|| parse_located(board_text), options)
}

/// `score_text` for the raw bytes of a board file: bytes that are not UTF-8 are a board error
/// with the line and column of the first bad byte.
pub fn score_bytes(
    board_bytes: &[u8],
    options: &ScoreOptions,
) -> Result<(Board, ScoreTable), ScoreError> {
    score_located(|| parse_located(board_text(board_bytes)?), options)
}

/// The checks in their documented order: the card list, the player range, the board (read
/// by `parse`), then the digits against the player count.
fn score_located(
    parse: impl FnOnce() -> Result<LocatedBoard, ParseError>,
    options: &ScoreOptions,
) -> Result<(Board, ScoreTable), ScoreError> {
    let cards = parse_card_list(options.cards.as_deref().unwrap_or(""))?;
    if let Some(n) = options.players {
        if !(1..=MAX_PLAYERS).contains(&n) {
            return Err(ScoreError::PlayerCount(n));
        }
    }
    let located = parse()?;
    let board = located.board.clone();
    let n_players = match options.players {
        Some(n) => {
            let above = board.cells().find_map(|(pos, cell)| {
                cell.player()
                    .filter(|&d| usize::from(d) > n)
                    .map(|d| (pos, d))
            });
            if let Some((pos, digit)) = above {
                let (line, column) = located.location(pos);
                return Err(ScoreError::DigitAbovePlayers {
                    line,
                    column,
                    digit,
                    n_players: n,
                });
            }
            n
        }
        // D24: the highest digit; a board without settlements is scored for one player.
        None => usize::from(board.highest_digit()).max(1),
    };
    let lords = if options.lords_zero {
        LordsRule::ZeroCountsRank
    } else {
        LordsRule::NonZeroCounts
    };
    let table = score_table(&board, &cards, ScoreRules { n_players, lords });
    Ok((board, table))
}

/// Exactly what `realm score kingdom-builder` prints on stdout, final line feed included.
pub fn run_scorer(board_text: &str, options: &ScoreOptions) -> Result<String, ScoreError> {
    let (_, table) = score_text(board_text, options)?;
    Ok(format_table(&table, options.format))
}

/// Formats a score table as the command prints it.
pub fn format_table(table: &ScoreTable, format: ScoreFormat) -> String {
    let mut out = String::new();
    match format {
        ScoreFormat::Totals => {
            out.push_str(&join(&table.totals(), " "));
            out.push('\n');
        }
        ScoreFormat::Detail => {
            for row in table.rows() {
                let _ = writeln!(out, "{} {}", row.component.name(), join(&row.gold, " "));
            }
            let _ = writeln!(out, "total {}", join(&table.totals(), " "));
        }
        ScoreFormat::Json => {
            // Written by hand so that the keys keep the spec's order (castles, then cards
            // ascending) whatever serde_json's map features are; names need no escaping.
            let _ = write!(out, "{{\"players\":{},\"cards\":{{", table.n_players());
            for (idx, row) in table.rows().iter().enumerate() {
                let comma = if idx > 0 { "," } else { "" };
                let _ = write!(
                    out,
                    "{comma}\"{}\":[{}]",
                    row.component.name(),
                    join(&row.gold, ",")
                );
            }
            let _ = writeln!(out, "}},\"total\":[{}]}}", join(&table.totals(), ","));
        }
    }
    out
}

fn join(values: &[u32], separator: &str) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}
