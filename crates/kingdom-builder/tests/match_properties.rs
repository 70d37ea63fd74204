//! Properties of the full game's referee and bots: no sequence of answer lines makes the
//! referee panic, every final board scores through the scorer exactly as the outcome says, and
//! no input text (cut, altered or arbitrary) makes a built-in bot panic.

mod common;

use common::referee;
use proptest::prelude::*;
use realm_core::{Bot, LinesInput, Referee};
use realm_kingdom_builder::game::GameState;
use realm_kingdom_builder::referee::start_state;
use realm_kingdom_builder::{
    new_bot, parse_board, score_table_with_water, KingdomBuilderReferee, ScoreRules,
};

/// An answer: the seat's random bot's (`None`) or a line made of command-like pieces.
fn answer_line() -> impl Strategy<Value = Option<String>> {
    let word = prop_oneof![
        Just("BUILD".to_string()),
        Just("build".to_string()),
        Just("TILE".to_string()),
        Just("MOVE".to_string()),
        Just("FARM".to_string()),
        Just("barn".to_string()),
        Just("PADDOCK".to_string()),
        Just("TOWER".to_string()),
        Just(";".to_string()),
        (-3i64..23).prop_map(|n| n.to_string()),
        "[ -~]{0,6}",
    ];
    let line = prop::collection::vec(word, 0..14).prop_map(|w| w.join(" "));
    prop_oneof![4 => Just(None), 1 => line.prop_map(Some)]
}

/// The final gold of every seat still in the game, scored again from the board's text.
fn rescored(state: &GameState) -> Vec<u32> {
    let board = parse_board(&state.scoring_board().to_text()).unwrap();
    let rules = ScoreRules {
        lords: state.lords_rule(),
        ..ScoreRules::new(realm_core::State::n_players(state))
    };
    score_table_with_water(&board, &state.settlements_on_water(), state.cards(), rules).totals()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_answer_sequence_panics_and_the_final_board_scores_as_the_outcome(
        n in 2usize..=4,
        league in 1u32..=3,
        seed in 0u64..1000,
        answers in prop::collection::vec(answer_line(), 1..40),
    ) {
        let mut referee = KingdomBuilderReferee::new(
            start_state(&common::spec(n, seed, league), league).unwrap(),
        );
        let mut bots: Vec<Box<dyn Bot>> =
            (0..n).map(|p| new_bot("random", seed + p as u64, None).unwrap()).collect();
        let mut next = answers.iter().cycle();
        let mut calls = 0;
        while let Some(request) = referee.next_request() {
            prop_assert!(calls < 500);
            // The bot reads every call of its seat, so it keeps up with its initial input.
            let bot_line = bots[request.player]
                .play_turn(&mut LinesInput::new(&request.lines))
                .map(|mut l| l.remove(0))
                .unwrap_or_default();
            let line = next.next().cloned().flatten().unwrap_or(bot_line);
            referee.answer(request.player, &[line]);
            let _ = referee.frame();
            calls += 1;
        }
        let outcome = referee.outcome();
        realm_testkit::check_outcome(&outcome, n);
        let state = referee.state();
        let gold = rescored(state);
        let expected: Vec<i64> = gold
            .iter()
            .enumerate()
            .map(|(p, &g)| if state.is_eliminated(p) { -1 } else { i64::from(g) })
            .collect();
        prop_assert_eq!(&outcome.scores, &expected);
    }

    #[test]
    fn bots_never_panic_on_altered_input(
        seed in 0u64..500,
        cut in 0usize..80,
        replace in prop::option::of((0usize..80, "[ -~]{0,30}")),
    ) {
        let mut referee = referee(2, seed, 3);
        let request = referee.next_request().unwrap();
        let mut lines = request.lines.clone();
        if let Some((at, text)) = replace {
            let at = at % lines.len();
            lines[at] = text;
        }
        lines.truncate(lines.len().saturating_sub(cut % 3 * cut));
        for name in ["random", "greedy", "mcts:iters=3"] {
            let mut bot = new_bot(name, seed, None).unwrap();
            let _ = bot.play_turn(&mut LinesInput::new(&lines));
            let _ = bot.play_turn(&mut LinesInput::new(&lines));
        }
    }
}
