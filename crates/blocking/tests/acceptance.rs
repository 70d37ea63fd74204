//! Every acceptance example of spec §8 (A2, A4–A13; A1, A3 and A8's grammar are unit tests
//! beside the code), replayed through the text referee.

mod common;

use common::*;
use realm_blocking::rules::count_fitting;
use realm_blocking::shapes::{tables, ALL_LETTERS};
use realm_core::{FaultKind, VerdictKind};

fn names_at(valid: &[String], prefix: &str) -> Vec<String> {
    valid
        .iter()
        .map(|l| {
            l.strip_prefix(prefix)
                .unwrap_or_else(|| panic!("{l}"))
                .to_string()
        })
        .collect()
}

/// A2: distinct placements of all 21 letters fitting an empty board, counted by the
/// move-generation kernel, and the dimension arithmetic over the orientation table as a
/// cross-check.
#[test]
fn a2_placements_on_empty_boards() {
    let t = tables();
    for (n, expected) in [(13, 11_582), (14, 13_729), (20, 30_433)] {
        assert_eq!(count_fitting(n, ALL_LETTERS), expected, "{n}x{n}");
        let by_dimensions: usize = t
            .orients
            .iter()
            .map(|o| (n + 1 - o.w as usize) * (n + 1 - o.h as usize))
            .sum();
        assert_eq!(by_dimensions, expected, "{n}x{n}");
    }
    // One letter alone: I1 fits every cell, I5 (two orientations) 2 × 9 × 13 times on 13×13.
    assert_eq!(count_fitting(13, 1), 169);
    assert_eq!(count_fitting(13, 1 << 9), 2 * 9 * 13);
}

/// §4.5 and A4: the first text sent to player 0 with seed 3, 2 players.
#[test]
fn a4_seed3_first_input_of_player0() {
    let mut r = blocking(2, 3);
    let req = r.next_request().unwrap();
    let expected = include_str!("golden/seed3_first_input.txt");
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(req.lines, expected);
    assert_eq!(req.time_limit.as_millis(), 1000);
}

/// A4: all 21 letters give 58 lines at each player's own corner.
#[test]
fn a4_all_letters_58_lines() {
    let mut r = with_set(2, "ABCDEFGHIJKLMNOPQRSTU");
    let req = realm_core::Referee::next_request(&mut r).unwrap();
    assert_eq!(valid_lines(&req).len(), 58);
    realm_core::Referee::answer(&mut r, 0, &["0 0 A001".to_string()]);
    let req = realm_core::Referee::next_request(&mut r).unwrap();
    assert_eq!(valid_lines(&req).len(), 58);
}

/// A4: the set ABCDFGHIJKMNOPQRTU gives 50 lines.
#[test]
fn a4_set_without_e_l_s_50_lines() {
    let mut r = with_set(2, "ABCDFGHIJKMNOPQRTU");
    let req = realm_core::Referee::next_request(&mut r).unwrap();
    let expected = "A001 B001 B011 C001 C011 D001 D012 D023 F001 F013 F024 F101 F124 F133 G001 G033 \
                    H001 I001 I101 J001 J011 K001 K014 K025 K101 K125 K134 M001 M015 M032 M101 M112 \
                    M135 N001 N013 N025 N032 O001 O034 O101 O114 P001 P013 P025 Q001 Q033 R001 R025 \
                    T032 T112";
    let expected: Vec<String> = expected.split_whitespace().map(String::from).collect();
    assert_eq!(names_at(&valid_lines(&req), "0 0 "), expected);
}

/// §4.5: player 1's first list after `0 0 Q001`.
#[test]
fn worked_example_player1_first_list() {
    let mut r = blocking(2, 3);
    answer(r.as_mut(), "0 0 Q001");
    let req = r.next_request().unwrap();
    let expected = "A001 B002 B012 C003 C013 D003 D021 D032 E004 E014 F004 F021 F033 F104 F113 F121 \
        G013 G021 I004 I104 J005 J015 K005 K021 K034 K105 K114 K121 L005 L021 L105 L121 N005 N012 N021 \
        N033 O014 O021 O121 O134 P005 P021 P033 Q013 Q021 R005 R021 S005 S105";
    let expected: Vec<String> = expected.split_whitespace().map(String::from).collect();
    assert_eq!(names_at(&valid_lines(&req), "12 12 "), expected);
    let board = board(&req, 13);
    assert_eq!(board[0], "000..........");
    assert_eq!(board[12], "............x");
    let others_at = req.lines.iter().position(|l| l == "0 0 0 Q001").unwrap();
    assert_eq!(req.lines[others_at - 1], "1");
}

