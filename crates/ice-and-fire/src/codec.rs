//! A Code of Ice and Fire: one id per single command on the 12×12 grid (cell `y * 12 + x`):
//! `MOVE` one step `cell * 4 + d` (d: up, right, down, left), `TRAIN` `576 + (level - 1) * 144
//! + cell`, `BUILD` `1008 + k * 144 + cell` (k: 0 mine, 1 tower), and `1296` ends the phase
//! (`WAIT`). A turn's commands form one answer line joined by `;`. Perfect information.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::geom::SIZE;
use crate::protocol::grid_rows;
use crate::rules::{MAX_TURNS, MINE_INCOME, START_GOLD, UNIT_UPKEEP};
use crate::{Action, BuildingKind, Cell, GameState};
use realm_core::{PlayerId, State};

use realm_core::engine::{
    board_header, plane_index, relative, rgb, seat_color, Bounds, Codec, Layout, Raster, Rgb,
    SEAT_LIGHT,
};

pub struct IceAndFireCodec;

const CELLS: u32 = (SIZE * SIZE) as u32;
const TRAIN: u32 = 4 * CELLS;
const BUILD: u32 = TRAIN + 3 * CELLS;
const END: u32 = BUILD + 2 * CELLS;
/// Planes: playable, mine spot, moved this phase, then per player (observer first) owned,
/// active, unit level, mine, tower, HQ.
const PLANES: usize = 3 + 2 * 6;
/// Scalars: turn, observer's seat, then per player gold and income.
const SCALARS: usize = 2 + 2 * 2;

fn cell_id(cell: Cell) -> u32 {
    (cell.y() * SIZE + cell.x()) as u32
}

fn cell_of(id: u32) -> Cell {
    Cell::new(id as usize % SIZE, id as usize / SIZE)
}

impl Codec for IceAndFireCodec {
    type S = GameState;

    fn layout(_state: &GameState) -> Layout {
        Layout {
            n_actions: END as usize + 1,
            board: [PLANES, SIZE, SIZE],
            n_scalars: SCALARS,
        }
    }

    fn encode(_state: &GameState, action: &Action) -> u32 {
        match *action {
            Action::Move { from, to } => {
                let d = from
                    .around()
                    .iter()
                    .position(|c| *c == Some(to))
                    .unwrap_or(0);
                cell_id(from) * 4 + d as u32
            }
            Action::Train { level, at } => TRAIN + (u32::from(level) - 1) * CELLS + cell_id(at),
            Action::Build { kind, at } => {
                let k = u32::from(kind == BuildingKind::Tower);
                BUILD + k * CELLS + cell_id(at)
            }
            Action::End => END,
        }
    }

    fn decode(_state: &GameState, id: u32) -> Option<Action> {
        Some(match id {
            _ if id < TRAIN => {
                let from = cell_of(id / 4);
                Action::Move {
                    from,
                    to: from.around()[(id % 4) as usize]?,
                }
            }
            _ if id < BUILD => Action::Train {
                level: ((id - TRAIN) / CELLS + 1) as u8,
                at: cell_of((id - TRAIN) % CELLS),
            },
            _ if id < END => Action::Build {
                kind: if (id - BUILD) / CELLS == 0 {
                    BuildingKind::Mine
                } else {
                    BuildingKind::Tower
                },
                at: cell_of((id - BUILD) % CELLS),
            },
            END => Action::End,
            _ => return None,
        })
    }

    fn text(state: &GameState, action: &Action) -> String {
        state.command(action)
    }

    /// A cell yields 1 gold, 4 more with an active mine, less its unit's upkeep (at most 20);
    /// gold never goes below 0 (bankruptcy) and grows by at most the best income per turn.
    fn scalar_bounds(_state: &GameState) -> Bounds {
        let cells = CELLS as f32;
        let income = (
            cells * (1 - UNIT_UPKEEP[3]) as f32,
            cells * (1 + MINE_INCOME) as f32,
        );
        let gold = START_GOLD as f32 + MAX_TURNS as f32 * income.1;
        let mut bounds = Bounds::default();
        bounds.push(1, 0.0, MAX_TURNS as f32).push(1, 0.0, 1.0);
        for _ in 0..2 {
            bounds.push(1, 0.0, gold).push(1, income.0, income.1);
        }
        bounds
    }

