//! The acceptance examples of spec §8 (A1 lives in `setup.rs` unit tests) and the worked example
//! of §4.5, driven through the referee's text interface.

mod common;

use common::{end_now, last_echo, legal_count, play, scores, scripted};
use realm_carcassonne::board::Board;
use realm_carcassonne::setup::start_type;
use realm_carcassonne::tiles::tileset;
use realm_carcassonne::{new_referee, CarcassonneReferee, State};
use realm_core::{FaultKind, MatchSpec, Referee, VerdictKind};

#[test]
fn a2_legal_placements_on_the_first_turn() {
    let cases = [
        (
            3,
            "A5 B4 C4 D6 E4 F4 G4 H4 I4 J6 K6 L7 M4 N4 O6 P6 Q4 R4 S5 T5 U6 V6 W7 X8",
        ),
        (1, "C4 E10 F8 G8 H8 I8 M8 N8 Q6 R6"),
    ];
    let set = tileset();
    for (league, table) in cases {
        let board = Board::new(2, start_type(league));
        for entry in table.split(' ') {
            let ty = set.by_letter(entry.chars().next().unwrap()).unwrap();
            let want: usize = entry[1..].parse().unwrap();
            assert_eq!(
                board.sorted_placements(ty).len(),
                want,
                "league {league} {entry}"
            );
        }
    }
}

#[test]
fn a3_worked_example_text_of_section_4_5() {
    let mut referee = CarcassonneReferee::new(State::new(3, 2, 6));
    let r1 = referee.next_request().unwrap();
    assert_eq!(
        r1.lines,
        [
            "2 0",
            "143 143",
            "2",
            "71 71 c r e r 0 -1 -1 0 1r,3r;1-,3+;1+,2e,3-",
            "-1 -1 c e e e 0 -1 -1 0 1e,2e,3e",
        ]
    );
    let board = referee.state().board();
    let e = referee.state().current_tile().unwrap();
    let triples: Vec<(u8, u8, u8)> = board
        .sorted_placements(e)
        .iter()
        .map(|p| (p.row, p.col, p.angle))
        .collect();
    assert_eq!(
        triples,
        [(70, 71, 2), (72, 71, 1), (72, 71, 2), (72, 71, 3)]
    );
    assert_eq!(
        referee.answer(0, &["70 71 2 20".to_string()]).kind,
        VerdictKind::Ok
    );
    assert_eq!(scores(&referee), [4, 0]);
    assert!(
        referee.state().board().men().is_empty(),
        "the man came back"
    );
    let c = tileset().by_letter('C').unwrap();
    assert_eq!(
        referee.state().board().sorted_placements(c).len(),
        0,
        "C would be discarded"
    );

    let r2 = referee.next_request().unwrap();
    assert_eq!(
        r2.lines,
        [
            "2 1",
            "143 143",
            "3",
            "71 71 c r e r 0 -1 -1 0 1r,3r;1-,3+;1+,2e,3-",
            "70 71 e e c e 0 0 20 0 0e,1e,3e",
            "-1 -1 e e r r 0 -1 -1 0 2r,3r;0e,1e,2-,3+;2+,3-",
        ]
    );
    assert_eq!(legal_count(&referee), 12);
    assert_eq!(
        referee.answer(1, &["71 72 0 3+".to_string()]).kind,
        VerdictKind::Ok
    );
    assert_eq!(end_now(&referee), [4, 3]);

    let r3 = referee.next_request().unwrap();
    assert_eq!(
        r3.lines,
        [
            "4",
            "71 71 c r e r 0 -1 -1 0 1r,3r;1-,3+;1+,2e,3-",
            "70 71 e e c e 0 0 20 0 0e,1e,3e",
            "71 72 e e r r 0 1 3+ 0 2r,3r;0e,1e,2-,3+;2+,3-",
            "-1 -1 c r r r 0 -1 -1 0 1-,3+;2+,3-;1+,2-",
        ]
    );
    assert_eq!(legal_count(&referee), 6);
    assert_eq!(r1.time_limit.as_millis(), 1000);
    assert_eq!(r3.time_limit.as_millis(), 100);
}

