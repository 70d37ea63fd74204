//! Blocking, Blokus Duo and Classic: id `(orientation * N + y) * N + x` for the orientation's
//! bounding box at (x, y); planes of each player's squares and anchor cells.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::protocol::representative;
use crate::shapes::{tables, N_LETTERS};
use crate::{Placement, Position};
use realm_core::{PlayerId, State};

use realm_core::engine::{plane_index, relative, Bounds, Codec, Layout};

pub struct BlockingCodec;

/// Scalars per player: 21 shapes left, eliminated, to move.
const PER_PLAYER: usize = N_LETTERS + 2;

impl Codec for BlockingCodec {
    type S = Position;

    fn layout(pos: &Position) -> Layout {
        let (n, p) = (pos.size(), pos.player_count());
        Layout {
            n_actions: tables().orients.len() * n * n,
            board: [2 * p, n, n],
            n_scalars: N_LETTERS + p * PER_PLAYER,
        }
    }

    fn encode(pos: &Position, mv: &Placement) -> u32 {
        let n = pos.size() as u32;
        (u32::from(mv.orient) * n + u32::from(mv.y)) * n + u32::from(mv.x)
    }

    fn decode(pos: &Position, id: u32) -> Option<Placement> {
        let n = pos.size() as u32;
        let orient = id / (n * n);
        (orient < tables().orients.len() as u32).then(|| Placement {
            orient: orient as u8,
            x: (id % n) as u8,
            y: (id / n % n) as u8,
        })
    }

    fn text(pos: &Position, mv: &Placement) -> String {
        let player = pos.to_move().unwrap_or(0);
        representative(pos, player, *mv).to_string()
    }

    /// Every scalar is a flag.
    fn scalar_bounds(pos: &Position) -> Bounds {
        let mut bounds = Bounds::default();
        bounds.flags(Self::layout(pos).n_scalars);
        bounds
    }

    fn observe(pos: &Position, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        let layout = Self::layout(pos);
        let (n, np) = (pos.size(), pos.player_count());
        for k in 0..np {
            let p = relative(player, k, np);
            for y in 0..n {
                for x in 0..n {
                    if pos.owner(x, y) == Some(p) {
                        board[plane_index(&layout, k, y, x)] = 1;
                    }
                    if pos.is_anchor(p, x, y) {
                        board[plane_index(&layout, np + k, y, x)] = 1;
                    }
                }
            }
        }
        for (l, s) in scalars[..N_LETTERS].iter_mut().enumerate() {
            *s = f32::from(u8::from(pos.set() >> l & 1 == 1));
        }
        for k in 0..np {
            let p = relative(player, k, np);
            let out = &mut scalars[N_LETTERS + k * PER_PLAYER..][..PER_PLAYER];
            for (l, s) in out[..N_LETTERS].iter_mut().enumerate() {
                *s = f32::from(u8::from(pos.remaining(p) >> l & 1 == 1));
            }
            out[N_LETTERS] = f32::from(u8::from(pos.is_eliminated(p)));
            out[N_LETTERS + 1] = f32::from(u8::from(pos.to_move() == Some(p)));
        }
    }
}
