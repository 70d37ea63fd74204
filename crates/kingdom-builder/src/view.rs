//! The viewer frame of a scored board (the board and its score table) and the one-frame replay
//! `realm score kingdom-builder --replay` writes, so that `realm view` can draw any board.
//! A scored board's frame is a single still picture with `turn` 0 and its replay has no calls.
//! `match_frame` is the full game's frame at each moment of a match.

use serde_json::{json, Map, Value};

use realm_core::{
    ranks_from_keys, EndReason, MatchSpec, Outcome, Replay, ReplayPlayer, REPLAY_FORMAT_VERSION,
};

use crate::board::{Board, Cell, Pos, SIZE};
use crate::cards::Card;
use crate::score::{groups, lords_in_quadrant, Component, LordsRule, ScoreTable};

/// The frame of a scored board:
/// `{"turn": 0, "players": N, "rows": [20 B5 row strings], "scores": [N totals],
///   "cards": {"castles": [N], "<card name>": [N], ...},
///   "counted": {"castles": [N lists of [row, col]], "<card name>": [...], ...}}`;
/// `counted` holds, per component and player, the settlements its gold stands for
/// (`counted_settlements`), which the viewer highlights.
pub fn board_json(board: &Board, table: &ScoreTable) -> Value {
    let rows: Vec<String> = (0..SIZE).map(|row| board.row_text(row)).collect();
    let cards: Map<String, Value> = table
        .rows()
        .iter()
        .map(|row| (row.component.name().to_string(), json!(row.gold)))
        .collect();
    let counted: Map<String, Value> = counted_settlements(board, table)
        .into_iter()
        .map(|(component, per_player)| {
            let cells: Vec<Vec<[usize; 2]>> = per_player
                .iter()
                .map(|cells| cells.iter().map(|pos| [pos.row, pos.col]).collect())
                .collect();
            (component.name().to_string(), json!(cells))
        })
        .collect();
    json!({
        "turn": 0,
        "players": table.n_players(),
        "rows": rows,
        "scores": table.totals(),
        "cards": cards,
        "counted": counted,
    })
}

/// The settlements behind each row of the table, per player: those next to a castle (the
/// castle score), to water (Fishermen), to a mountain (Miners) or to a special hex (Workers);
/// all of them (Discoverers: every row holding one counts; Hermits: every group counts); the
/// fullest row (Knights); the quadrants that pay (Lords); the emptiest quadrant (Farmers); the
/// largest group (Citizens); the groups touching two special hexes (Merchants). A player
/// without gold from a row has nothing counted there. Ties take the first in reading order.
pub fn counted_settlements(board: &Board, table: &ScoreTable) -> Vec<(Component, Vec<Vec<Pos>>)> {
    let n = table.n_players();
    let own: Vec<Vec<Pos>> = (1..=n as u8)
        .map(|digit| {
            board
                .cells()
                .filter(|&(_, cell)| cell == Cell::Settlement(digit))
                .map(|(pos, _)| pos)
                .collect()
        })
        .collect();
    let next_to = |p: usize, matches: fn(Cell) -> bool| -> Vec<Pos> {
        let cells = own[p].iter().copied();
        cells
            .filter(|pos| pos.neighbours().any(|nb| matches(board.cell(nb))))
            .collect()
    };
    let all_groups = groups(board, n);
    let groups_of = |p: usize| {
        all_groups
            .iter()
            .filter(move |g| usize::from(g.player) == p + 1)
    };
    let quadrant_counts = |p: usize| {
        let mut counts = [0usize; 4];
        own[p].iter().for_each(|pos| counts[pos.quadrant()] += 1);
        counts
    };
    let in_quadrants = |p: usize, keep: &dyn Fn(usize) -> bool| -> Vec<Pos> {
        own[p]
            .iter()
            .copied()
            .filter(|pos| keep(pos.quadrant()))
            .collect()
    };
    let counted_for = |component: Component, p: usize| -> Vec<Pos> {
        match component {
            Component::Castles => next_to(p, |c| c == Cell::Castle),
            Component::Card(Card::Discoverers | Card::Hermits) => own[p].clone(),
            Component::Card(Card::Knights) => {
                let per_row = |row: usize| own[p].iter().filter(|pos| pos.row == row).count();
                let fullest = (0..SIZE).rev().max_by_key(|&row| per_row(row)).unwrap_or(0);
                own[p]
                    .iter()
                    .copied()
                    .filter(|pos| pos.row == fullest)
                    .collect()
            }
            Component::Card(Card::Fishermen) => next_to(p, |c| c == Cell::Water),
            Component::Card(Card::Miners) => next_to(p, |c| c == Cell::Mountain),
            Component::Card(Card::Workers) => next_to(p, Cell::is_special),
            Component::Card(Card::Lords) => in_quadrants(p, &|q| {
                let counts: Vec<u32> = (0..n).map(|o| quadrant_counts(o)[q] as u32).collect();
                lords_in_quadrant(&counts, LordsRule::NonZeroCounts)[p] > 0
            }),
            Component::Card(Card::Farmers) => {
                let counts = quadrant_counts(p);
                let emptiest = (0..4).min_by_key(|&q| counts[q]).unwrap_or(0);
                in_quadrants(p, &|q| q == emptiest)
            }
            Component::Card(Card::Citizens) => {
                let largest = groups_of(p).rev().max_by_key(|g| g.cells.len());
                largest.map(|g| g.cells.clone()).unwrap_or_default()
            }
            Component::Card(Card::Merchants) => {
                let mut cells: Vec<Pos> = groups_of(p)
                    .filter(|g| g.specials.len() >= 2)
                    .flat_map(|g| g.cells.iter().copied())
                    .collect();
                cells.sort();
                cells
            }
        }
    };
    table
        .rows()
        .iter()
        .map(|row| {
            let per_player = (0..n)
                .map(|p| {
                    if row.gold[p] == 0 {
                        Vec::new()
                    } else {
                        counted_for(row.component, p)
                    }
                })
                .collect();
            (row.component, per_player)
        })
        .collect()
}

