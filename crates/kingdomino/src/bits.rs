//! Bitboards over a kingdom grid. A cell (x, y) is bit `y * STRIDE + x` with STRIDE = S + 1:
//! the spare column x = S is never part of the grid, so shifting by one never wraps a square
//! from one row's edge onto the next row.
//!
//! `u128` covers the 9 × 9 grids of the standard modes (90 bits); `Wide` (256 bits) covers the
//! 13 × 13 grid of the Duel (182 bits). Everything above the grid stays zero after masking.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use std::sync::OnceLock;

/// A set of cells of one grid size.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// Grid side S (9 or 13).
    const S: usize;
    /// Bits per row, S + 1.
    const STRIDE: usize = Self::S + 1;
    const ZERO: Self;
    /// Bits in the set type (an upper bound on its cells).
    const BITS: usize;

    fn bit(index: usize) -> Self;
    fn shl(self, n: u32) -> Self;
    fn shr(self, n: u32) -> Self;
    fn count(self) -> u32;
    /// Index of the lowest set bit; only meaningful when the set is not empty.
    fn lowest(self) -> usize;
    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;
    /// The precomputed masks of this grid size.
    fn geometry() -> &'static Geometry<Self>;

    /// Rows `y` to `y + 5` as the low bits of one word (row stride `STRIDE`), on grids whose
    /// six rows fit in 64 bits; `None` on the others (the Duel's).
    fn six_rows_from(self, _y: usize) -> Option<u64> {
        None
    }

    /// Cell `index` as `x | y << 8` (how an action packs its cell).
    fn packed_cell(index: usize) -> u32 {
        let (x, y) = coords::<Self>(index);
        x as u32 | (y as u32) << 8
    }

    /// Bit index of the castle (C, C), C = (S − 1) / 2.
    const CASTLE: usize = (Self::S - 1) / 2 * (Self::STRIDE + 1);

    /// Cells with lo_x <= x <= hi_x and lo_y <= y <= hi_y; all four bounds below S.
    fn window(lo_x: usize, hi_x: usize, lo_y: usize, hi_y: usize) -> Self {
        Self::geometry().window(lo_x, hi_x, lo_y, hi_y)
    }

    /// The cells a kingdom may still use once it has a square at `index` (R14d): those
    /// within E − 1 of it in both axes, E = (S + 1) / 2.
    fn reach(index: usize) -> Self {
        let (x, y) = coords::<Self>(index);
        let r = Self::S.div_ceil(2) - 1;
        let last = Self::S - 1;
        Self::window(
            x.saturating_sub(r),
            (x + r).min(last),
            y.saturating_sub(r),
            (y + r).min(last),
        )
    }

    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    fn has(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_empty()
    }

    /// The cells orthogonally next to a cell of `self` (possibly outside the grid).
    fn neighbours(self) -> Self {
        let stride = Self::STRIDE as u32;
        self.shl(1) | self.shr(1) | self.shl(stride) | self.shr(stride)
    }

    /// Iterates over the set bits, lowest first.
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Masks that depend only on the grid size.
#[derive(Debug)]
pub struct Geometry<B> {
    /// Every cell of the grid, the castle included.
    pub grid: B,
    /// `cols[x]`: every cell of column x.
    pub cols: Vec<B>,
    /// `rows[y]`: every cell of row y.
    pub rows: Vec<B>,
    /// `col_ranges[lo * S + hi]`: columns lo..=hi (empty when lo > hi).
    col_ranges: Vec<B>,
    /// `row_ranges[lo * S + hi]`: rows lo..=hi.
    row_ranges: Vec<B>,
}

impl<B: Bits> Geometry<B> {
    fn build() -> Self {
        let s = B::S;
        let mut cols = vec![B::ZERO; s];
        let mut rows = vec![B::ZERO; s];
        let mut grid = B::ZERO;
        for (y, row) in rows.iter_mut().enumerate() {
            for (x, col) in cols.iter_mut().enumerate() {
                let b = B::bit(index::<B>(x, y));
                *col |= b;
                *row |= b;
                grid |= b;
            }
        }
        let ranges = |lines: &[B]| {
            let mut out = vec![B::ZERO; s * s];
            for lo in 0..s {
                let mut acc = B::ZERO;
                for hi in lo..s {
                    acc |= lines[hi];
                    out[lo * s + hi] = acc;
                }
            }
            out
        };
        Geometry {
            grid,
            col_ranges: ranges(&cols),
            row_ranges: ranges(&rows),
            cols,
            rows,
        }
    }

