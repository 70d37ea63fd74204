//! The full game as a match: built-in bots over whole games through the referee (every league
//! and seat count), the golden FirstFit playthrough, each fault kind (R21), a turn resumed after
//! a new card (D28), the match options, and the bots' determinism with an iteration budget.

mod common;

use common::{first_fit, first_fit_transcript, referee, spec};
use realm_core::{
    Bot, EndReason, Fault, FaultKind, LinesInput, MatchSpec, Referee, SetupError, VerdictKind,
};
use realm_kingdom_builder::bots::Reader;
use realm_kingdom_builder::game::{Map, MapCell, Terrain};
use realm_kingdom_builder::{new_bot, new_referee, INFO};
use realm_testkit::drive_referee;

/// Plays a whole match between built-in bots; returns the referee and the number of calls.
fn play_bots(names: &[&str], seed: u64, league: u32) -> (Box<dyn Referee>, usize) {
    let n = names.len();
    let mut referee = referee(n, seed, league);
    let mut bots: Vec<Box<dyn Bot>> = names
        .iter()
        .enumerate()
        .map(|(p, name)| new_bot(name, seed * 10 + p as u64, Some(league)).unwrap())
        .collect();
    let calls = drive_referee(referee.as_mut(), n, 400, |p, lines| {
        bots[p].play_turn(&mut LinesInput::new(lines)).unwrap()
    });
    (referee, calls)
}

#[test]
fn random_and_greedy_play_whole_games_in_every_league_and_seat_count() {
    for league in 1..=3 {
        for (n, seed) in [(2, 1), (3, 2), (4, 3)] {
            let names: Vec<&str> = (0..n)
                .map(|p| if p % 2 == 0 { "random" } else { "greedy" })
                .collect();
            let (referee, calls) = play_bots(&names, seed + u64::from(league), league);
            let outcome = referee.outcome();
            assert_eq!(
                outcome.end,
                EndReason::Finished,
                "league {league}, {n} seats"
            );
            assert!(outcome.faults.iter().all(Option::is_none), "{outcome:?}");
            assert!(outcome.scores.iter().all(|&s| s >= 0));
            if league == 1 {
                // Without tiles every seat builds 3 a turn: 14 rounds, one call each.
                assert_eq!(calls, 14 * n, "league 1, {n} seats");
            }
        }
    }
}

#[test]
fn greedy_beats_random_most_of_the_time() {
    let mut wins = 0;
    for seed in 0..6 {
        let (referee, _) = play_bots(&["random", "greedy"], seed, 3);
        let scores = referee.outcome().scores;
        wins += usize::from(scores[1] > scores[0]);
    }
    assert!(wins >= 5, "greedy won {wins} of 6");
}

/// The golden playthrough: the whole text of seed 1, league 3, two FirstFit seats, compared
/// with `tests/playthroughs/`; `REALM_BLESS=1` rewrites the file.
#[test]
fn golden_first_fit_playthrough_league_3_two_seats_seed_1() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/playthroughs/league3_2p_seed1_firstfit.txt"
    );
    realm_testkit::check_golden(path, &first_fit_transcript(2, 1, 3));
}

/// Final gold of FirstFit matches, the reference values of the full game.
#[test]
fn first_fit_final_scores() {
    for (n, seed, league, scores) in [
        (2, 1, 3, vec![28, 12]),
        (3, 2, 2, vec![37, 34, 29]),
        (4, 3, 1, vec![39, 38, 44, 42]),
    ] {
        let text = first_fit_transcript(n, seed, league);
        let line = text.lines().find(|l| l.starts_with("scores [")).unwrap();
        assert_eq!(
            line,
            format!("scores {scores:?}"),
            "{n} seats, seed {seed}, league {league}"
        );
    }
}

/// Answers seat 0's first call with FirstFit; returns the referee at seat 1's first call.
fn after_first_turn(n: usize) -> Box<dyn Referee> {
    let mut referee = referee(n, 1, 3);
    let request = referee.next_request().unwrap();
    let line = first_fit(&mut Reader::default(), &request.lines);
    assert!(!referee.answer(0, &[line]).is_fault());
    referee
}