/// The first three turns of A4, with P0's second answer replaced.
fn a4_game(second_p0_answer: &str) -> CarcassonneReferee {
    let mut referee = scripted(3, 2, "EVEE");
    play(&mut referee, "70 71 2 20");
    play(&mut referee, "71 72 0 3+");
    play(&mut referee, second_p0_answer);
    referee
}

#[test]
fn a4_one_field_two_closed_castles() {
    let mut referee = scripted(3, 2, "EVEE");
    let turns = [
        (
            "70 71 2 20",
            4,
            [4, 0],
            [4, 0],
            "70 71 e e c e 0 0 20 0 0e,1e,3e",
        ),
        (
            "71 72 0 3+",
            12,
            [4, 0],
            [4, 3],
            "71 72 e e r r 0 1 3+ 0 2r,3r;0e,1e,2-,3+;2+,3-",
        ),
        (
            "70 72 0 00",
            14,
            [4, 0],
            [5, 3],
            "70 72 c e e e 0 0 00 0 1e,2e,3e",
        ),
        (
            "69 72 2 -1",
            16,
            [8, 0],
            [8, 6],
            "69 72 e e c e 0 -1 -1 0 0e,1e,3e",
        ),
    ];
    for (i, (line, legal, score, end, echo)) in turns.into_iter().enumerate() {
        let step = play(&mut referee, line);
        assert_eq!(step.request.player, i % 2);
        assert_eq!(step.legal, legal, "turn {i}");
        assert_eq!(step.verdict.kind, VerdictKind::Ok, "turn {i}");
        if i < 3 {
            assert_eq!(scores(&referee), score, "turn {i}");
            assert_eq!(end_now(&referee), end, "turn {i}");
        } else {
            // The bag is empty after the fourth tile: the final scoring is already applied.
            assert_eq!(scores(&referee), end, "turn {i}");
        }
        assert_eq!(last_echo(&referee), echo, "turn {i}");
    }
    assert!(referee.next_request().is_none());
    assert_eq!(referee.outcome().scores, [8, 6]);
    assert_eq!(referee.outcome().ranks, [1, 2]);
}

/// A4's "score after" column for the fourth turn (8/0), read before any final scoring: one more
/// tile in the bag keeps the game going after it.
#[test]
fn a4_open_value_splits_the_end_now_points_and_sees_the_fields_open_castle() {
    let mut referee = scripted(3, 2, "EVEEB");
    for line in ["70 71 2 20", "71 72 0 3+", "70 72 0 00"] {
        assert_eq!(play(&mut referee, line).verdict.kind, VerdictKind::Ok);
    }
    // P0's castle at (70, 72) is open at one edge (1 point now); P1's field touches the closed
    // castle (3 points now) and that open one (3 more if it closes).
    let open = referee.state().board().open_value();
    assert_eq!(open.by_kind[0][..2], [1, 0], "open castles");
    assert_eq!(open.by_kind[3][..2], [0, 3], "fields");
    assert_eq!(open.nearly_closed_castles[..2], [1, 0]);
    assert_eq!(open.field_prospects[..2], [0, 3]);
    assert_eq!(end_now(&referee), [5, 3]);
    assert_eq!(
        play(&mut referee, "69 72 2 -1").verdict.kind,
        VerdictKind::Ok
    );
    let open = referee.state().board().open_value();
    assert_eq!(open.by_kind[3][..2], [0, 6], "both castles closed");
    assert_eq!(open.field_prospects[..2], [0, 0]);
    assert_eq!(open.nearly_closed_castles[..2], [0, 0]);
}

