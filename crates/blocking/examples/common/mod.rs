//! What the examples share: Duo and Classic positions written as GTP placements, the notation
//! of Pentobi and of `tools/blokus_search_speed.py`.

use realm_blocking::{Config, Placement, Position};
use realm_core::State;

/// The board squares `(x, y)` (y from the top) of GTP squares on an `n` × `n` board.
fn squares(text: &str, n: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = text
        .split(',')
        .map(|s| {
            let x = (s.as_bytes()[0] - b'a') as usize;
            let row: usize = s[1..].parse().expect("a GTP square");
            (x, n - row)
        })
        .collect();
    out.sort_unstable();
    out
}

/// The position after the placements of one line: space-separated, each a comma-separated
/// list of GTP squares (`e10,f10,f9`: column letter, row counted from the bottom), the first
/// player's first.
pub fn position(line: &str, config: &Config) -> Position {
    let mut pos = Position::new(config);
    for text in line.split_whitespace() {
        let mv = placement(&pos, text);
        pos.apply(&mv);
    }
    pos
}

/// The legal placement of `pos` that covers the GTP squares of `text`.
pub fn placement(pos: &Position, text: &str) -> Placement {
    let want = squares(text, pos.size());
    let mut buf: Vec<Placement> = Vec::new();
    pos.legal_actions(&mut buf);
    buf.into_iter()
        .find(|m| {
            let mut cells: Vec<_> = m.cells().collect();
            cells.sort_unstable();
            cells == want
        })
        .unwrap_or_else(|| panic!("{text} is not a legal placement here"))
}
