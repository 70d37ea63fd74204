//! The `Referee` and `State` contracts: conformance suites, setup validation, frames,
//! determinism, built-in bot strength, and a fuzz test that no answer can panic the referee.

mod common;

use common::*;
use proptest::prelude::*;
use realm_core::{Bot, FaultKind, LinesInput, MatchSpec, Referee, SetupError, State};
use realm_kingdomino::bits::Wide;
use realm_kingdomino::setup::{Config, Mode};
use realm_kingdomino::{new_bot, new_referee, GameState, INFO};
use realm_testkit::{check_conformance, drive_referee};

fn all_configs() -> Vec<Config> {
    let mut configs = vec![
        Config::new(Mode::Standard, 2),
        Config::new(Mode::Standard, 3),
        Config::new(Mode::Standard, 4),
        Config::new(Mode::Duel, 2),
    ];
    for league in [1, 2] {
        configs.push(Config::new(Mode::Standard, 2).with_league(league));
        configs.push(Config::new(Mode::Duel, 2).with_league(league));
    }
    configs
}

#[test]
fn state_conformance_in_every_mode_and_league() {
    for config in all_configs() {
        // Leagues 1 and 2 list up to ~2,400 actions per slot and the suite checks them for
        // duplicates pairwise, so they get fewer games.
        let n_games = if config.league == 3 { 8 } else { 2 };
        check_conformance(|seed| GameState::new(config, seed), n_games, 60);
    }
}

#[test]
fn state_action_counts_match_the_rules() {
    // Turn 1 of a 2-player game offers the 4 picks; the first placement of tile 5 (symmetric)
    // lists 12 distinct placements × 4 picks.
    let mut state = GameState::new(Config::new(Mode::Standard, 2), 1);
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    assert_eq!(actions.len(), 4);
    for id in [40, 36, 5, 10] {
        let action = realm_kingdomino::Action::new(None, Some(id));
        assert!(state.is_legal(&action));
        state.apply(&action);
    }
    state.legal_actions(&mut actions);
    assert_eq!(actions.len(), 12 * 4);
    assert_eq!(state.to_move(), Some(0));
}

fn spec(players: usize) -> MatchSpec {
    MatchSpec::new("kingdomino", players, 5)
}

#[test]
fn referee_conformance_with_builtin_bots() {
    let specs = [
        spec(2),
        spec(3),
        spec(4),
        spec(2).with_variant("duel"),
        spec(2).with_league(1),
        spec(4).with_league(2).with_option("harmony", "on"),
        spec(3)
            .with_option("middle_kingdom", "on")
            .with_option("invalid_put", "discard"),
    ];
    for spec in specs {
        for names in [["greedy", "random"], ["random", "reference"]] {
            let mut referee = new_referee(&spec).expect("valid spec");
            let mut bots: Vec<Box<dyn Bot>> = (0..spec.n_players)
                .map(|i| new_bot(names[i % 2], i as u64, None).expect("bot"))
                .collect();
            let calls = drive_referee(referee.as_mut(), spec.n_players, 200, |p, lines| {
                bots[p]
                    .play_turn(&mut LinesInput::new(lines))
                    .expect("answer")
            });
            let outcome = referee.outcome();
            assert!(
                outcome.faults.iter().all(Option::is_none),
                "{spec:?}: {outcome:?}"
            );
            let expected = match (spec.variant.is_some(), spec.n_players) {
                (true, _) => 52,
                (false, 2) => 28,
                (false, 3) => 39,
                _ => 52,
            };
            assert_eq!(calls, expected, "{spec:?}");
        }
    }
}

#[test]
fn setup_validation() {
    assert!(new_referee(&spec(2).with_variant("standard")).is_ok());
    assert!(
        new_referee(&spec(2).with_league(9)).is_ok(),
        "leagues above 3 mean 3"
    );
    assert!(matches!(
        new_referee(&spec(2).with_league(0)),
        Err(SetupError::UnknownLeague { .. })
    ));
    assert!(matches!(
        new_referee(&spec(3).with_variant("duel")),
        Err(SetupError::PlayerCount { .. })
    ));
    assert!(matches!(
        new_referee(&spec(5)),
        Err(SetupError::PlayerCount { .. })
    ));
    assert!(matches!(
        new_referee(&spec(2).with_variant("trio")),
        Err(SetupError::UnknownVariant { .. })
    ));
    assert!(matches!(
        new_referee(&spec(2).with_option("harmony", "yes")),
        Err(SetupError::BadOption { .. })
    ));
    assert!(matches!(
        new_referee(&spec(2).with_option("invalid_put", "skip")),
        Err(SetupError::BadOption { .. })
    ));
    assert!(matches!(
        new_referee(&spec(2).with_option("castle", "on")),
        Err(SetupError::UnknownOption { .. })
    ));
    assert!(matches!(
        new_bot("alphazero", 0, None),
        Err(SetupError::UnknownBot { .. })
    ));
    for name in INFO.bots {
        assert!(new_bot(name, 0, None).is_ok());
    }
    let league9 = realm_kingdomino::config_from_spec(&spec(2).with_league(9)).expect("ok");
    assert_eq!(league9.league, 3);
}