/// A replay in the standard format holding only the scored board: `initial_frame` is
/// `board_json`, there are no calls, and the outcome ranks the players by total gold (equal
/// totals share a rank). The spec records the cards (`cards=discoverers,...`) and, with
/// `--lords-zero`, `lords=zero`; its seed is 0 because nothing was drawn.
pub fn score_replay(board: &Board, table: &ScoreTable, lords: LordsRule) -> Replay {
    let n = table.n_players();
    let mut spec = MatchSpec::new(crate::INFO.slug, n, 0);
    let cards: Vec<&str> = table
        .rows()
        .iter()
        .filter(|row| row.component != Component::Castles)
        .map(|row| row.component.name())
        .collect();
    if !cards.is_empty() {
        spec = spec.with_option("cards", &cards.join(","));
    }
    if lords == LordsRule::ZeroCountsRank {
        spec = spec.with_option("lords", "zero");
    }
    let totals = table.totals();
    Replay {
        format_version: REPLAY_FORMAT_VERSION,
        realm_version: env!("CARGO_PKG_VERSION").to_string(),
        spec,
        players: (1..=n)
            .map(|digit| ReplayPlayer {
                name: format!("player {digit}"),
                command: format!("settlements marked {digit}"),
            })
            .collect(),
        initial_frame: board_json(board, table),
        turns: Vec::new(),
        outcome: Outcome {
            scores: totals.iter().map(|&gold| i64::from(gold)).collect(),
            ranks: ranks_from_keys(&totals),
            end: EndReason::Finished,
            detail: "board scored".to_string(),
            faults: vec![None; n],
            stats: Vec::new(),
        },
    }
}

