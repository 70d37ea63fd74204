//! The shared conformance suite (State and Referee contracts), determinism of the referee, and
//! property tests: random legal play always ends without panicking, and no answer text can
//! make the referee panic. Legality itself is checked against an independent oracle in
//! `oracle.rs`.

mod common;

use common::*;
use proptest::prelude::*;
use realm_blocking::{new_bot, new_referee, Config, Position, Variant, INFO};
use realm_core::{LinesInput, MatchSpec, Referee, State};
use realm_testkit::{check_conformance, drive_referee};

const CONFIGS: [(Variant, usize); 5] = [
    (Variant::Blocking, 2),
    (Variant::Blocking, 3),
    (Variant::Blocking, 4),
    (Variant::Duo, 2),
    (Variant::Classic, 4),
];

#[test]
fn state_conformance_all_configurations() {
    for (variant, np) in CONFIGS {
        check_conformance(|seed| Position::new(&Config::new(variant, np, seed)), 6, 90);
    }
}

fn spec(variant: Variant, np: usize, seed: u64) -> MatchSpec {
    let spec = MatchSpec::new("blocking", np, seed);
    match variant {
        Variant::Blocking => spec,
        Variant::Duo => spec.with_variant("duo"),
        Variant::Classic => spec.with_variant("classic"),
    }
}

/// Plays built-in bots through the text referee; returns every request, frame and outcome.
fn bot_game(
    spec: &MatchSpec,
    names: &[&str],
) -> (Vec<Vec<String>>, Vec<String>, realm_core::Outcome) {
    let mut referee = new_referee(spec).unwrap();
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| new_bot(n, 100 + i as u64, None).unwrap())
        .collect();
    let mut requests = Vec::new();
    let mut frames = vec![referee.frame().to_string()];
    let np = spec.n_players;
    drive_referee(referee.as_mut(), np, 200, |p, lines| {
        requests.push(lines.to_vec());
        let mut input = LinesInput::new(lines);
        let out = bots[p].play_turn(&mut input).expect("bot answers");
        assert_eq!(input.remaining(), 0, "bot read the whole call");
        out
    });
    frames.push(referee.frame().to_string());
    (requests, frames, referee.outcome())
}

#[test]
fn referee_conformance_and_determinism_with_builtin_bots() {
    for (variant, np) in CONFIGS {
        let names: Vec<&str> = (0..np).map(|i| ["greedy", "random"][i % 2]).collect();
        let s = spec(variant, np, 11);
        let (requests, frames, outcome) = bot_game(&s, &names);
        assert!(outcome.faults.iter().all(Option::is_none), "{outcome:?}");
        assert_eq!(outcome.detail, "no_moves_left");
        let again = bot_game(&s, &names);
        assert_eq!((requests, frames, outcome), again, "{variant:?} {np}");
    }
}

#[test]
fn setup_errors_are_reported() {
    let bad = [
        MatchSpec::new("blocking", 5, 0),
        MatchSpec::new("blocking", 3, 0).with_variant("duo"),
        MatchSpec::new("blocking", 2, 0).with_variant("classic"),
        MatchSpec::new("blocking", 2, 0).with_variant("trio"),
        MatchSpec::new("blocking", 2, 0).with_league(2),
        MatchSpec::new("blocking", 2, 0).with_option("x", "1"),
    ];
    for spec in bad {
        assert!(new_referee(&spec).is_err(), "{spec:?}");
    }
    assert!(new_referee(&MatchSpec::new("blocking", 2, 0).with_league(1)).is_ok());
    assert!(new_bot("nope", 0, None).is_err());
    for name in INFO.bots {
        assert!(new_bot(name, 0, None).is_ok());
    }
}

#[test]
fn time_limits_first_call_then_later() {
    let mut r = blocking(2, 1);
    for expected in [1000, 1000, 200, 200] {
        let req = r.next_request().unwrap();
        assert_eq!(req.time_limit.as_millis(), expected);
        let pick = valid_lines(&req)[0].clone();
        r.answer(req.player, &[pick]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// R16: random legal play never panics and always ends, for any seed and configuration.
    #[test]
    fn random_play_ends(seed in any::<u64>(), which in 0usize..5) {
        let (variant, np) = CONFIGS[which];
        let mut pos = Position::new(&Config::new(variant, np, seed));
        let mut rng = realm_core::chacha_rng(seed, 1);
        let mut buf = Vec::new();
        let n = realm_core::random_playout(&mut pos, &mut rng, &mut buf);
        prop_assert!(n <= 84);
        prop_assert!(pos.to_move().is_none());
        let outcome = pos.outcome();
        realm_testkit::check_outcome(&outcome, np);
    }

    /// Any answer text gets a verdict; the referee keeps working afterwards.
    #[test]
    fn arbitrary_answers_never_panic(
        seed in 0u64..1000,
        answers in proptest::collection::vec(
            prop_oneof![
                any::<String>(),
                "[0-9 \\t]{0,6}[A-Z][0-9]{3}[ a-z]{0,3}",
                "(0|12|13|99999999999999999999) (0|1|12|4294967296) [A-Z][0-9][0-9][0-9]",
            ],
            1..8,
        ),
        which in 0usize..5,
    ) {
        let (variant, np) = CONFIGS[which];
        let mut referee: Box<dyn Referee> = new_referee(&spec(variant, np, seed)).unwrap();
        for answer in answers {
            let Some(req) = referee.next_request() else { break };
            let _ = referee.answer(req.player, &[answer]);
            let _ = referee.frame();
        }
        // Wrong player, no lines, extra lines.
        if let Some(req) = referee.next_request() {
            let _ = referee.answer((req.player + 1) % np, &[]);
            let _ = referee.answer(req.player, &[]);
        }
        let outcome = referee.outcome();
        realm_testkit::check_outcome(&outcome, np);
    }
}