#[test]
fn league_9_plays_exactly_like_league_3() {
    let play = |spec: &MatchSpec| {
        let mut referee = new_referee(spec).expect("spec");
        let mut bots: Vec<Box<dyn Bot>> = (0..2)
            .map(|i| new_bot("random", i, None).expect("bot"))
            .collect();
        let mut log = Vec::new();
        while let Some(request) = referee.next_request() {
            let answer = bots[request.player]
                .play_turn(&mut LinesInput::new(&request.lines))
                .expect("answer");
            log.push(format!("{:?}", referee.answer(request.player, &answer)));
            log.extend(request.lines);
        }
        (log, referee.outcome())
    };
    assert_eq!(play(&spec(2).with_league(9)), play(&spec(2).with_league(3)));
}

#[test]
fn frames_follow_the_documented_schema() {
    let mut referee = new_referee(&MatchSpec::new("kingdomino", 2, 1)).expect("spec");
    let initial = referee.frame();
    assert_eq!(initial["turn"], 1);
    assert_eq!(initial["size"], 9);
    assert_eq!(initial["slot_player"], serde_json::Value::Null);
    assert_eq!(initial["kingdoms"][1][4], "_0_0_0_0*0_0_0_0_0");
    assert_eq!(initial["current"][1]["owner"], 1);
    assert_eq!(initial["current"][1]["id"], 0);
    let request = referee.next_request().expect("call");
    referee.answer(request.player, &["PUT 0 0 0".into(), "PICK 40".into()]);
    let frame = referee.frame();
    assert_eq!(frame["slot_player"], 0);
    let next = frame["next"].as_array().expect("next");
    let picked = next.iter().find(|t| t["id"] == 40).expect("40 in line 1");
    assert_eq!(picked["owner"], 0);
    assert_eq!(
        (picked["a"].as_str(), picked["b"].as_str()),
        (Some("m1"), Some("c0"))
    );
    // The frame's scores leave out R25's tie-break points (they rank a finished game only):
    // two empty kingdoms score 0, not 2 each.
    assert_eq!(frame["scores"], serde_json::json!([0, 0]));
    assert_eq!(frame["eliminated"], serde_json::json!([false, false]));
    let request = referee.next_request().expect("call");
    referee.answer(request.player, &["PUT 0 0 0".into(), "PICK 40".into()]);
    let frame = referee.frame();
    assert_eq!(frame["eliminated"], serde_json::json!([false, true]));
    assert_eq!(frame["slot_player"], 1);
    let duel = new_referee(&spec(2).with_variant("duel"))
        .expect("duel")
        .frame();
    assert_eq!(duel["size"], 13);
    assert_eq!(duel["kingdoms"][0].as_array().map(Vec::len), Some(13));
}

#[test]
fn duel_sends_no_initial_input() {
    let mut referee = new_referee(&spec(2).with_variant("duel")).expect("duel");
    let request = referee.next_request().expect("call");
    assert_eq!(request.lines.len(), 2 * 13 + 8);
    assert_eq!(
        request.lines[6],
        format!("{}*0{}", "_0".repeat(6), "_0".repeat(6))
    );
    assert_eq!(request.time_limit.as_millis(), 1000);
}

#[test]
fn same_seed_same_game() {
    let record = |seed: u64| {
        let run = play::<u128>(
            Config::new(Mode::Standard, 4),
            seed,
            &["greedy", "random", "random", "greedy"],
            |_, _, _| None,
        );
        let frames = run.referee.frame();
        (run.requests, run.answers, run.verdicts, run.outcome, frames)
    };
    assert_eq!(record(11), record(11));
    assert_ne!(record(11).0, record(12).0);
}

