//! Reading the text board of B5 with the spec's lenient rules: LF or CRLF line ends (and a
//! leading UTF-8 byte-order mark, a project choice), blank
//! lines at the end ignored, tokens split on any run of spaces or tabs, the odd-row indent
//! optional. Every rejection names a 1-based line and character column.
//!
//! This module does not check player counts or anything else about the content of a board:
//! any 20x20 grid of known tokens is a board (B5).

use std::fmt;

use crate::board::{Board, Cell, Pos, N_CELLS, SIZE};

/// The most bytes a board text may hold. A board takes about 1 KiB, so this leaves room for any
/// spacing while bounding what an endless input (`yes . | realm score ...`) costs: a reader
/// stops after `MAX_BOARD_BYTES + 1` bytes and `board_text` refuses them.
pub const MAX_BOARD_BYTES: usize = 1 << 20;

/// A board text that is not a B5 board, with the place of the first problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based character column on that line (a tab counts as one character).
    pub column: usize,
    pub kind: ParseErrorKind,
}

/// What is wrong at a `ParseError`'s place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The text does not hold exactly 20 non-blank rows; `found` counts the rows that are there
    /// (trailing blank lines excluded).
    RowCount { found: usize },
    /// A row does not hold exactly 20 tokens.
    RowLength { found: usize },
    /// A token outside the format's tokens (`. W M T C 1 2 3 4` in B5; the full game's map
    /// tokens in `game::map`).
    UnknownToken(String),
    /// A byte that does not start or continue a UTF-8 character (the text is not text).
    InvalidUtf8 { byte: u8 },
    /// The text goes on past `MAX_BOARD_BYTES`; the error's place is the first byte past it.
    TooLong,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::RowCount { found } => {
                write!(f, "expected {SIZE} board rows, found {found}")
            }
            ParseErrorKind::RowLength { found } => {
                write!(f, "expected {SIZE} tokens in the row, found {found}")
            }
            ParseErrorKind::UnknownToken(token) => {
                // Escaped and shortened so that the message stays one readable line whatever
                // bytes the input held.
                const SHOWN: usize = 16;
                let shown: String = token.chars().take(SHOWN).collect();
                let more = if token.chars().count() > SHOWN {
                    "..."
                } else {
                    ""
                };
                write!(f, "unknown token '{}{more}'", shown.escape_debug())
            }
            ParseErrorKind::InvalidUtf8 { byte } => {
                write!(f, "byte 0x{byte:02x} is not UTF-8 text")
            }
            ParseErrorKind::TooLong => write!(
                f,
                "the text goes on past {} MiB (a board takes about 1 KiB)",
                MAX_BOARD_BYTES >> 20
            ),
        }
    }
}

/// The bytes of a board file as text, or the line and column of the first byte that is not
/// UTF-8 (the column counts the characters before it on its line, like every other error), or of
/// the first byte past `MAX_BOARD_BYTES`.
pub fn board_text(bytes: &[u8]) -> Result<&str, ParseError> {
    if bytes.len() > MAX_BOARD_BYTES {
        return Err(error_after(
            &bytes[..MAX_BOARD_BYTES],
            ParseErrorKind::TooLong,
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let byte = bytes[e.valid_up_to()];
        error_after(
            &bytes[..e.valid_up_to()],
            ParseErrorKind::InvalidUtf8 { byte },
        )
    })
}

/// `kind` at the byte that follows `before`: its line, and one more than the characters before
/// it on that line (a UTF-8 character counted once, by its leading byte).
fn error_after(before: &[u8], kind: ParseErrorKind) -> ParseError {
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let is_char_start = |b: &&u8| **b & 0xc0 != 0x80;
    ParseError {
        line: before.iter().filter(|&&b| b == b'\n').count() + 1,
        column: before[line_start..].iter().filter(is_char_start).count() + 1,
        kind,
    }
}

/// Parses a B5 text board.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    parse_located(text).map(|located| located.board)
}

/// A parsed board that remembers where each cell's token stood, so that later checks (such as
/// a digit above the player count) can name a line and column too.
#[derive(Clone, Debug)]
pub(crate) struct LocatedBoard {
    pub board: Board,
    /// 1-based character column of each cell's token, row-major; the line is `row + 1`.
    columns: Vec<usize>,
}

impl LocatedBoard {
    /// The (line, column) of the token of `pos`.
    pub fn location(&self, pos: Pos) -> (usize, usize) {
        (pos.row + 1, self.columns[pos.index()])
    }
}

pub(crate) fn parse_located(text: &str) -> Result<LocatedBoard, ParseError> {
    let (cells, columns) = parse_grid(text, Cell::from_token)?;
    let mut board = Board::empty();
    for (idx, cell) in cells.into_iter().enumerate() {
        board.set(Pos::from_index(idx), cell);
    }
    Ok(LocatedBoard { board, columns })
}

