//! The referee over text: eliminations of §3.8 (runner faults included), what eliminated
//! players leave behind, frames, determinism, and the built-in bots playing every league and
//! player count through the protocol.

mod common;

use common::{play, scores, scripted};
use realm_carcassonne::{new_bot, new_referee, INFO};
use realm_core::{
    EndReason, Fault, FaultKind, LinesInput, MatchSpec, Outcome, Referee, VerdictKind,
};
use realm_testkit::drive_referee;

fn runner_fault(kind: FaultKind) -> Fault {
    Fault {
        kind,
        turn: 1,
        detail: format!("{} by the runner", kind.code()),
    }
}

#[test]
fn r3_8_runner_faults_eliminate() {
    for kind in [
        FaultKind::Timeout,
        FaultKind::Crashed,
        FaultKind::ClosedOutput,
        FaultKind::ClosedInput,
        FaultKind::OutputFlood,
    ] {
        // Two players: the game ends at once and the faulty player loses.
        let mut referee = scripted(3, 2, "EVEE");
        play(&mut referee, "70 71 2 20");
        let request = referee.next_request().unwrap();
        referee.fault(request.player, runner_fault(kind));
        assert!(referee.next_request().is_none(), "{kind:?}");
        let outcome = referee.outcome();
        assert_eq!(outcome.ranks, [1, 2]);
        assert_eq!(outcome.scores, [4, 0]);
        assert_eq!(
            outcome.end,
            EndReason::Fault {
                player: 1,
                fault: kind
            }
        );
        assert_eq!(outcome.faults[1].as_ref().map(|f| f.kind), Some(kind));

        // Four players: the game goes on without the faulty player.
        let mut referee = scripted(3, 4, "EVEEEE");
        let request = referee.next_request().unwrap();
        referee.fault(request.player, runner_fault(kind));
        let request = referee.next_request().unwrap();
        assert_eq!(request.player, 1);
        assert_eq!(
            request.lines[..2],
            ["4 1".to_string(), "143 143".to_string()]
        );
        assert_eq!(
            request.lines[2], "2",
            "the faulty player's tile was removed, not placed"
        );
        assert!(
            request.lines.last().unwrap().starts_with("-1 -1 e e r r"),
            "next tile is V"
        );
    }
}

#[test]
fn r3_8_eliminated_men_still_count_but_their_score_is_frozen() {
    let mut referee = scripted(3, 3, "NEEEE");
    assert_eq!(
        play(&mut referee, "70 71 2 20").verdict.kind,
        VerdictKind::Ok
    );
    play(&mut referee, "72 71 2 -1");
    play(&mut referee, "73 71 0 -1");
    let step = play(&mut referee, "0 0 0 -1");
    assert_eq!(step.request.player, 0);
    assert_eq!(
        step.verdict.kind,
        VerdictKind::Fault(FaultKind::InvalidAction)
    );
    // P1 closes P0's castle and tries to put a man on it.
    let step = play(&mut referee, "70 72 3 30");
    assert_eq!(step.request.player, 1);
    assert_eq!(
        step.verdict.kind,
        VerdictKind::Warning,
        "P0's man still holds the castle"
    );
    assert_eq!(
        scores(&referee),
        [0, 0, 0],
        "P0 is frozen, P1 and P2 have no man there"
    );
    assert!(referee.next_request().is_none());
    let outcome = referee.outcome();
    assert_eq!(outcome.ranks, [3, 1, 1]);
    assert_eq!(outcome.end, EndReason::Finished);
    assert_eq!(outcome.detail, "bag_empty");
}

#[test]
fn r3_3_placements_off_the_board_eliminate() {
    for line in [
        "-1 71 0 -1",
        "143 71 0 -1",
        "71 143 0 -1",
        "99999999999999999999 71 0 -1",
    ] {
        let mut referee = scripted(3, 3, "EVEE");
        let step = play(&mut referee, line);
        assert_eq!(
            step.verdict.kind,
            VerdictKind::Fault(FaultKind::InvalidAction),
            "{line}"
        );
        assert!(referee.state().is_eliminated(0));
        assert_eq!(
            referee.next_request().map(|r| r.player),
            Some(1),
            "{line}: the game goes on"
        );
    }
}

#[test]
fn r3_8_odd_answers_never_break_the_referee() {
    let mut referee = scripted(3, 2, "EVEE");
    let request = referee.next_request().unwrap();
    let verdict = referee.answer(1, &["70 71 2 -1".to_string()]);
    assert!(verdict.is_fault(), "not player 1's turn");
    assert_eq!(referee.next_request().unwrap(), request, "nothing changed");
    let verdict = referee.answer(0, &[]);
    assert_eq!(verdict.kind, VerdictKind::Fault(FaultKind::Malformed));
    assert!(referee.next_request().is_none());
    let mut referee = scripted(3, 2, "EVEE");
    let step = play(&mut referee, "70 71 2 -1 extra tokens");
    assert_eq!(step.verdict.kind, VerdictKind::Warning);
    assert_eq!(referee.state().board().placed().len(), 2);
}