#[test]
fn a4_score_after_the_fourth_turn_before_final_scoring() {
    let mut referee = scripted(3, 2, "EVEEB");
    for line in ["70 71 2 20", "71 72 0 3+", "70 72 0 00", "69 72 2 -1"] {
        assert_eq!(play(&mut referee, line).verdict.kind, VerdictKind::Ok);
    }
    assert!(referee.state().current_tile().is_some(), "the game goes on");
    assert_eq!(scores(&referee), [8, 0]);
    assert_eq!(end_now(&referee), [8, 6]);
    assert_eq!(
        referee.state().board().men_on_board(0),
        0,
        "the knight came back"
    );
    assert_eq!(
        referee.state().board().men_on_board(1),
        1,
        "the farmer stays"
    );
}

/// §3.5.3 with unequal counts: a castle closed during play with two men of P0 and one of P1
/// pays P0 only, and all three men return. Around the start castle: caps of P0 (left, top) and
/// P1 (right) on separate blocks, then the 4-castle tile C joins and closes all of them.
#[test]
fn majority_two_men_against_one_only_the_majority_scores() {
    let mut referee = scripted(3, 2, "UUEEBBECB");
    let lines = [
        "71 70 0 -1", // P0: straight road left of the start
        "71 72 0 -1", // P1: straight road right of the start
        "70 70 1 10", // P0: castle cap facing right, knight on it
        "70 72 3 30", // P1: castle cap facing left, knight on it
        "69 70 0 -1", // P0: monastery without monk, support for the top cap
        "69 72 0 -1", // P1: monastery without monk
    ];
    for line in lines {
        assert_eq!(
            play(&mut referee, line).verdict.kind,
            VerdictKind::Ok,
            "{line}"
        );
    }
    // P0: castle cap facing down above the centre, second knight.
    assert_eq!(
        play(&mut referee, "69 71 2 20").verdict.kind,
        VerdictKind::Ok
    );
    let board = referee.state().board();
    assert_eq!((board.men_on_board(0), board.men_on_board(1)), (2, 1));
    assert_eq!(scores(&referee), [0, 0]);
    // P1 closes the castle: start cap + three caps + C = 5 tiles, 1 shield = 12, all to P0.
    let step = play(&mut referee, "70 71 0 -1");
    assert_eq!(step.request.player, 1);
    assert_eq!(step.verdict.kind, VerdictKind::Ok);
    assert!(
        referee.state().current_tile().is_some(),
        "scored during play"
    );
    assert_eq!(scores(&referee), [12, 0]);
    let board = referee.state().board();
    assert_eq!((board.men_on_board(0), board.men_on_board(1)), (0, 0));
    assert_eq!(end_now(&referee), [12, 0]);
}

#[test]
fn a5_refused_men_are_ignored() {
    for answer in ["70 72 0 10", "70 72 0 1-", "70 72 0 40", "70 72 0 x"] {
        let referee = a4_game(answer);
        assert_eq!(
            last_echo(&referee),
            "70 72 c e e e 0 -1 -1 0 1e,2e,3e",
            "{answer}"
        );
        assert_eq!(scores(&referee), [4, 0], "{answer}");
        assert_eq!(end_now(&referee), [4, 3], "{answer}");
        assert_eq!(referee.state().board().men_on_board(0), 0, "{answer}");
        assert!(!referee.state().is_eliminated(0));
    }
    let mut referee = scripted(3, 2, "EVEE");
    play(&mut referee, "70 71 2 20");
    play(&mut referee, "71 72 0 3+");
    let step = play(&mut referee, "70 72 0 10");
    assert_eq!(step.verdict.kind, VerdictKind::Warning);
    assert!(
        step.verdict.detail.contains("occupied"),
        "{}",
        step.verdict.detail
    );
}

#[test]
fn a6_majority_tie_pays_both() {
    let mut referee = scripted(3, 2, "EENN");
    let mut legal = Vec::new();
    for line in ["72 71 2 20", "72 72 2 20", "73 71 1 -1", "73 72 0 -1"] {
        let step = play(&mut referee, line);
        assert_eq!(step.verdict.kind, VerdictKind::Ok, "{line}");
        legal.push(step.legal);
    }
    assert_eq!(legal, [4, 8, 10, 11]);
    assert_eq!(scores(&referee), [8, 8]);
    assert_eq!(referee.outcome().ranks, [1, 1]);
}

