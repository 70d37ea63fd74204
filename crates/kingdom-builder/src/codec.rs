//! Kingdom Builder's `realm_core::Codec`: a turn is several actions (the mandatory build one
//! settlement at a time, location tiles before or after it) closed by the end of the turn.
//! Ids (cells are `row * 20 + col`):
//!
//! | ids | action | text |
//! |---|---|---|
//! | `cell` (0..400) | one settlement of the mandatory build | `BUILD r c` |
//! | `400 + 400 k + cell` | build tile k (Oracle, Farm, Tavern, Tower, Oasis) | `TILE FARM r c` |
//! | `2400 + 160000 m + 400 from + to` | move tile m (Barn, Harbor) | `MOVE BARN r1 c1 r2 c2` |
//! | `322400 + 6 from + dir` | Paddock two steps in direction dir (`bits::DIRECTIONS`) | `MOVE PADDOCK r1 c1 r2 c2` |
//! | `324800` | end of the turn | `` (the end of the line) |
//!
//! An answer closes with the end of the turn, or earlier when an action leaves the revealed
//! terrain without an empty cell while the build goes on: the card is then replaced (D28), and
//! the referee ends the call there and asks the same seat again (PROTOCOL.md, "A new card
//! within the turn"). One call's texts are joined with `; ` into one line.
//!
//! Observation planes (20×20): 9 terrains one-hot, 8 location tile kinds one-hot, tiles left
//! on each location hex, then per seat counted from the observer its settlements, the hexes
//! whose tile it holds and the hexes it took a tile from, and the mover's tiles usable now.
//! The draw pile's order and every card but the revealed one are hidden. Documented for users
//! in `crates/python/README.md`: keep both in step.

use realm_core::engine::{
    board_header, plane_index, relative, rgb, seat_color, seen_from, Bounds, Codec, Layout, Raster,
    Rgb,
};
use realm_core::{PlayerId, State};

use crate::board::{Pos, N_CELLS, SIZE};
use crate::cards::Card;
use crate::game::bits::{DIRECTIONS, JUMP, OFF_BOARD};
use crate::game::{Action, GameState, MapCell, Terrain, TileKind, DECK_SIZE, SETTLEMENTS};
use crate::protocol::{action_command, board_rows, card_letter, tile_name};

pub struct KingdomBuilderCodec;

const CELLS: u32 = N_CELLS as u32;
/// The five build tiles in id order.
const BUILD_TILES: [TileKind; 5] = [
    TileKind::Oracle,
    TileKind::Farm,
    TileKind::Tavern,
    TileKind::Tower,
    TileKind::Oasis,
];
/// The move tiles with a free target, in id order.
const FREE_MOVES: [TileKind; 2] = [TileKind::Barn, TileKind::Harbor];
const BUILD_TILE_BASE: u32 = CELLS;
const FREE_MOVE_BASE: u32 = BUILD_TILE_BASE + BUILD_TILES.len() as u32 * CELLS;
const PADDOCK_BASE: u32 = FREE_MOVE_BASE + FREE_MOVES.len() as u32 * CELLS * CELLS;
const END_TURN: u32 = PADDOCK_BASE + CELLS * DIRECTIONS.len() as u32;
/// Every action id is below this.
pub const N_ACTIONS: usize = END_TURN as usize + 1;

/// Planes before the per-seat ones: terrains, tile kinds, tiles left.
const FIXED_PLANES: usize = Terrain::ALL.len() + TileKind::ALL.len() + 1;
/// Planes per seat: settlements, tiles held, hexes taken from.
const SEAT_PLANES: usize = 3;
/// Scalars per seat: settlements in supply, gold now, eliminated, to move.
const PER_SEAT: usize = 4;
/// The most settlements of the mandatory build (9.4).
const BUILD_SIZE: f32 = 3.0;

fn position(tiles: &[TileKind], tile: TileKind) -> Option<u32> {
    tiles.iter().position(|&t| t == tile).map(|i| i as u32)
}

impl Codec for KingdomBuilderCodec {
    type S = GameState;

    fn layout(state: &GameState) -> Layout {
        let n = state.n_players();
        Layout {
            n_actions: N_ACTIONS,
            board: [FIXED_PLANES + SEAT_PLANES * n + 1, SIZE, SIZE],
            // Revealed card (one-hot), built, still to build, last round, pile size, discards
            // per terrain, then the seats.
            n_scalars: 5 + 4 + 5 + PER_SEAT * n,
        }
    }

