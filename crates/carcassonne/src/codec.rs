//! Carcassonne: a turn is two actions, the tile then the man. Ids: tile at (row, col) with
//! `angle` quarter turns `(row * 143 + col) * 4 + angle`; no man `81796`; man token t (0..12,
//! `40` is 12) `81797 + t`. Planes over the whole 143×143 board; the draw order is hidden.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::board::{Placed, Placement, MEN_PER_PLAYER, N_TOKENS, SIZE, TOKEN_MONASTERY};
use crate::protocol::token_text;
use crate::tiles::{tileset, Kind, Oriented, L_CASTLE, L_ROAD};
use crate::{Action, State};
use realm_core::{PlayerId, State as _};

use realm_core::engine::{
    board_header, plane_index, relative, rgb, seat_color, seen_from, Bounds, Codec, Layout, Raster,
    Rgb,
};

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

    /// The placed tiles' rows and columns, each tile three characters square: its edges
    /// (`c` castle, `r` road, `e` field) around its type's letter, the seat digit of a man
    /// standing on it in the top left corner; under the scores, the tile to place and the men
    /// left.
    fn text_board(state: &State) -> String {
        let board = state.board();
        let set = tileset();
        let to_place = state.current_tile().map_or("none".to_string(), |ty| {
            let t = set.get(ty);
            format!("{} ({})", t.letter, t.name)
        });
        let men: Vec<String> = (0..state.n_players())
            .map(|p| format!("{p}:{}", board.men_left(p)))
            .collect();
        let ((r0, r1), (c0, c1)) = extent(board.placed());
        let mut lines = vec![
            board_header(board.scores(), state.to_move()),
            format!("tile to place {to_place} | men left {}", men.join(" ")),
            format!("rows {r0}-{r1}, columns {c0}-{c1}"),
        ];
        let mut grid = vec![vec![b' '; 3 * (c1 - c0 + 1)]; 3 * (r1 - r0 + 1)];
        for tile in board.placed() {
            let (y, x) = (3 * (tile.row as usize - r0), 3 * (tile.col as usize - c0));
            let edges = &set.oriented(tile.ty, tile.angle).edges;
            let letter = |side: usize| edges[side].letter() as u8;
            grid[y][x + 1] = letter(0);
            grid[y + 1][x + 2] = letter(1);
            grid[y + 2][x + 1] = letter(2);
            grid[y + 1][x] = letter(3);
            grid[y + 1][x + 1] = set.get(tile.ty).letter as u8;
        }
        for (player, slot, _) in board.men() {
            let tile = &board.placed()[slot];
            let (y, x) = (3 * (tile.row as usize - r0), 3 * (tile.col as usize - c0));
            grid[y][x] = b'0' + player as u8;
        }
        lines.extend(
            grid.into_iter()
                .map(|row| String::from_utf8_lossy(&row).trim_end().to_string()),
        );
        lines.join("\n")
    }

    /// The viewer's tiles (fields, castles, roads, monasteries, shields) and men, at a fixed
    /// tile size in a fixed window of the board centred on the placed tiles.
    fn render(state: &State) -> Raster {
        let board = state.board();
        let side = (2 * PAD + WINDOW * TILE) as usize;
        let mut raster = Raster::new(side, side, rgb(0xffffff));
        raster.fill_rect(PAD, PAD, WINDOW * TILE, WINDOW * TILE, rgb(0xe9e4d6));
        let origin = window_origin(board.placed());
        let at = |tile: &Placed| {
            let (dy, dx) = (tile.row as i32 - origin.0, tile.col as i32 - origin.1);
            ((0..WINDOW).contains(&dy) && (0..WINDOW).contains(&dx))
                .then(|| ((PAD + dx * TILE) as f32, (PAD + dy * TILE) as f32))
        };
        for tile in board.placed() {
            if let Some(corner) = at(tile) {
                draw_tile(&mut raster, tile, corner);
            }
        }
        for (player, slot, token) in board.men() {
            let tile = &board.placed()[slot];
            if let Some((x, y)) = at(tile) {
                let edges = &tileset().oriented(tile.ty, tile.angle).edges;
                let (mx, my) = man_spot(token, edges[usize::from(token / 3) % 4].letter());
                draw_man(&mut raster, x + mx, y + my, player);
            }
        }
        raster
    }
}

