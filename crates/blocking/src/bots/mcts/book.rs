//! Blokus Duo's opening book: for the positions of the first `BOOK_PLIES` placements that
//! realm's own long searches reached, the move such a search chose. In the opening the bot's
//! 120 ms buy about a sixth of the iterations they buy in the mid-game (the playouts are
//! longest and the placements most numerous), and thinking 1.5 s on each side's first five
//! moves raised the score against Pentobi level 6 from about 31% to 40.5% (STRENGTH.md): the
//! book gives that thinking ahead of time.
//!
//! The book is only as good as the search that wrote it, so it is rebuilt when the search
//! gains: written again by issue 39's search (with Pentobi's RAVE) at 100,000 iterations a
//! position, it took the score against level 6 from 48.3% to 56.2% (STRENGTH.md). Against
//! level 7, which searches about as long as those searches did, the bot left the book after
//! its first move in most games; the positions level 7 reached against the book's moves
//! (`data/duo_book_deep.txt`) are searched ten times longer (1,000,000 iterations).
//!
//! The book is `data/duo_book.txt`, built by `cargo run --release -p realm-blocking --example
//! duo_book` (a fixed number of iterations per position, so the file is reproducible). Each
//! line is a position key (16 hex digits) and the chosen move's cells as `x,y` pairs. Keys are
//! canonical under the four symmetries of the Duo board that keep its two shared start cells
//! (identity, the two diagonal mirrors, the half turn), so one entry serves every mirrored
//! position; the move is mapped back through the same symmetry. A move found in the book is
//! still checked against the legal placements, and any miss falls back to the search.

use std::collections::HashMap;
use std::sync::OnceLock;

use realm_core::SplitMix64;

use crate::rules::{Placement, Position};
use crate::setup::Variant;

/// The book covers positions with fewer placements than this.
pub const BOOK_PLIES: usize = 7;

/// The Duo board's side.
const SIDE: usize = 14;

/// The book, embedded.
const BOOK_TEXT: &str = include_str!("../../../data/duo_book.txt");

/// The cells of a move, sorted.
pub type Cells = Vec<(u8, u8)>;

/// Cell (x, y) under symmetry `s` (0 identity, 1 main diagonal, 2 half turn, 3 anti-diagonal).
/// Each is its own inverse.
pub fn map_cell(s: usize, (x, y): (u8, u8)) -> (u8, u8) {
    let last = SIDE as u8 - 1;
    match s {
        0 => (x, y),
        1 => (y, x),
        2 => (last - x, last - y),
        _ => (last - y, last - x),
    }
}

fn mix(h: u64, v: u64) -> u64 {
    SplitMix64::new(h ^ v).next_u64()
}

/// The position's key under symmetry `s`: both colours' cells, the shapes left and the player
/// to move.
fn key_under(pos: &Position, s: usize) -> u64 {
    let mut planes = [[0u16; SIDE]; 2];
    for y in 0..SIDE {
        for x in 0..SIDE {
            if let Some(p) = pos.owner(x, y) {
                let (mx, my) = map_cell(s, (x as u8, y as u8));
                planes[p][my as usize] |= 1 << mx;
            }
        }
    }
    let mut h = mix(0, pos.current().map_or(9, |p| p as u64));
    for (p, plane) in planes.iter().enumerate() {
        h = mix(h, u64::from(pos.remaining(p)));
        for &row in plane {
            h = mix(h, u64::from(row));
        }
    }
    h
}

/// The canonical key of a Duo position within the book's depth (the least key over the four
/// symmetries) and the symmetry that gives it; `None` for other variants and later positions.
pub fn canonical(pos: &Position) -> Option<(u64, usize)> {
    if pos.variant() != Variant::Duo || pos.n_placements() >= BOOK_PLIES {
        return None;
    }
    pos.current()?;
    (0..4).map(|s| (key_under(pos, s), s)).min()
}

/// `cells` under symmetry `s`, sorted.
fn map_cells(s: usize, cells: impl Iterator<Item = (u8, u8)>) -> Cells {
    let mut mapped: Cells = cells.map(|c| map_cell(s, c)).collect();
    mapped.sort_unstable();
    mapped
}

/// A move's cells under symmetry `s`, sorted.
pub fn cells_under(mv: &Placement, s: usize) -> Cells {
    map_cells(s, mv.cells().map(|(x, y)| (x as u8, y as u8)))
}

