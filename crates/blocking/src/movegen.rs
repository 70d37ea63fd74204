//! The move-generation kernel behind `Position::generate`, `count_moves` and `has_move`.
//!
//! For one player it takes two bit planes (rows as integers): `corner`, the cells where a new
//! shape may make its diagonal contact, and `free`, the cells it may cover. For every usable
//! orientation it computes, for every top-left position at once, whether the shape touches a
//! corner (OR over its cells of the corner plane shifted by the cell's offset) and lies on
//! free cells (AND over its cells of the shifted free plane).
//!
//! The planes are first copied once, shifted right by each x offset a cell can have (0..5),
//! so that a cell then costs one load and one OR (or AND) per register: no shift in the loop
//! over orientations. Two layouts:
//! - boards up to 16 wide: one `u16` lane per row, 16 rows (one AVX2 register per plane);
//! - 20×20 (Classic): the rows packed at a stride of 24 bits into 512 bits (two AVX2
//!   registers), so that a y offset is a byte offset (3 bytes a row) of the load.
//!
//! The scan only stores each orientation's result and marks its non-empty words in a bitset
//! (`Found`); the moves are written afterwards in one loop over that bitset, so the
//! data-dependent loop exits (which mispredict) come once per 64 words, not once per
//! orientation.
//!
//! A copy compiled for AVX2 (with POPCNT and TZCNT) is chosen at run time on x86-64; the
//! baseline copy is the fallback. The kernel knows nothing of players, turns or text.

use std::mem::MaybeUninit;
use std::sync::OnceLock;

use crate::rules::{Rows, OFF, ROWS};
use crate::shapes::tables;

/// Distinct orientations of all 21 letters.
const ORIENTS: usize = 91;
/// The most non-empty words a scan records: every word of every slot.
pub const MAX_WORDS: usize = ORIENTS * 8;
/// Words of a scan's bitset of non-empty result words (eight per orientation).
const NONEMPTY_WORDS: usize = MAX_WORDS.div_ceil(64);

/// The legal top-left positions found by one scan. Per scanned orientation (in scan order,
/// "slots") a bit string: bit i (bit i % 64 of word i / 64) is the position
/// (i % stride, i / stride).
pub(crate) struct Found {
    words: [[MaybeUninit<u64>; 8]; ORIENTS],
    orient: [u8; ORIENTS],
    /// Bit 8 * slot + j: word j of that slot is non-empty (and was written).
    nonempty: [u64; NONEMPTY_WORDS],
    stride: u32,
    /// With `Job::cover`: per slot, the positions that also cover a cell of the plane, and
    /// their non-empty words as in `nonempty`.
    covered: [[MaybeUninit<u64>; 8]; ORIENTS],
    covered_nonempty: [u64; NONEMPTY_WORDS],
}

impl Found {
    fn new() -> Found {
        Found {
            words: [[MaybeUninit::uninit(); 8]; ORIENTS],
            orient: [0; ORIENTS],
            nonempty: [0; NONEMPTY_WORDS],
            stride: 16,
            covered: [[MaybeUninit::uninit(); 8]; ORIENTS],
            covered_nonempty: [0; NONEMPTY_WORDS],
        }
    }

    /// Records the result of orientation `orient` in `slot` (the scan's count of orientations
    /// so far; kept by the caller, in a register). Branch-free.
    #[inline(always)]
    fn record<const W: usize>(&mut self, slot: usize, orient: usize, words: [u64; W]) {
        self.orient[slot] = orient as u8;
        Self::store(&mut self.words[slot], &mut self.nonempty, slot, words);
    }

    /// Records the covering positions of `slot` (`Job::cover`).
    #[inline(always)]
    fn record_covered<const W: usize>(&mut self, slot: usize, words: [u64; W]) {
        Self::store(
            &mut self.covered[slot],
            &mut self.covered_nonempty,
            slot,
            words,
        );
    }

    /// Writes a slot's `W` words (the words past them are never read: their bits in
    /// `nonempty` stay clear) and marks the non-empty ones.
    #[inline(always)]
    fn store<const W: usize>(
        into: &mut [MaybeUninit<u64>; 8],
        nonempty: &mut [u64; NONEMPTY_WORDS],
        slot: usize,
        words: [u64; W],
    ) {
        let mut mask = 0u64;
        for (j, &w) in words.iter().enumerate() {
            into[j].write(w);
            mask |= u64::from(w != 0) << j;
        }
        nonempty[slot / 8] |= mask << (8 * (slot % 8));
    }