    fn observe(state: &GameState, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        let layout = Self::layout(state);
        let moved = state.moved_units();
        for id in 0..CELLS {
            let cell = cell_of(id);
            let (x, y) = (cell.x(), cell.y());
            let mut set = |plane: usize, value: u8| {
                board[plane_index(&layout, plane, y, x)] = value;
            };
            if state.map().is_playable(cell) {
                set(0, 1);
            }
            if state.map().spots().has(cell) {
                set(1, 1);
            }
            if moved.has(cell) {
                set(2, 1);
            }
            let side = |owner: PlayerId| 3 + 6 * usize::from(owner != player);
            if let Some(owner) = state.owner(cell) {
                set(side(owner), 1);
                if state.is_active(cell) {
                    set(side(owner) + 1, 1);
                }
            }
            if let Some(unit) = state.unit_at(cell) {
                set(side(unit.owner) + 2, unit.level);
            }
            if let Some(b) = state.building_at(cell) {
                let plane = match b.kind {
                    BuildingKind::Mine => 3,
                    BuildingKind::Tower => 4,
                    BuildingKind::Hq => 5,
                };
                set(side(b.owner) + plane, 1);
            }
        }
        scalars[0] = state.turn() as f32;
        scalars[1] = player as f32;
        for k in 0..2 {
            let p = relative(player, k, 2);
            scalars[2 + 2 * k] = state.gold(p) as f32;
            scalars[3 + 2 * k] = state.income(p) as f32;
        }
    }

    fn closes_answer(_state: &GameState, action: &Action) -> bool {
        *action == Action::End
    }

    /// The viewer's frame of the position (gold, income, units and buildings after the commands
    /// chosen so far), without `messages`, which only the referee knows.
    fn view(state: &GameState) -> Option<serde_json::Value> {
        let mut frame =
            crate::view::frame(state, state.turn(), state.player(), &Default::default());
        frame.as_object_mut()?.remove("messages");
        Some(frame)
    }

    fn answer_lines(texts: &[String]) -> Vec<String> {
        vec![texts.join(";")]
    }

    /// Two characters a cell: the viewer frame's owner mark (`R`/`r` seat 0 active/inactive,
    /// `B`/`b` seat 1, `.` neutral, `#` void) and what stands there (a unit's level, `H` HQ,
    /// `M` mine, `T` tower, `$` a free mine spot, else the mark again), under the military
    /// power (the scores), gold and income.
    fn text_board(state: &GameState) -> String {
        let mut lines = vec![
            board_header(&state.outcome().scores, state.to_move()),
            format!(
                "turn {} | gold 0:{} 1:{} | income 0:{} 1:{}",
                state.turn(),
                state.gold(0),
                state.gold(1),
                state.income(0),
                state.income(1)
            ),
        ];
        let rows = grid_rows(state, 0, ['R', 'r', 'B', 'b']);
        lines.extend(rows.iter().enumerate().map(|(y, row)| {
            row.chars()
                .enumerate()
                .flat_map(|(x, mark)| [mark, content(state, Cell::new(x, y)).unwrap_or(mark)])
                .collect::<String>()
        }));
        lines.join("\n")
    }

    /// The viewer's map: owned cells in their seat's colour (light when inactive), mine spots
    /// as gold diamonds, buildings and units (larger by level) on top.
    fn render(state: &GameState) -> Raster {
        let side = (2 * PAD + SIZE as i32 * CELL_PX) as usize;
        let mut raster = Raster::new(side, side, BACKGROUND);
        for id in 0..CELLS {
            let cell = cell_of(id);
            if state.map().is_playable(cell) {
                let (px, py) = corner(cell);
                let inset = CELL_PX - 2;
                raster.fill_rect(px + 1, py + 1, inset, inset, ground(state, cell));
            }
        }
        for cell in state.map().spots().iter() {
            let (cx, cy) = centre(cell);
            let diamond = [
                (cx, cy - 9.0),
                (cx + 9.0, cy),
                (cx, cy + 9.0),
                (cx - 9.0, cy),
            ];
            raster.fill_polygon(&diamond, GOLD);
        }
        for b in (0..2).flat_map(|p| state.buildings(p)) {
            draw_building(&mut raster, b.cell, b.kind, b.owner);
        }
        for u in (0..2).flat_map(|p| state.units(p)) {
            let (cx, cy) = centre(u.cell);
            let r = 9.0 + 3.0 * f32::from(u.level);
            raster.fill_circle(cx, cy, r + 1.25, WHITE);
            raster.fill_circle(cx, cy, r - 1.25, seat_color(u.owner));
        }
        raster
    }
}

/// The viewer's sizes and colours (crates/viewer/assets/renderers/ice-and-fire.js).
const CELL_PX: i32 = 44;
const PAD: i32 = 24;
const BACKGROUND: Rgb = rgb(0x26303a);
const NEUTRAL: Rgb = rgb(0xe8e4d8);
const GOLD: Rgb = rgb(0xc9a227);
const WHITE: Rgb = rgb(0xffffff);

fn corner(cell: Cell) -> (i32, i32) {
    (
        PAD + cell.x() as i32 * CELL_PX,
        PAD + cell.y() as i32 * CELL_PX,
    )
}