#[test]
fn frame_has_the_documented_fields() {
    let mut referee = scripted(3, 2, "EVEE");
    let frame = referee.frame();
    assert_eq!(frame["turn"], 0);
    assert_eq!(frame["tile_to_place"]["name"], "E_castle1");
    assert_eq!(frame["tile_to_place"]["edges"], "ceee");
    assert!(frame["last"].is_null());
    play(&mut referee, "70 71 2 20");
    play(&mut referee, "71 72 0 3+");
    let frame = referee.frame();
    assert_eq!(frame["turn"], 2);
    assert_eq!(frame["tiles"].as_array().unwrap().len(), 3);
    assert_eq!(
        frame["tiles"][1],
        serde_json::json!({"row": 70, "col": 71, "name": "E_castle1", "edges": "eece", "angle": 2,
            "center": 0, "shield": 0, "links": "0e,1e,3e"})
    );
    assert_eq!(
        frame["men"],
        serde_json::json!([{"player": 1, "row": 71, "col": 72, "edge": "3+"}])
    );
    assert_eq!(frame["men_left"], serde_json::json!([6, 5]));
    assert_eq!(
        frame["last"],
        serde_json::json!({"player": 1, "row": 71, "col": 72, "angle": 0, "man": "3+"})
    );
    assert_eq!(frame["scores"], serde_json::json!([4, 0]));
    assert_eq!(frame["eliminated"], serde_json::json!([false, false]));
}

/// Plays a whole match between built-in bots through the text interface.
fn bot_match(spec: &MatchSpec, names: &[&str]) -> (Outcome, Vec<String>) {
    let mut referee = new_referee(spec).unwrap();
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| new_bot(n, spec.seed * 10 + i as u64, None).unwrap())
        .collect();
    let mut transcript = Vec::new();
    drive_referee(referee.as_mut(), spec.n_players, 200, |player, lines| {
        let answer = bots[player]
            .play_turn(&mut LinesInput::new(lines))
            .expect("bot answers");
        transcript.extend(lines.iter().cloned());
        transcript.extend(answer.iter().cloned());
        answer
    });
    (referee.outcome(), transcript)
}

#[test]
fn bots_play_every_league_and_player_count() {
    for league in INFO.leagues {
        for n in 2..=4 {
            let spec = MatchSpec::new("carcassonne", n, 3 + n as u64).with_league(*league);
            let names: Vec<&str> = (0..n)
                .map(|i| if i % 2 == 0 { "greedy" } else { "random" })
                .collect();
            let (outcome, _) = bot_match(&spec, &names);
            assert_eq!(
                outcome.end,
                EndReason::Finished,
                "league {league}, {n} players"
            );
            assert!(outcome.faults.iter().all(Option::is_none));
        }
    }
}

#[test]
fn same_spec_and_answers_give_the_same_match() {
    let spec = MatchSpec::new("carcassonne", 3, 77);
    let (a, text_a) = bot_match(&spec, &["random", "random", "greedy"]);
    let (b, text_b) = bot_match(&spec, &["random", "random", "greedy"]);
    assert_eq!(a, b);
    assert_eq!(text_a, text_b);
}

/// Greedy's wins against random over `n_games` two-player games, seats alternating.
fn greedy_wins(league: u32, n_games: u64) -> u64 {
    let mut wins = 0;
    for seed in 0..n_games {
        let spec = MatchSpec::new("carcassonne", 2, seed).with_league(league);
        let seats = if seed % 2 == 0 {
            ["greedy", "random"]
        } else {
            ["random", "greedy"]
        };
        let (outcome, _) = bot_match(&spec, &seats);
        let greedy = (seed % 2) as usize;
        wins += u64::from(outcome.ranks[greedy] == 1 && outcome.ranks[1 - greedy] == 2);
    }
    wins
}

#[test]
fn greedy_beats_random() {
    let wins = greedy_wins(3, 6);
    assert!(wins >= 5, "greedy won {wins} of 6");
}

/// `REALM_SLOW_TESTS=1`: a larger sample in every league.
#[test]
fn greedy_beats_random_in_every_league_slow() {
    if std::env::var_os("REALM_SLOW_TESTS").is_none() {
        return;
    }
    for league in 1..=3 {
        let wins = greedy_wins(league, 40);
        eprintln!("league {league}: greedy won {wins} of 40 against random");
        assert!(wins >= 34, "league {league}: greedy won {wins} of 40");
    }
}

#[test]
fn setup_errors_are_clear() {
    assert!(new_referee(&MatchSpec::new("carcassonne", 5, 0)).is_err());
    assert!(new_referee(&MatchSpec::new("carcassonne", 2, 0).with_league(4)).is_err());
    assert!(new_referee(&MatchSpec::new("carcassonne", 2, 0).with_option("x", "1")).is_err());
    assert!(new_bot("alphazero", 0, None).is_err());
    assert!(new_bot("greedy:iters=5", 0, None).is_err());
}
