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

    /// The cell and its orthogonal neighbours on the grid, as a set: `grow` of the single
    /// cell within `ALL`, from a table.
    #[inline]
    pub fn with_neighbours(self) -> Bits {
        NEAR[self.idx()]
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

/// `Cell::with_neighbours` by bit index (empty for padding slots).
static NEAR: [Bits; N_SLOTS] = {
    let mut near = [Bits([0; 3]); N_SLOTS];
    let mut y = 0;
    while y < SIZE {
        let mut x = 0;
        while x < SIZE {
            let mut set = [0u64; 3];
            let steps: [(isize, isize); 5] = [(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)];
            let mut k = 0;
            while k < steps.len() {
                let (nx, ny) = (x as isize + steps[k].0, y as isize + steps[k].1);
                if nx >= 0 && ny >= 0 && nx < SIZE as isize && ny < SIZE as isize {
                    let idx = ny as usize * 16 + nx as usize;
                    set[idx / 64] |= 1 << (idx % 64);
                }
                k += 1;
            }
            near[y * 16 + x] = Bits(set);
            x += 1;
        }
        y += 1;
    }
    near
};

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Bits(pub [u64; 3]);

/// Word by word in registers: the derived array comparison loads the words as one vector
/// straight after they were stored one by one, and that store-to-load forwarding stall made
/// up much of the flood fill's time.
impl PartialEq for Bits {
    #[inline]
    fn eq(&self, o: &Bits) -> bool {
        let [a, b, c] = self.0;
        let [x, y, z] = o.0;
        (a ^ x) | (b ^ y) | (c ^ z) == 0
    }
}

/// Hashes the words, as the derived hash did (consistent with `eq`).
impl std::hash::Hash for Bits {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

/// Every real cell of the grid (the padding columns excluded).
pub const ALL: Bits = {
    let row = 0x0FFFu64;
    let word = row | row << 16 | row << 32 | row << 48;
    Bits([word, word, word])
};

impl Bits {
    pub const EMPTY: Bits = Bits([0; 3]);

    /// Built in registers: inserting into an empty set goes through memory.
    #[inline]
    pub fn single(cell: Cell) -> Bits {
        let (word, bit) = (cell.idx() >> 6, 1 << (cell.idx() & 63));
        Bits(std::array::from_fn(|i| {
            bit & ((i == word) as u64).wrapping_neg()
        }))
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

    /// Inserts or removes `cell`, without a branch (for bits that are random).
    #[inline]
    pub fn set(&mut self, cell: Cell, on: bool) {
        let (word, bit) = (cell.idx() >> 6, cell.idx() & 63);
        self.0[word] = self.0[word] & !(1 << bit) | (on as u64) << bit;
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    /// The number of cells. The build targets x86-64 without a popcount instruction, so
    /// this adds the three words' bit counts halfway through one software popcount.
    #[inline]
    pub fn count(&self) -> u32 {
        // At most 144 cells: the byte sum fits in the top byte.
        (self.byte_counts().wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// The first half of a popcount: byte `k` counts the cells of bits `8k..8k+8` of the
    /// three words together, so each byte is at most 24. Weighted sums of such counts still
    /// fit in a byte, which lets `byte_total` finish several popcounts in one.
    #[inline]
    pub fn byte_counts(&self) -> u64 {
        const M1: u64 = 0x5555_5555_5555_5555;
        const M2: u64 = 0x3333_3333_3333_3333;
        const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let nibbles = self.0.map(|w| {
            let pairs = w - ((w >> 1) & M1);
            (pairs & M2) + ((pairs >> 2) & M2)
        });
        // Each nibble of each word is at most 4, so their sum (≤ 12) still fits a nibble.
        let sum = nibbles[0] + nibbles[1] + nibbles[2];
        (sum & M4) + ((sum >> 4) & M4)
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
        let [a, b, c] = self.0;
        let low = a as u128 | (b as u128) << 64;
        // An empty `low` counts 128 trailing zeros, then those of `c` are added; 192 (`c`
        // empty too) means no cell.
        let idx = low.trailing_zeros() + (low == 0) as u32 * c.trailing_zeros();
        (idx < N_SLOTS as u32).then(|| Cell::from_idx(idx as usize))
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
        // The bit positions at or after `start`, built without branches.
        let from = Bits(std::array::from_fn(|i| {
            let later = ((i > word) as u64).wrapping_neg();
            let this = ((i == word) as u64).wrapping_neg() & (u64::MAX << bit);
            later | this
        }));
        let after = self.and(from);
        // Wrap around when nothing comes after `start`: all words of `self` are kept then.
        let wrap = (after.is_empty() as u64).wrapping_neg();
        after.or(self.and(Bits([wrap; 3]))).first()
    }

    /// The point-symmetric set: each cell (x, y) moved to (11 − x, 11 − y), that is bit i
    /// to bit 187 − i. Reversing the 192 bits moves it to 191 − i, then a shift by the 4
    /// padding columns finishes. Padding bits stay padding bits.
    pub fn mirror(self) -> Bits {
        let [a, b, c] = self.0;
        Bits([c.reverse_bits(), b.reverse_bits(), a.reverse_bits()]).shr(4)
    }

    /// The cells in index order, which is row-major order (by y, then x).
    pub fn iter(self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The sum of the eight bytes of `counts` (see `Bits::byte_counts`).
#[inline]
pub fn byte_total(counts: u64) -> u32 {
    // Pairs of bytes into 16-bit lanes first: the total may exceed a byte.
    let lanes = (counts & 0x00FF_00FF_00FF_00FF) + ((counts >> 8) & 0x00FF_00FF_00FF_00FF);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
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
    fn mirror_moves_every_cell_to_its_mirror_image() {
        for cell in ALL.iter() {
            assert_eq!(Bits::single(cell).mirror(), Bits::single(cell.mirror()));
        }
        assert_eq!(ALL.mirror(), ALL);
    }

    #[test]
    fn with_neighbours_is_grow_of_the_cell() {
        for cell in ALL.iter() {
            assert_eq!(cell.with_neighbours(), Bits::single(cell).grow(ALL));
        }
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