/// Tiles of the picture: the viewer's 64 px tile at 7/16 scale, in a window of 23×23 tiles
/// around the placed tiles' middle (a whole game's 72 tiles seldom spread further; tiles
/// outside the window are left out, so every picture of a match has the same size).
const TILE: i32 = 28;
const WINDOW: i32 = 23;
const PAD: i32 = 12;
const FIELD: Rgb = rgb(0x8cbf5f);
const CASTLE: Rgb = rgb(0xc8873f);
const ROAD_EDGE: Rgb = rgb(0x6b5b45);
const ROAD: Rgb = rgb(0xf3ecd8);

/// The rows and columns the placed tiles span.
fn extent(placed: &[Placed]) -> ((usize, usize), (usize, usize)) {
    let span = |v: &dyn Fn(&Placed) -> usize| {
        let lo = placed.iter().map(v).min().unwrap_or(SIZE / 2);
        (lo, placed.iter().map(v).max().unwrap_or(lo))
    };
    (span(&|t| t.row as usize), span(&|t| t.col as usize))
}

/// The board's (row, column) at the window's top left: the placed tiles' middle is centred.
fn window_origin(placed: &[Placed]) -> (i32, i32) {
    let ((r0, r1), (c0, c1)) = extent(placed);
    let start = |lo: usize, hi: usize| ((lo + hi) / 2) as i32 - WINDOW / 2;
    (start(r0, r1), start(c0, c1))
}

fn scale(v: f32) -> f32 {
    v * TILE as f32 / 64.0
}

/// Side s's corners, clockwise from the top (0 up, 1 right, 2 down, 3 left).
fn side_corners(s: usize) -> [(f32, f32); 2] {
    let t = TILE as f32;
    let c = [(0.0, 0.0), (t, 0.0), (t, t), (0.0, t)];
    [c[s], c[(s + 1) % 4]]
}