    fn encode(_state: &GameState, action: &Action) -> u32 {
        match *action {
            Action::Build(cell) => u32::from(cell),
            Action::UseTile {
                tile,
                from: None,
                to,
            } => {
                let k = position(&BUILD_TILES, tile).expect("a build tile builds");
                BUILD_TILE_BASE + k * CELLS + u32::from(to)
            }
            Action::UseTile {
                tile: TileKind::Paddock,
                from: Some(from),
                to,
            } => {
                let dir = (0..DIRECTIONS.len())
                    .find(|&d| JUMP[d][usize::from(from)] == to)
                    .expect("a Paddock jump is two steps in a line");
                PADDOCK_BASE + u32::from(from) * DIRECTIONS.len() as u32 + dir as u32
            }
            Action::UseTile {
                tile,
                from: Some(from),
                to,
            } => {
                let m = position(&FREE_MOVES, tile).expect("a move tile moves");
                FREE_MOVE_BASE + (m * CELLS + u32::from(from)) * CELLS + u32::from(to)
            }
            Action::EndTurn => END_TURN,
        }
    }

    fn decode(_state: &GameState, id: u32) -> Option<Action> {
        let cell = |n: u32| n as u16;
        Some(match id {
            _ if id < BUILD_TILE_BASE => Action::Build(cell(id)),
            _ if id < FREE_MOVE_BASE => {
                let n = id - BUILD_TILE_BASE;
                Action::UseTile {
                    tile: BUILD_TILES[(n / CELLS) as usize],
                    from: None,
                    to: cell(n % CELLS),
                }
            }
            _ if id < PADDOCK_BASE => {
                let n = id - FREE_MOVE_BASE;
                Action::UseTile {
                    tile: FREE_MOVES[(n / (CELLS * CELLS)) as usize],
                    from: Some(cell(n / CELLS % CELLS)),
                    to: cell(n % CELLS),
                }
            }
            _ if id < END_TURN => {
                let n = id - PADDOCK_BASE;
                let (from, dir) = (n as usize / DIRECTIONS.len(), n as usize % DIRECTIONS.len());
                let to = JUMP[dir][from];
                if to == OFF_BOARD {
                    return None;
                }
                Action::UseTile {
                    tile: TileKind::Paddock,
                    from: Some(from as u16),
                    to,
                }
            }
            END_TURN => Action::EndTurn,
            _ => return None,
        })
    }

    /// The command as PROTOCOL.md writes it; the end of the turn is the end of the line, so
    /// its text is empty.
    fn text(_state: &GameState, action: &Action) -> String {
        action_command(action).map_or_else(String::new, |c| c.to_string())
    }

    fn observe(state: &GameState, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        let layout = Self::layout(state);
        let n = state.n_players();
        let mut mark = |plane: usize, cell: usize, value: u8| {
            board[plane_index(&layout, plane, cell / SIZE, cell % SIZE)] = value;
        };
        for (t, &terrain) in Terrain::ALL.iter().enumerate() {
            for cell in state.terrain_cells(terrain).iter() {
                mark(t, cell, 1);
            }
        }
        let kinds = Terrain::ALL.len();
        for hex in state.terrain_cells(Terrain::Location).iter() {
            mark(kinds + state.tile_kind(hex) as usize, hex, 1);
            mark(FIXED_PLANES - 1, hex, state.tiles_left(hex));
        }
        for k in 0..n {
            let p = relative(player, k, n);
            let base = FIXED_PLANES + SEAT_PLANES * k;
            let sets = [
                state.settlements(p),
                state.held_tiles(p),
                state.taken_tiles(p),
            ];
            for (i, set) in sets.into_iter().enumerate() {
                for cell in set.iter() {
                    mark(base + i, cell, 1);
                }
            }
        }
        if state.to_move().is_some() {
            for hex in state.usable_tiles().iter() {
                mark(FIXED_PLANES + SEAT_PLANES * n, hex, 1);
            }
        }
        observe_scalars(state, player, scalars);
    }