/// A5 and the statement's Q example: the Q names at 0 0.
#[test]
fn a5_q_names_on_the_empty_board() {
    let mut r = blocking(2, 3);
    let req = r.next_request().unwrap();
    let q: Vec<String> = valid_lines(&req)
        .into_iter()
        .filter(|l| l.contains('Q'))
        .collect();
    assert_eq!(q, ["0 0 Q001", "0 0 Q033"]);
    let mut boards = Vec::new();
    for name in ["0 0 Q001", "0 0 Q113", "1 0 Q002", "0 0 Q033", "0 0 Q101"] {
        let mut r = blocking(2, 3);
        let (_, verdict) = answer(r.as_mut(), name);
        assert_eq!(verdict.kind, VerdictKind::Ok, "{name}");
        let req = r.next_request().unwrap();
        boards.push(board(&req, 13).join("\n"));
    }
    // Q001, Q113 and 1 0 Q002 give one board; Q033 and Q101 another (all legal and the same
    // cells up to reflection: the statement's "same board" holds for Q001 and Q113).
    assert_eq!(boards[0], boards[1]);
    assert_eq!(boards[0], boards[2]);
    assert_eq!(boards[3], boards[4]);
    assert!(boards[0].starts_with("000..........\n.0...........\n.0..........."));
    let mut r = blocking(2, 3);
    let (_, verdict) = answer(r.as_mut(), "0 0 Q011");
    assert_eq!(verdict.kind, VerdictKind::Fault(FaultKind::InvalidAction));
}

fn a6_position() -> Box<dyn realm_core::Referee> {
    let mut r = blocking(2, 3);
    answer(r.as_mut(), "0 0 Q001");
    answer(r.as_mut(), "12 12 S005");
    r
}

/// A6: player 0's second turn.
#[test]
fn a6_second_turn_list_and_answers() {
    let mut r = a6_position();
    let req = r.next_request().unwrap();
    let rows = board(&req, 13);
    assert_eq!(anchors(&rows), [(3, 1), (0, 3), (2, 3)]);
    let valid = valid_lines(&req);
    assert_eq!(valid.len(), 176);
    assert_eq!(
        valid[..8],
        [
            "3 1 A001", "0 3 A001", "2 3 A001", "3 1 B001", "2 3 B001", "3 1 B011", "0 3 B011",
            "2 3 B011"
        ]
    );
    assert_eq!(
        valid[172..],
        ["2 3 S112", "2 3 U001", "3 1 U002", "2 3 U002"]
    );
    let tail = req.lines.iter().position(|l| l == "1 12 12 S005").unwrap();
    assert_eq!(req.lines[tail - 1], "1");
    assert_eq!(req.lines[tail + 1], "176");
    for ok in ["3 1 A001", "3 1 A001 GL HF", "0 3 A001", "0 4 B012"] {
        let mut r = a6_position();
        assert_eq!(answer(r.as_mut(), ok).1.kind, VerdictKind::Ok, "{ok}");
    }
    // `0 4 B012` covers (0,3) and (0,4), the cells of the listed `0 3 B011`.
    let board_after = |name: &str| {
        let mut r = a6_position();
        answer(r.as_mut(), name);
        board(&r.next_request().unwrap(), 13)
    };
    let rows = board_after("0 4 B012");
    assert_eq!(&rows[3][..2], "0.");
    assert_eq!(&rows[4][..2], "0.");
    let own: usize = rows.iter().map(|r| r.matches('0').count()).sum();
    assert_eq!(own, 7, "Q's five cells and B's two");
    assert_eq!(rows, board_after("0 3 B011"));
    for bad in ["3 0 A001", "2 1 A001", "1 3 A001", "0 0 A001", "3 1 Q001"] {
        let mut r = a6_position();
        let verdict = answer(r.as_mut(), bad).1;
        assert_eq!(
            verdict.kind,
            VerdictKind::Fault(FaultKind::InvalidAction),
            "{bad}"
        );
    }
    let mut r = a6_position();
    answer(r.as_mut(), "3 1 A001");
    let req = r.next_request().unwrap();
    assert_eq!(req.player, 1);
    assert_eq!(anchors(&board(&req, 13)), [(9, 9), (12, 9), (9, 11)]);
    let at = req.lines.iter().position(|l| l == "0 3 1 A001").unwrap();
    assert_eq!(req.lines[at - 1], "1");
    assert_eq!(valid_lines(&req).len(), 158);
}