fn side_mid(s: usize) -> (f32, f32) {
    let [a, b] = side_corners(s);
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

fn lerp(p: (f32, f32), q: (f32, f32), t: f32) -> (f32, f32) {
    (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t)
}

/// The sides of each part of `kind` with items of `letter`.
fn part_sides(oriented: &Oriented, kind: Kind, letter: u8) -> Vec<Vec<usize>> {
    (0..usize::from(oriented.n_parts))
        .filter(|&i| oriented.kinds[i] == kind)
        .map(|i| {
            oriented.items[i]
                .iter()
                .filter(|&&(_, l)| l == letter)
                .map(|&(side, _)| usize::from(side))
                .collect()
        })
        .collect()
}

/// One tile as the viewer draws it, its top left corner at `corner`.
fn draw_tile(raster: &mut Raster, tile: &Placed, corner: (f32, f32)) {
    let ty = tileset().get(tile.ty);
    let oriented = tileset().oriented(tile.ty, tile.angle);
    let t = TILE as f32;
    let centre = (t / 2.0, t / 2.0);
    let shift = |pts: &[(f32, f32)]| -> Vec<(f32, f32)> {
        pts.iter()
            .map(|p| (p.0 + corner.0, p.1 + corner.1))
            .collect()
    };
    raster.fill_rect(corner.0 as i32, corner.1 as i32, TILE, TILE, FIELD);
    let castles = part_sides(oriented, Kind::Castle, L_CASTLE);
    for sides in &castles {
        let points: Vec<(f32, f32)> = if sides.len() > 1 {
            (0..4)
                .flat_map(|k| match sides.contains(&k) {
                    true => side_corners(k).to_vec(),
                    false => vec![lerp(side_mid(k), centre, 0.42)],
                })
                .collect()
        } else {
            let s = sides[0];
            let [a, b] = side_corners(s);
            vec![
                a,
                b,
                lerp(b, centre, 0.5),
                lerp(side_mid(s), centre, 0.62),
                lerp(a, centre, 0.5),
            ]
        };
        raster.fill_polygon(&shift(&points), CASTLE);
    }
    let roads = part_sides(oriented, Kind::Road, L_ROAD);
    for sides in &roads {
        for &s in sides {
            let end = if sides.len() > 1 {
                centre
            } else {
                lerp(side_mid(s), centre, 0.62)
            };
            let ends = shift(&[side_mid(s), end]);
            raster.line(ends[0], ends[1], scale(8.0), ROAD_EDGE);
            raster.line(ends[0], ends[1], scale(5.0), ROAD);
        }
    }
    let crossing = roads.len() > 2 && castles.is_empty() && roads.iter().all(|r| r.len() == 1);
    if ty.center {
        let (x, y) = (corner.0 + 0.36 * t, corner.1 + 0.4 * t);
        raster.fill_rect(
            x as i32,
            y as i32,
            (0.28 * t) as i32,
            (0.24 * t) as i32,
            rgb(0xf1e6cf),
        );
        let roof = [
            (0.32 * t, 0.41 * t),
            (0.5 * t, 0.27 * t),
            (0.68 * t, 0.41 * t),
        ];
        raster.fill_polygon(&shift(&roof), rgb(0xb8402f));
    } else if crossing {
        let (x, y) = (corner.0 + 0.42 * t, corner.1 + 0.42 * t);
        let side = (0.16 * t).ceil() as i32;
        raster.fill_rect(x as i32, y as i32, side, side, ROAD_EDGE);
    }
    if ty.shield {
        if let Some(&s) = castles.first().and_then(|sides| sides.first()) {
            let (sx, sy) = lerp(side_mid(s), centre, 0.28);
            let h = scale(6.0);
            let shield = [
                (sx - h, sy - h),
                (sx + h, sy - h),
                (sx + h, sy),
                (sx, sy + h),
                (sx - h, sy),
            ];
            raster.fill_polygon(&shift(&shield), rgb(0xf7f1e1));
        }
    }
}

/// Where the viewer stands a man of `token` on its tile (relative to the tile's corner); `edge`
/// is the letter of the token's side.
fn man_spot(token: u8, edge: char) -> (f32, f32) {
    let t = TILE as f32;
    let centre = (t / 2.0, t / 2.0);
    if token == TOKEN_MONASTERY {
        return centre;
    }
    let s = usize::from(token / 3);
    let p = lerp(side_mid(s), centre, if edge == 'c' { 0.3 } else { 0.36 });
    let out = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)][s];
    let left = (out.1, -out.0);
    match token_text(token).chars().nth(1) {
        Some('-') => (p.0 + left.0 * t * 0.27, p.1 + left.1 * t * 0.27),
        Some('+') => (p.0 - left.0 * t * 0.27, p.1 - left.1 * t * 0.27),
        _ => p,
    }
}