fn centre(cell: Cell) -> (f32, f32) {
    let (x, y) = corner(cell);
    let half = CELL_PX as f32 / 2.0;
    (x as f32 + half, y as f32 + half)
}

/// A playable cell's colour: an active cell its seat's colour at the viewer's 85% opacity
/// over the background, an inactive one the light seat colour, a neutral one sand.
fn ground(state: &GameState, cell: Cell) -> Rgb {
    match state.owner(cell) {
        None => NEUTRAL,
        Some(p) if state.is_active(cell) => {
            let c = seat_color(p);
            std::array::from_fn(|i| {
                ((f32::from(c[i]) * 0.85 + f32::from(BACKGROUND[i]) * 0.15).round()) as u8
            })
        }
        Some(p) => SEAT_LIGHT[p],
    }
}

fn draw_building(raster: &mut Raster, cell: Cell, kind: BuildingKind, owner: PlayerId) {
    let (px, py) = corner(cell);
    let (cx, cy) = centre(cell);
    let color = seat_color(owner);
    match kind {
        BuildingKind::Hq => {
            raster.fill_rect(px + 4, py + 4, CELL_PX - 8, CELL_PX - 8, WHITE);
            raster.fill_rect(px + 7, py + 7, CELL_PX - 14, CELL_PX - 14, color);
        }
        BuildingKind::Tower => {
            let (l, r) = (px as f32, (px + CELL_PX) as f32);
            let (t, b) = (py as f32, (py + CELL_PX) as f32);
            let tower = [
                (l + 12.0, b - 6.0),
                (l + 15.0, t + 10.0),
                (l + 12.0, t + 10.0),
                (l + 12.0, t + 5.0),
                (r - 12.0, t + 5.0),
                (r - 12.0, t + 10.0),
                (r - 15.0, t + 10.0),
                (r - 12.0, b - 6.0),
            ];
            raster.fill_polygon(&tower, rgb(0x555555));
            raster.outline_polygon(&tower, 3.0, color);
        }
        BuildingKind::Mine => {
            let r = CELL_PX as f32 / 2.0 - 7.0;
            raster.fill_circle(cx, cy, r + 2.0, color);
            raster.fill_circle(cx, cy, r - 2.0, GOLD);
        }
    }
}

/// What stands on `cell` as one character of the text board, if anything.
fn content(state: &GameState, cell: Cell) -> Option<char> {
    if let Some(unit) = state.unit_at(cell) {
        return char::from_digit(u32::from(unit.level), 10);
    }
    if let Some(b) = state.building_at(cell) {
        return Some(match b.kind {
            BuildingKind::Hq => 'H',
            BuildingKind::Mine => 'M',
            BuildingKind::Tower => 'T',
        });
    }
    state.map().spots().has(cell).then_some('$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::League;
    use realm_core::engine::SEAT_COLORS;

    /// League 1's seed-3 map after seat 0 trained a level-1 unit.
    fn with_a_unit() -> (GameState, Cell) {
        let mut state = GameState::new(3, League::new(1).unwrap());
        let mut moves = Vec::new();
        state.legal_actions(&mut moves);
        let train = *moves
            .iter()
            .find(|a| matches!(a, Action::Train { level: 1, .. }))
            .unwrap();
        state.apply(&train);
        let Action::Train { at, .. } = train else {
            unreachable!()
        };
        (state, at)
    }

    #[test]
    fn the_text_board_marks_owners_buildings_and_units() {
        let (state, at) = with_a_unit();
        assert_eq!(at, Cell::new(1, 0));
        let empty = ".".repeat(24);
        let mut want = vec![
            "scores 0:21 1:20 | seat 0 to move",
            "turn 1 | gold 0:11 1:20 | income 0:1 1:2",
            "RHR1..................##",
        ];
        want.extend([empty.as_str(); 9]);
        want.extend(["......................BB", "##....................BH"]);
        assert_eq!(IceAndFireCodec::text_board(&state), want.join("\n"));
    }

    #[test]
    fn the_picture_shows_a_unit_and_the_hqs_in_their_seats_colours() {
        let (state, at) = with_a_unit();
        let picture = IceAndFireCodec::render(&state);
        let side = (2 * PAD + 12 * CELL_PX) as usize;
        assert_eq!((picture.width, picture.height), (side, side));
        let (cx, cy) = centre(at);
        assert_eq!(picture.pixel(cx as usize, cy as usize), SEAT_COLORS[0]);
        let (hx, hy) = centre(Cell::new(11, 11));
        assert_eq!(picture.pixel(hx as usize, hy as usize), SEAT_COLORS[1]);
        assert_eq!(picture.pixel(1, 1), BACKGROUND);
    }
}