    /// Calls `f(orient, word, base)` for every non-empty word: its bit b is the position of
    /// index `base + b`.
    #[inline(always)]
    pub fn for_each_word(&self, mut f: impl FnMut(u8, u64, u32)) {
        self.walk(&self.nonempty, &self.words, |_, o, w, b| f(o, w, b))
    }

    /// `for_each_word` that also gives each word's key, what `word` takes (below `MAX_WORDS`).
    #[inline(always)]
    pub fn for_each_keyed_word(&self, f: impl FnMut(u16, u8, u64, u32)) {
        self.walk(&self.nonempty, &self.words, f)
    }

    /// The non-empty word of key `key` (from `for_each_keyed_word`): its orientation, its bits
    /// and their base.
    #[inline(always)]
    pub fn word(&self, key: u16) -> (u8, u64, u32) {
        let (slot, j) = (key as usize / 8, key as usize % 8);
        debug_assert!(self.nonempty[slot / 8] >> (8 * (slot % 8) + j) & 1 == 1);
        // SAFETY: keys come from `walk`, which gives only the keys of words `record` wrote.
        let word = unsafe { self.words[slot][j].assume_init() };
        (self.orient[slot], word, 64 * j as u32)
    }

    /// `for_each_word` over the positions that cover a cell of the `Job::cover` plane.
    #[inline(always)]
    pub fn for_each_covered_word(&self, mut f: impl FnMut(u8, u64, u32)) {
        self.walk(&self.covered_nonempty, &self.covered, |_, o, w, b| {
            f(o, w, b)
        })
    }

    /// True when some position covers a cell of the `Job::cover` plane.
    #[inline(always)]
    pub fn any_covered(&self) -> bool {
        self.covered_nonempty.iter().any(|&m| m != 0)
    }

    #[inline(always)]
    fn walk(
        &self,
        nonempty: &[u64; NONEMPTY_WORDS],
        words: &[[MaybeUninit<u64>; 8]; ORIENTS],
        mut f: impl FnMut(u16, u8, u64, u32),
    ) {
        for (i, &mask) in nonempty.iter().enumerate() {
            let mut mask = mask;
            while mask != 0 {
                let k = 64 * i + mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let (slot, j) = (k / 8, k % 8);
                // SAFETY: a bit is set only for a slot `record` (or `record_covered`) wrote.
                let word = unsafe { words[slot][j].assume_init() };
                f(k as u16, self.orient[slot], word, 64 * j as u32);
            }
        }
    }

    /// Number of positions (counted here, not while scanning: a playout's step never asks).
    #[inline(always)]
    pub fn count(&self) -> usize {
        let mut total = 0;
        self.for_each_word(|_, word, _| total += word.count_ones() as usize);
        total
    }

    /// True for the packed (20×20) layout, whose positions `PackedCells` decodes; otherwise
    /// `Rows16Cells` does.
    #[inline(always)]
    pub fn is_packed(&self) -> bool {
        self.stride == PACKED_STRIDE
    }
}

/// From a position index (below 512) to its (x, y), one type per layout so that the choice is
/// made once per scan, not once per position.
pub(crate) trait Cells: Copy {
    fn cell(self, i: u32) -> (u8, u8);
}

/// The 16-wide layout: 16 bits a row.
#[derive(Clone, Copy)]
pub(crate) struct Rows16Cells;

impl Cells for Rows16Cells {
    #[inline(always)]
    fn cell(self, i: u32) -> (u8, u8) {
        ((i & 15) as u8, (i >> 4) as u8)
    }
}

/// The packed layout: 24 bits a row, decoded by a table (cheaper than dividing by 24, even as
/// a multiply).
#[derive(Clone, Copy)]
pub(crate) struct PackedCells;

impl Cells for PackedCells {
    #[inline(always)]
    fn cell(self, i: u32) -> (u8, u8) {
        PACKED_CELLS[i as usize & 511]
    }
}