#[test]
fn a7_shield_counts_double_when_closed() {
    let mut referee = scripted(3, 2, "ME");
    let step = play(&mut referee, "70 71 2 20");
    assert_eq!(step.legal, 4);
    assert_eq!(end_now(&referee), [3, 0]);
    let step = play(&mut referee, "70 72 3 -1");
    assert_eq!(step.legal, 10);
    assert_eq!(scores(&referee), [8, 0]);
}

#[test]
fn a8_road_to_a_monastery_and_a_road_loop() {
    let mut referee = scripted(3, 2, "AW");
    let step = play(&mut referee, "71 72 1 30");
    assert_eq!(step.legal, 5);
    assert_eq!(last_echo(&referee), "71 72 e e e r 1 0 30 0 0e,1e,2e,3-,3+");
    assert_eq!(end_now(&referee), [2, 0]);
    let step = play(&mut referee, "71 70 0 -1");
    assert_eq!(step.legal, 7);
    assert_eq!(scores(&referee), [3, 0]);

    let mut referee = scripted(3, 2, "VVVV");
    let mut legal = Vec::new();
    for line in ["72 71 3 10", "72 72 0 -1", "73 71 2 -1", "73 72 1 -1"] {
        legal.push(play(&mut referee, line).legal);
    }
    assert_eq!(legal, [6, 10, 11, 12]);
    assert_eq!(scores(&referee), [4, 0]);
    assert_eq!(
        last_echo(&referee),
        "73 72 r e e r 0 -1 -1 0 0r,3r;0+,1e,2e,3-;0-,3+"
    );
}

