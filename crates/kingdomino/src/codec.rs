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
use crate::tiles::{tile, Square, Terrain, TILES};
use crate::{Action, Game};
use realm_core::{PlayerId, State};

use realm_core::engine::{
    board_header, held, plane_index, relative, rgb, seat_color, seen_from, Bounds, Codec, Layout,
    Raster, Rgb, Table,
};

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

    /// Each kingdom's protocol rows side by side (`*0` the castle, `_0` empty, else terrain
    /// and crowns), then the draft lines: `ID ab owner` per slot (`-`: not picked).
    fn text_board(game: &Game<B>) -> String {
        let scores: Vec<i64> = game.displayed_scores().iter().map(|&s| s.into()).collect();
        let np = game.n_players();
        let mut lines = vec![
            board_header(&scores, game.to_move()),
            format!("turn {} of {}", game.turn(), game.config().n_turns()),
        ];
        let rows: Vec<Vec<String>> = (0..np).map(|p| game.kingdom(p).rows_text()).collect();
        let labels: Vec<String> = (0..np)
            .map(|p| format!("{:<1$}", format!("seat {p}"), 2 * B::S))
            .collect();
        lines.push(labels.join("  ").trim_end().to_string());
        lines.extend((0..B::S).map(|y| {
            let row: Vec<&str> = rows.iter().map(|r| r[y].as_str()).collect();
            row.join("  ")
        }));
        lines.push(format!("current: {}", draft_text(game.current())));
        lines.push(format!("next: {}", draft_text(game.next())));
        lines.join("\n")
    }

    /// The viewer's layout at half its size: kingdoms two to a row (side by side when two)
    /// framed in their seat's colour, then the current and next draft lines with their kings.
    fn render(game: &Game<B>) -> Raster {
        let np = game.n_players();
        let per_row = if np > 2 { 2 } else { np.max(1) };
        let span = B::S as i32 * CELL + GAP + 6;
        let draft_x = per_row as i32 * span + 5;
        let width = draft_x + 2 * (3 * CELL + 25);
        let kingdom_rows = np.div_ceil(per_row) as i32;
        let height = (kingdom_rows * (span + 10)).max(4 * (CELL + 5) + 30) + 5;
        let mut raster = Raster::new(width as usize, height as usize, rgb(0xffffff));
        for p in 0..np {
            let x = 14 + (p % per_row) as i32 * span;
            let y = 20 + (p / per_row) as i32 * (span + 10);
            draw_kingdom(&mut raster, game, p, x, y);
        }
        let played = game.slot_index();
        draw_draft(&mut raster, game.current(), draft_x, played);
        draw_draft(&mut raster, game.next(), draft_x + 3 * CELL + 25, 0);
        raster
    }
}

/// Half the viewer's sizes (crates/viewer/assets/renderers/kingdomino.js: CELL 40, GAP 40).
const CELL: i32 = 20;
const GAP: i32 = 20;
const EMPTY: Rgb = rgb(0xf4f1ea);
const CROWN: Rgb = rgb(0xffd21f);

/// The viewer's terrain colours.
fn terrain_color(terrain: Terrain) -> Rgb {
    rgb(match terrain {
        Terrain::Corn => 0xf0cf4a,
        Terrain::Forest => 0x2f6e3a,
        Terrain::Grass => 0x9ccf5f,
        Terrain::Lake => 0x4f9fe0,
        Terrain::Wetland => 0x9c9a6a,
        Terrain::Mine => 0x6a5343,
    })
}

fn draft_text(line: &[Slot]) -> String {
    let slots: Vec<String> = line
        .iter()
        .map(|s| {
            let squares = tile(s.id).map_or("_0_0".to_string(), |t| t.a.code() + &t.b.code());
            let owner = s.owner.map_or("-".to_string(), |o| o.to_string());
            format!("{} {squares} {owner}", s.id)
        })
        .collect();
    slots.join(", ")
}

/// A land square: its terrain and a small crown mark per crown along the top.
fn draw_square(raster: &mut Raster, x: i32, y: i32, size: i32, square: Square) {
    raster.fill_rect(x, y, size, size, terrain_color(square.terrain));
    for k in 0..i32::from(square.crowns) {
        raster.fill_rect(x + 2 + k * 6, y + 2, 4, 4, CROWN);
    }
}

