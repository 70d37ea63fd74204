//! The viewer frame of a scored board (the board and its score table) and the one-frame replay
//! `realm score kingdom-builder --replay` writes, so that `realm view` can draw any board.
//!
//! There is no match yet, so the frame is a single still picture with `turn` 0 and the replay
//! has no calls.

use serde_json::{json, Map, Value};

use realm_core::{
    ranks_from_keys, EndReason, MatchSpec, Outcome, Replay, ReplayPlayer, REPLAY_FORMAT_VERSION,
};

use crate::board::{Board, SIZE};
use crate::score::{Component, LordsRule, ScoreTable};

/// The frame of a scored board:
/// `{"turn": 0, "players": N, "rows": [20 B5 row strings], "scores": [N totals],
///   "cards": {"castles": [N], "<card name>": [N], ...}}`.
pub fn board_json(board: &Board, table: &ScoreTable) -> Value {
    let rows: Vec<String> = (0..SIZE).map(|row| board.row_text(row)).collect();
    let cards: Map<String, Value> = table
        .rows()
        .iter()
        .map(|row| (row.component.name().to_string(), json!(row.gold)))
        .collect();
    json!({
        "turn": 0,
        "players": table.n_players(),
        "rows": rows,
        "scores": table.totals(),
        "cards": cards,
    })
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
        let rows = frame["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 20);
        assert_eq!(rows[5], " . . . . 1 C . . . . . . . . . . . . . .");
        assert_eq!(rows[6], ". . . . . . 2 . . . . . . . . . . . . .");
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