/// The frame of a full-game match at the referee's current moment (RULES.md, "Viewer frame"):
/// the map and the occupants, location hexes with their tiles and holders, each seat's supply,
/// tiles and (only the mover's, the one revealed) card, the scoring cards, the running gold
/// per component and in total (-1 for an eliminated seat), and the last complete turn.
pub fn match_frame(referee: &crate::referee::KingdomBuilderReferee) -> Value {
    use crate::game::Terrain;
    use crate::protocol::{board_rows, card_letter, tile_name};
    use realm_core::State as _;

    let state = referee.state();
    let n = state.n_players();
    let table = state.score_table();
    let totals = table.totals();
    let scores: Vec<i64> = (0..n)
        .map(|p| match state.is_eliminated(p) {
            true => -1,
            false => i64::from(totals[p]),
        })
        .collect();
    let gold: Map<String, Value> = table
        .rows()
        .iter()
        .map(|row| (row.component.name().to_string(), json!(row.gold)))
        .collect();
    let mover = state.to_move();
    let locations: Vec<Value> = state
        .terrain_cells(Terrain::Location)
        .iter()
        .map(|hex| {
            let pos = Pos::from_index(hex);
            json!({
                "row": pos.row,
                "col": pos.col,
                "kind": tile_name(state.tile_kind(hex)),
                "left": state.tiles_left(hex),
                "held_by": (0..n).filter(|&p| state.held_tiles(p).contains(hex)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let tiles: Vec<Vec<Value>> = (0..n)
        .map(|p| {
            state
                .held_tiles(p)
                .iter()
                .map(|hex| {
                    let pos = Pos::from_index(hex);
                    json!({"kind": tile_name(state.tile_kind(hex)), "row": pos.row, "col": pos.col})
                })
                .collect()
        })
        .collect();
    let card: Vec<Option<String>> = (0..n)
        .map(|p| (Some(p) == mover).then(|| card_letter(state.hand(p)).to_string()))
        .collect();
    let discards: String = state
        .deck()
        .discards()
        .iter()
        .map(|&c| card_letter(crate::game::card_terrain(c)))
        .collect();
    let scoring = state.scoring_board();
    let last = referee
        .last()
        .map(|t| json!({"player": t.player, "commands": t.commands}));
    json!({
        "turn": referee.turn(),
        "players": n,
        "mover": mover,
        "last_round": state.is_last_round(),
        "map": state.map().to_text().lines().collect::<Vec<_>>(),
        "board": board_rows(state),
        "rows": (0..SIZE).map(|row| scoring.row_text(row)).collect::<Vec<_>>(),
        "locations": locations,
        "tiles": tiles,
        "card": card,
        "supply": (0..n).map(|p| state.supply(p)).collect::<Vec<_>>(),
        "eliminated": (0..n).map(|p| state.is_eliminated(p)).collect::<Vec<_>>(),
        "scoring_cards": state.cards().iter().map(|c| c.name()).collect::<Vec<_>>(),
        "deck": {"pile": state.deck().pile().len(), "discards": discards},
        "cards": gold,
        "scores": scores,
        "last": last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Pos};
    use crate::cards::Card;
    use crate::score::{score_table, ScoreRules};

    #[test]
    fn frame_holds_rows_scores_and_cards() {
        let mut board = Board::empty();
        board.set(Pos::new(5, 5), Cell::Castle);
        board.set(Pos::new(5, 4), Cell::Settlement(1));
        board.set(Pos::new(6, 6), Cell::Settlement(2));
        let table = score_table(&board, &[Card::Hermits], ScoreRules::new(2));
        let frame = board_json(&board, &table);
        assert_eq!(frame["turn"], 0);
        assert_eq!(frame["players"], 2);
        assert_eq!(frame["scores"], json!([4, 4]));
        assert_eq!(frame["cards"]["castles"], json!([3, 3]));
        assert_eq!(frame["cards"]["hermits"], json!([1, 1]));
        assert_eq!(frame["cards"].as_object().unwrap().len(), 2);
        assert_eq!(frame["counted"]["hermits"], json!([[[5, 4]], [[6, 6]]]));
        let rows = frame["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 20);
        assert_eq!(rows[5], " . . . . 1 C . . . . . . . . . . . . . .");
        assert_eq!(rows[6], ". . . . . . 2 . . . . . . . . . . . . .");
    }

    #[test]
    fn counted_settlements_are_what_each_card_paid_for() {
        // Player 1: (0,0) (0,1) one group in row 0, (0,1) next to water (0,2); (5,5) alone next to a
        // mountain (5,6) and a castle (4,5). Player 2: (10,10) next to a town (10,11).
        let mut board = Board::empty();
        for (pos, cell) in [
            ((0, 0), Cell::Settlement(1)),
            ((0, 1), Cell::Settlement(1)),
            ((5, 5), Cell::Settlement(1)),
            ((10, 10), Cell::Settlement(2)),
            ((0, 2), Cell::Water),
            ((5, 6), Cell::Mountain),
            ((4, 5), Cell::Castle),
            ((10, 11), Cell::Town),
        ] {
            board.set(Pos::new(pos.0, pos.1), cell);
        }
        let cards = [
            Card::Knights,
            Card::Fishermen,
            Card::Miners,
            Card::Citizens,
            Card::Workers,
        ];
        let table = score_table(&board, &cards, ScoreRules::new(2));
        let frame = board_json(&board, &table);
        let counted = &frame["counted"];
        assert_eq!(counted["castles"], json!([[[5, 5]], []]));
        assert_eq!(counted["knights"], json!([[[0, 0], [0, 1]], [[10, 10]]]));
        assert_eq!(counted["fishermen"], json!([[[0, 1]], []]));
        assert_eq!(counted["miners"], json!([[[5, 5]], []]));
        // Citizens pays half the largest group, rounded down: 1 for player 1's pair, 0 for
        // player 2's single settlement, which is then not counted.
        assert_eq!(counted["citizens"], json!([[[0, 0], [0, 1]], []]));
        assert_eq!(counted["workers"], json!([[[5, 5]], [[10, 10]]]));
    }

    #[test]
    fn counted_settlements_match_the_gold_on_the_example_board() {
        let board = crate::parse_board(crate::EXAMPLE_BOARD).unwrap();
        let table = score_table(&board, &Card::ALL, ScoreRules::new(4));
        let counted = counted_settlements(&board, &table);
        let gold = |component| table.gold(component).unwrap();
        for (component, per_player) in &counted {
            for (p, cells) in per_player.iter().enumerate() {
                assert!(cells
                    .iter()
                    .all(|&pos| board.cell(pos) == Cell::Settlement(p as u8 + 1)));
                let n = cells.len() as u32;
                let rows = cells
                    .iter()
                    .map(|pos| pos.row)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len() as u32;
                let expected = match component {
                    Component::Card(Card::Fishermen | Card::Miners | Card::Workers) => n,
                    Component::Card(Card::Discoverers) => rows,
                    Component::Card(Card::Knights) => 2 * n,
                    Component::Card(Card::Farmers) => 3 * n,
                    Component::Card(Card::Citizens) => n / 2,
                    _ => continue,
                };
                assert_eq!(
                    expected,
                    gold(*component)[p],
                    "{} of player {}",
                    component.name(),
                    p + 1
                );
            }
        }
        assert_eq!(counted.len(), 11, "castles and ten cards");
    }

    #[test]
    fn replay_holds_the_frame_and_ranks_by_total() {
        let mut board = Board::empty();
        board.set(Pos::new(5, 5), Cell::Castle);
        board.set(Pos::new(5, 4), Cell::Settlement(1));
        board.set(Pos::new(0, 0), Cell::Settlement(2));
        board.set(Pos::new(19, 19), Cell::Settlement(3));
        let table = score_table(
            &board,
            &[Card::Hermits, Card::Discoverers],
            ScoreRules::new(3),
        );
        let replay = score_replay(&board, &table, LordsRule::ZeroCountsRank);
        assert_eq!(replay.spec.game, "kingdom-builder");
        assert_eq!(replay.spec.n_players, 3);
        assert_eq!(replay.spec.options["cards"], "discoverers,hermits");
        assert_eq!(replay.spec.options["lords"], "zero");
        assert_eq!(replay.players[2].name, "player 3");
        assert!(replay.turns.is_empty());
        assert_eq!(replay.initial_frame, board_json(&board, &table));
        // Player 1: castle 3, Discoverers 1, Hermits 1; players 2 and 3: 0 + 1 + 1.
        assert_eq!(replay.outcome.scores, [5, 2, 2]);
        assert_eq!(replay.outcome.ranks, [1, 2, 2]);
        assert_eq!(replay.outcome.end, EndReason::Finished);
        let back: Replay = serde_json::from_str(&serde_json::to_string(&replay).unwrap()).unwrap();
        assert_eq!(back, replay);
    }
}
