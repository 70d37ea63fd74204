//! Blocking, Blokus Duo and Classic: id `(orientation * N + y) * N + x` for the orientation's
//! bounding box at (x, y); planes of each player's squares and anchor cells.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::protocol::{board_rows, representative};
use crate::shapes::{tables, N_LETTERS};
use crate::{Placement, Position};
use realm_core::{PlayerId, State};

use realm_core::engine::{
    board_header, plane_index, relative, rgb, seat_color, Bounds, Codec, Layout, Raster,
};

pub struct BlockingCodec;

/// The viewer's cell and margin in pixels (crates/viewer/assets/renderers/blocking.js).
const CELL: i32 = 26;
const PAD: i32 = 24;

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

    /// The protocol's board rows (a seat's digit on its squares, `.` elsewhere).
    fn text_board(pos: &Position) -> String {
        let mut lines = vec![board_header(&pos.outcome().scores, pos.to_move())];
        lines.extend(board_rows(pos, None));
        lines.join("\n")
    }

    /// The viewer's grid: a dark frame, empty cells light grey, a seat's squares its colour.
    fn render(pos: &Position) -> Raster {
        let n = pos.size() as i32;
        let side = (2 * PAD + n * CELL) as usize;
        let mut raster = Raster::new(side, side, rgb(0xffffff));
        raster.fill_rect(PAD - 3, PAD - 3, n * CELL + 6, n * CELL + 6, rgb(0x4a4f58));
        for y in 0..pos.size() {
            for x in 0..pos.size() {
                let color = pos.owner(x, y).map_or(rgb(0xeceef2), seat_color);
                let (px, py) = (PAD + x as i32 * CELL, PAD + y as i32 * CELL);
                raster.fill_rect(px + 1, py + 1, CELL - 2, CELL - 2, color);
            }
        }
        raster
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Variant};
    use realm_core::engine::SEAT_COLORS;

    /// Blokus Duo after seat 0's first placement.
    fn after_one_placement() -> (Position, Placement) {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 0));
        let mut moves = Vec::new();
        pos.legal_actions(&mut moves);
        let mv = moves[0];
        pos.apply(&mv);
        (pos, mv)
    }

    #[test]
    fn the_text_board_is_the_protocols_rows_under_the_scores() {
        let (pos, mv) = after_one_placement();
        let text = BlockingCodec::text_board(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 14);
        assert!(lines[0].ends_with("| seat 1 to move"), "{}", lines[0]);
        let squares: Vec<(usize, usize)> = mv.cells().collect();
        for (y, row) in lines[1..].iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let want = if squares.contains(&(x, y)) { '0' } else { '.' };
                assert_eq!(ch, want, "cell {x} {y}");
            }
        }
    }

    #[test]
    fn the_picture_shows_a_placed_square_in_its_seats_colour() {
        let (pos, mv) = after_one_placement();
        let picture = BlockingCodec::render(&pos);
        let side = (2 * PAD + 14 * CELL) as usize;
        assert_eq!((picture.width, picture.height), (side, side));
        let (x, y) = mv.cells().next().unwrap();
        let centre = |c: usize| (PAD + c as i32 * CELL + CELL / 2) as usize;
        assert_eq!(picture.pixel(centre(x), centre(y)), SEAT_COLORS[0]);
        let empty = (0..14).find(|&x| pos.owner(x, 13).is_none()).unwrap();
        assert_eq!(picture.pixel(centre(empty), centre(13)), rgb(0xeceef2));
    }
}
