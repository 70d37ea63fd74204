//! Cells and 144-cell bitboards. A cell's bit index is `y * 16 + x`, so each row of the 12×12
//! grid takes 16 bits (12 used, 4 of padding) and the board fits in three `u64` words. The
//! padding columns keep horizontal shifts from wrapping into the next row once the result is
//! masked with a set of real cells. This module knows nothing of the rules.

/// Width and height of the grid.
pub const SIZE: usize = 12;
/// Number of bit positions (with padding) a per-cell array needs.
pub const N_SLOTS: usize = 192;

/// A cell of the grid, stored as its bit index `y * 16 + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell (x, y); both must be below 12.
    pub const fn new(x: usize, y: usize) -> Cell {
        debug_assert!(x < SIZE && y < SIZE);
        Cell((y * 16 + x) as u8)
    }

    /// The cell (x, y), or `None` when it is outside the grid.
    pub fn checked(x: i64, y: i64) -> Option<Cell> {
        ((0..SIZE as i64).contains(&x) && (0..SIZE as i64).contains(&y))
            .then(|| Cell::new(x as usize, y as usize))
    }

    pub const fn x(self) -> usize {
        (self.0 & 15) as usize
    }

    pub const fn y(self) -> usize {
        (self.0 >> 4) as usize
    }

    /// The bit index, also the index into per-cell arrays of `N_SLOTS` entries.
    pub const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The cell at bit index `idx` (which must be a real cell).
    pub const fn from_idx(idx: usize) -> Cell {
        Cell(idx as u8)
    }

    /// The point-symmetric cell (11 − x, 11 − y).
    pub const fn mirror(self) -> Cell {
        Cell::new(SIZE - 1 - self.x(), SIZE - 1 - self.y())
    }

    /// The up-to-4 orthogonal neighbours inside the grid (void or not), in the order
    /// up, right, down, left.
    pub fn around(self) -> [Option<Cell>; 4] {
        let (x, y) = (self.x() as i64, self.y() as i64);
        [
            Cell::checked(x, y - 1),
            Cell::checked(x + 1, y),
            Cell::checked(x, y + 1),
            Cell::checked(x - 1, y),
        ]
    }

    /// Manhattan distance, ignoring void cells.
    pub fn manhattan(self, other: Cell) -> usize {
        self.x().abs_diff(other.x()) + self.y().abs_diff(other.y())
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 3]);

/// Every real cell of the grid (the padding columns excluded).
pub const ALL: Bits = {
    let row = 0x0FFFu64;
    let word = row | row << 16 | row << 32 | row << 48;
    Bits([word, word, word])
};

impl Bits {
    pub const EMPTY: Bits = Bits([0; 3]);

    pub fn single(cell: Cell) -> Bits {
        let mut b = Bits::EMPTY;
        b.insert(cell);
        b
    }

