//! Property tests: no text makes the parser or the command panic, and every board survives a
//! round trip through its B5 text.

use proptest::prelude::*;

use realm_kingdom_builder::{
    parse_board, run_scorer, Board, Card, Cell, Pos, ScoreFormat, ScoreOptions, SIZE,
};

fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        Just(Cell::Empty),
        Just(Cell::Water),
        Just(Cell::Mountain),
        Just(Cell::Town),
        Just(Cell::Castle),
        (1u8..=4).prop_map(Cell::Settlement),
    ]
}

fn board() -> impl Strategy<Value = Board> {
    prop::collection::vec(cell(), SIZE * SIZE).prop_map(|cells| {
        let mut board = Board::empty();
        for (idx, cell) in cells.into_iter().enumerate() {
            board.set(Pos::from_index(idx), cell);
        }
        board
    })
}

/// Near-valid text: board-ish characters and separators in lines of varying length.
fn boardish_text() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        ".", "W", "M", "T", "C", "1", "2", "3", "4", "5", "0", "X", "", " ", "\t", "\r", "..", "é",
    ]);
    let line = prop::collection::vec(token, 0..45).prop_map(|t| t.join(" "));
    prop::collection::vec(line, 0..24).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = parse_board(&text);
        let _ = run_scorer(&text, &ScoreOptions::default());
    }

    #[test]
    fn boardish_text_gives_a_verdict(text in boardish_text(), players in 0usize..6) {
        let options = ScoreOptions {
            cards: Some("1,2,3,4,5,6,7,8,9,10".into()),
            players: Some(players),
            lords_zero: players % 2 == 0,
            format: ScoreFormat::Json,
        };
        match run_scorer(&text, &options) {
            Ok(out) => prop_assert!(out.ends_with('\n')),
            Err(e) => prop_assert!(!e.to_string().contains('\n')),
        }
    }

}

proptest! {
    // Fewer cases: each one builds and scores a whole random board in a debug build.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn boards_round_trip_and_totals_add_up(board in board()) {
        let text = board.to_text();
        prop_assert_eq!(parse_board(&text).unwrap(), board.clone());
        let options = ScoreOptions {
            cards: Some("1,2,3,4,5,6,7,8,9,10".into()),
            players: Some(4),
            ..ScoreOptions::default()
        };
        let (_, table) = realm_kingdom_builder::score_text(&text, &options).unwrap();
        prop_assert_eq!(table.rows().len(), 1 + Card::ALL.len());
        for p in 0..4 {
            let sum: u32 = table.rows().iter().map(|r| r.gold[p]).sum();
            prop_assert_eq!(table.totals()[p], sum);
        }
    }
}
