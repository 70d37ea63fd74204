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
    assert_eq!(outcome.faults[1].as_ref().unwrap().kind, FaultKind::Crashed);
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

/// R17: every runner-detected fault eliminates like a timeout; the record keeps its kind.
#[test]
fn r17_runner_faults_eliminate() {
    for kind in [
        FaultKind::Timeout,
        FaultKind::Crashed,
        FaultKind::ClosedOutput,
        FaultKind::OutputFlood,
    ] {
        let mut r = common::blocking(3, 0);
        answer(r.as_mut(), "0 0 A001");
        let req = r.next_request().unwrap();
        r.fault(
            req.player,
            realm_core::Fault {
                kind,
                turn: req.turn,
                detail: kind.code().into(),
            },
        );
        // Player 1 is out; player 2 and then player 0 go on.
        assert_eq!(r.next_request().unwrap().player, 2);
        answer(r.as_mut(), "0 12 A001");
        assert_eq!(r.next_request().unwrap().player, 0);
        let outcome = r.outcome();
        assert_eq!(outcome.faults[1].as_ref().unwrap().kind, kind);
        assert_eq!(outcome.ranks[1], 3);
        assert_eq!(r.frame()["eliminated"].to_string(), "[false,true,false]");
    }
}