/// Reads a grid of 20 rows of 20 tokens with B5's lenient rules, each token through `read`
/// (`None` is an unknown token). Returns the cells row-major with the 1-based character column
/// of each cell's token. The full game's map format (`game::map`) uses other tokens on the same
/// layout.
pub(crate) fn parse_grid<T>(
    text: &str,
    read: impl Fn(&str) -> Option<T>,
) -> Result<(Vec<T>, Vec<usize>), ParseError> {
    // A UTF-8 byte-order mark (Windows editors write one) is an encoding detail, like CRLF.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    while lines.last().is_some_and(|line| is_blank(line)) {
        lines.pop();
    }

    let mut cells = Vec::with_capacity(N_CELLS);
    let mut columns = Vec::with_capacity(N_CELLS);
    for (row, line) in lines.iter().take(SIZE).enumerate() {
        let line_no = row + 1;
        let mut n_tokens = 0;
        for (column, token) in tokens(line) {
            if n_tokens == SIZE {
                return Err(ParseError {
                    line: line_no,
                    column,
                    kind: ParseErrorKind::RowLength {
                        found: tokens(line).count(),
                    },
                });
            }
            let cell = read(token).ok_or_else(|| ParseError {
                line: line_no,
                column,
                kind: ParseErrorKind::UnknownToken(token.to_string()),
            })?;
            cells.push(cell);
            columns.push(column);
            n_tokens += 1;
        }
        if n_tokens < SIZE {
            return Err(ParseError {
                line: line_no,
                column: line.chars().count() + 1,
                kind: ParseErrorKind::RowLength { found: n_tokens },
            });
        }
    }

    if lines.len() != SIZE {
        // Too few rows: point just past the last row. Too many: point at the first extra
        // row's first token.
        let (line, column) = match lines.get(SIZE) {
            Some(extra) => (SIZE + 1, tokens(extra).next().map_or(1, |(col, _)| col)),
            None => (lines.len() + 1, 1),
        };
        return Err(ParseError {
            line,
            column,
            kind: ParseErrorKind::RowCount { found: lines.len() },
        });
    }
    Ok((cells, columns))
}

fn is_blank(line: &str) -> bool {
    line.chars().all(is_separator)
}

fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The tokens of a line with the 1-based character column where each starts.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut chars = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        while chars.next_if(|&(_, (_, c))| is_separator(c)).is_some() {}
        let (column, (start, _)) = chars.next()?;
        let mut end = line.len();
        while let Some(&(_, (idx, c))) = chars.peek() {
            if is_separator(c) {
                end = idx;
                break;
            }
            chars.next();
        }
        Some((column + 1, &line[start..end]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../data/kingdom_builder_example_board.txt");

    fn err(text: &str) -> String {
        parse_board(text).unwrap_err().to_string()
    }

    #[test]
    fn b5_tokens_with_columns() {
        let found: Vec<_> = tokens(" a\tbb  c ").collect();
        assert_eq!(found, [(2, "a"), (4, "bb"), (8, "c")]);
        assert_eq!(tokens("").count(), 0);
        assert_eq!(tokens(" \t ").count(), 0);
        assert_eq!(tokens("é x").collect::<Vec<_>>(), [(1, "é"), (3, "x")]);
    }

    #[test]
    fn b5_example_board_round_trips() {
        let board = parse_board(EXAMPLE).unwrap();
        assert_eq!(board.to_text(), EXAMPLE);
        assert_eq!(board.cell(Pos::new(1, 14)), Cell::Castle);
        assert_eq!(board.cell(Pos::new(0, 0)), Cell::Settlement(3));
        assert_eq!(board.highest_digit(), 4);
    }

    #[test]
    fn b5_lenient_reading_crlf_tabs_indent_trailing_blank_lines() {
        let expected = parse_board(EXAMPLE).unwrap();
        let crlf = EXAMPLE.replace('\n', "\r\n");
        assert_eq!(parse_board(&crlf).unwrap(), expected);
        let tabs = EXAMPLE.replace(' ', "\t");
        assert_eq!(parse_board(&tabs).unwrap(), expected);
        let no_indent: String = EXAMPLE
            .lines()
            .map(|l| l.trim_start().to_string() + "\n")
            .collect();
        assert_eq!(parse_board(&no_indent).unwrap(), expected);
        let wide: String = EXAMPLE
            .lines()
            .map(|l| format!("  {}  \t\n", l.replace(' ', "   ")))
            .collect();
        assert_eq!(parse_board(&wide).unwrap(), expected);
        let bom = format!("\u{feff}{crlf}");
        assert_eq!(parse_board(&bom).unwrap(), expected);
        let trailing = format!("{EXAMPLE}\n \n\t\r\n\n");
        assert_eq!(parse_board(&trailing).unwrap(), expected);
        let no_final_lf = EXAMPLE.trim_end();
        assert_eq!(parse_board(no_final_lf).unwrap(), expected);
    }

    #[test]
    fn b5_unknown_token_names_line_and_column() {
        // Line 3 is "3 M 2 2 W ..."; the fourth token starts at character 7.
        let mut lines: Vec<String> = EXAMPLE.lines().map(String::from).collect();
        lines[2].replace_range(6..7, "Z");
        let text = lines.join("\n");
        assert_eq!(err(&text), "line 3, column 7: unknown token 'Z'");

        lines[2] = EXAMPLE.lines().nth(2).unwrap().to_string();
        lines[1].replace_range(1..2, "10");
        assert_eq!(
            err(&lines.join("\n")),
            "line 2, column 2: unknown token '10'"
        );
        lines[1] = EXAMPLE.lines().nth(1).unwrap().to_string();
        lines[19].replace_range(1..2, "w");
        assert_eq!(
            err(&lines.join("\n")),
            "line 20, column 2: unknown token 'w'"
        );
        // A lone carriage return inside a line is not a separator and is shown escaped.
        lines[19].replace_range(1..2, ".\r");
        assert_eq!(
            err(&lines.join("\n")),
            "line 20, column 2: unknown token '.\\r'"
        );
    }

    #[test]
    fn b5_wrong_row_length_names_line_and_column() {
        let mut lines: Vec<String> = EXAMPLE.lines().map(String::from).collect();
        lines[4].push_str(" .");
        assert_eq!(
            err(&lines.join("\n")),
            "line 5, column 41: expected 20 tokens in the row, found 21"
        );
        lines[4] = lines[4][..lines[4].len() - 4].to_string();
        assert_eq!(
            err(&lines.join("\n")),
            "line 5, column 38: expected 20 tokens in the row, found 19"
        );
        lines[4] = String::new();
        assert_eq!(
            err(&lines.join("\n")),
            "line 5, column 1: expected 20 tokens in the row, found 0"
        );
    }

    #[test]
    fn b5_wrong_row_count_names_line_and_column() {
        let lines: Vec<&str> = EXAMPLE.lines().collect();
        assert_eq!(
            err(&(lines[..19].join("\n") + "\n")),
            "line 20, column 1: expected 20 board rows, found 19"
        );
        assert_eq!(err(""), "line 1, column 1: expected 20 board rows, found 0");
        assert_eq!(
            err("\n\n"),
            "line 1, column 1: expected 20 board rows, found 0"
        );
        let extra = format!("{EXAMPLE}  . . .\n");
        assert_eq!(
            err(&extra),
            "line 21, column 3: expected 20 board rows, found 21"
        );
        // A blank line inside the board is a row without tokens, not a skipped line.
        let gap = format!("{}\n\n{}", lines[..10].join("\n"), lines[10..].join("\n"));
        assert_eq!(
            err(&gap),
            "line 11, column 1: expected 20 tokens in the row, found 0"
        );
    }

    #[test]
    fn b5_first_problem_in_text_order_wins() {
        let mut lines: Vec<String> = EXAMPLE.lines().map(String::from).collect();
        lines[7].replace_range(1..2, "?");
        lines.truncate(12);
        assert_eq!(
            err(&lines.join("\n")),
            "line 8, column 2: unknown token '?'"
        );
    }

    #[test]
    fn text_past_the_cap_is_refused_where_the_cap_is_crossed() {
        let error = |bytes: &[u8]| board_text(bytes).unwrap_err().to_string();
        let blank_lines = vec![b'\n'; MAX_BOARD_BYTES + 1];
        assert!(board_text(&blank_lines[..MAX_BOARD_BYTES]).is_ok());
        assert_eq!(
            error(&blank_lines),
            format!(
                "line {}, column 1: the text goes on past 1 MiB (a board takes about 1 KiB)",
                MAX_BOARD_BYTES + 1
            )
        );
        // One line of two-byte characters: the cap falls after MAX_BOARD_BYTES / 2 of them.
        let one_line = "é".repeat(MAX_BOARD_BYTES / 2 + 1);
        assert_eq!(
            error(one_line.as_bytes()),
            format!(
                "line 1, column {}: the text goes on past 1 MiB (a board takes about 1 KiB)",
                MAX_BOARD_BYTES / 2 + 1
            )
        );
    }

    #[test]
    fn b5_bytes_that_are_not_utf8_name_line_and_column() {
        assert_eq!(board_text(EXAMPLE.as_bytes()), Ok(EXAMPLE));
        let error = |bytes: &[u8]| board_text(bytes).unwrap_err().to_string();
        // Line 3 holds "é" (two bytes, one character) then a lone continuation byte.
        let mut bytes = b". .\n . .\n\xc3\xa9 ".to_vec();
        bytes.push(0x80);
        assert_eq!(
            error(&bytes),
            "line 3, column 3: byte 0x80 is not UTF-8 text"
        );
        assert_eq!(
            error(b"\xff\xfe. ."),
            "line 1, column 1: byte 0xff is not UTF-8 text"
        );
        // A character cut short by the end of the text.
        assert_eq!(
            error(b"\r\n. \xe2\x82"),
            "line 2, column 3: byte 0xe2 is not UTF-8 text"
        );
    }

    #[test]
    fn located_board_remembers_columns() {
        let located = parse_located(&EXAMPLE.replace('\n', "\r\n")).unwrap();
        assert_eq!(located.location(Pos::new(0, 0)), (1, 1));
        assert_eq!(located.location(Pos::new(1, 0)), (2, 2));
        assert_eq!(located.location(Pos::new(2, 3)), (3, 7));
        assert_eq!(located.location(Pos::new(19, 19)), (20, 40));
    }
}
