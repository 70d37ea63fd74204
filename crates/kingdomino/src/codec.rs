//! Kingdomino: id `put * 49 + pick`, where `put` is 0 (no placement) or
//! `1 + (y * N + x) * 4 + r` and `pick` the picked tile's ID (0 = none); planes of each
//! kingdom's castle, terrains and crowns; the current and next lines as scalars. The order of
//! the lines not dealt yet is hidden.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use std::marker::PhantomData;

use crate::bits::Bits;
use crate::bots::{pick_line, put_line};
use crate::kingdom::{Cell, Placement};
use crate::referee::KingdominoReferee;
use crate::rules::Slot;
use crate::setup::Config;
use crate::tiles::{tile, TILES};
use crate::{Action, Game};
use realm_core::{PlayerId, State};

use realm_core::engine::{held, plane_index, relative, seen_from, Bounds, Codec, Layout, Table};

pub struct KingdominoCodec<B>(PhantomData<B>);

/// A referee on grids of `B` with the position it holds.
pub(crate) fn table<B: Bits>(config: Config, seed: u64) -> Box<dyn Table> {
    held::<KingdominoCodec<B>, _>(KingdominoReferee::<B>::new(config, seed), |r| {
        r.game() as &Game<B>
    })
}

/// Picks: tile IDs 1..=48 and 0 for none.
const PICKS: u32 = 49;
/// Planes per kingdom: castle, six terrains, crowns.
const PLANES: usize = 8;
/// Scalars per slot of a line: tile ID, then terrain (1..6, 0 = none) and crowns of each
/// square, then the owner counted from the observer plus 1 (0 = not picked).
const PER_SLOT: usize = 6;
/// Scalars per player: displayed score, eliminated, to move.
const PER_PLAYER: usize = 3;

impl<B: Bits> Codec for KingdominoCodec<B> {
    type S = Game<B>;

    fn layout(game: &Game<B>) -> Layout {
        let n = B::S;
        let p = game.n_players();
        Layout {
            n_actions: (1 + n * n * 4) * PICKS as usize,
            board: [PLANES * p, n, n],
            n_scalars: 3 + 8 * PER_SLOT + p * PER_PLAYER,
        }
    }

    fn encode(_game: &Game<B>, action: &Action) -> u32 {
        let put = action.put().map_or(0, |p| {
            1 + ((u32::from(p.y) * B::S as u32 + u32::from(p.x)) * 4 + u32::from(p.r))
        });
        put * PICKS + u32::from(action.pick().unwrap_or(0))
    }

    fn decode(_game: &Game<B>, id: u32) -> Option<Action> {
        let (put, pick) = (id / PICKS, id % PICKS);
        let n = B::S as u32;
        if put > n * n * 4 {
            return None;
        }
        let put = (put > 0).then(|| {
            let cell = (put - 1) / 4;
            Placement {
                x: (cell % n) as u8,
                y: (cell / n) as u8,
                r: ((put - 1) % 4) as u8,
            }
        });
        Some(Action::new(put, (pick > 0).then_some(pick as u8)))
    }

    fn text(_game: &Game<B>, action: &Action) -> String {
        format!("{}\n{}", put_line(action.put()), pick_line(action.pick()))
    }

    fn observe(game: &Game<B>, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        let layout = Self::layout(game);
        let np = game.n_players();
        for k in 0..np {
            let kingdom = game.kingdom(relative(player, k, np));
            for y in 0..B::S {
                for x in 0..B::S {
                    let mut set = |plane: usize, value: u8| {
                        board[plane_index(&layout, k * PLANES + plane, y, x)] = value;
                    };
                    match kingdom.cell(x, y) {
                        Cell::Empty => {}
                        Cell::Castle => set(0, 1),
                        Cell::Land(sq) => {
                            set(1 + sq.terrain.index(), 1);
                            set(7, sq.crowns);
                        }
                    }
                }
            }
        }
        scalars[0] = game.turn() as f32;
        scalars[1] = game.config().n_turns() as f32;
        scalars[2] = game.slot_index() as f32;
        for (i, slot) in padded(game.current())
            .chain(padded(game.next()))
            .enumerate()
        {
            let out = &mut scalars[3 + i * PER_SLOT..][..PER_SLOT];
            if let Some(slot) = slot {
                write_slot(slot, player, np, out);
            }
        }
        let scores = game.displayed_scores();
        for k in 0..np {
            let p = relative(player, k, np);
            let out = &mut scalars[3 + 8 * PER_SLOT + k * PER_PLAYER..][..PER_PLAYER];
            out[0] = scores[p] as f32;
            out[1] = f32::from(u8::from(game.is_eliminated(p)));
            out[2] = f32::from(u8::from(game.to_move() == Some(p)));
        }
    }

    /// Turn 1..=T, slot 0..=4; a line's slots: tile ID 0..=48, terrains 0..=6, crowns 0..=3,
    /// owner 0..=players; a player's score is at most its land cells times the crowns of its
    /// most crowned tiles, plus the middle kingdom (10), harmony (5) and the tie-break (2).
    fn scalar_bounds(game: &Game<B>) -> Bounds {
        let config = game.config();
        let np = game.n_players();
        let tiles = config.tiles_per_player() as usize;
        let mut crowns: Vec<u32> = TILES.iter().map(|t| u32::from(t.crowns())).collect();
        crowns.sort_unstable_by(|a, b| b.cmp(a));
        let side = if B::S == 9 { 5 } else { 7 };
        let cells = (2 * tiles).min(side * side - 1) as u32;
        let score = cells * crowns[..tiles].iter().sum::<u32>() + 10 + 5 + 2;
        let turns = config.n_turns() as f32;
        let mut bounds = Bounds::default();
        bounds
            .push(1, 1.0, turns)
            // The number of turns is fixed by the setup: 1..=T rather than T..=T, which
            // Gymnasium takes for a mistake.
            .push(1, 1.0, turns)
            .push(1, 0.0, 4.0);
        for _ in 0..8 {
            bounds.push(1, 0.0, 48.0);
            bounds.push(1, 0.0, 6.0).push(1, 0.0, 3.0);
            bounds.push(1, 0.0, 6.0).push(1, 0.0, 3.0);
            bounds.push(1, 0.0, np as f32);
        }
        for _ in 0..np {
            bounds.push(1, 0.0, score as f32).flags(2);
        }
        bounds
    }

    fn reshuffle_hidden(game: &mut Game<B>, seed: u64) {
        game.reshuffle_hidden(seed);
    }

    fn answer_lines(texts: &[String]) -> Vec<String> {
        texts
            .iter()
            .flat_map(|t| t.lines().map(str::to_string))
            .collect()
    }
}

fn write_slot(slot: &Slot, viewer: PlayerId, n: usize, out: &mut [f32]) {
    out[0] = f32::from(slot.id);
    if let Some(t) = tile(slot.id) {
        out[1] = (1 + t.a.terrain.index()) as f32;
        out[2] = f32::from(t.a.crowns);
        out[3] = (1 + t.b.terrain.index()) as f32;
        out[4] = f32::from(t.b.crowns);
    }
    out[5] = slot
        .owner
        .map_or(0.0, |o| (1 + seen_from(viewer, o as usize, n)) as f32);
}

/// Four entries per line, `None` past the line's slots.
fn padded(line: &[Slot]) -> impl Iterator<Item = Option<&Slot>> {
    line.iter().map(Some).chain(std::iter::repeat(None)).take(4)
}