/// A7: the 3-player opening restriction.
#[test]
fn a7_three_player_openings() {
    let mut r = blocking(3, 1);
    let req = r.next_request().unwrap();
    let small = [
        "A001", "B001", "B011", "C001", "C011", "D001", "D012", "D023",
    ];
    assert_eq!(names_at(&valid_lines(&req), "0 0 "), small);
    r.answer(0, &["0 0 A001".to_string()]);
    let req = r.next_request().unwrap();
    let small1 = [
        "A001", "B002", "B012", "C003", "C013", "D003", "D021", "D032",
    ];
    assert_eq!(names_at(&valid_lines(&req), "12 12 "), small1);

    let mut r = blocking(3, 2);
    let (_, verdict) = answer(r.as_mut(), "0 0 Q001");
    assert_eq!(verdict.kind, VerdictKind::Fault(FaultKind::InvalidAction));
    let mut r = blocking(3, 2);
    answer(r.as_mut(), "0 0 A001");
    answer(r.as_mut(), "12 12 A001");
    let req = r.next_request().unwrap();
    assert_eq!(req.player, 2);
    let at = req.lines.iter().position(|l| l == "0 0 0 A001").unwrap();
    assert_eq!(req.lines[at - 1], "2");
    assert_eq!(req.lines[at + 1], "1 12 12 A001");
    assert_eq!(valid_lines(&req).len(), 32);
    assert_eq!(
        r.answer(2, &["0 12 Q023".to_string()]).kind,
        VerdictKind::Ok
    );
    let frame = r.frame();
    let board = frame["board"].as_array().unwrap();
    assert_eq!(board[10].as_str().unwrap(), ".2...........");
    assert_eq!(board[11].as_str().unwrap(), ".2...........");
    assert_eq!(board[12].as_str().unwrap(), "222.........1");
}

/// A8: answers on player 0's first turn, seed 3, 2 players.
#[test]
fn a8_answer_parsing() {
    for ok in [
        " 0 0 Q001 ",
        "0 0 Q001\r",
        "00 00 Q001",
        "0\t0\tQ001",
        "0 0 Q001 hi there",
    ] {
        let mut r = blocking(2, 3);
        assert_eq!(answer(r.as_mut(), ok).1.kind, VerdictKind::Ok, "{ok:?}");
        assert_eq!(r.frame()["last_move"]["name"], "0 0 Q001");
    }
    for bad in [
        "",
        "0 0 Q001x",
        "0 0 q001",
        "0 0 Q0011",
        "0 0 Q01",
        "0,0 Q001",
        "-1 0 A001",
    ] {
        let mut r = blocking(2, 3);
        let verdict = answer(r.as_mut(), bad).1;
        assert_eq!(
            verdict.kind,
            VerdictKind::Fault(FaultKind::Malformed),
            "{bad:?}"
        );
    }
    for bad in [
        "0 0 V001",
        "0 0 H001",
        "0 0 Q201",
        "0 0 Q041",
        "0 0 A002",
        "13 0 A001",
    ] {
        let mut r = blocking(2, 3);
        let verdict = answer(r.as_mut(), bad).1;
        assert_eq!(
            verdict.kind,
            VerdictKind::Fault(FaultKind::InvalidAction),
            "{bad:?}"
        );
    }
}

/// Seed, players, policy last?, placements, scores, ranks.
type GameRow = (u64, usize, bool, usize, &'static [i64], &'static [u32]);

