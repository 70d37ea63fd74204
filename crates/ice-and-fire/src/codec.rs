//! A Code of Ice and Fire: one id per single command on the 12×12 grid (cell `y * 12 + x`):
//! `MOVE` one step `cell * 4 + d` (d: up, right, down, left), `TRAIN` `576 + (level - 1) * 144
//! + cell`, `BUILD` `1008 + k * 144 + cell` (k: 0 mine, 1 tower), and `1296` ends the phase
//! (`WAIT`). A turn's commands form one answer line joined by `;`. Perfect information.
//!
//! The game's `realm_core::Codec`, behind `new_table`. The encoding is documented for users
//! in `crates/python/README.md`: keep both in step.

use crate::geom::SIZE;
use crate::rules::{MAX_TURNS, MINE_INCOME, START_GOLD, UNIT_UPKEEP};
use crate::{Action, BuildingKind, Cell, GameState};
use realm_core::PlayerId;

use realm_core::engine::{plane_index, relative, Bounds, Codec, Layout};

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
}
