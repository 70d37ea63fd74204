//! The viewer frame of a scored board: what a future renderer needs to draw the board and its
//! score table.
//!
//! There is no match yet, so the frame is a single still picture with `turn` 0.

use serde_json::{json, Map, Value};

use crate::board::{Board, SIZE};
use crate::score::ScoreTable;

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
}
