//! Constructed positions for the rules of spec section 9 (RULES.md "Full game"): the adjacency
//! rule, the deck, every tile with its targets listed exactly, taking and losing tiles, and the
//! end of the game. Every map is mountains except the cells a test sets, so targets stay few.

use realm_core::State;
use realm_kingdom_builder::game::{
    cell_index, cells_of, Action, GameConfig, GameState, Map, MapCell, Phase, Terrain, TileKind,
};
use realm_kingdom_builder::Pos;

type Cells<'a> = &'a [(usize, usize)];

const G: MapCell = MapCell::Open(Terrain::Grass);
const D: MapCell = MapCell::Open(Terrain::Desert);
const W: MapCell = MapCell::Open(Terrain::Water);
const K: MapCell = MapCell::Open(Terrain::Castle);

fn loc(kind: TileKind) -> MapCell {
    MapCell::Location(kind)
}

fn idx((row, col): (usize, usize)) -> usize {
    Pos::new(row, col).index()
}

fn cell(rc: (usize, usize)) -> u16 {
    cell_index(Pos::new(rc.0, rc.1))
}

/// A mountain map with the given cells set.
fn map_of(cells: &[(MapCell, Cells)]) -> Map {
    let mut map = Map::filled(MapCell::Open(Terrain::Mountain));
    for &(kind, places) in cells {
        for &(row, col) in places {
            map.set(Pos::new(row, col), kind);
        }
    }
    map
}

/// Seat 0 to move with `card` revealed, the listed settlements and tiles (usable at once).
struct Setup<'a> {
    map: &'a [(MapCell, Cells<'a>)],
    card: Terrain,
    mine: Cells<'a>,
    theirs: Cells<'a>,
    tiles: Cells<'a>,
}

impl Setup<'_> {
    fn state(&self) -> GameState {
        let mut state = GameState::with_map(&GameConfig::new(2, 3), map_of(self.map), 11);
        state.edit_hand(0, self.card);
        for &rc in self.mine {
            state.edit_place(0, idx(rc));
        }
        for &rc in self.theirs {
            state.edit_place(1, idx(rc));
        }
        for &rc in self.tiles {
            state.edit_give_tile(0, idx(rc));
        }
        state.edit_restart_turn();
        state
    }
}

fn legal(state: &GameState) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out
}

fn builds(state: &GameState) -> Vec<(usize, usize)> {
    legal(state)
        .into_iter()
        .filter_map(|a| match a {
            Action::Build(c) => Some((usize::from(c) / 20, usize::from(c) % 20)),
            _ => None,
        })
        .collect()
}

type Move = (Option<(usize, usize)>, (usize, usize));

fn tile_uses(state: &GameState, kind: TileKind) -> Vec<Move> {
    let rc = |c: u16| (usize::from(c) / 20, usize::from(c) % 20);
    legal(state)
        .into_iter()
        .filter_map(|a| match a {
            Action::UseTile { tile, from, to } if tile == kind => Some((from.map(rc), rc(to))),
            _ => None,
        })
        .collect()
}

fn build_at(state: &mut GameState, rc: (usize, usize)) {
    let action = Action::Build(cell(rc));
    assert!(
        state.is_legal(&action),
        "{rc:?} not legal: {:?}",
        builds(state)
    );
    state.apply(&action);
}

fn use_tile(
    state: &mut GameState,
    tile: TileKind,
    from: Option<(usize, usize)>,
    to: (usize, usize),
) {
    let action = Action::UseTile {
        tile,
        from: from.map(cell),
        to: cell(to),
    };
    assert!(state.is_legal(&action), "{action:?} not legal");
    state.apply(&action);
}

