//! One rule per test (spec §3, §7), on small scenarios built from move names.

mod common;

use common::*;
use realm_blocking::protocol::{parse_answer, resolve};
use realm_blocking::rules::official_score;
use realm_blocking::shapes::ALL_LETTERS;
use realm_blocking::{BlockingReferee, Config, Position, Variant};
use realm_core::{FaultKind, Referee, State};

fn game(n_players: usize) -> Position {
    Position::new(&Config::with_set(Variant::Blocking, n_players, ALL_LETTERS))
}

/// Plays `name` for the player to move; panics when it is not legal.
fn play(pos: &mut Position, name: &str) {
    let p = pos.current().expect("game running");
    let mv =
        resolve(pos, p, &parse_answer(name).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    pos.play(mv);
}

fn why(pos: &Position, name: &str) -> String {
    let p = pos.current().unwrap();
    resolve(pos, p, &parse_answer(name).unwrap()).unwrap_err()
}

#[test]
fn r8c_edge_contact_with_own_colour_is_illegal() {
    let mut pos = game(2);
    play(&mut pos, "0 0 A001");
    play(&mut pos, "12 12 A001");
    assert!(why(&pos, "1 0 B001").contains("edge"));
    assert!(why(&pos, "0 1 B011").contains("edge"));
    play(&mut pos, "1 1 C001");
}

#[test]
fn r8d_start_cell_then_corner_contact() {
    let mut pos = game(2);
    assert!(why(&pos, "1 1 A001").contains("start cell"));
    play(&mut pos, "0 0 A001");
    play(&mut pos, "12 12 A001");
    assert!(why(&pos, "5 5 B001").contains("corner contact"));
    assert!(why(&pos, "0 0 B001").contains("occupied"));
}

#[test]
fn r8_contact_with_other_colours_is_allowed() {
    let mut pos = Position::new(&Config::new(Variant::Duo, 2, 0));
    play(&mut pos, "4 4 J001"); // (4..8, 4)
    play(&mut pos, "9 9 J011"); // (9, 9..13)
                                // (9, 5..8): its last cell is edge-adjacent to player 1's (9, 9).
    play(&mut pos, "9 5 E011");
    assert_eq!(pos.owner(9, 8), Some(0));
    assert_eq!(pos.owner(9, 9), Some(1));
}

#[test]
fn r8e_three_player_opening_restriction() {
    let mut pos = Position::new(&Config::with_set(Variant::Blocking, 3, ALL_LETTERS));
    assert!(why(&pos, "0 0 Q001").contains("A, B, C or D"));
    play(&mut pos, "0 0 D001");
    assert!(why(&pos, "12 12 J005").contains("A, B, C or D"));
    play(&mut pos, "12 12 C003");
    // Player 2 is free.
    play(&mut pos, "0 12 J015");
    // Player 0 is no longer restricted.
    play(&mut pos, "2 2 Q001");
}

#[test]
fn r9_anchor_cells() {
    let mut pos = game(4);
    assert!(pos.is_anchor(0, 0, 0) && pos.is_anchor(3, 12, 0) && pos.is_anchor(2, 0, 12));
    assert_eq!(pos.n_anchors(0), 1);
    play(&mut pos, "0 0 B001"); // (0,0) (1,0)
    assert_eq!(pos.n_anchors(0), 1);
    assert!(pos.is_anchor(0, 2, 1));
    play(&mut pos, "12 12 A001");
    play(&mut pos, "0 12 A001");
    play(&mut pos, "12 0 A001");
    play(&mut pos, "2 1 A001");
    let anchors: Vec<(usize, usize)> = (0..13)
        .flat_map(|y| (0..13).map(move |x| (x, y)))
        .filter(|&(x, y)| pos.is_anchor(0, x, y))
        .collect();
    assert_eq!(anchors, [(3, 0), (1, 2), (3, 2)]);
}

#[test]
fn r6_r7_blocked_players_are_skipped_for_good() {
    for (np, seed) in [(2, 3), (3, 1), (4, 2)] {
        let mut r = BlockingReferee::new(&Config::new(Variant::Blocking, np, seed));
        let mut last: Option<usize> = None;
        let mut stuck = vec![false; np];
        while let Some(req) = r.next_request() {
            if let Some(prev) = last {
                // Everyone visited between `prev` and `req.player` was skipped: no legal move.
                let mut q = (prev + 1) % np;
                while q != req.player {
                    assert!(!r.position().has_move(q), "player {q} skipped with a move");
                    stuck[q] = true;
                    q = (q + 1) % np;
                }
            }
            assert!(
                !stuck[req.player],
                "player {} asked after being skipped",
                req.player
            );
            let pick = valid_lines(&req)[0].clone();
            r.answer(req.player, &[pick]);
            last = Some(req.player);
        }
        let pos = r.position();
        assert!(
            (0..np).all(|p| !pos.has_move(p)),
            "R15 a: nobody can move at the end"
        );
    }
}

#[test]
fn r14_eliminated_players_rank_last_later_higher() {
    let mut r = blocking(3, 1);
    answer(r.as_mut(), "0 0 A001");
    answer(r.as_mut(), "12 12 A001");
    answer(r.as_mut(), "0 12 A001");
    // Player 0 is eliminated first, then player 1: the game ends (R15 b).
    assert!(answer(r.as_mut(), "bad").1.is_fault());
    let req = r.next_request().unwrap();
    assert_eq!(req.player, 1);
    r.fault(
        1,
        realm_core::Fault {
            kind: FaultKind::Crashed,
            turn: req.turn,
            detail: "exited".into(),
        },
    );
    assert!(r.next_request().is_none());
    let outcome = r.outcome();
    assert_eq!(outcome.scores, [1, 1, 1]);
    assert_eq!(outcome.ranks, [3, 2, 1]);
    assert_eq!(outcome.end.code(), "eliminations");
    let fault = outcome.faults[1].as_ref().unwrap();
    assert_eq!(fault.kind, FaultKind::Timeout);
    assert_eq!(
        fault.detail,
        "exited: an exited process counts as a timeout (R17)"
    );
    assert_eq!(r.frame()["eliminated"].to_string(), "[true,true,false]");
}

#[test]
fn r14_equal_scores_share_a_rank() {
    let mut r = blocking(2, 2);
    let (n, outcome) = policy_game(r.as_mut(), false);
    assert_eq!(n, 22);
    assert_eq!(outcome.ranks, [1, 1]);
    assert!(outcome.is_draw());
}

#[test]
fn a13_official_score() {
    assert_eq!(official_score(0, 0), 20);
    assert_eq!(official_score(0, 5), 15);
    assert_eq!(official_score(1, 3), -1);
    assert_eq!(official_score(ALL_LETTERS, usize::MAX), -89);
}

/// A Duo game where player 0 places all 21 shapes, the monomino last (moves found offline by
/// a search with a cooperative player 1).
const DUO_ALL_PLACED_A_LAST: [&str; 34] = [
    "9 9 U004",
    "4 4 P021",
    "6 8 R021",
    "1 1 M104",
    "6 5 S115",
    "5 5 A001",
    "9 2 P015",
    "6 6 D023",
    "3 5 Q013",
    "8 5 B012",
    "0 5 J011",
    "5 1 G004",
    "12 1 K025",
    "7 1 H001",
    "1 10 O034",
    "9 3 S115",
    "6 2 L012",
    "12 2 C011",
    "9 11 N013",
    "13 5 E011",
    "11 10 T125",
    "12 9 F011",
    "7 11 M111",
    "11 11 U001",
    "11 2 E011",
    "9 6 I013",
    "12 8 H004",
    "4 1 G021",
    "3 11 F024",
    "4 8 I101",
    "2 6 C011",
    "1 2 D011",
    "9 4 B011",
    "13 12 A001",
];

/// A Duo game where player 0 places all 21 shapes, the monomino first.
const DUO_ALL_PLACED_A_FIRST: [&str; 37] = [
    "9 9 A001",
    "4 4 T135",
    "8 8 R021",
    "2 4 U004",
    "8 5 U002",
    "0 2 R015",
    "5 7 S111",
    "6 5 B001",
    "5 5 Q031",
    "3 7 A001",
    "2 10 N002",
    "6 7 I011",
    "10 10 L101",
    "4 10 D011",
    "11 4 P015",
    "2 12 C003",
    "3 12 O135",
    "2 9 G003",
    "2 8 K114",
    "8 4 F104",
    "4 2 T035",
    "9 2 L102",
    "3 0 J001",
    "5 2 O005",
    "9 12 M122",
    "11 1 M125",
    "6 2 F031",
    "4 12 E001",
    "12 5 H001",
    "8 11 H003",
    "9 0 G001",
    "11 5 P001",
    "12 10 I102",
    "4 11 E001",
    "10 7 D001",
    "0 7 C013",
    "7 9 B002",
];

/// Plays `names` through the Duo referee (each accepted) to the end; returns the outcome, the
/// letters of player 0 in the order they were placed and the squares player 1 placed.
fn duo_game(names: &[&str]) -> (realm_core::Outcome, String, i64) {
    // Squares per letter A..U (spec §2.1).
    const SIZES: &[u8; 21] = b"123344444555555555555";
    let mut r = variant("duo", 2);
    let mut order = String::new();
    let mut squares_1 = 0;
    for name in names {
        let (request, verdict) = answer(r.as_mut(), name);
        assert_eq!(verdict.kind, realm_core::VerdictKind::Ok, "{name}");
        let letter = name.as_bytes()[name.len() - 4];
        if request.player == 0 {
            order.push(letter as char);
        } else {
            squares_1 += i64::from(SIZES[(letter - b'A') as usize] - b'0');
        }
    }
    assert!(r.next_request().is_none(), "the game is over");
    (r.outcome(), order, squares_1)
}

/// V2 / A13 in a played game: all 21 shapes with A last score 20, with another shape last 15.
#[test]
fn a13_official_score_bonuses_in_played_duo_games() {
    let (outcome, order, squares_1) = duo_game(&DUO_ALL_PLACED_A_LAST);
    assert_eq!(order.len(), 21);
    assert!(order.ends_with('A'));
    // Player 1 keeps the V2 penalty: minus its 89 squares not placed.
    assert_eq!(outcome.scores, [20, squares_1 - 89]);
    assert_eq!(outcome.ranks, [1, 2]);

    let (outcome, order, squares_1) = duo_game(&DUO_ALL_PLACED_A_FIRST);
    assert_eq!(order.len(), 21);
    assert!(order.starts_with('A') && !order.ends_with('A'));
    assert_eq!(outcome.scores, [15, squares_1 - 89]);
    assert_eq!(outcome.ranks, [1, 2]);
}

#[test]
fn v2_scores_follow_the_unplaced_squares() {
    let mut pos = Position::new(&Config::new(Variant::Duo, 2, 0));
    assert_eq!(pos.outcome().scores, [-89, -89]);
    play(&mut pos, "4 4 J001");
    assert_eq!(pos.outcome().scores, [-84, -89]);
    let mut pos = Position::new(&Config::new(Variant::Classic, 4, 0));
    play(&mut pos, "0 0 J001");
    assert_eq!(pos.score(0), -84);
    play(&mut pos, "19 0 E004");
    assert_eq!(pos.score(1), -85);
}

#[test]
fn r16_games_end_within_the_bound() {
    for seed in 0..20 {
        for (variant, np, bound) in [
            (Variant::Blocking, 2, 36),
            (Variant::Blocking, 3, 39),
            (Variant::Blocking, 4, 40),
            (Variant::Duo, 2, 42),
            (Variant::Classic, 4, 84),
        ] {
            let mut pos = Position::new(&Config::new(variant, np, seed));
            let mut buf = Vec::new();
            let mut rng = realm_core::chacha_rng(seed, 9);
            let n = realm_core::random_playout(&mut pos, &mut rng, &mut buf);
            assert!(n <= bound);
            assert_eq!(pos.to_move(), None);
            assert_eq!(pos.n_placements(), n);
        }
    }
}

/// R17: a timeout, an exited process and a closed output are all `timeout` eliminations (the
/// runner's account kept in the detail); an output flood or a closed input, unknown to the spec,
/// keeps its kind.
#[test]
fn r17_runner_faults_eliminate() {
    for (kind, reported, detail) in [
        (FaultKind::Timeout, FaultKind::Timeout, "no answer"),
        (
            FaultKind::Crashed,
            FaultKind::Timeout,
            "no answer: an exited process counts as a timeout (R17)",
        ),
        (
            FaultKind::ClosedOutput,
            FaultKind::Timeout,
            "no answer: a closed output counts as a timeout (R17)",
        ),
        (FaultKind::OutputFlood, FaultKind::OutputFlood, "no answer"),
        (FaultKind::ClosedInput, FaultKind::ClosedInput, "no answer"),
    ] {
        let mut r = common::blocking(3, 0);
        answer(r.as_mut(), "0 0 A001");
        let req = r.next_request().unwrap();
        r.fault(
            req.player,
            realm_core::Fault {
                kind,
                turn: req.turn,
                detail: "no answer".into(),
            },
        );
        // Player 1 is out; player 2 and then player 0 go on.
        assert_eq!(r.next_request().unwrap().player, 2);
        answer(r.as_mut(), "0 12 A001");
        assert_eq!(r.next_request().unwrap().player, 0);
        let outcome = r.outcome();
        let fault = outcome.faults[1].as_ref().unwrap();
        assert_eq!((fault.kind, fault.detail.as_str()), (reported, detail));
        assert_eq!(outcome.ranks[1], 3);
        assert_eq!(r.frame()["eliminated"].to_string(), "[false,true,false]");
    }
}

/// R17 in a 2-player game: the match ends by the crashed player's fault, reported as a timeout.
#[test]
fn r17_an_exited_process_ends_a_two_player_game_as_a_timeout() {
    let mut r = common::blocking(2, 3);
    answer(r.as_mut(), "0 0 Q001");
    let req = r.next_request().unwrap();
    r.fault(
        req.player,
        realm_core::Fault {
            kind: FaultKind::Crashed,
            turn: req.turn,
            detail: "exited (exit status: 1)".into(),
        },
    );
    assert!(r.next_request().is_none());
    let outcome = r.outcome();
    assert_eq!(
        outcome.end,
        realm_core::EndReason::Fault {
            player: 1,
            fault: FaultKind::Timeout
        }
    );
    assert_eq!(outcome.ranks, [1, 2]);
    assert_eq!(outcome.scores, [5, 0]);
}

/// R6 and R15 the fast way: `play_knowing_next` told the next player `play` found leaves the
/// position `play` leaves, along whole random games of every variant, stuck players and the
/// end included.
#[test]
fn playing_with_the_next_player_known_equals_play() {
    let configs = [
        Config::new(Variant::Duo, 2, 1),
        Config::new(Variant::Classic, 4, 1),
        Config::with_set(Variant::Blocking, 3, ALL_LETTERS),
        Config::new(Variant::Blocking, 4, 7),
    ];
    // Turns that did not go to the next player in order (a stuck player skipped, or the end).
    let (mut skipped, mut buf) = (0, Vec::new());
    for config in &configs {
        for seed in 0..6 {
            let mut pos = Position::new(config);
            let mut rng = realm_core::chacha_rng(seed, 11);
            while let Some(mv) = pos.random_action(&mut rng, &mut buf) {
                let mut played = pos.clone();
                played.play(mv);
                let mut known = pos.clone();
                known.play_knowing_next(mv, played.current());
                assert_eq!(known, played, "{config:?} seed {seed}");
                let p = pos.current().expect("a player placed");
                if played.current() != Some((p + 1) % pos.player_count()) {
                    skipped += 1;
                }
                pos = played;
            }
        }
    }
    assert!(skipped >= 48, "turns skipped a player {skipped} times");
}