/// A9: whole Blocking games with policy first / policy last.
#[test]
fn a9_whole_games() {
    #[rustfmt::skip]
    let table: [GameRow; 18] = [
        (1, 2, false, 29, &[59, 54], &[1, 2]), (1, 2, true, 27, &[55, 58], &[2, 1]),
        (1, 3, false, 27, &[40, 25, 25], &[1, 2, 2]), (1, 3, true, 31, &[39, 43, 42], &[3, 1, 2]),
        (1, 4, false, 26, &[22, 22, 17, 17], &[1, 1, 3, 3]), (1, 4, true, 30, &[28, 34, 30, 25], &[3, 1, 2, 4]),
        (2, 2, false, 22, &[40, 40], &[1, 1]), (2, 2, true, 22, &[53, 41], &[1, 2]),
        (2, 3, false, 31, &[25, 40, 45], &[3, 2, 1]), (2, 3, true, 30, &[38, 31, 46], &[2, 3, 1]),
        (2, 4, false, 28, &[26, 22, 21, 17], &[1, 2, 3, 4]), (2, 4, true, 30, &[36, 28, 29, 23], &[1, 3, 2, 4]),
        (3, 2, false, 21, &[35, 40], &[2, 1]), (3, 2, true, 23, &[55, 46], &[1, 2]),
        (3, 3, false, 27, &[31, 26, 36], &[2, 3, 1]), (3, 3, true, 29, &[40, 39, 36], &[1, 2, 3]),
        (3, 4, false, 28, &[17, 31, 21, 17], &[3, 1, 2, 3]), (3, 4, true, 31, &[33, 23, 29, 29], &[1, 4, 2, 2]),
    ];
    for (seed, np, last, placements, scores, ranks) in table {
        let mut r = blocking(np, seed);
        let (n, outcome) = policy_game(r.as_mut(), last);
        let label = format!("seed {seed}, {np} players, last {last}");
        assert_eq!(n, placements, "{label}");
        assert_eq!(outcome.scores, scores, "{label}");
        assert_eq!(outcome.ranks, ranks, "{label}");
        assert_eq!(outcome.detail, "no_moves_left", "{label}");
    }
}

/// A10: eliminations.
#[test]
fn a10_eliminations() {
    // Invalid answer ends a 2-player game (R15 b).
    let mut r = a6_position();
    let (_, verdict) = answer(r.as_mut(), "3 0 A001");
    assert_eq!(verdict.kind, VerdictKind::Fault(FaultKind::InvalidAction));
    assert!(r.next_request().is_none());
    let outcome = r.outcome();
    assert_eq!(
        (outcome.scores.as_slice(), outcome.ranks.as_slice()),
        (&[5, 5][..], &[2, 1][..])
    );
    assert_eq!(
        outcome.faults[0].as_ref().unwrap().kind,
        FaultKind::InvalidAction
    );
    assert_eq!(outcome.end.code(), "invalid_action");

    // A timeout on player 1's first turn.
    let mut r = blocking(2, 1);
    let req = r.next_request().unwrap();
    r.answer(0, &[valid_lines(&req)[0].clone()]);
    let req = r.next_request().unwrap();
    r.fault(req.player, timeout(req.turn));
    assert!(r.next_request().is_none());
    let outcome = r.outcome();
    assert_eq!(
        (outcome.scores.as_slice(), outcome.ranks.as_slice()),
        (&[1, 0][..], &[1, 2][..])
    );

    // 4 players: player 2 times out on its 2nd turn, player 0 answers `hello` on its 4th.
    let mut r = blocking(4, 1);
    let mut asked = [0; 4];
    let mut placements = 0;
    while let Some(req) = r.next_request() {
        let p = req.player;
        asked[p] += 1;
        if p == 2 && asked[p] == 2 {
            r.fault(p, timeout(req.turn));
        } else if p == 0 && asked[p] == 4 {
            let verdict = r.answer(p, &["hello".to_string()]);
            assert_eq!(verdict.kind, VerdictKind::Fault(FaultKind::Malformed));
        } else {
            assert!(!r.answer(p, &[valid_lines(&req)[0].clone()]).is_fault());
            placements += 1;
        }
    }
    let outcome = r.outcome();
    assert_eq!(placements, 23);
    assert_eq!(outcome.scores, [6, 32, 1, 37]);
    assert_eq!(outcome.ranks, [3, 2, 4, 1]);
    assert_eq!(outcome.faults[2].as_ref().unwrap().kind, FaultKind::Timeout);
}

fn timeout(turn: u32) -> realm_core::Fault {
    realm_core::Fault {
        kind: FaultKind::Timeout,
        turn,
        detail: "no answer within 200 ms".to_string(),
    }
}