/// Bits per board row in the packed 20×20 layout (3 bytes, so a row step is a byte offset).
const PACKED_STRIDE: u32 = 24;
/// Bytes of a packed plane: 20 rows of 3 bytes, room for a load 4 rows down, zeros after.
const PACKED_BYTES: usize = 80;
/// (x, y) of each packed position index.
static PACKED_CELLS: [(u8, u8); 512] = {
    let mut cells = [(0, 0); 512];
    let mut i = 0;
    while i < 512 {
        cells[i] = ((i % 24) as u8, (i / 24) as u8);
        i += 1;
    }
    cells
};
/// `PACKED_BYTES` as words.
const PACKED_WORDS: usize = PACKED_BYTES / 8;

/// One player's planes on an `n`×`n` board and the letters to scan.
#[derive(Clone, Copy)]
pub(crate) struct Job<'a> {
    pub n: usize,
    pub corner: &'a Rows,
    pub free: &'a Rows,
    pub letters: u32,
    /// When given, the positions where the shape also covers a cell of this plane are
    /// recorded apart too (`Found::for_each_covered_word`): one scan where a covering answer
    /// is wanted first and any placement otherwise.
    pub cover: Option<&'a Rows>,
}

/// Finds the legal positions of every orientation of a letter in `job.letters` and hands
/// them to `then` (which runs in the same CPU-specific copy).
#[inline(always)]
pub(crate) fn scan<R>(job: Job<'_>, then: impl FnOnce(&Found) -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has every feature `scan_avx2` is compiled for.
            return unsafe { scan_avx2(job, then) };
        }
    }
    scan_portable(job, then)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,popcnt")]
unsafe fn scan_avx2<R>(job: Job<'_>, then: impl FnOnce(&Found) -> R) -> R {
    scan_portable(job, then)
}

#[inline(always)]
fn scan_portable<R>(job: Job<'_>, then: impl FnOnce(&Found) -> R) -> R {
    let Job {
        n,
        corner,
        free,
        letters,
        cover,
    } = job;
    let mut found = Found::new();
    if n <= 16 {
        // Row y of the result is bits 16y..16y+16 (rows 0..16: four words).
        let planes = [shifted16(corner), shifted16(free)];
        let cover = cover.map(shifted16);
        scan_layout::<_, _, 4>(&planes, cover.as_ref(), 16, 0, letters, &mut found);
    } else {
        // Row y of the result is bits 24y..24y+20 of 512. Positions past the last row or
        // column never survive: every orientation has a cell in its first column and one in
        // its first row, whose free bit there is a zero of padding.
        let planes = [shifted_packed(corner), shifted_packed(free)];
        let cover = cover.map(shifted_packed);
        let cover = cover.as_ref();
        scan_layout::<_, _, 8>(&planes, cover, PACKED_STRIDE, 1, letters, &mut found);
    }
    then(&found)
}

/// The ranges of orientation indices of the letters in `letters`, letter by letter.
#[inline(always)]
fn orientation_ranges(mut letters: u32) -> impl Iterator<Item = std::ops::Range<usize>> {
    let t = tables();
    std::iter::from_fn(move || {
        if letters == 0 {
            return None;
        }
        let (first, end) = t.letter_range[letters.trailing_zeros() as usize];
        letters &= letters - 1;
        Some(first as usize..end as usize)
    })
}

/// True when some orientation of a letter in `letters` has a legal position on an `n`×`n`
/// board. No shifted copies are made: the first orientations usually answer, so the cost that
/// `scan` spreads over all orientations would dominate here.
pub(crate) fn exists(n: usize, corner: &Rows, free: &Rows, letters: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, the only feature `exists_avx2` is compiled for.
            return unsafe { exists_avx2(n, corner, free, letters) };
        }
    }
    exists_portable(n, corner, free, letters)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn exists_avx2(n: usize, corner: &Rows, free: &Rows, letters: u32) -> bool {
    exists_portable(n, corner, free, letters)
}

#[inline(always)]
fn exists_portable(n: usize, corner: &Rows, free: &Rows, letters: u32) -> bool {
    let t = tables();
    // A one-square shape fits on any corner (corners are free cells).
    if letters & t.by_size[1] != 0 {
        return corner.iter().any(|&r| r != 0);
    }
    if n <= 16 {
        exists_lanes::<u16, 16>(corner, free, letters)
    } else {
        exists_lanes::<u32, 24>(corner, free, letters)
    }
}

