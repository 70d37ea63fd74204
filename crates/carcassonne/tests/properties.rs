//! Property tests and the shared conformance suite: random legal play never panics and uses or
//! discards every tile; arbitrary answers never panic the referee.

use proptest::prelude::*;
use rand_core::RngCore;
use realm_carcassonne::setup::unshuffled_bag;
use realm_carcassonne::{new_bot, new_referee, State};
use realm_core::{chacha_rng, LinesInput, MatchSpec, State as _};
use realm_testkit::{check_conformance, check_outcome};

#[test]
fn conformance_suite() {
    check_conformance(
        |seed| State::new(1 + (seed % 3) as u32, 2 + (seed % 3) as usize, seed),
        24,
        400,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_legal_play_uses_or_discards_every_tile(seed in any::<u64>(), league in 1u32..=3, n in 2usize..=4) {
        let mut state = State::new(league, n, seed);
        let mut rng = chacha_rng(seed, 1);
        let mut legal = Vec::new();
        let mut n_actions = 0;
        while state.to_move().is_some() {
            state.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            let action = legal[(rng.next_u64() % legal.len() as u64) as usize];
            prop_assert!(state.is_legal(&action));
            state.apply(&action);
            n_actions += 1;
            prop_assert!(n_actions <= 2 * 72);
        }
        let board = state.board();
        prop_assert_eq!(board.placed().len() - 1 + state.discarded().len(), unshuffled_bag(league).len());
        prop_assert!(state.bag_left().is_empty());
        for p in 0..n {
            prop_assert!(board.men_left(p) <= 6);
        }
        check_outcome(&state.outcome(), n);
    }

    #[test]
    fn bots_reject_garbage_without_panicking(lines in prop::collection::vec(".{0,40}", 0..8)) {
        for name in ["random", "greedy"] {
            let mut bot = new_bot(name, 1, None).unwrap();
            let _ = bot.play_turn(&mut LinesInput::new(&lines));
        }
    }

    #[test]
    fn arbitrary_answers_never_panic_the_referee(
        seed in any::<u64>(),
        answers in prop::collection::vec(
            prop_oneof![
                "[ \t]*-?[0-9]{1,3}[ \t]+-?[0-9]{1,3}[ \t]+-?[0-9][ \t]+(-1|[0-4][0+-]|[a-z]{0,2})[ \t]*",
                "(6[89]|7[0-4]) (6[89]|7[0-4]) [0-3] (-1|[0-4][0+-])",
                ".{0,30}",
            ],
            1..40,
        ),
        n in 2usize..=4,
    ) {
        let spec = MatchSpec::new("carcassonne", n, seed);
        let mut referee = new_referee(&spec).unwrap();
        let mut answers = answers.into_iter();
        while let Some(request) = referee.next_request() {
            let Some(line) = answers.next() else { break };
            let _ = referee.answer(request.player, &[line]);
            let frame = referee.frame();
            prop_assert_eq!(frame["scores"].as_array().map(|s| s.len()), Some(n));
        }
        check_outcome(&referee.outcome(), n);
    }
}
