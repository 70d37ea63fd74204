//! Carcassonne: a turn is two actions, the tile then the man. Ids: tile at (row, col) with
//! `angle` quarter turns `(row * 143 + col) * 4 + angle`; no man `81796`; man token t (0..12,
//! `40` is 12) `81797 + t`. Planes over the whole 143×143 board; the draw order is hidden.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::board::{Placement, MEN_PER_PLAYER, N_TOKENS, SIZE};
use crate::protocol::token_text;
use crate::tiles::{tileset, Kind};
use crate::{Action, State};
use realm_core::{PlayerId, State as _};

use realm_core::engine::{plane_index, relative, seen_from, Bounds, Codec, Layout};

pub struct CarcassonneCodec;

const PLACES: u32 = (SIZE * SIZE * 4) as u32;
const NO_MAN: u32 = PLACES;
/// Planes: tile type + 1 (0 = empty), angle, man's owner counted from the observer + 1, man
/// token + 1, the tile placed this turn (waiting for its man).
const PLANES: usize = 5;
/// Scalars per player: score, men left, eliminated, to move.
const PER_PLAYER: usize = 4;

fn n_types() -> usize {
    tileset().types.len()
}

impl Codec for CarcassonneCodec {
    type S = State;

    fn layout(state: &State) -> Layout {
        Layout {
            n_actions: (PLACES + 1 + u32::from(N_TOKENS)) as usize,
            board: [PLANES, SIZE, SIZE],
            // Tile to place (one-hot), unseen tiles per type, man step pending, players.
            n_scalars: 2 * n_types() + 1 + state.n_players() * PER_PLAYER,
        }
    }

    fn encode(_state: &State, action: &Action) -> u32 {
        match *action {
            Action::Place(at) => {
                (u32::from(at.row) * SIZE as u32 + u32::from(at.col)) * 4 + u32::from(at.angle)
            }
            Action::Man(None) => NO_MAN,
            Action::Man(Some(t)) => NO_MAN + 1 + u32::from(t),
        }
    }

    fn decode(_state: &State, id: u32) -> Option<Action> {
        Some(match id {
            _ if id < PLACES => Action::Place(Placement {
                row: (id / 4 / SIZE as u32) as u8,
                col: (id / 4 % SIZE as u32) as u8,
                angle: (id % 4) as u8,
            }),
            NO_MAN => Action::Man(None),
            _ if id <= NO_MAN + u32::from(N_TOKENS) => Action::Man(Some((id - NO_MAN - 1) as u8)),
            _ => return None,
        })
    }

    fn text(_state: &State, action: &Action) -> String {
        match *action {
            Action::Place(at) => format!("{} {} {}", at.row, at.col, at.angle),
            Action::Man(token) => token.map_or("-1".to_string(), token_text),
        }
    }

    fn observe(state: &State, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        let layout = Self::layout(state);
        let np = state.n_players();
        let placed = state.board().placed();
        for (slot, tile) in placed.iter().enumerate() {
            let (y, x) = (tile.row as usize, tile.col as usize);
            board[plane_index(&layout, 0, y, x)] = tile.ty + 1;
            board[plane_index(&layout, 1, y, x)] = tile.angle;
            if let Some((owner, token)) = tile.man {
                board[plane_index(&layout, 2, y, x)] =
                    1 + seen_from(player, owner.into(), np) as u8;
                board[plane_index(&layout, 3, y, x)] = token + 1;
            }
            if state.pending_slot() == Some(slot) {
                board[plane_index(&layout, 4, y, x)] = 1;
            }
        }
        let types = n_types();
        if let Some(ty) = state.current_tile() {
            scalars[ty as usize] = 1.0;
        }
        // Which unseen tiles were discarded is hidden, so they count with the bag.
        for &ty in state.bag_left().iter().chain(state.discarded()) {
            scalars[types + ty as usize] += 1.0;
        }
        scalars[2 * types] = f32::from(u8::from(state.pending_slot().is_some()));
        for k in 0..np {
            let p = relative(player, k, np);
            let out = &mut scalars[2 * types + 1 + k * PER_PLAYER..][..PER_PLAYER];
            out[0] = state.board().scores()[p] as f32;
            out[1] = f32::from(state.board().men_left(p));
            out[2] = f32::from(u8::from(state.is_eliminated(p)));
            out[3] = f32::from(u8::from(state.to_move() == Some(p)));
        }
    }

    /// The tile in hand and the pending flag are flags, a type's unseen count is at most its
    /// count in the set, men left 0..=6; a score is at most what every block of the whole set
    /// could pay (each block pays once, the same to every player in its majority).
    fn scalar_bounds(state: &State) -> Bounds {
        let types = &tileset().types;
        let mut bounds = Bounds::default();
        bounds.flags(types.len());
        for ty in types {
            bounds.push(1, 0.0, f32::from(ty.count));
        }
        bounds.flags(1);
        for _ in 0..state.n_players() {
            bounds.push(1, 0.0, max_score() as f32);
            bounds.push(1, 0.0, f32::from(MEN_PER_PLAYER)).flags(2);
        }
        bounds
    }

    fn reshuffle_hidden(state: &mut State, seed: u64) {
        state.reshuffle_hidden(seed);
    }

    fn closes_answer(_state: &State, action: &Action) -> bool {
        matches!(action, Action::Man(_))
    }

    fn answer_lines(texts: &[String]) -> Vec<String> {
        vec![texts.join(" ")]
    }
}

/// What one player can score at most with the whole tile set (RULES.md 3.5, 3.6): a castle
/// part 2 and a shield 2, a road part 1, a monastery 9, and a field 3 per castle block, with
/// no more blocks of a kind than parts of that kind.
fn max_score() -> u64 {
    let (mut castles, mut fields, mut points) = (0u64, 0u64, 0u64);
    for ty in &tileset().types {
        let base = ty.base();
        let count = u64::from(ty.count);
        for kind in &base.kinds[..usize::from(base.n_parts)] {
            match kind {
                Kind::Castle => {
                    castles += count;
                    points += 2 * count;
                }
                Kind::Road => points += count,
                Kind::Monastery => points += 9 * count,
                Kind::Field => fields += count,
            }
        }
        if ty.shield {
            points += 2 * count;
        }
    }
    points + 3 * fields * castles
}