    #[inline]
    pub fn has(&self, cell: Cell) -> bool {
        self.0[cell.idx() >> 6] >> (cell.idx() & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.idx() >> 6] |= 1 << (cell.idx() & 63);
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.idx() >> 6] &= !(1 << (cell.idx() & 63));
    }

    #[inline]
    pub fn set(&mut self, cell: Cell, on: bool) {
        if on {
            self.insert(cell)
        } else {
            self.remove(cell)
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    #[inline]
    pub fn and(self, o: Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    /// `self` without the cells of `o`.
    #[inline]
    pub fn minus(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }

    /// Shifts towards higher bit indices by `n` (1 ≤ n < 64), across words.
    #[inline]
    fn shl(self, n: u32) -> Bits {
        let w = self.0;
        Bits([
            w[0] << n,
            w[1] << n | w[0] >> (64 - n),
            w[2] << n | w[1] >> (64 - n),
        ])
    }

    /// Shifts towards lower bit indices by `n` (1 ≤ n < 64), across words.
    #[inline]
    fn shr(self, n: u32) -> Bits {
        let w = self.0;
        Bits([
            w[0] >> n | w[1] << (64 - n),
            w[1] >> n | w[2] << (64 - n),
            w[2] >> n,
        ])
    }

    /// The cells whose neighbour in direction `dir` (0 up, 1 right, 2 down, 3 left) is in
    /// the set. Padding bits may be set; mask the result with real cells.
    #[inline]
    pub fn towards(self, dir: u8) -> Bits {
        match dir {
            0 => self.shl(16),
            1 => self.shr(1),
            2 => self.shr(16),
            _ => self.shl(1),
        }
    }

    /// The orthogonal neighbours of the set, the set itself included, restricted to `within`.
    #[inline]
    pub fn grow(self, within: Bits) -> Bits {
        self.or(self.shl(1))
            .or(self.shr(1))
            .or(self.shl(16))
            .or(self.shr(16))
            .and(within)
    }

    /// The set with its left and right neighbours added (padding bits may be set).
    #[inline]
    pub fn grow_sideways(self) -> Bits {
        self.or(self.shl(1)).or(self.shr(1))
    }

    /// The cells of `within` that a path inside `within` links to a cell of `self`.
    pub fn flood(self, within: Bits) -> Bits {
        let mut reached = self.and(within);
        loop {
            let next = reached.grow(within);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The first cell (lowest index), if any.
    #[inline]
    pub fn first(&self) -> Option<Cell> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some(Cell::from_idx(i * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    /// The `n`-th cell in index order (0-based), if the set has more than `n` cells.
    pub fn nth(&self, mut n: u32) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                // Skip whole bytes first, then clear the lowest bits of the right byte.
                let mut base = 0;
                let mut w = w;
                loop {
                    let k = (w & 0xFF).count_ones();
                    if n < k {
                        break;
                    }
                    n -= k;
                    w >>= 8;
                    base += 8;
                }
                for _ in 0..n {
                    w &= w - 1;
                }
                return Some(Cell::from_idx(i * 64 + base + w.trailing_zeros() as usize));
            }
            n -= c;
        }
        None
    }

    /// The first cell at or after bit index `start` (taken modulo 192), wrapping around to
    /// the lowest cell; `None` for the empty set. A cheap, slightly biased random pick when
    /// `start` is random: a cell after a long gap is more likely.
    #[inline]
    pub fn first_from(&self, start: usize) -> Option<Cell> {
        let start = start % N_SLOTS;
        let (word, bit) = (start / 64, start % 64);
        let head = self.0[word] & (u64::MAX << bit);
        if head != 0 {
            return Some(Cell::from_idx(word * 64 + head.trailing_zeros() as usize));
        }
        for k in 1..=3 {
            let i = (word + k) % 3;
            let w = if i == word {
                self.0[i] & !(u64::MAX << bit)
            } else {
                self.0[i]
            };
            if w != 0 {
                return Some(Cell::from_idx(i * 64 + w.trailing_zeros() as usize));
            }
        }
        None
    }

    /// The cells in index order, which is row-major order (by y, then x).
    pub fn iter(self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// Iterator over the cells of a `Bits`, in index order.
pub struct BitsIter {
    words: [u64; 3],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < 3 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Cell::from_idx(self.word * 64 + w.trailing_zeros() as usize));
            }
            self.word += 1;
        }
        None
    }
}

impl FromIterator<Cell> for Bits {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bits {
        let mut b = Bits::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grow_does_not_wrap_rows_and_stays_inside() {
        let b = Bits::single(Cell::new(11, 3)).grow(ALL);
        let cells: Vec<_> = b.iter().map(|c| (c.x(), c.y())).collect();
        assert_eq!(cells, vec![(11, 2), (10, 3), (11, 3), (11, 4)]);
        let b = Bits::single(Cell::new(0, 0)).grow(ALL);
        assert_eq!(b.count(), 3);
        let b = Bits::single(Cell::new(4, 11)).grow(ALL);
        assert_eq!(b.count(), 4);
        assert_eq!(ALL.count(), 144);
    }

    #[test]
    fn flood_follows_paths_only() {
        let within: Bits = [(0, 0), (1, 0), (1, 1), (3, 3), (1, 2)]
            .into_iter()
            .map(|(x, y)| Cell::new(x, y))
            .collect();
        let reached = Bits::single(Cell::new(0, 0)).flood(within);
        assert_eq!(reached.count(), 4);
        assert!(!reached.has(Cell::new(3, 3)));
        assert_eq!(within.nth(4), Some(Cell::new(3, 3)));
        assert_eq!(within.nth(5), None);
        assert_eq!(within.first_from(3), Some(Cell::new(1, 1)));
        assert_eq!(
            within.first_from(16 * 3 + 4),
            Some(Cell::new(0, 0)),
            "wraps around"
        );
        assert_eq!(within.first_from(16 * 3 + 3 + 192), Some(Cell::new(3, 3)));
        assert_eq!(Bits::EMPTY.first_from(7), None);
    }
}