    /// Cells with lo_x <= x <= hi_x and lo_y <= y <= hi_y.
    /// All four bounds must be below S.
    pub fn window(&self, lo_x: usize, hi_x: usize, lo_y: usize, hi_y: usize) -> B {
        self.col_ranges[lo_x * B::S + hi_x] & self.row_ranges[lo_y * B::S + hi_y]
    }
}

/// The bit index of cell (x, y).
pub fn index<B: Bits>(x: usize, y: usize) -> usize {
    y * B::STRIDE + x
}

/// The cell (x, y) of a bit index.
pub fn coords<B: Bits>(index: usize) -> (usize, usize) {
    (index % B::STRIDE, index / B::STRIDE)
}

/// Iterator over set bits.
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

impl Bits for u128 {
    const S: usize = 9;
    const ZERO: Self = 0;
    const BITS: usize = 128;

    // From a table: a 128-bit shift by a variable amount is two shifts and two selects, on
    // the path of every placed square.
    fn bit(index: usize) -> Self {
        const SINGLE_CELLS: [u128; 128] = {
            let mut bits = [0u128; 128];
            let mut i = 0;
            while i < 128 {
                bits[i] = 1 << i;
                i += 1;
            }
            bits
        };
        SINGLE_CELLS[index & 127]
    }
    fn shl(self, n: u32) -> Self {
        self << n
    }
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    fn count(self) -> u32 {
        self.count_ones()
    }
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    fn six_rows_from(self, y: usize) -> Option<u64> {
        Some((self >> (y * Self::STRIDE)) as u64 & ((1 << (6 * Self::STRIDE)) - 1))
    }
    // Read from a table: listing writes one per placement, and the table is one load where
    // the division by the stride is a multiply, shifts and a subtraction.
    fn packed_cell(index: usize) -> u32 {
        const CELLS: [u32; 128] = {
            let mut cells = [0u32; 128];
            let mut i = 0;
            while i < 128 {
                let stride = <u128 as Bits>::STRIDE;
                cells[i] = (i % stride) as u32 | ((i / stride) as u32) << 8;
                i += 1;
            }
            cells
        };
        CELLS[index & 127]
    }
    // From a table built at compile time: a kingdom asks on every square it places.
    fn reach(index: usize) -> Self {
        const REACH: [u128; 128] = {
            let (s, stride) = (<u128 as Bits>::S, <u128 as Bits>::STRIDE);
            let r = s.div_ceil(2) - 1;
            let mut table = [0u128; 128];
            let mut i = 0;
            while i < 128 {
                let (x, y) = (i % stride, i / stride);
                let mut cell = 0;
                while x < s && y < s && cell < s * stride {
                    let (cx, cy) = (cell % stride, cell / stride);
                    if cx < s && cx + r >= x && cx <= x + r && cy + r >= y && cy <= y + r {
                        table[i] |= 1 << cell;
                    }
                    cell += 1;
                }
                i += 1;
            }
            table
        };
        REACH[index & 127]
    }
    fn geometry() -> &'static Geometry<Self> {
        static GEOMETRY: OnceLock<Geometry<u128>> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }
    // Computed rather than looked up: legality asks for a window on every call, and the
    // arithmetic is cheaper than reaching the lazily built tables.
    fn window(lo_x: usize, hi_x: usize, lo_y: usize, hi_y: usize) -> Self {
        /// Bit 0 of every row.
        const ROW_STARTS: u128 = {
            let mut starts = 0u128;
            let mut y = 0;
            while y < <u128 as Bits>::S {
                starts |= 1 << (y * <u128 as Bits>::STRIDE);
                y += 1;
            }
            starts
        };
        let stride = Self::STRIDE;
        let row_pattern = (1u128 << (hi_x + 1)) - (1u128 << lo_x);
        let rows = (1u128 << (stride * (hi_y + 1))) - (1u128 << (stride * lo_y));
        (row_pattern * ROW_STARTS) & rows
    }
}

/// A 256-bit set for the 13 × 13 Duel grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Wide {
    lo: u128,
    hi: u128,
}

impl BitAnd for Wide {
    type Output = Wide;
    fn bitand(self, o: Wide) -> Wide {
        Wide {
            lo: self.lo & o.lo,
            hi: self.hi & o.hi,
        }
    }
}

impl BitOr for Wide {
    type Output = Wide;
    fn bitor(self, o: Wide) -> Wide {
        Wide {
            lo: self.lo | o.lo,
            hi: self.hi | o.hi,
        }
    }
}