    /// Card counts are bounded by the deck (5 per terrain, 25 in all), the build by its 3
    /// settlements, the supply by 40, and gold by what 40 settlements can earn on this map.
    fn scalar_bounds(state: &GameState) -> Bounds {
        let mut bounds = Bounds::default();
        bounds.flags(5);
        bounds.push(2, 0.0, BUILD_SIZE).flags(1);
        bounds.push(1, 0.0, DECK_SIZE as f32);
        bounds.push(5, 0.0, (DECK_SIZE / 5) as f32);
        let gold = max_gold(state) as f32;
        for _ in 0..state.n_players() {
            bounds.push(1, 0.0, f32::from(SETTLEMENTS));
            bounds.push(1, 0.0, gold).flags(2);
        }
        bounds
    }

    fn reshuffle_hidden(state: &mut GameState, seed: u64) {
        state.reshuffle_hidden(seed);
    }

    /// The end of the turn, or an action after which the referee draws a new card while the
    /// build goes on (D28): the seat could not know that card, so its call ends there.
    fn closes_answer(state: &GameState, action: &Action) -> bool {
        if *action == Action::EndTurn {
            return true;
        }
        let mut after = state.clone();
        after.apply(action);
        after.revealed() != state.revealed()
    }

    fn answer_lines(texts: &[String]) -> Vec<String> {
        let commands: Vec<&str> = texts
            .iter()
            .map(String::as_str)
            .filter(|t| !t.is_empty())
            .collect();
        vec![commands.join("; ")]
    }

    /// The protocol's board rows (map letters, a settlement's seat as the digit seat + 1)
    /// under the gold (scores), the mover's card and each seat's supply and tiles.
    fn text_board(state: &GameState) -> String {
        let n = state.n_players();
        let mut lines = vec![board_header(&state.outcome().scores, state.to_move())];
        if state.to_move().is_some() {
            lines.push(format!("card {}", card_letter(state.revealed())));
        }
        for p in 0..n {
            let tiles: Vec<String> = state
                .held_tiles(p)
                .iter()
                .map(|hex| tile_name(state.tile_kind(hex)))
                .collect();
            let tiles = if tiles.is_empty() {
                "none".to_string()
            } else {
                tiles.join(" ")
            };
            lines.push(format!(
                "seat {p} ({}): supply {}, tiles {tiles}",
                p + 1,
                state.supply(p)
            ));
        }
        lines.extend(board_rows(state));
        lines.join("\n")
    }

    /// The viewer's hex map: terrains in its colours, location hexes pale with a dot per tile
    /// left, mountains with their peak, settlements as houses in their seat's colour.
    fn render(state: &GameState) -> Raster {
        let width = 2.0 * PAD + (SIZE as f32 + 0.5) * HEX_W;
        let height = 2.0 * PAD + (SIZE - 1) as f32 * 1.5 * HEX_R + 2.0 * HEX_R;
        let mut raster = Raster::new(width as usize, height as usize, rgb(0xffffff));
        for cell in 0..N_CELLS {
            let (cx, cy) = hex_centre(cell);
            let map_cell = state.map().cell(Pos::from_index(cell));
            // The viewer strokes each hex white: a slightly smaller hex leaves that line.
            raster.fill_hexagon(cx, cy, HEX_R - 0.7, cell_color(map_cell));
            if map_cell == MapCell::Open(Terrain::Mountain) {
                let peak = [(cx - 8.0, cy + 6.0), (cx, cy - 7.0), (cx + 8.0, cy + 6.0)];
                raster.fill_polygon(&peak, rgb(0x5c5046));
            }
            if let Some(p) = state.occupant(cell) {
                raster.fill_polygon(&house(cx, cy), seat_color(p));
            }
        }
        for hex in state.terrain_cells(Terrain::Location).iter() {
            let (cx, cy) = hex_centre(hex);
            for i in 0..state.tiles_left(hex) {
                let x = cx - 5.0 + 10.0 * f32::from(i);
                raster.fill_circle(x, cy + 9.0, 2.6, rgb(0x4a3500));
            }
        }
        raster
    }
}

/// The viewer's hex radius and margin (crates/viewer/assets/renderers/kingdom-builder.js).
const HEX_R: f32 = 15.0;
const HEX_W: f32 = 1.732_050_8 * HEX_R;
const PAD: f32 = 22.0;