#[test]
fn a9_monastery_scores_nine_when_surrounded() {
    let mut referee = scripted(3, 2, "BUUBBEEB");
    let lines = [
        "72 71 0 40",
        "71 70 0 -1",
        "71 72 0 -1",
        "72 70 0 -1",
        "72 72 0 -1",
        "73 71 2 -1",
        "73 70 2 -1",
        "73 72 0 -1",
    ];
    let mut legal = Vec::new();
    let mut p0_end_now = Vec::new();
    for line in lines {
        legal.push(play(&mut referee, line).legal);
        p0_end_now.push(end_now(&referee)[0]);
    }
    assert_eq!(legal, [4, 10, 10, 20, 24, 22, 18, 24]);
    assert_eq!(p0_end_now[..7], [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(scores(&referee), [9, 0]);
    assert_eq!(
        referee.state().board().men_on_board(0),
        0,
        "the monk came back"
    );
}

#[test]
fn a10_illegal_placements_eliminate() {
    let cases = [
        ("71 71 0 -1", FaultKind::InvalidAction),
        ("70 71 0 -1", FaultKind::InvalidAction),
        ("72 71 0 -1", FaultKind::InvalidAction),
        ("70 72 2 -1", FaultKind::InvalidAction),
        ("70 71 4 -1", FaultKind::InvalidAction),
        ("70 71 2", FaultKind::Malformed),
        ("a b c d", FaultKind::Malformed),
    ];
    for (line, kind) in cases {
        let mut referee = scripted(3, 2, "EVEE");
        let step = play(&mut referee, line);
        assert_eq!(step.verdict.kind, VerdictKind::Fault(kind), "{line}");
        assert!(
            referee.next_request().is_none(),
            "{line}: the game ends at once"
        );
        let outcome = referee.outcome();
        assert_eq!(outcome.scores, [0, 0], "{line}");
        assert_eq!(outcome.ranks, [2, 1], "{line}");
        assert_eq!(outcome.faults[0].as_ref().map(|f| f.kind), Some(kind));
        assert_eq!(outcome.end.code(), kind.code());
        assert_eq!(
            referee.state().board().placed().len(),
            1,
            "{line}: the tile is not placed"
        );
    }
    let mut referee = scripted(3, 2, "EVEE");
    let step = play(&mut referee, "70 71 2 2x");
    assert_eq!(step.verdict.kind, VerdictKind::Warning);
    assert_eq!(scores(&referee), [0, 0], "the closed castle had no man");
    assert_eq!(referee.state().board().placed().len(), 2);
    assert!(referee.next_request().is_some());
}

/// FirstFit (§8 A11): the smallest legal triple; with `always_00`, the man token is always
/// `00`, else the first accepted of `00 0- 0+ ... 40`.
fn first_fit_game(
    league: u32,
    n: usize,
    seed: u64,
    always_00: bool,
) -> (usize, Vec<char>, Vec<i64>, usize) {
    let spec = MatchSpec::new("carcassonne", n, seed).with_league(league);
    let mut referee = new_referee(&spec).unwrap();
    let mut state = State::new(league, n, seed);
    let mut placements = 0;
    let mut refused = 0;
    while let Some(request) = referee.next_request() {
        let ty = state.current_tile().unwrap();
        let at = state.board().sorted_placements(ty)[0];
        let mut probe = state.board().clone();
        let slot = probe.place(ty, at);
        let token = if always_00 {
            Some(0)
        } else {
            (0..13).find(|&t| probe.check_man(request.player, slot, t).is_ok())
        };
        let line = realm_carcassonne::protocol::answer_line(at, token);
        let verdict = referee.answer(request.player, &[line]);
        refused += usize::from(verdict.kind == VerdictKind::Warning);
        assert!(state.try_place(at.row as i64, at.col as i64, at.angle as i64));
        let _ = state.finish_turn(token);
        placements += 1;
    }
    assert!(realm_core::State::to_move(&state).is_none());
    let discarded = state
        .discarded()
        .iter()
        .map(|&t| tileset().get(t).letter)
        .collect();
    (placements, discarded, referee.outcome().scores, refused)
}

/// One row of the A11 table.
struct FullGame {
    league: u32,
    players: usize,
    seed: u64,
    placements: usize,
    discarded: &'static str,
    first_fit: &'static [i64],
    first_fit_00: &'static [i64],
    refused_00: usize,
}

const A11: [FullGame; 6] = [
    FullGame {
        league: 1,
        players: 2,
        seed: 37,
        placements: 21,
        discarded: "C",
        first_fit: &[11, 5],
        first_fit_00: &[17, 4],
        refused_00: 9,
    },
    FullGame {
        league: 2,
        players: 4,
        seed: 7,
        placements: 65,
        discarded: "",
        first_fit: &[10, 18, 14, 6],
        first_fit_00: &[10, 18, 14, 12],
        refused_00: 38,
    },
    FullGame {
        league: 3,
        players: 2,
        seed: 1,
        placements: 71,
        discarded: "",
        first_fit: &[17, 11],
        first_fit_00: &[25, 9],
        refused_00: 55,
    },
    FullGame {
        league: 3,
        players: 2,
        seed: 4,
        placements: 70,
        discarded: "C",
        first_fit: &[6, 11],
        first_fit_00: &[6, 9],
        refused_00: 58,
    },
    FullGame {
        league: 3,
        players: 3,
        seed: 11,
        placements: 71,
        discarded: "",
        first_fit: &[12, 7, 7],
        first_fit_00: &[8, 7, 7],
        refused_00: 52,
    },
    FullGame {
        league: 3,
        players: 4,
        seed: 2,
        placements: 71,
        discarded: "",
        first_fit: &[25, 12, 20, 11],
        first_fit_00: &[21, 10, 20, 11],
        refused_00: 40,
    },
];

#[test]
fn a11_full_first_fit_games() {
    for row in &A11 {
        let (league, n, seed) = (row.league, row.players, row.seed);
        let what = format!("league {league}, {n} players, seed {seed}");
        let (placed, disc, scores, _) = first_fit_game(league, n, seed, false);
        assert_eq!(placed, row.placements, "{what}");
        assert_eq!(disc.iter().collect::<String>(), row.discarded, "{what}");
        assert_eq!(scores, row.first_fit, "{what}: FirstFit");
        let (_, _, scores, n_refused) = first_fit_game(league, n, seed, true);
        assert_eq!(scores, row.first_fit_00, "{what}: FirstFit00");
        assert_eq!(n_refused, row.refused_00, "{what}: refused men");
    }
}

#[test]
fn a11_discard_positions_and_game_starts() {
    // (1, 2, 37): P0's `70 71 2 00` closes the start castle, C (2nd draw) is discarded and P1
    // receives Q with countOfActions = 3.
    let spec = MatchSpec::new("carcassonne", 2, 37).with_league(1);
    let mut referee = new_referee(&spec).unwrap();
    let r = referee.next_request().unwrap();
    assert_eq!(r.lines.last().unwrap(), "-1 -1 c e e e 0 -1 -1 0 1e,2e,3e");
    referee.answer(0, &["70 71 2 00".to_string()]);
    let r = referee.next_request().unwrap();
    assert_eq!(r.lines[2], "3");
    assert_eq!(r.lines.last().unwrap(), "-1 -1 c c e c 0 -1 -1 1 0c,1c,3c");

    // (3, 2, 4): C is the 11th draw.
    let mut state = State::new(3, 2, 4);
    let mut n_draws = 1;
    while let Some(ty) = state.current_tile() {
        let at = state.board().sorted_placements(ty)[0];
        state.try_place(at.row as i64, at.col as i64, at.angle as i64);
        let _ = state.finish_turn(None);
        if !state.discarded().is_empty() {
            break;
        }
        n_draws += 1;
    }
    assert_eq!(n_draws + 1, 11, "C is the 11th tile drawn");

    // (3, 2, 1): FirstFit, as §8 defines it, chooses the spec's first four answers.
    let mut referee = CarcassonneReferee::new(State::new(3, 2, 1));
    let start = [
        ('R', "70 71 1 00"),
        ('S', "69 71 1 30"),
        ('U', "69 70 0 00"),
        ('J', "68 70 3 00"),
    ];
    for (turn, (letter, want)) in start.into_iter().enumerate() {
        let r = referee.next_request().unwrap();
        assert_eq!(r.player, turn % 2);
        let ty = referee.state().current_tile().unwrap();
        assert_eq!(tileset().get(ty).letter, letter, "turn {turn}");
        let chosen = first_fit_line(referee.state(), r.player);
        assert_eq!(chosen, want, "turn {turn}");
        assert_eq!(referee.answer(r.player, &[chosen]).kind, VerdictKind::Ok);
    }
}

/// FirstFit of §8 A11, straight from its definition: the legal triple smallest in (row, col,
/// angle) order, found by trying every triple in that order, and the first token of
/// `00 0- 0+ 10 1- 1+ 20 2- 2+ 30 3- 3+ 40` that §3.4 accepts on the placed tile, else `-1`.
fn first_fit_line(state: &State, player: usize) -> String {
    const TOKENS: [&str; 13] = [
        "00", "0-", "0+", "10", "1-", "1+", "20", "2-", "2+", "30", "3-", "3+", "40",
    ];
    let ty = state.current_tile().unwrap();
    let board = state.board();
    let (row, col, angle) = (0..143i64)
        .flat_map(|row| (0..143i64).flat_map(move |col| (0..4i64).map(move |a| (row, col, a))))
        .find(|&(row, col, angle)| board.is_legal(ty, row, col, angle))
        .expect("a placeable tile");
    let mut after = state.clone();
    assert!(after.try_place(row, col, angle));
    let slot = after.board().placed().len() - 1;
    let token = TOKENS.iter().find(|&&text| {
        let code = realm_carcassonne::protocol::parse_token(text).unwrap();
        after.board().check_man(player, slot, code).is_ok()
    });
    format!("{row} {col} {angle} {}", token.unwrap_or(&"-1"))
}
