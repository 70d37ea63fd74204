//! The move-generation kernel behind `Position::generate`, `count_moves` and `has_move`.
//!
//! For one player it takes two bit planes (rows as integers): `corner`, the cells where a new
//! shape may make its diagonal contact, and `free`, the cells it may cover. For every usable
//! orientation and every possible top row at once it computes the x positions touching a
//! corner (OR over the shape's cells of the shifted corner plane) and lying on free cells (AND
//! over the cells of the shifted free plane). Lanes are board rows, so the fixed-length lane
//! loops compile to SIMD; on x86-64 with AVX2 a second copy compiled for AVX2 is used.
//! The kernel knows nothing of players, turns or text.

use crate::rules::OFF;
use crate::shapes::tables;

/// A row mask type for the move-generation kernel.
pub(crate) trait Lane:
    Copy + Default + std::ops::BitOrAssign + std::ops::BitAndAssign + Eq
{
    fn shr(self, n: u8) -> Self;
    fn bits(self) -> u32;
}

impl Lane for u16 {
    #[inline(always)]
    fn shr(self, n: u8) -> Self {
        self >> n
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        self as u32
    }
}

impl Lane for u32 {
    #[inline(always)]
    fn shr(self, n: u8) -> Self {
        self >> n
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        self
    }
}

/// Runs `kernel`, compiled for AVX2 when the CPU has it (the lane loops then use 256-bit
/// registers), otherwise for the baseline target.
#[inline(always)]
pub(crate) fn kernel_dispatch<T: Lane, const L: usize>(
    corner: &[T],
    free: &[T],
    letters: u32,
    emit: &mut impl FnMut(usize, u32, usize) -> bool,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, the only requirement of `kernel_avx2`.
            unsafe { kernel_avx2::<T, L>(corner, free, letters, emit) };
            return;
        }
    }
    kernel::<T, L>(corner, free, letters, emit);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn kernel_avx2<T: Lane, const L: usize>(
    corner: &[T],
    free: &[T],
    letters: u32,
    emit: &mut impl FnMut(usize, u32, usize) -> bool,
) {
    kernel::<T, L>(corner, free, letters, emit);
}

/// Legal positions of every usable orientation, with one lane per possible top row y
/// (`L` >= N). For each orientation, the positions touching a corner (OR over its cells of the
/// shifted corner plane) and those lying on free cells (AND over its cells of the shifted free
/// plane) are computed for all rows at once; the fixed-length lane loops compile to SIMD.
#[inline(always)]
fn kernel<T: Lane, const L: usize>(
    corner: &[T],
    free: &[T],
    mut letters: u32,
    emit: &mut impl FnMut(usize, u32, usize) -> bool,
) {
    let t = tables();
    while letters != 0 {
        let l = letters.trailing_zeros() as usize;
        letters &= letters - 1;
        let (a, b) = t.letter_range[l];
        for oi in a as usize..b as usize {
            let o = &t.orients[oi];
            let cells = &o.cells5;
            let mut hit = [T::default(); L];
            for &(dx, dy) in cells {
                let start = OFF + dy as usize;
                let src: &[T; L] = corner[start..start + L].try_into().expect("row window");
                for j in 0..L {
                    hit[j] |= src[j].shr(dx);
                }
            }
            let mut any = T::default();
            for h in hit {
                any |= h;
            }
            if any == T::default() {
                continue;
            }
            for &(dx, dy) in cells {
                let start = OFF + dy as usize;
                let src: &[T; L] = free[start..start + L].try_into().expect("row window");
                for j in 0..L {
                    hit[j] &= src[j].shr(dx);
                }
            }
            // A branch-free mask of the non-empty rows (compiles to compare + movemask), so
            // only rows with legal positions cost a branch.
            let mut rows = 0u32;
            for (j, &bits) in hit.iter().enumerate() {
                rows |= u32::from(bits != T::default()) << j;
            }
            while rows != 0 {
                let y = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                if !emit(oi, hit[y].bits(), y) {
                    return;
                }
            }
        }
    }
}
