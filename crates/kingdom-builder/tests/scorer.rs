//! The command of 6.4 through `run_scorer`: output formats, player count rule, `--lords-zero`,
//! and the exact one-line errors.

use realm_kingdom_builder::{
    board_json, run_scorer, score_text, ScoreError, ScoreFormat, ScoreOptions, EXAMPLE_BOARD,
};

fn options(cards: &str, format: ScoreFormat) -> ScoreOptions {
    ScoreOptions {
        cards: Some(cards.to_string()),
        format,
        ..ScoreOptions::default()
    }
}

fn error(text: &str, options: &ScoreOptions) -> String {
    let message = run_scorer(text, options).unwrap_err().to_string();
    assert!(
        !message.contains('\n') && !message.ends_with('.'),
        "{message:?}"
    );
    message
}

/// The example board with one token replaced (row and column 0-based, in tokens).
fn example_with(row: usize, col: usize, token: &str) -> String {
    let mut lines: Vec<String> = EXAMPLE_BOARD.lines().map(String::from).collect();
    let mut tokens: Vec<&str> = lines[row].split_whitespace().collect();
    tokens[col] = token;
    lines[row] = format!(
        "{}{}",
        if row % 2 == 1 { " " } else { "" },
        tokens.join(" ")
    );
    lines.join("\n") + "\n"
}