/// The legal placement of the player to move that covers exactly `cells` (sorted).
fn placement_covering(pos: &Position, cells: &Cells) -> Option<Placement> {
    let mut moves = Vec::new();
    pos.generate(pos.current()?, &mut moves);
    moves.into_iter().find(|m| cells_under(m, 0) == *cells)
}

/// Parses the book text: a key and the move's cells per line; `#` starts a comment.
pub fn parse(text: &str) -> Result<HashMap<u64, Cells>, String> {
    let mut book = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("duo book line {}: `{line}`", n + 1);
        let mut words = line.split_whitespace();
        let key = u64::from_str_radix(words.next().ok_or_else(bad)?, 16).map_err(|_| bad())?;
        let mut cells = Cells::new();
        for word in words {
            let (x, y) = word.split_once(',').ok_or_else(bad)?;
            let cell = (x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?);
            if cell.0 as usize >= SIDE || cell.1 as usize >= SIDE {
                return Err(bad());
            }
            cells.push(cell);
        }
        if cells.is_empty() || book.insert(key, cells).is_some() {
            return Err(bad());
        }
    }
    Ok(book)
}

/// One book line.
pub fn format_entry(key: u64, cells: &[(u8, u8)]) -> String {
    let cells: Vec<String> = cells.iter().map(|(x, y)| format!("{x},{y}")).collect();
    format!("{key:016x} {}", cells.join(" "))
}

fn book() -> &'static HashMap<u64, Cells> {
    static BOOK: OnceLock<HashMap<u64, Cells>> = OnceLock::new();
    // A test parses the embedded text; an unreadable book would only mean no book.
    BOOK.get_or_init(|| parse(BOOK_TEXT).unwrap_or_default())
}

/// The book's move in `pos`, when the book has the position and the move is legal there.
pub fn book_move(pos: &Position) -> Option<Placement> {
    let (key, s) = canonical(pos)?;
    let cells = book().get(&key)?;
    placement_covering(pos, &map_cells(s, cells.iter().copied()))
}

/// How many positions the book holds.
pub fn len() -> usize {
    book().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Config;

    fn duo() -> Position {
        Position::new(&Config::new(Variant::Duo, 2, 1))
    }

    /// The placement of `mv` mirrored by symmetry `s` in `pos`.
    fn mirrored(pos: &Position, mv: &Placement, s: usize) -> Placement {
        placement_covering(pos, &cells_under(mv, s)).expect("the mirrored move is legal")
    }

    #[test]
    fn the_embedded_book_parses() {
        let book = parse(BOOK_TEXT).expect("the embedded book parses");
        assert!(book.len() > 100, "only {} positions", book.len());
        assert_eq!(len(), book.len());
        assert!(parse("00000000000000ff 1,2 3").is_err());
        assert!(parse("00000000000000ff 1,14").is_err());
    }

    /// Mirrored games reach positions with the same key, and the book's move maps back into
    /// each mirror.
    #[test]
    fn keys_are_the_same_in_every_mirror() {
        let mut rng = realm_core::chacha_rng(11, 0);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut games: Vec<Position> = (0..4).map(|_| duo()).collect();
            for _ in 0..BOOK_PLIES {
                let keys: Vec<u64> = games.iter().map(|g| canonical(g).unwrap().0).collect();
                assert!(keys.iter().all(|&k| k == keys[0]));
                let p = games[0].current().unwrap();
                buf.clear();
                games[0].generate(p, &mut buf);
                let mv = buf[(rand_core::RngCore::next_u64(&mut rng) % buf.len() as u64) as usize];
                for s in (0..4).rev() {
                    let mirrored_move = mirrored(&games[s], &mv, s);
                    games[s].play(mirrored_move);
                }
            }
            assert!(canonical(&games[0]).is_none(), "past the book's depth");
        }
    }

    /// Following the book for both players from the empty board gives a legal book move at
    /// every ply of its depth.
    #[test]
    fn the_book_covers_its_main_line() {
        let mut pos = duo();
        for ply in 0..BOOK_PLIES {
            let mv = book_move(&pos).unwrap_or_else(|| panic!("no book move at ply {ply}"));
            pos.play(mv);
        }
        assert!(book_move(&pos).is_none());
    }
}