fn draw_kingdom<B: Bits>(raster: &mut Raster, game: &Game<B>, p: usize, x0: i32, y0: i32) {
    let side = B::S as i32 * CELL;
    raster.fill_rect(x0 - 3, y0 - 3, side + 6, side + 6, rgb(0xfffdf7));
    raster.outline_rect(x0 - 4, y0 - 4, side + 8, side + 8, 2, seat_color(p));
    let kingdom = game.kingdom(p);
    for y in 0..B::S {
        for x in 0..B::S {
            let (px, py) = (x0 + x as i32 * CELL, y0 + y as i32 * CELL);
            match kingdom.cell(x, y) {
                Cell::Castle => raster.fill_rect(px + 1, py + 1, CELL - 2, CELL - 2, seat_color(p)),
                Cell::Land(sq) => draw_square(raster, px + 1, py + 1, CELL - 1, sq),
                Cell::Empty => raster.fill_rect(px + 1, py + 1, CELL - 1, CELL - 1, EMPTY),
            }
        }
    }
    if game.is_eliminated(p) {
        raster.fill_rect(x0 - 3, y0 - 3, side + 6, side + 6, rgb(0x555555));
    }
}

/// One draft line: each slot's two squares and, while its tile is still to play, the king
/// of its owner beside it (`played` slots of the line have left it).
fn draw_draft(raster: &mut Raster, line: &[Slot], x0: i32, played: usize) {
    for (i, slot) in line.iter().enumerate() {
        let y = 20 + i as i32 * (CELL + 5);
        if i < played {
            continue;
        }
        if let Some(t) = tile(slot.id) {
            draw_square(raster, x0 + 15, y, CELL - 1, t.a);
            draw_square(raster, x0 + 15 + CELL, y, CELL - 1, t.b);
        }
        if let Some(owner) = slot.owner {
            let king = ((x0 + 15 + 2 * CELL + 8) as f32, (y + CELL / 2) as f32);
            raster.fill_circle(king.0, king.1, 5.5, seat_color(owner.into()));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Mode};
    use realm_core::engine::SEAT_COLORS;

    type Codec2 = KingdominoCodec<u128>;

    /// Two players after the first two picks of turn 1.
    fn after_first_picks() -> Game<u128> {
        let mut game = Game::<u128>::new(Config::new(Mode::Standard, 2), 5);
        let mut moves = Vec::new();
        for _ in 0..2 {
            game.legal_actions(&mut moves);
            game.apply(&moves[0]);
        }
        game
    }

    #[test]
    fn the_text_board_shows_kingdoms_side_by_side_and_the_draft() {
        let game = Game::<u128>::new(Config::new(Mode::Standard, 2), 5);
        let text = Codec2::text_board(&game);
        let lines: Vec<&str> = text.lines().collect();
        let empty = "_0".repeat(9);
        let castle_row = format!("{0}*0{0}", "_0".repeat(4));
        assert_eq!(
            lines[..3],
            [
                "scores 0:2 1:2 | seat 0 to move",
                "turn 1 of 7",
                "seat 0              seat 1"
            ]
        );
        assert_eq!(lines[3], format!("{empty}  {empty}"));
        assert_eq!(lines[7], format!("{castle_row}  {castle_row}"));
        assert_eq!(lines.len(), 3 + 9 + 2);
        assert!(
            lines[12].starts_with("current: 0 _0_0 0, 0 _0_0 1"),
            "{}",
            lines[12]
        );
        let next = &game.next()[0];
        let t = tile(next.id).unwrap();
        assert_eq!(
            lines[13],
            format!("next: {} {}{} -", next.id, t.a.code(), t.b.code())
                + &lines[13][lines[13].find(',').unwrap()..]
        );
    }

    #[test]
    fn the_picture_shows_castles_and_kings_in_their_seats_colours() {
        let game = after_first_picks();
        let picture = Codec2::render(&game);
        let span = 9 * CELL + GAP + 6;
        let width = 2 * span + 5 + 2 * (3 * CELL + 25);
        assert_eq!(
            (picture.width, picture.height),
            (width as usize, (span + 10 + 5) as usize)
        );
        // Seat 1's castle at the centre of its kingdom, the second from the left.
        let centre = |x0: i32| (x0 + 4 * CELL + CELL / 2) as usize;
        assert_eq!(picture.pixel(centre(14 + span), centre(20)), SEAT_COLORS[1]);
        assert_eq!(picture.pixel(centre(14), centre(20)), SEAT_COLORS[0]);
        // The kings on the next line, in the order the seats picked them.
        let king_x = (2 * span + 5 + 3 * CELL + 25 + 15 + 2 * CELL + 8) as usize;
        let owners: Vec<Option<u8>> = game.next().iter().map(|s| s.owner).collect();
        for (i, owner) in owners.iter().enumerate() {
            let y = (20 + i as i32 * (CELL + 5) + CELL / 2) as usize;
            let want = owner.map_or(rgb(0xffffff), |o| seat_color(o.into()));
            assert_eq!(picture.pixel(king_x, y), want, "slot {i}");
        }
        assert_eq!(owners.iter().flatten().count(), 2);
    }
}
