//! Sets of board cells as 448-bit words (seven `u64`, cell `row * 20 + col`), and the geometry
//! tables the full game reads from them: each cell's neighbours (B2), one step and two steps in
//! each of the six straight directions (9.6), the outer edge (D31) and the hex distance (9.2).
//!
//! Hex grids do not shift cleanly in a row-major layout (odd rows are offset), so neighbourhoods
//! come from tables computed at compile time instead of shifts.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Sub, SubAssign};

use crate::board::{N_CELLS, SIZE};

const WORDS: usize = N_CELLS.div_ceil(64);

/// A set of cells. Bits above 399 are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits([u64; WORDS]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set holding `cell` only.
    pub const fn single(cell: usize) -> Bits {
        let mut words = [0; WORDS];
        words[cell / 64] = 1 << (cell % 64);
        Bits(words)
    }

    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 == 1
    }

    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The lowest cell of the set.
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The cells in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut words = self.0;
        let mut index = 0;
        std::iter::from_fn(move || {
            while index < WORDS {
                let w = words[index];
                if w != 0 {
                    words[index] = w & (w - 1);
                    return Some(index * 64 + w.trailing_zeros() as usize);
                }
                index += 1;
            }
            None
        })
    }

    /// The cells next to at least one cell of the set.
    pub fn neighbourhood(self) -> Bits {
        self.iter().fold(Bits::EMPTY, |acc, c| acc | NEIGHBOURS[c])
    }

    /// The cells next to at least one and at least two cells of the set.
    pub fn neighbourhood_counts(self) -> (Bits, Bits) {
        let mut once = Bits::EMPTY;
        let mut twice = Bits::EMPTY;
        for c in self.iter() {
            twice |= once & NEIGHBOURS[c];
            once |= NEIGHBOURS[c];
        }
        (once, twice)
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Bits {
        let mut set = Bits::EMPTY;
        for c in cells {
            set.insert(c);
        }
        set
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| (c / SIZE, c % SIZE)))
            .finish()
    }
}