impl Not for Wide {
    type Output = Wide;
    fn not(self) -> Wide {
        Wide {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}

impl BitAndAssign for Wide {
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOrAssign for Wide {
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl Bits for Wide {
    const S: usize = 13;
    const ZERO: Self = Wide { lo: 0, hi: 0 };
    const BITS: usize = 256;

    fn bit(index: usize) -> Self {
        if index < 128 {
            Wide {
                lo: 1 << index,
                hi: 0,
            }
        } else {
            Wide {
                lo: 0,
                hi: 1 << (index - 128),
            }
        }
    }
    // Shifts are only ever by 1 or STRIDE (14), both in 1..128.
    fn shl(self, n: u32) -> Self {
        Wide {
            lo: self.lo << n,
            hi: (self.hi << n) | (self.lo >> (128 - n)),
        }
    }
    fn shr(self, n: u32) -> Self {
        Wide {
            lo: (self.lo >> n) | (self.hi << (128 - n)),
            hi: self.hi >> n,
        }
    }
    fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }
    fn lowest(self) -> usize {
        if self.lo != 0 {
            self.lo.trailing_zeros() as usize
        } else {
            128 + self.hi.trailing_zeros() as usize
        }
    }
    fn without_lowest(self) -> Self {
        if self.lo != 0 {
            Wide {
                lo: self.lo & (self.lo - 1),
                hi: self.hi,
            }
        } else {
            Wide {
                lo: 0,
                hi: self.hi & self.hi.wrapping_sub(1),
            }
        }
    }
    fn geometry() -> &'static Geometry<Self> {
        static GEOMETRY: OnceLock<Geometry<Wide>> = OnceLock::new();
        GEOMETRY.get_or_init(Geometry::build)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_carry_between_halves() {
        let b = Wide::bit(127);
        assert_eq!(b.shl(1), Wide::bit(128));
        assert_eq!(Wide::bit(130).shr(14), Wide::bit(116));
        assert_eq!(Wide::bit(120).shl(14).lowest(), 134);
        assert_eq!(
            (Wide::bit(3) | Wide::bit(200)).iter().collect::<Vec<_>>(),
            vec![3, 200]
        );
    }

    #[test]
    fn computed_windows_are_the_table_windows() {
        let geo = u128::geometry();
        for lo_x in 0..9 {
            for hi_x in lo_x..9 {
                for (lo_y, hi_y) in [(0, 8), (2, 6), (4, 4), (3, 7), (0, 0), (8, 8)] {
                    let window = <u128 as Bits>::window(lo_x, hi_x, lo_y, hi_y);
                    assert_eq!(window, geo.window(lo_x, hi_x, lo_y, hi_y));
                }
            }
        }
    }

    #[test]
    fn tabled_reaches_are_the_computed_windows() {
        for y in 0..9usize {
            for x in 0..9usize {
                let window = <u128 as Bits>::window(
                    x.saturating_sub(4),
                    (x + 4).min(8),
                    y.saturating_sub(4),
                    (y + 4).min(8),
                );
                assert_eq!(u128::reach(index::<u128>(x, y)), window, "({x}, {y})");
            }
        }
        assert_eq!(u128::reach(u128::CASTLE), u128::geometry().grid);
        assert_eq!(u128::reach(index::<u128>(0, 0)).count(), 25);
        let corner = Wide::reach(index::<Wide>(12, 0));
        assert_eq!(corner.count(), 49);
        assert!(corner.has(index::<Wide>(6, 6)) && !corner.has(index::<Wide>(5, 6)));
    }

    #[test]
    fn packed_cells_are_the_coordinates() {
        for i in 0..90 {
            let (x, y) = coords::<u128>(i);
            assert_eq!(u128::packed_cell(i), x as u32 | (y as u32) << 8);
        }
        assert_eq!(Wide::packed_cell(index::<Wide>(12, 11)), 12 | 11 << 8);
    }

    #[test]
    fn six_rows_start_at_the_asked_row() {
        let cells = u128::bit(index::<u128>(3, 2)) | u128::bit(index::<u128>(8, 7));
        assert_eq!(cells.six_rows_from(2), Some(1 << 3 | 1 << (5 * 10 + 8)));
        assert_eq!(cells.six_rows_from(3), Some(1 << (4 * 10 + 8)));
        assert_eq!(Wide::bit(3).six_rows_from(0), None);
    }

    #[test]
    fn geometry_counts_cells() {
        assert_eq!(u128::geometry().grid.count(), 81);
        assert_eq!(Wide::geometry().grid.count(), 169);
        assert_eq!(coords::<u128>(u128::CASTLE), (4, 4));
        assert_eq!(coords::<Wide>(Wide::CASTLE), (6, 6));
    }
}
