//! The 21 shapes (spec §2): the drawing table, the 91 distinct oriented shapes with their
//! precomputed row masks and halos, and the name table that maps `Lfr` + square `k` to an
//! oriented shape and an offset (S1–S3).
//!
//! Everything here is computed once from the embedded data file and shared read-only; the
//! engine in `rules.rs` only indexes into it. Nothing here knows about boards or players.

use std::sync::OnceLock;

/// The shape table exactly as the spec's data file holds it, one initial-input line per shape.
pub const SHAPES_TXT: &str = include_str!("../data/blocking_shapes.txt");

/// Number of shape letters, `A..=U`.
pub const N_LETTERS: usize = 21;

/// Letters A, B, C, D: always in the set and the only ones allowed for a restricted first move.
pub const SMALL_LETTERS: u32 = 0b1111;

/// All 21 letters as a bit set (bit i = letter `'A' + i`).
pub const ALL_LETTERS: u32 = (1 << N_LETTERS) - 1;

/// One distinct oriented shape: a letter's cells after flip and rotation, normalised so that
/// the smallest x and y are 0.
#[derive(Clone, Debug)]
pub struct Orient {
    pub letter: u8,
    /// Number of squares.
    pub n: u8,
    pub w: u8,
    pub h: u8,
    /// Cells (dx, dy) in row-major order; only the first `n` are used.
    pub cells: [(u8, u8); 5],
    /// The cells padded to five by repeating the first one, so that the move-generation
    /// kernel runs a fixed, fully unrolled loop (OR and AND are idempotent).
    pub cells5: [(u8, u8); 5],
    /// Row masks: bit dx of `rows[dy]` is a cell; only the first `h` are used.
    pub rows: [u32; 5],
    /// Edge neighbours outside the shape, on a grid shifted by (1, 1): bit c of `edge[r]` is
    /// cell (dx, dy) = (c - 1, r - 1). Rows `0..h + 2`.
    pub edge: [u32; 7],
    /// Diagonal-only neighbours (not cells, not edge neighbours), same grid as `edge`.
    pub diag: [u32; 7],
}

/// Where one `Lfr` name lands: which distinct orientation, and where each numbered square is.
#[derive(Clone, Copy, Debug)]
pub struct NameEntry {
    pub orient: u8,
    /// Position of square k (index k - 1) inside the normalised orientation.
    pub squares: [(u8, u8); 5],
}