#[test]
fn greedy_beats_random() {
    let mut greedy_wins = 0;
    let mut games = 0;
    for (config, seeds) in [
        (Config::new(Mode::Standard, 2), 0..30u64),
        (Config::new(Mode::Duel, 2), 0..6),
    ] {
        for seed in seeds {
            // Alternate seats so the first-pick advantage cancels out.
            let greedy_seat = (seed % 2) as usize;
            let mut names = ["random", "random"];
            names[greedy_seat] = "greedy";
            let outcome = match config.mode {
                Mode::Standard => play::<u128>(config, seed, &names, |_, _, _| None).outcome,
                Mode::Duel => play::<Wide>(config, seed, &names, |_, _, _| None).outcome,
            };
            assert!(outcome.faults.iter().all(Option::is_none));
            games += 1;
            if outcome.ranks[greedy_seat] == 1 && !outcome.is_draw() {
                greedy_wins += 1;
            }
        }
    }
    assert!(
        greedy_wins >= 34,
        "greedy won only {greedy_wins} of {games}"
    );
}

#[test]
fn runner_faults_eliminate() {
    for kind in [
        FaultKind::Timeout,
        FaultKind::Crashed,
        FaultKind::ClosedOutput,
        FaultKind::ClosedInput,
        FaultKind::OutputFlood,
    ] {
        let run = play::<u128>(std2(), 1, &["reference", "reference"], |seat, call, _| {
            (seat == 0 && call == 4).then_some(Reply::Fault(kind))
        });
        let fault = run.outcome.faults[0].clone().expect("fault kept");
        assert_eq!((fault.kind, fault.turn), (kind, 2));
        assert!(run.referee.game().is_eliminated(0));
        assert_eq!(run.placed(0), 1, "the kingdom is frozen after the fault");
        assert!(run.requests.iter().skip(7).all(|r| r.player == 1));
    }
}

#[test]
fn extra_answer_lines_are_not_read_by_the_referee() {
    // The runner hands exactly two lines; a third would belong to the next call (§3.4).
    let mut referee = new_referee(&MatchSpec::new("kingdomino", 2, 1)).expect("spec");
    let request = referee.next_request().expect("call");
    let verdict = referee.answer(
        request.player,
        &["PUT 0 0 0".into(), "PICK 5".into(), "PICK 10".into()],
    );
    assert!(!verdict.is_fault());
    let frame = referee.frame();
    let owners: Vec<&serde_json::Value> = frame["next"]
        .as_array()
        .expect("next")
        .iter()
        .map(|t| &t["owner"])
        .collect();
    assert_eq!(
        owners,
        [
            &serde_json::json!(0),
            &serde_json::Value::Null,
            &serde_json::Value::Null,
            &serde_json::Value::Null
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_answers_never_panic(
        answers in proptest::collection::vec(
            (any::<String>(), "(PUT|PICK| |-|[0-9]|\t|x|\r){0,12}", 0usize..4),
            1..40,
        ),
        players in 2usize..5,
        duel in any::<bool>(),
    ) {
        let spec = if duel { spec(2).with_variant("duel") } else { spec(players) };
        let mut referee = new_referee(&spec).expect("spec");
        let mut answers = answers.into_iter();
        while let Some(request) = referee.next_request() {
            let lines = match answers.next() {
                Some((a, b, n)) => [a, b.clone(), b].into_iter().take(n).collect::<Vec<_>>(),
                None => vec!["PUT 0 0 0".to_string(), "PICK 0".to_string()],
            };
            let _ = referee.answer(request.player, &lines);
            let _ = referee.frame();
        }
        let outcome = referee.outcome();
        prop_assert_eq!(outcome.ranks.len(), spec.n_players);
    }

    #[test]
    fn bots_survive_arbitrary_input(
        header in proptest::collection::vec("[0-9]{0,3}|[_*cfglwm0-9 -]{0,30}", 0..4),
        body in proptest::collection::vec("[_*cfglwm0-3 -]{0,30}|.{0,20}", 0..60),
        name in proptest::sample::select(vec!["random", "greedy", "reference"]),
    ) {
        let lines: Vec<String> = header.into_iter().chain(body).collect();
        let mut bot = new_bot(name, 3, None).expect("bot");
        // Any answer or error is fine; a panic is not.
        let _ = bot.play_turn(&mut LinesInput::new(&lines));
    }

    #[test]
    fn bots_survive_a_corrupted_real_call(
        call in 0usize..28,
        line in 0usize..30,
        replacement in "[_*cfglwmx0-9 -]{0,20}",
        name in proptest::sample::select(vec!["random", "greedy", "reference"]),
    ) {
        let run = play::<u128>(std2(), 1, &["reference", "reference"], |_, _, _| None);
        let seat = run.requests[call].player;
        let mut bot = new_bot(name, 3, None).expect("bot");
        for request in run.requests[..=call].iter().filter(|r| r.player == seat) {
            let mut lines = request.lines.clone();
            if std::ptr::eq(request, &run.requests[call]) {
                let at = line % lines.len();
                lines[at] = replacement.clone();
            }
            let _ = bot.play_turn(&mut LinesInput::new(&lines));
        }
    }
}
