//! The board model of spec B1-B6: a 20x20 grid of pointy-top hexes made of four 10x10
//! quadrants, odd rows drawn half a cell to the right, neighbours computed from coordinates.
//!
//! This module knows cells and geometry only; reading text is `parse.rs` and gold is `score.rs`.

use std::fmt;

/// Rows and columns of the board (B1).
pub const SIZE: usize = 20;
/// Rows and columns of one quadrant (B3).
pub const QUADRANT_SIZE: usize = 10;
/// Number of cells on the board.
pub const N_CELLS: usize = SIZE * SIZE;
/// Highest player digit a board can hold (B4).
pub const MAX_PLAYERS: usize = 4;

/// A cell position, both coordinates 0-based, row 0 at the top, col 0 at the left (B1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub row: usize,
    pub col: usize,
}

impl Pos {
    /// The position (row, col); both must be below 20.
    pub const fn new(row: usize, col: usize) -> Self {
        Pos { row, col }
    }

    /// Index in row-major order, `0..400`.
    pub const fn index(self) -> usize {
        self.row * SIZE + self.col
    }

    /// The inverse of `index`.
    pub const fn from_index(idx: usize) -> Self {
        Pos {
            row: idx / SIZE,
            col: idx % SIZE,
        }
    }

    /// The quadrant index 0..4 of B3 (Q1 top left, Q2 top right, Q3 bottom left, Q4 bottom
    /// right); the statement's quadrant k is index k-1.
    pub const fn quadrant(self) -> usize {
        (self.row / QUADRANT_SIZE) * 2 + self.col / QUADRANT_SIZE
    }

    /// The on-board neighbours of B2, in the table's fixed order.
    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        // Offsets (row, col) of B2; odd rows are shifted right, so their diagonal neighbours
        // are one column further right than an even row's.
        const EVEN: [(isize, isize); 6] = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0)];
        const ODD: [(isize, isize); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1)];
        let offsets = if self.row % 2 == 0 { &EVEN } else { &ODD };
        offsets.iter().filter_map(move |&(dr, dc)| {
            let row = self.row.checked_add_signed(dr)?;
            let col = self.col.checked_add_signed(dc)?;
            (row < SIZE && col < SIZE).then_some(Pos { row, col })
        })
    }

    /// True when `other` is one of this cell's neighbours ("next to" in the rules).
    pub fn is_next_to(self, other: Pos) -> bool {
        self.neighbours().any(|n| n == other)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The content of one cell (B4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    /// `.`: the only cell that can take a settlement.
    #[default]
    Empty,
    /// `W`.
    Water,
    /// `M`.
    Mountain,
    /// `T`: a town, the board game's location hex; a special hex.
    Town,
    /// `C`: a castle; a special hex.
    Castle,
    /// `1`-`4`: a settlement of the player with this digit (1..=4).
    Settlement(u8),
}

impl Cell {
    /// The cell of a board token, or `None` for an unknown token.
    pub fn from_token(token: &str) -> Option<Cell> {
        Some(match token {
            "." => Cell::Empty,
            "W" => Cell::Water,
            "M" => Cell::Mountain,
            "T" => Cell::Town,
            "C" => Cell::Castle,
            "1" => Cell::Settlement(1),
            "2" => Cell::Settlement(2),
            "3" => Cell::Settlement(3),
            "4" => Cell::Settlement(4),
            _ => return None,
        })
    }

    /// The board token of this cell.
    pub fn token(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Water => 'W',
            Cell::Mountain => 'M',
            Cell::Town => 'T',
            Cell::Castle => 'C',
            Cell::Settlement(digit) => char::from(b'0' + digit),
        }
    }

    /// Towns and castles are the "special hexes" (B4).
    pub fn is_special(self) -> bool {
        matches!(self, Cell::Town | Cell::Castle)
    }

    /// The player digit of a settlement, `None` for any other cell.
    pub fn player(self) -> Option<u8> {
        match self {
            Cell::Settlement(digit) => Some(digit),
            _ => None,
        }
    }
}