macro_rules! word_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, |$a:ident, $b:ident| $e:expr) => {
        impl $trait for Bits {
            type Output = Bits;
            fn $method(self, other: Bits) -> Bits {
                let mut out = self;
                out.$assign_method(other);
                out
            }
        }
        impl $assign for Bits {
            fn $assign_method(&mut self, other: Bits) {
                for ($a, $b) in self.0.iter_mut().zip(other.0) {
                    *$a = $e;
                }
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| *a & b);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| *a | b);
// `a - b`: the cells of `a` that are not in `b`.
word_op!(Sub, sub, SubAssign, sub_assign, |a, b| *a & !b);

/// No cell: the end of a direction table's line.
pub const OFF_BOARD: u16 = u16::MAX;

/// The six straight directions of 9.6 as (dx, drow) with x = 2*col + row mod 2, ordered so that
/// direction `d ^ 1` is the opposite of `d`.
pub const DIRECTIONS: [(i32, i32); 6] = [(2, 0), (-2, 0), (1, 1), (-1, -1), (-1, 1), (1, -1)];

/// The cell one step from `cell` in direction `dir`, or `OFF_BOARD`.
const fn step_from(cell: usize, dir: usize) -> u16 {
    let row = (cell / SIZE) as i32;
    let col = (cell % SIZE) as i32;
    let (dx, drow) = DIRECTIONS[dir];
    let x = 2 * col + row % 2 + dx;
    let row = row + drow;
    if row < 0 || row >= SIZE as i32 || x < 0 {
        return OFF_BOARD;
    }
    let col = (x - row % 2) / 2;
    if col >= SIZE as i32 {
        return OFF_BOARD;
    }
    (row * SIZE as i32 + col) as u16
}

const fn build_steps(jumps: usize) -> [[u16; N_CELLS]; 6] {
    let mut table = [[OFF_BOARD; N_CELLS]; 6];
    let mut dir = 0;
    while dir < 6 {
        let mut cell = 0;
        while cell < N_CELLS {
            let mut at = cell as u16;
            let mut k = 0;
            while k < jumps && at != OFF_BOARD {
                at = step_from(at as usize, dir);
                k += 1;
            }
            table[dir][cell] = at;
            cell += 1;
        }
        dir += 1;
    }
    table
}

/// `STEP[dir][cell]`: the neighbour of `cell` in direction `dir`, or `OFF_BOARD`.
pub static STEP: [[u16; N_CELLS]; 6] = build_steps(1);

/// `JUMP[dir][cell]`: the cell two steps from `cell` in direction `dir` (Paddock), or
/// `OFF_BOARD`.
pub static JUMP: [[u16; N_CELLS]; 6] = build_steps(2);

const fn build_neighbours() -> [Bits; N_CELLS] {
    let mut table = [Bits::EMPTY; N_CELLS];
    let mut cell = 0;
    while cell < N_CELLS {
        let mut dir = 0;
        while dir < 6 {
            let n = step_from(cell, dir);
            if n != OFF_BOARD {
                table[cell].0[n as usize / 64] |= 1 << (n % 64);
            }
            dir += 1;
        }
        cell += 1;
    }
    table
}

/// `NEIGHBOURS[cell]`: the cells next to `cell` (B2).
pub static NEIGHBOURS: [Bits; N_CELLS] = build_neighbours();

const fn build_edge() -> Bits {
    let mut set = Bits::EMPTY;
    let mut cell = 0;
    while cell < N_CELLS {
        let (row, col) = (cell / SIZE, cell % SIZE);
        if row == 0 || row == SIZE - 1 || col == 0 || col == SIZE - 1 {
            set.0[cell / 64] |= 1 << (cell % 64);
        }
        cell += 1;
    }
    set
}

/// The board's outer edge for the Tower: rows 0 and 19, cols 0 and 19 (D31).
pub const EDGE: Bits = build_edge();

/// Every cell of the board.
pub const ALL: Bits = {
    let mut set = Bits([u64::MAX; WORDS]);
    set.0[WORDS - 1] = (1 << (N_CELLS % 64)) - 1;
    set
};

/// Hex distance of 9.2 between (row, col) cells: with q = col - (row - row mod 2) / 2,
/// (|dq| + |drow| + |dq + drow|) / 2.
pub fn hex_distance(a: (usize, usize), b: (usize, usize)) -> u32 {
    let axial =
        |(row, col): (usize, usize)| (col as i32 - (row as i32 - (row % 2) as i32) / 2, row as i32);
    let (qa, ra) = axial(a);
    let (qb, rb) = axial(b);
    let (dq, dr) = (qa - qb, ra - rb);
    (dq.abs() + dr.abs() + (dq + dr).abs()) as u32 / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;

    #[test]
    fn b2_neighbour_table_matches_the_board_model() {
        for (cell, &neighbours) in NEIGHBOURS.iter().enumerate() {
            let expected: Bits = Pos::from_index(cell).neighbours().map(Pos::index).collect();
            assert_eq!(neighbours, expected, "cell {cell}");
        }
    }

    #[test]
    fn directions_come_in_opposite_pairs() {
        for cell in 0..N_CELLS {
            for dir in 0..6 {
                let next = STEP[dir][cell];
                if next != OFF_BOARD {
                    assert_eq!(STEP[dir ^ 1][next as usize], cell as u16);
                    let two = STEP[dir][next as usize];
                    assert_eq!(JUMP[dir][cell], two);
                }
            }
        }
        // (5,5): x = 11. Two steps east is (5,7); two steps down-right (x+2, row+2) is (7,6);
        // two steps up-left (x-2, row-2) is (3,4).
        assert_eq!(JUMP[0][5 * 20 + 5], 5 * 20 + 7);
        assert_eq!(JUMP[2][5 * 20 + 5], 7 * 20 + 6);
        assert_eq!(JUMP[3][5 * 20 + 5], 3 * 20 + 4);
    }

    #[test]
    fn hex_distance_is_the_step_count() {
        // Breadth-first search from a few cells agrees with the formula everywhere.
        for start in [0, 21, 199, 210, 399, 7 * 20 + 13] {
            let mut dist = [u32::MAX; N_CELLS];
            dist[start] = 0;
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(c) = queue.pop_front() {
                for n in NEIGHBOURS[c].iter() {
                    if dist[n] == u32::MAX {
                        dist[n] = dist[c] + 1;
                        queue.push_back(n);
                    }
                }
            }
            for (cell, &d) in dist.iter().enumerate() {
                let a = (start / SIZE, start % SIZE);
                let b = (cell / SIZE, cell % SIZE);
                assert_eq!(hex_distance(a, b), d, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn set_operations() {
        let a: Bits = [0, 63, 64, 399].into_iter().collect();
        let b: Bits = [63, 200].into_iter().collect();
        assert_eq!((a & b).iter().collect::<Vec<_>>(), [63]);
        assert_eq!((a | b).len(), 5);
        assert_eq!((a - b).iter().collect::<Vec<_>>(), [0, 64, 399]);
        assert_eq!(a.first(), Some(0));
        assert_eq!(Bits::EMPTY.first(), None);
        assert_eq!(ALL.len(), N_CELLS);
        assert_eq!(EDGE.len(), 76);
        let (once, twice) = Bits::from_iter([0, 2]).neighbourhood_counts();
        assert_eq!(once, Bits::from_iter([1, 3, 20, 21, 22]));
        assert_eq!(twice, Bits::single(1));
    }
}