#[test]
fn adjacency_is_checked_again_before_each_settlement() {
    let mut state = Setup {
        map: &[(G, &[(5, 5), (5, 6), (5, 7), (10, 10), (15, 15)])],
        card: Terrain::Grass,
        mine: &[],
        theirs: &[],
        tiles: &[],
    }
    .state();
    assert_eq!(state.phase(), Phase::BeforeBuild);
    // No settlement yet: every empty grass cell.
    assert_eq!(
        legal(&state),
        [(5, 5), (5, 6), (5, 7), (10, 10), (15, 15)].map(|rc| Action::Build(cell(rc)))
    );
    build_at(&mut state, (5, 5));
    // The settlement just placed counts: only grass next to it.
    assert_eq!(state.phase(), Phase::Building);
    assert_eq!(builds(&state), [(5, 6)]);
    assert_eq!(
        legal(&state).len(),
        1,
        "only builds in the middle of the build"
    );
    build_at(&mut state, (5, 6));
    assert_eq!(builds(&state), [(5, 7)]);
    build_at(&mut state, (5, 7));
    assert_eq!(state.phase(), Phase::AfterBuild);
    assert_eq!(legal(&state), [Action::EndTurn]);
    assert_eq!(state.supply(0), 37);
}

#[test]
fn adjacency_falls_back_to_any_cell_of_the_terrain() {
    // Own settlements at (2,2), but no empty grass next to them: any empty grass cell.
    let state = Setup {
        map: &[(G, &[(2, 2), (2, 3), (9, 9), (12, 4)])],
        card: Terrain::Grass,
        mine: &[(2, 2)],
        theirs: &[(2, 3)],
        tiles: &[],
    }
    .state();
    assert_eq!(builds(&state), [(9, 9), (12, 4)]);
}

#[test]
fn d28_unusable_card_is_discarded_and_cards_drawn_until_one_fits() {
    let mut state = Setup {
        map: &[(G, &[(0, 0)]), (D, &[(10, 10), (10, 11)])],
        card: Terrain::Grass,
        mine: &[],
        theirs: &[],
        tiles: &[],
    }
    .state();
    state.edit_piles(&[Terrain::Grass, Terrain::Desert, Terrain::Forest], &[]);
    build_at(&mut state, (0, 0));
    // Partway: grass is gone, so grass and grass are discarded and desert is revealed.
    assert_eq!(state.revealed(), Terrain::Desert);
    assert_eq!(state.deck().discards(), [0, 0]);
    assert_eq!(state.deck().pile(), [4]);
    assert_eq!(builds(&state), [(10, 10), (10, 11)]);
    assert_eq!(state.build_progress(), (1, 2));

    // At the start of a turn: seat 0's grass cell is taken, the card is replaced at once.
    let mut state = Setup {
        map: &[(G, &[(0, 0)]), (D, &[(10, 10)])],
        card: Terrain::Grass,
        mine: &[],
        theirs: &[(0, 0)],
        tiles: &[],
    }
    .state();
    assert_ne!(state.revealed(), Terrain::Grass);
    state.edit_hand(0, Terrain::Grass);
    state.edit_piles(&[Terrain::Canyon, Terrain::Desert], &[Terrain::Forest]);
    state.edit_restart_turn();
    // Canyon has no cell either; desert has one.
    assert_eq!(state.revealed(), Terrain::Desert);
    assert_eq!(state.deck().discards(), [4, 0, 1]);
    assert_eq!(builds(&state), [(10, 10)]);
}

#[test]
fn deck_is_reshuffled_from_the_discards() {
    // An empty pile, three discards, and grass for the whole build of seat 0.
    let play_first_turn = || {
        let mut state = Setup {
            map: &[(G, &[(0, 0), (0, 2), (0, 4)]), (D, &[(19, 19)])],
            card: Terrain::Grass,
            mine: &[],
            theirs: &[],
            tiles: &[],
        }
        .state();
        state.edit_piles(&[], &[Terrain::Canyon, Terrain::Canyon, Terrain::Flower]);
        for rc in [(0, 0), (0, 2), (0, 4)] {
            build_at(&mut state, rc);
        }
        // Grass ran out with the last settlement of the build, so nothing was redrawn.
        assert_eq!(state.revealed(), Terrain::Grass);
        state.apply(&Action::EndTurn);
        state
    };
    let state = play_first_turn();
    // Ending the turn discards grass and draws from an empty pile: the four discards are
    // shuffled into the pile and seat 0 draws its top card.
    assert!(state.deck().discards().is_empty());
    let mut all: Vec<u8> = state.deck().pile().to_vec();
    all.push(state.hand(0) as u8);
    all.sort();
    assert_eq!(all, [0, 1, 1, 3]);
    // The same position plays the same shuffle (the stream is part of the state).
    assert_eq!(play_first_turn().deck(), state.deck());
}