/// The viewer's man (its MEEPLE outline, twice the tile's scale so it shows), outlined dark.
fn draw_man(raster: &mut Raster, x: f32, y: f32, player: usize) {
    const MEEPLE: [(f32, f32); 16] = [
        (0.0, -10.0),
        (4.0, -6.0),
        (3.0, -3.0),
        (9.0, 0.0),
        (8.0, 3.0),
        (4.0, 2.0),
        (6.0, 9.0),
        (1.0, 9.0),
        (0.0, 5.0),
        (-1.0, 9.0),
        (-6.0, 9.0),
        (-4.0, 2.0),
        (-8.0, 3.0),
        (-9.0, 0.0),
        (-3.0, -3.0),
        (-4.0, -6.0),
    ];
    let k = 2.0 * TILE as f32 / 64.0;
    let points: Vec<(f32, f32)> = MEEPLE.iter().map(|p| (x + p.0 * k, y + p.1 * k)).collect();
    raster.fill_polygon(&points, seat_color(player));
    raster.outline_polygon(&points, 1.0, rgb(0x111111));
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

#[cfg(test)]
mod tests {
    use super::*;
    use realm_core::engine::SEAT_COLORS;

    /// Seed 1's start, then seat 0's first tile with its first man token, if any.
    fn after_first_turn() -> State {
        let mut state = State::new(3, 2, 1);
        let mut moves = Vec::new();
        state.legal_actions(&mut moves);
        state.apply(&moves[0]);
        state.legal_actions(&mut moves);
        let man = moves
            .iter()
            .find(|a| matches!(a, Action::Man(Some(_))))
            .unwrap();
        state.apply(man);
        state
    }

    #[test]
    fn the_text_board_draws_each_tile_as_its_edges_around_its_letter() {
        let state = State::new(3, 2, 1);
        let start = &state.board().placed()[0];
        let set = tileset();
        let ty = set.get(start.ty);
        let e: Vec<char> = set
            .oriented(start.ty, start.angle)
            .edges
            .iter()
            .map(|e| e.letter())
            .collect();
        let next = set.get(state.current_tile().unwrap());
        let want = [
            "scores 0:0 1:0 | seat 0 to move".to_string(),
            format!(
                "tile to place {} ({}) | men left 0:6 1:6",
                next.letter, next.name
            ),
            format!("rows {0}-{0}, columns {1}-{1}", start.row, start.col),
            format!(" {}", e[0]),
            format!("{}{}{}", e[3], ty.letter, e[1]),
            format!(" {}", e[2]),
        ];
        assert_eq!(CarcassonneCodec::text_board(&state), want.join("\n"));
        // Seat 0's man marks its tile's top left corner.
        let state = after_first_turn();
        let text = CarcassonneCodec::text_board(&state);
        let (_, slot, _) = state.board().men()[0];
        let tile = &state.board().placed()[slot];
        let ((r0, _), (c0, _)) = extent(state.board().placed());
        let line = text.lines().nth(3 + 3 * (tile.row as usize - r0)).unwrap();
        assert_eq!(
            line.chars().nth(3 * (tile.col as usize - c0)),
            Some('0'),
            "{text}"
        );
    }

    #[test]
    fn the_picture_keeps_its_size_and_shows_a_man_in_its_seats_colour() {
        let state = after_first_turn();
        let picture = CarcassonneCodec::render(&state);
        let side = (2 * PAD + WINDOW * TILE) as usize;
        assert_eq!((picture.width, picture.height), (side, side));
        assert_eq!(CarcassonneCodec::render(&State::new(3, 2, 1)).width, side);
        let (player, slot, token) = state.board().men()[0];
        assert_eq!(player, 0);
        let tile = &state.board().placed()[slot];
        let origin = window_origin(state.board().placed());
        let corner = |v: u8, o: i32| (PAD + (i32::from(v) - o) * TILE) as f32;
        let edges = &tileset().oriented(tile.ty, tile.angle).edges;
        let (mx, my) = man_spot(token, edges[usize::from(token / 3) % 4].letter());
        let (x, y) = (
            corner(tile.col, origin.1) + mx,
            corner(tile.row, origin.0) + my,
        );
        assert_eq!(picture.pixel(x as usize, y as usize + 1), SEAT_COLORS[0]);
        // The start tile's corner pixel is field or castle, drawn over the board's ground.
        let start = &state.board().placed()[0];
        let ground = picture.pixel(
            corner(start.col, origin.1) as usize + 1,
            corner(start.row, origin.0) as usize + 1,
        );
        assert!([FIELD, CASTLE].contains(&ground), "{ground:?}");
    }
}