/// The example board with every digit above `max` replaced by `.`.
fn example_up_to(max: char) -> String {
    EXAMPLE_BOARD
        .chars()
        .map(|c| {
            if c.is_ascii_digit() && c > max {
                '.'
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn spec_6_4_totals_line() {
    let out = run_scorer(EXAMPLE_BOARD, &options("1,3,7", ScoreFormat::Totals)).unwrap();
    assert_eq!(out, "52 46 43 62\n");
    // Names, any case and order, give the same result.
    let out = run_scorer(
        EXAMPLE_BOARD,
        &options("Hermits, 3 ,DISCOVERERS", ScoreFormat::Totals),
    );
    assert_eq!(out.unwrap(), "52 46 43 62\n");
}

#[test]
fn spec_6_4_castles_only_without_cards() {
    let none = ScoreOptions::default();
    assert_eq!(run_scorer(EXAMPLE_BOARD, &none).unwrap(), "18 0 15 12\n");
    let empty = options("", ScoreFormat::Detail);
    assert_eq!(
        run_scorer(EXAMPLE_BOARD, &empty).unwrap(),
        "castles 18 0 15 12\ntotal 18 0 15 12\n"
    );
}

#[test]
fn spec_6_4_json_output() {
    let out = run_scorer(EXAMPLE_BOARD, &options("7,1,3", ScoreFormat::Json)).unwrap();
    assert_eq!(
        out,
        "{\"players\":4,\"cards\":{\"castles\":[18,0,15,12],\"discoverers\":[14,20,12,16],\
         \"fishermen\":[13,21,10,5],\"hermits\":[7,5,6,29]},\"total\":[52,46,43,62]}\n"
    );
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["total"], serde_json::json!([52, 46, 43, 62]));
}

#[test]
fn spec_6_4_all_ten_cards_golden() {
    // tests/golden/example_all_cards.txt: --detail then --json with all ten cards.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/example_all_cards.txt"
    );
    let all = "1,2,3,4,5,6,7,8,9,10";
    let got = run_scorer(EXAMPLE_BOARD, &options(all, ScoreFormat::Detail)).unwrap()
        + &run_scorer(EXAMPLE_BOARD, &options(all, ScoreFormat::Json)).unwrap();
    if std::env::var_os("REALM_BLESS").is_some() {
        std::fs::write(path, &got).unwrap();
    }
    let expected = std::fs::read_to_string(path).unwrap();
    for (idx, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "line {}", idx + 1);
    }
    assert_eq!(got.lines().count(), expected.lines().count());
}

#[test]
fn d24_players_default_to_highest_digit() {
    let two = example_up_to('2');
    let out = run_scorer(&two, &options("1", ScoreFormat::Detail)).unwrap();
    assert_eq!(out, "castles 18 0\ndiscoverers 14 20\ntotal 32 20\n");
    // A board without settlements is scored for one player.
    let none = example_up_to('0');
    assert_eq!(
        run_scorer(&none, &options("1,5", ScoreFormat::Totals)).unwrap(),
        "0\n"
    );
    // --players may be higher than the highest digit: the missing players score 0.
    let four = ScoreOptions {
        players: Some(4),
        ..options("1", ScoreFormat::Totals)
    };
    assert_eq!(run_scorer(&two, &four).unwrap(), "32 20 0 0\n");
}

#[test]
fn spec_6_2_lords_zero_option() {
    // Players 1 and 2 only: Q3 has player 1's 13 settlements and none of player 2's.
    let two = example_up_to('2');
    let plain = options("5", ScoreFormat::Detail);
    let zero = ScoreOptions {
        lords_zero: true,
        ..plain.clone()
    };
    // Counts Q1 9/10, Q2 6/15, Q3 13/0, Q4 12/14: player 2 gets 6 in Q3 only with zeros.
    assert_eq!(
        run_scorer(&two, &plain).unwrap(),
        "castles 18 0\nlords 30 36\ntotal 48 36\n"
    );
    assert_eq!(
        run_scorer(&two, &zero).unwrap(),
        "castles 18 0\nlords 30 42\ntotal 48 42\n"
    );
}

#[test]
fn d24_digit_above_players_is_an_error() {
    let three = ScoreOptions {
        players: Some(3),
        ..options("1,3,7", ScoreFormat::Totals)
    };
    // The first 4 in row-major order is row 0, token 6, character 13.
    assert_eq!(
        error(EXAMPLE_BOARD, &three),
        "line 1, column 13: settlement of player 4 but --players is 3"
    );
    let one = ScoreOptions {
        players: Some(1),
        ..three
    };
    assert_eq!(
        error(EXAMPLE_BOARD, &one),
        "line 1, column 1: settlement of player 3 but --players is 1"
    );
}

#[test]
fn spec_6_4_player_count_range() {
    for n in [0, 5, 100] {
        let bad = ScoreOptions {
            players: Some(n),
            ..ScoreOptions::default()
        };
        assert_eq!(
            error(EXAMPLE_BOARD, &bad),
            format!("--players must be 1 to 4, got {n}")
        );
        assert!(matches!(
            score_text(EXAMPLE_BOARD, &bad),
            Err(ScoreError::PlayerCount(_))
        ));
    }
}

#[test]
fn spec_6_4_card_list_errors() {
    assert_eq!(
        error(
            EXAMPLE_BOARD,
            &options("1,3,fishermen", ScoreFormat::Totals)
        ),
        "card 3 (fishermen) is listed twice"
    );
    assert_eq!(
        error(EXAMPLE_BOARD, &options("1,builders", ScoreFormat::Totals)),
        "unknown card 'builders' (cards are 1 to 10 or discoverers, knights, fishermen, miners, \
         lords, farmers, hermits, citizens, merchants, workers)"
    );
}

#[test]
fn b5_malformed_boards_through_the_command() {
    let opts = options("1,3,7", ScoreFormat::Totals);
    assert_eq!(
        error(&example_with(2, 3, "Z"), &opts),
        "line 3, column 7: unknown token 'Z'"
    );
    assert_eq!(
        error(&example_with(13, 19, "5"), &opts),
        "line 14, column 40: unknown token '5'"
    );
    assert_eq!(
        error(&example_with(0, 19, ". ."), &opts),
        "line 1, column 41: expected 20 tokens in the row, found 21"
    );
    let short: String = EXAMPLE_BOARD
        .lines()
        .take(18)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        error(&short, &opts),
        "line 19, column 1: expected 20 board rows, found 18"
    );
    let crlf = EXAMPLE_BOARD.replace('\n', "\r\n");
    assert_eq!(run_scorer(&crlf, &opts).unwrap(), "52 46 43 62\n");
}

#[test]
fn frame_of_the_example_board() {
    let (board, table) = score_text(EXAMPLE_BOARD, &options("1,3,7", ScoreFormat::Json)).unwrap();
    let frame = board_json(&board, &table);
    assert_eq!(frame["scores"], serde_json::json!([52, 46, 43, 62]));
    assert_eq!(
        frame["cards"]["fishermen"],
        serde_json::json!([13, 21, 10, 5])
    );
    let rows: Vec<&str> = frame["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(rows, EXAMPLE_BOARD.lines().collect::<Vec<_>>());
}