/// The centre of a cell's pointy-top hex, odd rows shifted right by half a hex.
fn hex_centre(cell: usize) -> (f32, f32) {
    let (r, c) = ((cell / SIZE) as f32, (cell % SIZE) as f32);
    let shift = if cell / SIZE % 2 == 1 {
        HEX_W / 2.0
    } else {
        0.0
    };
    (
        PAD + HEX_W / 2.0 + c * HEX_W + shift,
        PAD + HEX_R + r * 1.5 * HEX_R,
    )
}

/// The viewer's settlement: a small house.
fn house(cx: f32, cy: f32) -> [(f32, f32); 5] {
    [
        (cx - 7.0, cy + 7.0),
        (cx - 7.0, cy - 1.0),
        (cx, cy - 7.0),
        (cx + 7.0, cy - 1.0),
        (cx + 7.0, cy + 7.0),
    ]
}

/// The viewer's terrain colours; every location hex is the same pale tone.
fn cell_color(cell: MapCell) -> Rgb {
    rgb(match cell.terrain() {
        Terrain::Grass => 0x9fd36b,
        Terrain::Canyon => 0xc8825a,
        Terrain::Desert => 0xf3dd93,
        Terrain::Flower => 0xe3b5ea,
        Terrain::Forest => 0x2f6b3a,
        Terrain::Water => 0x5b9bd5,
        Terrain::Mountain => 0x6b5e52,
        Terrain::Castle => 0x9a8fb5,
        Terrain::Location => 0xf6f3ea,
    })
}

fn observe_scalars(state: &GameState, player: PlayerId, scalars: &mut [f32]) {
    let n = state.n_players();
    if state.to_move().is_some() {
        scalars[state.revealed() as usize] = 1.0;
    }
    let (built, left) = state.build_progress();
    scalars[5] = f32::from(built);
    scalars[6] = f32::from(left);
    scalars[7] = f32::from(u8::from(state.is_last_round()));
    scalars[8] = state.deck().pile().len() as f32;
    for &card in state.deck().discards() {
        scalars[9 + usize::from(card)] += 1.0;
    }
    let gold = state.gold();
    for k in 0..n {
        let p = relative(player, k, n);
        let out = &mut scalars[14 + k * PER_SEAT..][..PER_SEAT];
        out[0] = f32::from(state.supply(p));
        out[1] = gold[p] as f32;
        out[2] = f32::from(u8::from(state.is_eliminated(p)));
        out[3] = f32::from(u8::from(state.to_move() == Some(p)));
    }
    debug_assert!(seen_from(player, player, n) == 0);
}