/// The precomputed shape data.
#[derive(Debug)]
pub struct Tables {
    /// The 91 distinct orientations, grouped by letter (alphabetical), within a letter in the
    /// order of their first name (f, r).
    pub orients: Vec<Orient>,
    /// `letter_range[l]` = the orientations of letter l, as a range of indices.
    pub letter_range: [(u8, u8); N_LETTERS],
    /// `names[l][f * 4 + r]`.
    pub names: [[NameEntry; 8]; N_LETTERS],
    /// The drawing line of each letter, as sent in the initial input.
    pub lines: [&'static str; N_LETTERS],
    /// Squares per letter.
    pub sizes: [u8; N_LETTERS],
    /// `by_size[n]`: the letters of n squares, as a bit set.
    pub by_size: [u32; 6],
}

/// The shared shape tables.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

/// The letter of index `l` (0 = 'A').
pub fn letter_char(l: usize) -> char {
    (b'A' + l as u8) as char
}

/// The letters of a bit set, alphabetical, concatenated (`ABCD...`).
pub fn letters_string(set: u32) -> String {
    (0..N_LETTERS)
        .filter(|l| set >> l & 1 == 1)
        .map(letter_char)
        .collect()
}

/// Squares of shape `l` numbered in reading order of its drawing (S1): base (x, y) coordinates.
fn parse_line(line: &str) -> (u8, Vec<(i32, i32)>) {
    let parts: Vec<&str> = line.split(' ').collect();
    let letter = parts[0].as_bytes()[0] - b'A';
    let cols: usize = parts[1].parse().expect("shape table: cols");
    let rows: usize = parts[2].parse().expect("shape table: rows");
    assert_eq!(parts.len(), 3 + rows, "shape table: row count of {line}");
    let mut squares = Vec::new();
    for (y, row) in parts[3..].iter().enumerate() {
        assert_eq!(row.len(), cols, "shape table: row width of {line}");
        for (x, c) in row.bytes().enumerate() {
            if c == b'#' {
                squares.push((x as i32, y as i32));
            }
        }
    }
    (letter, squares)
}

/// S2: flip (swap coordinates), then `r` clockwise quarter turns (x, y) -> (-y, x), then shift
/// to the origin. The square order is kept.
pub fn orient_squares(base: &[(i32, i32)], f: usize, r: usize) -> Vec<(u8, u8)> {
    let mut pts: Vec<(i32, i32)> = base
        .iter()
        .map(|&(x, y)| if f == 1 { (y, x) } else { (x, y) })
        .collect();
    for _ in 0..r {
        for p in &mut pts {
            *p = (-p.1, p.0);
        }
    }
    let min_x = pts.iter().map(|p| p.0).min().unwrap_or(0);
    let min_y = pts.iter().map(|p| p.1).min().unwrap_or(0);
    pts.iter()
        .map(|&(x, y)| ((x - min_x) as u8, (y - min_y) as u8))
        .collect()
}

fn make_orient(letter: u8, squares: &[(u8, u8)]) -> Orient {
    let mut cells: Vec<(u8, u8)> = squares.to_vec();
    cells.sort_by_key(|&(x, y)| (y, x));
    let w = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let h = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let mut rows = [0u32; 5];
    for &(x, y) in &cells {
        rows[y as usize] |= 1 << x;
    }
    // Halos on a grid shifted by one so that the neighbour at dx = -1 is bit 0.
    let is_cell = |x: i32, y: i32| {
        cells
            .iter()
            .any(|&(cx, cy)| cx as i32 == x && cy as i32 == y)
    };
    let mut edge = [0u32; 7];
    let mut diag = [0u32; 7];
    for gy in 0..(h as i32 + 2) {
        for gx in 0..(w as i32 + 2) {
            let (x, y) = (gx - 1, gy - 1);
            if is_cell(x, y) {
                continue;
            }
            let edge_n =
                is_cell(x - 1, y) || is_cell(x + 1, y) || is_cell(x, y - 1) || is_cell(x, y + 1);
            let diag_n = is_cell(x - 1, y - 1)
                || is_cell(x + 1, y - 1)
                || is_cell(x - 1, y + 1)
                || is_cell(x + 1, y + 1);
            if edge_n {
                edge[gy as usize] |= 1 << gx;
            } else if diag_n {
                diag[gy as usize] |= 1 << gx;
            }
        }
    }
    let mut fixed = [(0u8, 0u8); 5];
    fixed[..cells.len()].copy_from_slice(&cells);
    let cells5 = std::array::from_fn(|i| cells.get(i).copied().unwrap_or(cells[0]));
    Orient {
        letter,
        n: cells.len() as u8,
        w,
        h,
        cells: fixed,
        cells5,
        rows,
        edge,
        diag,
    }
}

fn build_tables() -> Tables {
    let mut orients: Vec<Orient> = Vec::new();
    let mut letter_range = [(0u8, 0u8); N_LETTERS];
    let empty = NameEntry {
        orient: 0,
        squares: [(0, 0); 5],
    };
    let mut names = [[empty; 8]; N_LETTERS];
    let mut lines = [""; N_LETTERS];
    let mut sizes = [0u8; N_LETTERS];
    for line in SHAPES_TXT.lines().filter(|l| !l.trim().is_empty()) {
        let (letter, base) = parse_line(line);
        let l = letter as usize;
        lines[l] = line;
        sizes[l] = base.len() as u8;
        let start = orients.len();
        for (fr, name) in names[l].iter_mut().enumerate() {
            let squares = orient_squares(&base, fr / 4, fr % 4);
            let candidate = make_orient(letter, &squares);
            let found = orients[start..]
                .iter()
                .position(|o| o.rows == candidate.rows && o.h == candidate.h);
            let idx = match found {
                Some(i) => start + i,
                None => {
                    orients.push(candidate);
                    orients.len() - 1
                }
            };
            let mut sq = [(0u8, 0u8); 5];
            sq[..squares.len()].copy_from_slice(&squares);
            *name = NameEntry {
                orient: idx as u8,
                squares: sq,
            };
        }
        letter_range[l] = (start as u8, orients.len() as u8);
    }
    let mut by_size = [0u32; 6];
    for (l, &size) in sizes.iter().enumerate() {
        by_size[size as usize] |= 1 << l;
    }
    Tables {
        orients,
        letter_range,
        names,
        lines,
        sizes,
        by_size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A1: 91 orientations with the per-letter counts of S4.
    #[test]
    fn a1_orientation_counts() {
        let t = tables();
        assert_eq!(t.orients.len(), 91);
        let expected = [
            1, 2, 2, 4, 2, 8, 4, 1, 4, 2, 8, 8, 8, 4, 8, 4, 4, 4, 4, 8, 1,
        ];
        for (l, &n) in expected.iter().enumerate() {
            let (a, b) = t.letter_range[l];
            assert_eq!((b - a) as usize, n, "letter {}", letter_char(l));
        }
        let total: u32 = t.sizes.iter().map(|&s| s as u32).sum();
        assert_eq!(total, 89);
    }

    /// Renders name `Q{f}{r}` as in the spec's §2.3 figure (digits = square numbers).
    fn draw(l: usize, f: usize, r: usize) -> Vec<String> {
        let t = tables();
        let e = &t.names[l][f * 4 + r];
        let o = &t.orients[e.orient as usize];
        let mut grid = vec![vec!['.'; o.w as usize]; o.h as usize];
        for k in 0..o.n as usize {
            let (x, y) = e.squares[k];
            grid[y as usize][x as usize] = char::from_digit(k as u32 + 1, 10).unwrap();
        }
        grid.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    /// A1: the eight Q drawings of §2.3.
    #[test]
    fn a1_q_orientations_match_the_figure() {
        let q = 16;
        let expected = [
            ["123", ".4.", ".5."],
            ["..1", "542", "..3"],
            [".5.", ".4.", "321"],
            ["3..", "245", "1.."],
            ["1..", "245", "3.."],
            ["321", ".4.", ".5."],
            ["..3", "542", "..1"],
            [".5.", ".4.", "123"],
        ];
        for (fr, rows) in expected.iter().enumerate() {
            assert_eq!(
                draw(q, fr / 4, fr % 4),
                rows.to_vec(),
                "Q{}{}",
                fr / 4,
                fr % 4
            );
        }
    }

    #[test]
    fn halos_of_the_monomino() {
        let t = tables();
        let a = &t.orients[0];
        assert_eq!(&a.edge[..3], &[0b010, 0b101, 0b010]);
        assert_eq!(&a.diag[..3], &[0b101, 0b000, 0b101]);
    }
}