#[test]
fn tile_oracle_builds_on_the_revealed_terrain_with_adjacency() {
    let mut state = Setup {
        map: &[
            (G, &[(2, 1), (2, 2), (2, 3), (8, 8)]),
            (loc(TileKind::Oracle), &[(0, 10)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 1)],
        theirs: &[],
        tiles: &[(0, 10)],
    }
    .state();
    assert_eq!(tile_uses(&state, TileKind::Oracle), [(None, (2, 2))]);
    use_tile(&mut state, TileKind::Oracle, None, (2, 2));
    assert_eq!(state.supply(0), 38);
    // Once per turn; still before the build, whose adjacency sees the new settlement.
    assert_eq!(state.phase(), Phase::BeforeBuild);
    assert!(tile_uses(&state, TileKind::Oracle).is_empty());
    assert_eq!(builds(&state), [(2, 3)]);
}

#[test]
fn tile_farm_and_oasis_build_on_grass_and_desert() {
    let state = Setup {
        map: &[
            (D, &[(2, 1), (8, 8), (8, 9)]),
            (G, &[(3, 1), (12, 12)]),
            (MapCell::Open(Terrain::Canyon), &[(15, 3)]),
            (loc(TileKind::Farm), &[(0, 10)]),
            (loc(TileKind::Oasis), &[(0, 14)]),
        ],
        card: Terrain::Canyon,
        mine: &[(2, 1)],
        theirs: &[],
        tiles: &[(0, 10), (0, 14)],
    }
    .state();
    // Farm: grass next to (2,1) exists, so only it. Oasis: no desert next to it, so all.
    assert_eq!(tile_uses(&state, TileKind::Farm), [(None, (3, 1))]);
    assert_eq!(
        tile_uses(&state, TileKind::Oasis),
        [(None, (8, 8)), (None, (8, 9))]
    );
}

#[test]
fn tile_tower_builds_on_the_outer_edge_with_adjacency_among_edge_cells() {
    let map: &[(MapCell, Cells)] = &[
        (
            G,
            &[(0, 5), (0, 6), (19, 19), (5, 0), (5, 1), (1, 5), (10, 10)],
        ),
        (W, &[(0, 7)]),
        (loc(TileKind::Tower), &[(4, 4)]),
    ];
    let next_to_edge = Setup {
        map,
        card: Terrain::Grass,
        mine: &[(1, 5)],
        theirs: &[],
        tiles: &[(4, 4)],
    }
    .state();
    assert_eq!(
        tile_uses(&next_to_edge, TileKind::Tower),
        [(None, (0, 5)), (None, (0, 6))]
    );
    let inland = Setup {
        map,
        card: Terrain::Grass,
        mine: &[(10, 10)],
        theirs: &[(19, 19)],
        tiles: &[(4, 4)],
    }
    .state();
    // Water on the edge and the inland (5,1) never; (19,19) is taken.
    assert_eq!(
        tile_uses(&inland, TileKind::Tower),
        [(None, (0, 5)), (None, (0, 6)), (None, (5, 0))]
    );
}

#[test]
fn tile_tavern_extends_a_line_of_three_at_either_end() {
    let state = Setup {
        map: &[
            (G, &[(5, 2), (5, 3), (5, 4), (5, 5), (5, 6), (5, 7), (4, 4)]),
            (G, &[(10, 10), (10, 11), (10, 12), (10, 9)]),
            (loc(TileKind::Tavern), &[(15, 15)]),
        ],
        card: Terrain::Grass,
        mine: &[(5, 3), (5, 4), (5, 5), (10, 10), (10, 11)],
        theirs: &[],
        tiles: &[(15, 15)],
    }
    .state();
    // The line (5,3)-(5,5) extends to (5,2) and (5,6); the pair at row 10 is too short.
    assert_eq!(
        tile_uses(&state, TileKind::Tavern),
        [(None, (5, 2)), (None, (5, 6))]
    );
    // A diagonal line: (2,2) (3,2) (4,3) run along (+1,+1) in (x,row); ends (1,1) and (5,3).
    let diagonal = Setup {
        map: &[
            (G, &[(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (0, 1)]),
            (loc(TileKind::Tavern), &[(15, 15)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 2), (3, 2), (4, 3)],
        theirs: &[],
        tiles: &[(15, 15)],
    }
    .state();
    assert_eq!(
        tile_uses(&diagonal, TileKind::Tavern),
        [(None, (1, 1)), (None, (5, 3))]
    );
}

/// Seat 0 on (2,2) and (10,10), target cells of a move tile at (2,3) (next to (2,2)) and
/// (15,15), grass revealed (with grass at `grass` too), the tile usable.
fn move_position(tile: TileKind, target: MapCell, grass: Cells) -> GameState {
    Setup {
        map: &[
            (D, &[(2, 2), (10, 10)]),
            (target, &[(2, 3), (15, 15)]),
            (G, grass),
            (loc(tile), &[(18, 2)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 2), (10, 10)],
        theirs: &[],
        tiles: &[(18, 2)],
    }
    .state()
}

/// From (2,2): once lifted, nothing of seat 0 touches a target, so both (D30). From (10,10):
/// (2,3) is next to (2,2), so only it.
const LIFTED_MOVES: [Move; 3] = [
    (Some((2, 2)), (2, 3)),
    (Some((2, 2)), (15, 15)),
    (Some((10, 10)), (2, 3)),
];

#[test]
fn tile_barn_moves_to_the_revealed_terrain_after_lifting_the_settlement() {
    let mut state = move_position(TileKind::Barn, G, &[]);
    assert_eq!(tile_uses(&state, TileKind::Barn), LIFTED_MOVES);
    use_tile(&mut state, TileKind::Barn, Some((10, 10)), (2, 3));
    assert_eq!(cells_of(state.settlements(0)), [(2, 2), (2, 3)]);
    assert_eq!(state.supply(0), 38, "a move takes nothing from the supply");
    assert!(tile_uses(&state, TileKind::Barn).is_empty());
}

#[test]
fn tile_harbor_moves_onto_water_with_adjacency() {
    let mut state = move_position(TileKind::Harbor, W, &[(7, 7)]);
    assert_eq!(tile_uses(&state, TileKind::Harbor), LIFTED_MOVES);
    use_tile(&mut state, TileKind::Harbor, Some((2, 2)), (15, 15));
    assert_eq!(state.settlements_on_water(), [Pos::new(15, 15)]);
}

#[test]
fn tile_paddock_jumps_two_steps_in_a_straight_line() {
    // From (5,5) the six jumps are (3,4) (3,6) (5,3) (5,7) (7,4) (7,6).
    let state = Setup {
        map: &[
            (G, &[(5, 5), (5, 6), (5, 7), (7, 6), (3, 4), (3, 6)]),
            (W, &[(5, 3)]),
            (K, &[(7, 4)]),
            (loc(TileKind::Paddock), &[(15, 15)]),
        ],
        card: Terrain::Grass,
        mine: &[(5, 5)],
        theirs: &[(3, 6)],
        tiles: &[(15, 15)],
    }
    .state();
    // Water, a castle and an occupied cell are not targets; no adjacency rule.
    assert_eq!(
        tile_uses(&state, TileKind::Paddock),
        [
            (Some((5, 5)), (3, 4)),
            (Some((5, 5)), (5, 7)),
            (Some((5, 5)), (7, 6))
        ]
    );
}

#[test]
fn tiles_are_usable_before_or_after_the_build_never_inside_it() {
    let mut state = Setup {
        map: &[
            (G, &[(2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (8, 8)]),
            (loc(TileKind::Oracle), &[(0, 10)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 1)],
        theirs: &[],
        tiles: &[(0, 10)],
    }
    .state();
    assert!(!tile_uses(&state, TileKind::Oracle).is_empty());
    build_at(&mut state, (2, 2));
    assert!(tile_uses(&state, TileKind::Oracle).is_empty());
    build_at(&mut state, (2, 3));
    build_at(&mut state, (2, 4));
    assert_eq!(tile_uses(&state, TileKind::Oracle), [(None, (2, 5))]);
    assert_eq!(legal(&state).last(), Some(&Action::EndTurn));
}

#[test]
fn tile_is_taken_once_per_hex_and_usable_from_the_next_turn() {
    // A Farm hex at (5,5) with its six neighbours grass, and grass far away.
    let around = [(4, 5), (4, 6), (5, 4), (5, 6), (6, 5), (6, 6)];
    let mut state = Setup {
        map: &[
            (G, &around),
            (G, &[(12, 12), (12, 13), (12, 14), (13, 13)]),
            (loc(TileKind::Farm), &[(5, 5)]),
        ],
        card: Terrain::Grass,
        mine: &[],
        theirs: &[],
        tiles: &[],
    }
    .state();
    state.edit_hand(1, Terrain::Grass);
    let hex = idx((5, 5));
    assert_eq!(state.tiles_left(hex), 2);
    build_at(&mut state, (4, 5));
    assert_eq!(state.tiles_left(hex), 1);
    assert_eq!(cells_of(state.held_tiles(0)), [(5, 5)]);
    build_at(&mut state, (4, 6));
    build_at(&mut state, (5, 6));
    assert_eq!(state.tiles_left(hex), 1, "one tile per hex per seat");
    // Taken this turn: not usable yet.
    assert_eq!(legal(&state), [Action::EndTurn]);
    state.apply(&Action::EndTurn);
    // Seat 1 (no settlement, so any grass) takes the second tile.
    assert_eq!(state.mover(), 1);
    build_at(&mut state, (5, 4));
    assert_eq!(state.tiles_left(hex), 0);
    assert_eq!(cells_of(state.held_tiles(1)), [(5, 5)]);
    for rc in builds(&state).into_iter().take(2) {
        build_at(&mut state, rc);
    }
    state.apply(&Action::EndTurn);
    // Seat 0's next turn: the Farm is usable now, once.
    assert_eq!(state.mover(), 0);
    let farm = tile_uses(&state, TileKind::Farm);
    assert!(!farm.is_empty(), "{:?}", legal(&state));
    let (_, to) = farm[0];
    use_tile(&mut state, TileKind::Farm, None, to);
    assert!(tile_uses(&state, TileKind::Farm).is_empty());
}

#[test]
fn two_tiles_of_one_type_give_two_uses() {
    let mut state = Setup {
        map: &[
            (G, &[(2, 1), (2, 2), (2, 3), (2, 4), (9, 9)]),
            (loc(TileKind::Farm), &[(0, 10), (18, 18)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 1)],
        theirs: &[],
        tiles: &[(0, 10), (18, 18)],
    }
    .state();
    // Listed once, used twice (the lower hex first, G10).
    assert_eq!(tile_uses(&state, TileKind::Farm), [(None, (2, 2))]);
    use_tile(&mut state, TileKind::Farm, None, (2, 2));
    assert_eq!(cells_of(state.fresh_and_used_tiles().1), [(0, 10)]);
    use_tile(&mut state, TileKind::Farm, None, (2, 3));
    assert!(tile_uses(&state, TileKind::Farm).is_empty());
}

#[test]
fn tile_is_lost_when_a_move_leaves_its_hex_and_never_taken_again() {
    // Paddock hex (5,5) with seat 0's only neighbour at (4,5); a Barn from (15,15).
    let mut state = Setup {
        map: &[
            (G, &[(4, 5), (4, 7), (4, 6), (10, 10), (12, 12)]),
            (loc(TileKind::Paddock), &[(5, 5)]),
            (loc(TileKind::Barn), &[(15, 15)]),
        ],
        card: Terrain::Grass,
        mine: &[(4, 5), (10, 10)],
        theirs: &[],
        tiles: &[(5, 5), (15, 15)],
    }
    .state();
    let paddock = idx((5, 5));
    assert_eq!(state.tiles_left(paddock), 1);
    // (4,5) jumps east to (4,7), which is not next to (5,5): the Paddock tile is lost at once.
    use_tile(&mut state, TileKind::Paddock, Some((4, 5)), (4, 7));
    assert!(!state.held_tiles(0).contains(paddock));
    assert!(state.taken_tiles(0).contains(paddock));
    assert_eq!(state.tiles_left(paddock), 1, "a lost tile leaves the game");
    // Coming back next to the hex (Barn: (10,10) to (4,6), next to (4,7) and to (5,5)) takes
    // nothing: that hex never gives seat 0 another tile.
    use_tile(&mut state, TileKind::Barn, Some((10, 10)), (4, 6));
    assert_eq!(state.tiles_left(paddock), 1);
    assert!(!state.held_tiles(0).contains(paddock));
    assert_eq!(cells_of(state.held_tiles(0)), [(15, 15)]);
}

#[test]
fn a_move_within_the_hexs_neighbourhood_keeps_the_tile() {
    // (4,5) to (6,6) by Paddock? Not a straight jump; use the Barn: (4,5) to (6,5), both next
    // to the Barn hex (5,5).
    let mut state = Setup {
        map: &[(G, &[(4, 5), (6, 5)]), (loc(TileKind::Barn), &[(5, 5)])],
        card: Terrain::Grass,
        mine: &[(4, 5)],
        theirs: &[],
        tiles: &[(5, 5)],
    }
    .state();
    assert_eq!(tile_uses(&state, TileKind::Barn), [(Some((4, 5)), (6, 5))]);
    use_tile(&mut state, TileKind::Barn, Some((4, 5)), (6, 5));
    assert_eq!(cells_of(state.held_tiles(0)), [(5, 5)]);
}

/// Plays the first build while there is one, else `EndTurn` (no tiles).
fn play_turn_plainly(state: &mut GameState) {
    let mover = state.mover();
    while state.to_move() == Some(mover) {
        let next = legal(state)
            .into_iter()
            .find(|a| matches!(a, Action::Build(_) | Action::EndTurn));
        state.apply(&next.expect("a build or EndTurn"));
    }
}

#[test]
fn the_round_is_completed_after_a_seat_places_its_last_settlement() {
    let mut state = GameState::new(&GameConfig::new(3, 3), 5);
    state.edit_supply(1, 2);
    play_turn_plainly(&mut state);
    assert!(!state.is_last_round());
    // Seat 1 places its last two settlements: its build ends there.
    assert_eq!(state.mover(), 1);
    for _ in 0..2 {
        let first = builds(&state)[0];
        build_at(&mut state, first);
    }
    assert_eq!(state.supply(1), 0);
    assert_eq!(state.phase(), Phase::AfterBuild);
    assert!(state.is_last_round());
    state.apply(&Action::EndTurn);
    // Seat 2 still plays its turn of the round, then the game is over.
    assert_eq!(state.to_move(), Some(2));
    play_turn_plainly(&mut state);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.phase(), Phase::Over);
    assert_eq!(state.turn(), 3);
    assert_eq!(
        (0..3).map(|p| state.supply(p)).collect::<Vec<_>>(),
        [37, 0, 37]
    );
}

#[test]
fn a_game_lasts_fourteen_rounds_without_tiles() {
    let mut state = GameState::new(&GameConfig::new(2, 1), 9);
    while state.to_move().is_some() {
        play_turn_plainly(&mut state);
    }
    assert_eq!(state.turn(), 28);
    assert_eq!(state.round(), 14);
    assert_eq!((state.supply(0), state.supply(1)), (0, 0));
}

#[test]
fn a_tile_build_of_the_last_settlement_ends_the_game_with_the_round() {
    let mut state = Setup {
        map: &[
            (G, &[(2, 1), (2, 2), (9, 9)]),
            (loc(TileKind::Farm), &[(0, 10)]),
        ],
        card: Terrain::Grass,
        mine: &[(2, 1)],
        theirs: &[],
        tiles: &[(0, 10)],
    }
    .state();
    state.edit_supply(0, 1);
    use_tile(&mut state, TileKind::Farm, None, (2, 2));
    // No supply left: no mandatory build, and this is the last round.
    assert_eq!(state.phase(), Phase::AfterBuild);
    assert!(state.is_last_round());
    assert_eq!(legal(&state), [Action::EndTurn]);
}

#[test]
fn g9_no_empty_buildable_cell_ends_the_build_and_the_game_with_the_round() {
    let state = Setup {
        map: &[(G, &[(0, 0)])],
        card: Terrain::Grass,
        mine: &[],
        theirs: &[(0, 0)],
        tiles: &[],
    }
    .state();
    assert_eq!(state.phase(), Phase::AfterBuild);
    assert!(state.is_last_round());
    assert_eq!(legal(&state), [Action::EndTurn]);
}