/// A11: Blokus Duo.
#[test]
fn a11_duo() {
    let mut r = variant("duo", 2);
    let req = r.next_request().unwrap();
    assert_eq!(anchors(&board(&req, 14)), [(4, 4), (9, 9)]);
    let valid = valid_lines(&req);
    assert_eq!(valid.len(), 828);
    assert_eq!(valid[..3], ["4 4 A001", "9 9 A001", "4 4 B001"]);
    assert_eq!(valid.last().unwrap(), "9 9 U005");
    assert_eq!(r.answer(0, &["4 4 U004".to_string()]).kind, VerdictKind::Ok);
    let cells = &r.frame()["last_move"]["cells"];
    assert_eq!(cells.to_string(), "[[3,3],[2,4],[3,4],[4,4],[3,5]]");

    let mut r = variant("duo", 2);
    answer(r.as_mut(), "9 9 A001");
    let req = r.next_request().unwrap();
    assert_eq!(anchors(&board(&req, 14)), [(4, 4)]);
    assert_eq!(valid_lines(&req).len(), 414);
    for bad in ["10 10 A001", "9 8 A001"] {
        let mut r = variant("duo", 2);
        answer(r.as_mut(), "9 9 A001");
        let verdict = answer(r.as_mut(), bad).1;
        assert_eq!(
            verdict.kind,
            VerdictKind::Fault(FaultKind::InvalidAction),
            "{bad}"
        );
        assert!(verdict.detail.contains("start cell"), "{}", verdict.detail);
    }

    for (last, placements, squares, scores, ranks) in [
        (false, 28, [44, 64], [-45, -25], [2, 1]),
        (true, 29, [66, 63], [-23, -26], [1, 2]),
    ] {
        let mut r = variant("duo", 2);
        let (n, outcome) = policy_game(r.as_mut(), last);
        assert_eq!(n, placements);
        assert_eq!(outcome.scores, scores);
        assert_eq!(outcome.ranks, ranks);
        assert_eq!(scores.map(|s| s + 89), squares);
    }
}

/// A12: Blokus Classic.
#[test]
fn a12_classic() {
    let mut r = variant("classic", 4);
    for (p, first) in ["0 0 A001", "19 0 A001", "19 19 A001", "0 19 A001"]
        .iter()
        .enumerate()
    {
        let req = r.next_request().unwrap();
        assert_eq!(req.player, p);
        let valid = valid_lines(&req);
        assert_eq!(valid.len(), 58);
        assert_eq!(&valid[0], first);
        r.answer(p, &[valid[0].clone()]);
    }
    for (last, placements, scores, ranks) in [
        (false, 59, [-25, -35, -30, -35], [1, 3, 2, 3]),
        (true, 70, [-23, -9, -16, -9], [4, 1, 3, 1]),
    ] {
        let mut r = variant("classic", 4);
        let (n, outcome) = policy_game(r.as_mut(), last);
        assert_eq!(n, placements);
        assert_eq!(outcome.scores, scores);
        assert_eq!(outcome.ranks, ranks);
    }
}

/// The viewer frame schema: every field, before and after a move.
#[test]
fn frame_schema() {
    let mut r = blocking(3, 2);
    let frame = r.frame();
    assert_eq!(frame["turn"], 0);
    assert_eq!(frame["size"], 13);
    assert_eq!(frame["board"].as_array().unwrap().len(), 13);
    assert_eq!(frame["last_move"], serde_json::Value::Null);
    assert_eq!(frame["scores"].to_string(), "[0,0,0]");
    assert_eq!(frame["eliminated"].to_string(), "[false,false,false]");
    assert_eq!(frame["starts"].to_string(), "[[0,0],[12,12],[0,12]]");
    assert_eq!(frame["remaining"][0].as_array().unwrap().len(), 13);
    answer(r.as_mut(), "0 0 B001");
    let frame = r.frame();
    assert_eq!(frame["turn"], 1);
    assert_eq!(
        frame["last_move"].to_string(),
        r#"{"cells":[[0,0],[1,0]],"name":"0 0 B001","player":0}"#
    );
    assert_eq!(frame["board"][0], "00...........");
    assert_eq!(frame["scores"].to_string(), "[2,0,0]");
    assert!(!frame["remaining"][0]
        .as_array()
        .unwrap()
        .contains(&"B".into()));
    assert_eq!(
        variant("duo", 2).frame()["starts"].to_string(),
        "[[4,4],[9,9]]"
    );
    assert_eq!(
        variant("classic", 4).frame()["scores"].to_string(),
        "[-89,-89,-89,-89]"
    );
}