/// A board row as a SIMD lane: `u16` up to 16 wide (twice the lanes per register), else `u32`.
trait Lane:
    Copy
    + Default
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Shr<u8, Output = Self>
{
    const ONES: Self;
    fn of_row(row: u32) -> Self;
}

impl Lane for u16 {
    const ONES: Self = u16::MAX;
    #[inline(always)]
    fn of_row(row: u32) -> Self {
        row as u16
    }
}

impl Lane for u32 {
    const ONES: Self = u32::MAX;
    #[inline(always)]
    fn of_row(row: u32) -> Self {
        row
    }
}

/// One lane per top row (`L` of them cover the board); shifts in the loop.
#[inline(always)]
fn exists_lanes<T: Lane, const L: usize>(corner: &Rows, free: &Rows, letters: u32) -> bool {
    let lanes = |plane: &Rows| -> [T; ROWS] { plane.map(T::of_row) };
    let (corner, free) = (lanes(corner), lanes(free));
    let t = tables();
    for range in orientation_ranges(letters) {
        for o in &t.orients[range] {
            let mut touch = [T::default(); L];
            let mut fits = [T::ONES; L];
            for &(dx, dy) in &o.cells5 {
                let at = OFF + dy as usize;
                let c: &[T; L] = corner[at..at + L].try_into().expect("row window");
                let f: &[T; L] = free[at..at + L].try_into().expect("row window");
                for j in 0..L {
                    touch[j] = touch[j] | c[j] >> dx;
                    fits[j] = fits[j] & f[j] >> dx;
                }
            }
            if (0..L).fold(T::default(), |a, j| a | (touch[j] & fits[j])) != T::default() {
                return true;
            }
        }
    }
    false
}

/// Bytes of one x-shifted copy of a plane in the 16-wide layout: 24 `u16` rows.
const ROWS16_PLANE: usize = 48;

/// Per orientation, the byte offset of each (padded) cell's load in the five shifted copies of
/// a plane: `dx * plane + dy * row`, for the 16-wide (`[0]`) and packed (`[1]`) layouts.
/// Checked when built: every load of 32 (16-wide) or 64 (packed) bytes stays in its buffer.
fn cell_offsets() -> &'static [[[u16; 5]; 2]] {
    static OFFSETS: OnceLock<Vec<[[u16; 5]; 2]>> = OnceLock::new();
    OFFSETS.get_or_init(|| {
        assert_eq!(tables().orients.len(), ORIENTS, "orientation count");
        tables()
            .orients
            .iter()
            .map(|o| {
                let at = |plane: usize, row: usize, load: usize, total: usize| {
                    o.cells5.map(|(dx, dy)| {
                        let off = dx as usize * plane + dy as usize * row;
                        assert!(off + load <= total, "kernel load out of its buffer");
                        off as u16
                    })
                };
                [
                    at(ROWS16_PLANE, 2, 32, 5 * ROWS16_PLANE),
                    at(PACKED_BYTES, 3, 64, 5 * PACKED_BYTES),
                ]
            })
            .collect()
    })
}

/// Reads the `[W; N]` that starts `off` bytes into `buf` (unaligned).
///
/// Safety: `off + size_of::<[W; N]>() <= size_of_val(buf)` (the offsets of `cell_offsets` are
/// checked for their buffers when built).
#[inline(always)]
unsafe fn load<B: Copy, W: Copy, const N: usize>(buf: &[B], off: u16) -> [W; N] {
    debug_assert!(off as usize + std::mem::size_of::<[W; N]>() <= std::mem::size_of_val(buf));
    // SAFETY: in bounds by the caller's contract; any bit pattern is a valid integer array.
    unsafe { std::ptr::read_unaligned(buf.as_ptr().cast::<u8>().add(off as usize).cast()) }
}

/// The 16-wide layout of a plane, shifted right by 0..5, rows as little-endian `u16`: plain
/// typed loops (they vectorise; a closure would not be inlined into the AVX2 copy).
#[inline(always)]
fn shifted16(plane: &Rows) -> [[u16; 24]; 5] {
    let mut out = [[0u16; 24]; 5];
    for (dx, rows) in out.iter_mut().enumerate() {
        for (i, row) in rows.iter_mut().enumerate() {
            *row = ((plane[OFF + i] >> dx) as u16).to_le();
        }
    }
    out
}

