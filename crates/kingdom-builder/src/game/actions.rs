//! The full game's actions and the target rules of 9.4 and 9.6 as set operations.
//!
//! Cells are `u16` indexes `row * 20 + col` (`cell_index`, `cell_pos`).

use crate::board::{Pos, SIZE};

use super::bits::{Bits, JUMP, NEIGHBOURS, OFF_BOARD, STEP};
use super::map::TileKind;

/// One decision of the player to move.
///
/// A turn is a sequence of actions: tile actions (`UseTile`) before or after the mandatory
/// build, the build itself as one `Build` per settlement (the adjacency rule is checked again
/// before each), and `EndTurn` once the build is done (D27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// One settlement of the mandatory build on this cell (9.4).
    Build(u16),
    /// A location tile the player holds: `from` is the settlement moved by Barn, Harbor and
    /// Paddock (`None` for the five build tiles), `to` the target cell (9.6).
    UseTile {
        tile: TileKind,
        from: Option<u16>,
        to: u16,
    },
    /// Ends the turn: the card is discarded and the next one drawn (9.4 step 4).
    EndTurn,
}

/// The index of a cell.
pub fn cell_index(pos: Pos) -> u16 {
    pos.index() as u16
}

/// The position of a cell index.
pub fn cell_pos(cell: u16) -> Pos {
    Pos::new(usize::from(cell) / SIZE, usize::from(cell) % SIZE)
}

/// The adjacency rule of 9.4 among `candidates` (empty cells of the required kind): the ones
/// next to the player's settlements (`near`) if there are any, else all of them.
pub fn with_adjacency(candidates: Bits, near: Bits) -> Bits {
    let next_to = candidates & near;
    if next_to.is_empty() {
        candidates
    } else {
        next_to
    }
}

/// The cells next to the player's settlements once `from` is lifted (D30), from the cells next
/// to at least one (`once`) and at least two (`twice`) of them.
pub fn near_without(once: Bits, twice: Bits, from: usize) -> Bits {
    let around = NEIGHBOURS[from];
    (once - around) | (twice & around)
}

/// Tavern (9.6): the cells that extend a straight line of 3 or more of `mine` at either end,
/// whatever they hold (the caller keeps the empty buildable ones).
pub fn tavern_line_ends(mine: Bits) -> Bits {
    let mut ends = Bits::EMPTY;
    for cell in mine.iter() {
        for dir in 0..6 {
            let second = STEP[dir][cell];
            if second == OFF_BOARD || !mine.contains(usize::from(second)) {
                continue;
            }
            let third = STEP[dir][usize::from(second)];
            let end = STEP[dir ^ 1][cell];
            if third != OFF_BOARD && end != OFF_BOARD && mine.contains(usize::from(third)) {
                ends.insert(usize::from(end));
            }
        }
    }
    ends
}

/// Paddock (9.6): the cells exactly two steps from `from` in a straight line.
pub fn paddock_jumps(from: usize) -> Bits {
    (0..6)
        .map(|dir| JUMP[dir][from])
        .filter(|&c| c != OFF_BOARD)
        .map(usize::from)
        .collect()
}