#[test]
fn r21_malformed_and_invalid_answers_eliminate_and_end_a_two_seat_game() {
    for (line, kind, detail) in [
        (
            "BUILD 1 0; BUILD 1 1; PLACE 1 2",
            FaultKind::Malformed,
            "command 3 `PLACE 1 2`: unknown command `PLACE` (BUILD, TILE or MOVE)",
        ),
        (
            "BUILD 1 0; BUILD 1 1; BUILD 0 0",
            FaultKind::InvalidAction,
            "command 3 `BUILD 0 0`: (0,0) is occupied",
        ),
        (
            "",
            FaultKind::InvalidAction,
            "the mandatory build is not complete: 0 of 3 settlements placed",
        ),
    ] {
        let mut referee = after_first_turn(2);
        let request = referee.next_request().unwrap();
        assert_eq!(request.player, 1);
        let verdict = referee.answer(1, &[line.to_string()]);
        assert_eq!(verdict.kind, VerdictKind::Fault(kind), "{line}");
        assert_eq!(verdict.detail, detail);
        assert!(referee.next_request().is_none());
        let outcome = referee.outcome();
        assert_eq!(outcome.scores, [1, -1]);
        assert_eq!(outcome.ranks, [1, 2]);
        assert_eq!(
            outcome.end,
            EndReason::Fault {
                player: 1,
                fault: kind
            }
        );
        let fault = outcome.faults[1].as_ref().unwrap();
        assert_eq!(
            (fault.kind, fault.turn, fault.detail.as_str()),
            (kind, 2, detail)
        );
        // Nothing of the faulty turn stays: only seat 0's three settlements are on the board.
        let board = referee.frame()["board"].to_string();
        assert_eq!(board.matches('1').count(), 3, "{board}");
        assert_eq!(board.matches('2').count(), 0);
    }
}

#[test]
fn r21_a_timeout_eliminates_and_the_game_goes_on_without_the_seat() {
    let mut referee = referee(3, 1, 3);
    let mut readers = vec![Reader::default(); 3];
    let request = referee.next_request().unwrap();
    let line = first_fit(&mut readers[0], &request.lines);
    assert!(!referee.answer(0, &[line]).is_fault());
    let request = referee.next_request().unwrap();
    assert_eq!(request.player, 1);
    referee.fault(
        1,
        Fault {
            kind: FaultKind::Timeout,
            turn: request.turn,
            detail: "no answer within 100 ms".to_string(),
        },
    );
    let mut seen = Vec::new();
    let calls = drive_referee(referee.as_mut(), 3, 200, |p, lines| {
        seen.push(p);
        if p == 2 {
            // Seat 2 checks that seat 1 shows as eliminated.
            let skip = if seen.iter().filter(|&&s| s == 2).count() == 1 {
                22
            } else {
                0
            };
            assert_eq!(lines[skip + 2], "-1 -1");
        }
        vec![first_fit(&mut readers[p], lines)]
    });
    assert!(
        !seen.contains(&1),
        "an eliminated seat is never called again"
    );
    assert_eq!(calls, 14 * 2 - 1);
    let outcome = referee.outcome();
    assert_eq!(outcome.end, EndReason::Finished);
    assert_eq!(outcome.scores[1], -1);
    assert_eq!(outcome.ranks[1], 3);
    assert_eq!(outcome.faults[1].as_ref().unwrap().kind, FaultKind::Timeout);
}

/// A map of forest with two grass cells and a castle, so a grass card runs out after two
/// settlements.
fn two_grass_map() -> String {
    let mut map = Map::filled(MapCell::Open(Terrain::Forest));
    map.set(
        realm_kingdom_builder::Pos::new(0, 0),
        MapCell::Open(Terrain::Grass),
    );
    map.set(
        realm_kingdom_builder::Pos::new(0, 1),
        MapCell::Open(Terrain::Grass),
    );
    map.set(
        realm_kingdom_builder::Pos::new(5, 5),
        MapCell::Open(Terrain::Castle),
    );
    map.to_text().trim_end().replace('\n', "/")
}

#[test]
fn d28_a_new_card_in_the_answer_ends_the_call_and_the_turn_goes_on() {
    let map = two_grass_map();
    let seed = (0..200)
        .find(|&seed| {
            let spec = spec(2, seed, 3).with_option("board", &map);
            let request = new_referee(&spec).unwrap().next_request().unwrap();
            request.lines[22].starts_with("G ")
        })
        .expect("a seed that deals grass to seat 0");
    let spec = spec(2, seed, 3).with_option("board", &map);
    let mut referee = new_referee(&spec).unwrap();
    referee.next_request().unwrap();
    let verdict = referee.answer(0, &["BUILD 0 0; BUILD 0 1; BUILD 3 3".to_string()]);
    assert_eq!(verdict.kind, VerdictKind::Warning);
    assert_eq!(
        verdict.detail,
        "new card drawn; 1 command(s) after it ignored, the turn goes on in the next call"
    );
    let request = referee.next_request().unwrap();
    assert_eq!(request.player, 0, "the same seat, same turn");
    assert_eq!(request.lines[0], "T 1 2 0");
    assert_eq!(request.time_limit.as_millis(), 100);
    // The next build must be next to the seat's settlements: (1,0) touches (0,0).
    let verdict = referee.answer(0, &["BUILD 3 3".to_string()]);
    assert!(verdict.is_fault());
    assert!(
        verdict.detail.contains("not next to your settlements"),
        "{}",
        verdict.detail
    );
}