/// The packed layout of a plane, shifted right by 0..5. The rows are packed into words in
/// registers, then each x shift is a shift of the whole 512-bit string: bits a row loses on
/// the right land in the padding of the row below, where no legal position reads them.
#[inline(always)]
fn shifted_packed(plane: &Rows) -> [[u64; PACKED_WORDS]; 5] {
    // Rows appended to a bit accumulator, a word written out whenever 64 bits are full
    // (constant trip count: the loop unrolls and no word is read back from memory; rows past
    // the board are zero).
    let mut words = [0u64; PACKED_WORDS + 1];
    let (mut acc, mut filled, mut j) = (0u128, 0, 0);
    for y in 0..20 {
        acc |= u128::from(plane[OFF + y]) << filled;
        filled += PACKED_STRIDE;
        if filled >= 64 {
            words[j] = acc as u64;
            acc >>= 64;
            filled -= 64;
            j += 1;
        }
    }
    words[j] = acc as u64;
    // Stored little-endian: the kernel loads them at byte offsets.
    let mut out = [[0u64; PACKED_WORDS]; 5];
    for (dx, shifted) in out.iter_mut().enumerate() {
        for j in 0..PACKED_WORDS {
            let word = if dx == 0 {
                words[j]
            } else {
                words[j] >> dx | words[j + 1] << (64 - dx)
            };
            shifted[j] = word.to_le();
        }
    }
    out
}

/// Runs the kernel on the shifted corner and free planes (and the plane to cover, if any) of
/// one layout (`W` words of result).
#[inline(always)]
fn scan_layout<B: Copy, const K: usize, const W: usize>(
    planes: &[[[B; K]; 5]; 2],
    cover: Option<&[[B; K]; 5]>,
    stride: u32,
    layout: usize,
    letters: u32,
    found: &mut Found,
) {
    // The loads' bounds were checked against these sizes (`cell_offsets`); constant-folded.
    let checked = [5 * ROWS16_PLANE, 5 * PACKED_BYTES][layout];
    assert_eq!(
        std::mem::size_of::<[[B; K]; 5]>(),
        checked,
        "plane buffer size"
    );
    found.stride = stride;
    let [corner_dx, free_dx] = planes.each_ref().map(|p| p.as_flattened());
    let cover_dx = cover.map(|p| p.as_flattened());
    scan_words::<B, W>(corner_dx, free_dx, cover_dx, layout, letters, found);
}

/// The kernel proper, on `W` little-endian words per plane: `layout` selects the cell offsets
/// (`cell_offsets`) matching the byte buffers of shifted planes. OR and AND are bitwise, so
/// the words need not match the rows.
#[inline(always)]
fn scan_words<B: Copy, const W: usize>(
    corner_dx: &[B],
    free_dx: &[B],
    cover_dx: Option<&[B]>,
    layout: usize,
    letters: u32,
    found: &mut Found,
) {
    let offsets = cell_offsets();
    // The slot counter in a local, not in `found`: in memory it would chain every
    // orientation's stores to the previous one's.
    let mut slot = 0;
    for range in orientation_ranges(letters) {
        for (oi, offs) in range.clone().zip(&offsets[range]) {
            let offs = &offs[layout];
            let mut hit = [0u64; W];
            for &off in offs {
                // SAFETY: `cell_offsets` checked every load of this layout against its buffer.
                let src: [u64; W] = unsafe { load(corner_dx, off) };
                for j in 0..W {
                    hit[j] |= u64::from_le(src[j]);
                }
            }
            for &off in offs {
                // SAFETY: as above.
                let src: [u64; W] = unsafe { load(free_dx, off) };
                for j in 0..W {
                    hit[j] &= u64::from_le(src[j]);
                }
            }
            if let Some(cover_dx) = cover_dx {
                let mut covers = [0u64; W];
                for &off in offs {
                    // SAFETY: as above (the same buffer size).
                    let src: [u64; W] = unsafe { load(cover_dx, off) };
                    for j in 0..W {
                        covers[j] |= u64::from_le(src[j]);
                    }
                }
                found.record_covered::<W>(slot, std::array::from_fn(|j| hit[j] & covers[j]));
            }
            found.record(slot, oi, hit);
            slot += 1;
        }
    }
}