/// A whole 20x20 board. Any combination of cells is a board: the quadrant pattern of generated
/// boards (R4) is not required of inputs (B5).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; N_CELLS],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board of empty cells.
    pub fn empty() -> Self {
        Board {
            cells: [Cell::Empty; N_CELLS],
        }
    }

    /// The cell at `pos`.
    ///
    /// # Panics
    ///
    /// If `pos` is off the board (a row or column above 19).
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    /// Replaces the cell at `pos`; panics like `cell` off the board.
    pub fn set(&mut self, pos: Pos, cell: Cell) {
        self.cells[pos.index()] = cell;
    }

    /// Every cell with its position, row-major.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, Cell)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .map(|(idx, &cell)| (Pos::from_index(idx), cell))
    }

    /// The highest player digit on the board, 0 when there is no settlement.
    pub fn highest_digit(&self) -> u8 {
        self.cells
            .iter()
            .filter_map(|c| c.player())
            .max()
            .unwrap_or(0)
    }

    /// Row `row` in the exact B5 format: tokens joined by single spaces, odd rows indented by
    /// one space, no trailing space, no line feed.
    pub fn row_text(&self, row: usize) -> String {
        row_text(row, |pos| self.cell(pos).token())
    }

    /// The board in the exact B5 format, LF after every line.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(SIZE * (2 * SIZE + 1));
        for row in 0..SIZE {
            text.push_str(&self.row_text(row));
            text.push('\n');
        }
        text
    }
}

/// Row `row` of any grid in B5's layout, one character per cell from `token` (the full game's map
/// file shares the layout).
pub(crate) fn row_text(row: usize, token: impl Fn(Pos) -> char) -> String {
    let mut line = String::with_capacity(2 * SIZE);
    if row % 2 == 1 {
        line.push(' ');
    }
    for col in 0..SIZE {
        if col > 0 {
            line.push(' ');
        }
        line.push(token(Pos::new(row, col)));
    }
    line
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board:")?;
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours(row: usize, col: usize) -> Vec<(usize, usize)> {
        Pos::new(row, col)
            .neighbours()
            .map(|p| (p.row, p.col))
            .collect()
    }

    #[test]
    fn b2_neighbours_of_spec_7_2() {
        assert_eq!(neighbours(0, 0), [(0, 1), (1, 0)]);
        assert_eq!(neighbours(1, 0), [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)]);
        assert_eq!(neighbours(0, 19), [(0, 18), (1, 18), (1, 19)]);
        assert_eq!(neighbours(19, 0), [(18, 0), (18, 1), (19, 1)]);
        assert_eq!(neighbours(19, 19), [(18, 19), (19, 18)]);
        assert_eq!(
            neighbours(9, 9),
            [(8, 9), (8, 10), (9, 8), (9, 10), (10, 9), (10, 10)]
        );
        assert_eq!(
            neighbours(10, 9),
            [(9, 8), (9, 9), (10, 8), (10, 10), (11, 8), (11, 9)]
        );
    }

    #[test]
    fn b2_neighbourhood_is_symmetric_and_matches_text_columns() {
        // The equivalent form of B2: with x = 2*col + row%2, neighbours are (x+-2, row) and
        // (x+-1, row+-1).
        for idx in 0..N_CELLS {
            let a = Pos::from_index(idx);
            let xa = (2 * a.col + a.row % 2) as isize;
            let mut count = 0;
            for b in a.neighbours() {
                assert!(b.is_next_to(a), "{a} -> {b} not symmetric");
                let xb = (2 * b.col + b.row % 2) as isize;
                let dr = b.row as isize - a.row as isize;
                let dx = xb - xa;
                assert!(
                    (dr == 0 && dx.abs() == 2) || (dr.abs() == 1 && dx.abs() == 1),
                    "{a} -> {b}"
                );
                count += 1;
            }
            let interior = (1..SIZE - 1).contains(&a.row) && (1..SIZE - 1).contains(&a.col);
            if interior {
                assert_eq!(count, 6, "{a}");
            }
        }
    }

    #[test]
    fn b3_quadrants() {
        assert_eq!(Pos::new(0, 0).quadrant(), 0);
        assert_eq!(Pos::new(9, 10).quadrant(), 1);
        assert_eq!(Pos::new(10, 9).quadrant(), 2);
        assert_eq!(Pos::new(19, 19).quadrant(), 3);
    }

    #[test]
    fn b4_tokens_round_trip() {
        for token in [".", "W", "M", "T", "C", "1", "2", "3", "4"] {
            let cell = Cell::from_token(token).unwrap();
            assert_eq!(cell.token().to_string(), token);
        }
        for bad in ["", "0", "5", "w", "..", "CC", "X"] {
            assert_eq!(Cell::from_token(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn b5_row_text_indents_odd_rows() {
        let mut board = Board::empty();
        board.set(Pos::new(1, 0), Cell::Settlement(2));
        assert_eq!(board.row_text(0), [". "; 19].concat() + ".");
        assert_eq!(board.row_text(1), " 2".to_string() + &[" ."; 19].concat());
        assert_eq!(board.to_text().lines().count(), 20);
        assert_eq!(board.highest_digit(), 2);
    }
}