/// The most gold one seat can hold on this map: 3 per castle, plus each card in play at its
/// most with 40 settlements (R17; Merchants 4 per special hex).
pub fn max_gold(state: &GameState) -> u32 {
    let count = |t: Terrain| state.terrain_cells(t).len() as u32;
    let castles = count(Terrain::Castle);
    let specials = castles + count(Terrain::Location);
    let settlements = u32::from(SETTLEMENTS);
    let rows = SIZE as u32;
    let per_card = |card: Card| match card {
        Card::Discoverers => rows.min(settlements),
        Card::Knights => 2 * rows.min(settlements),
        Card::Lords => 4 * 12,
        Card::Farmers => 3 * settlements / 4,
        Card::Citizens => settlements / 2,
        Card::Merchants => 4 * specials,
        _ => settlements,
    };
    3 * castles + state.cards().iter().map(|&c| per_card(c)).sum::<u32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameConfig;
    use crate::protocol::parse_answer;

    fn start() -> GameState {
        GameState::new(&GameConfig::new(3, 3), 5)
    }

    #[test]
    fn every_kind_of_id_round_trips_through_its_action() {
        let state = start();
        let cell = |r: usize, c: usize| (r * SIZE + c) as u16;
        let actions = [
            Action::Build(cell(19, 19)),
            Action::UseTile {
                tile: TileKind::Oasis,
                from: None,
                to: cell(3, 4),
            },
            Action::UseTile {
                tile: TileKind::Harbor,
                from: Some(cell(19, 19)),
                to: cell(0, 0),
            },
            Action::UseTile {
                tile: TileKind::Paddock,
                from: Some(cell(5, 5)),
                to: JUMP[3][usize::from(cell(5, 5))],
            },
            Action::EndTurn,
        ];
        for action in actions {
            let id = KingdomBuilderCodec::encode(&state, &action);
            assert!((id as usize) < N_ACTIONS, "{action:?}");
            assert_eq!(KingdomBuilderCodec::decode(&state, id), Some(action));
        }
        assert_eq!(
            KingdomBuilderCodec::encode(&state, &Action::EndTurn),
            324_800
        );
        assert_eq!(N_ACTIONS, 324_801);
        // A Paddock jump off the board (west of the top left cell) names no action.
        assert_eq!(KingdomBuilderCodec::decode(&state, PADDOCK_BASE + 1), None);
        assert_eq!(KingdomBuilderCodec::decode(&state, N_ACTIONS as u32), None);
    }

    #[test]
    fn a_turn_is_one_line_of_commands_that_the_protocol_reads_back() {
        let state = start();
        let mut texts: Vec<String> = [Action::Build(0), Action::Build(1), Action::EndTurn]
            .iter()
            .map(|a| KingdomBuilderCodec::text(&state, a))
            .collect();
        assert_eq!(texts[2], "");
        let line = KingdomBuilderCodec::answer_lines(&texts);
        assert_eq!(line, ["BUILD 0 0; BUILD 0 1"]);
        assert_eq!(parse_answer(&line[0]).unwrap().len(), 2);
        texts.truncate(0);
        assert_eq!(KingdomBuilderCodec::answer_lines(&texts), [""]);
    }

    #[test]
    fn the_text_board_is_the_protocols_rows_under_gold_card_and_supplies() {
        let mut state = start();
        let cell = state.build_targets().first().unwrap();
        state.apply(&Action::Build(cell as u16));
        let text = KingdomBuilderCodec::text_board(&state);
        let lines: Vec<&str> = text.lines().collect();
        let scores = state.outcome().scores;
        let gold: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(p, g)| format!("{p}:{g}"))
            .collect();
        let card = card_letter(state.revealed());
        let mut want = vec![
            format!("scores {} | seat 0 to move", gold.join(" ")),
            format!("card {card}"),
            "seat 0 (1): supply 39, tiles none".to_string(),
            "seat 1 (2): supply 40, tiles none".to_string(),
            "seat 2 (3): supply 40, tiles none".to_string(),
        ];
        want.extend(board_rows(&state));
        assert_eq!(lines, want);
        let pos = Pos::from_index(cell);
        let row = board_rows(&state)[pos.row].clone();
        assert_eq!(row.split_whitespace().nth(pos.col), Some("1"), "{row}");
    }

    #[test]
    fn the_picture_shows_hexes_in_the_viewers_colours_and_settlements_in_seat_colours() {
        let mut state = start();
        let cell = state.build_targets().first().unwrap();
        state.apply(&Action::Build(cell as u16));
        let picture = KingdomBuilderCodec::render(&state);
        assert_eq!((picture.width, picture.height), (576, 501));
        let at = |cell: usize, dy: f32| {
            let (cx, cy) = hex_centre(cell);
            picture.pixel(cx as usize, (cy + dy) as usize)
        };
        assert_eq!(at(cell, 3.0), seat_color(0));
        let water = state.terrain_cells(Terrain::Water).first().unwrap();
        assert_eq!(at(water, 0.0), rgb(0x5b9bd5));
    }

    #[test]
    fn an_action_that_forces_a_new_card_closes_the_answer() {
        let mut state = start();
        let card = state.revealed();
        let targets = state.terrain_cells(card);
        let last = targets.iter().last().unwrap();
        // Fill every cell of the revealed terrain but one, then build on that one.
        let mover = state.mover();
        for cell in targets.iter().filter(|&c| c != last) {
            state.edit_place((mover + 1) % 3, cell);
        }
        state.edit_restart_turn();
        let build = Action::Build(last as u16);
        assert!(state.is_legal(&build));
        assert!(KingdomBuilderCodec::closes_answer(&state, &build));
        let mut after = state.clone();
        after.apply(&build);
        assert_ne!(after.revealed(), card, "the referee draws a new card");
        assert!(!KingdomBuilderCodec::closes_answer(
            &start(),
            &Action::Build(start().build_targets().first().unwrap() as u16)
        ));
    }
}