#[test]
fn options_set_cards_lords_and_the_map() {
    let spec = spec(2, 4, 3)
        .with_option("cards", "fishermen,1,7")
        .with_option("lords", "zero")
        .with_option("board", &two_grass_map());
    let request = new_referee(&spec).unwrap().next_request().unwrap();
    assert_eq!(request.lines[1], "1 3 7 1");
    assert_eq!(request.lines[2], "G G T T T T T T T T T T T T T T T T T T");
    let bad = |key: &str, value: &str| {
        new_referee(&spec_with(key, value))
            .err()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        bad("cards", "1,2"),
        "option `cards` of kingdom-builder: `1,2` names 2 cards, not 3"
    );
    assert_eq!(
        bad("lords", "all"),
        "option `lords` of kingdom-builder: `all` is not one of zero, nonzero"
    );
    assert_eq!(
        bad("board", "G G"),
        "option `board` of kingdom-builder: map: line 1, column 4: expected 20 tokens in the row, found 2"
    );
    assert_eq!(
        bad("seat", "1"),
        "kingdom-builder has no option `seat`; options: cards, lords, board"
    );
}

fn spec_with(key: &str, value: &str) -> MatchSpec {
    spec(2, 1, 3).with_option(key, value)
}

#[test]
fn info_lists_the_full_game_with_its_bots_leagues_and_options() {
    assert_eq!(INFO.bots, ["mcts", "greedy", "random"]);
    assert_eq!(INFO.options, ["cards", "lords", "board"]);
    assert_eq!(INFO.leagues, [1, 2, 3]);
    assert!(matches!(
        new_bot("strong", 1, None).err().unwrap(),
        SetupError::UnknownBot { .. }
    ));
    assert!(new_bot("mcts:iters=0", 1, None).is_err());
    assert!(matches!(
        new_referee(&MatchSpec::new("kingdom-builder", 5, 1))
            .err()
            .unwrap(),
        SetupError::PlayerCount { .. }
    ));
}

/// Every answer of a whole match between two `mcts:iters=N` bots.
fn mcts_answers(seed: u64) -> Vec<String> {
    let mut referee = referee(2, seed, 3);
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|p| new_bot("mcts:iters=40", seed + p, Some(3)).unwrap())
        .collect();
    let mut answers = Vec::new();
    drive_referee(referee.as_mut(), 2, 400, |p, lines| {
        let answer = bots[p].play_turn(&mut LinesInput::new(lines)).unwrap();
        answers.push(answer[0].clone());
        answer
    });
    assert!(referee.outcome().faults.iter().all(Option::is_none));
    answers
}

#[test]
fn mcts_with_an_iteration_budget_is_deterministic() {
    assert_eq!(mcts_answers(5), mcts_answers(5));
}

#[test]
fn the_frame_shows_only_the_movers_card_and_the_running_gold() {
    let referee = after_first_turn(2);
    let frame = referee.frame();
    assert_eq!(frame["mover"], 1);
    assert_eq!(frame["card"], serde_json::json!([null, "G"]));
    assert_eq!(frame["scores"], serde_json::json!([1, 0]));
    assert_eq!(frame["cards"]["citizens"], serde_json::json!([1, 0]));
    assert_eq!(
        frame["scoring_cards"],
        serde_json::json!(["farmers", "citizens", "workers"])
    );
    assert_eq!(frame["supply"], serde_json::json!([37, 40]));
    assert_eq!(
        frame["last"],
        serde_json::json!({"player": 0, "commands": ["BUILD 0 0", "BUILD 0 1", "BUILD 0 2"]})
    );
    assert_eq!(frame["locations"].as_array().unwrap().len(), 7);
    assert_eq!(frame["rows"][0], "1 1 1 . M M . . . . . . . . . . W . W W");
}
