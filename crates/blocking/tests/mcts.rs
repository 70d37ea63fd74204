//! `builtin:mcts`: only ever legal answers, in every variant and player count, deterministic
//! with an iteration budget, and clear errors for bad options.

use proptest::prelude::*;
use realm_blocking::{new_bot, new_referee};
use realm_core::{LinesInput, MatchSpec};

/// Plays one game with `names` in seat order; returns every answer given.
fn play(spec: &MatchSpec, names: &[&str], seed: u64) -> Vec<String> {
    let mut referee = new_referee(spec).unwrap();
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| new_bot(n, seed * 10 + i as u64, None).unwrap())
        .collect();
    let mut answers = Vec::new();
    while let Some(req) = referee.next_request() {
        let out = bots[req.player]
            .play_turn(&mut LinesInput::new(&req.lines))
            .unwrap();
        let verdict = referee.answer(req.player, &out);
        assert!(!verdict.is_fault(), "seat {}: {verdict:?}", req.player);
        answers.extend(out);
    }
    answers
}

fn spec(variant: usize, players: usize, seed: u64) -> MatchSpec {
    match variant {
        0 => MatchSpec::new("blocking", 2, seed).with_variant("duo"),
        1 => MatchSpec::new("blocking", 4, seed).with_variant("classic"),
        _ => MatchSpec::new("blocking", players, seed),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Whatever the variant, seat and opponents, every answer is a legal move.
    #[test]
    fn mcts_only_answers_legal_moves(
        variant in 0usize..3,
        players in 2usize..=4,
        seat in 0usize..4,
        seed in 0u64..1_000,
    ) {
        let spec = spec(variant, players, seed);
        let n = spec.n_players;
        let names: Vec<&str> = (0..n)
            .map(|i| if i == seat % n { "mcts:iters=50" } else { "random" })
            .collect();
        play(&spec, &names, seed);
    }
}

/// The bot rebuilds the exact position every call (it never has to fall back to greedy), in
/// every variant, even when an opponent is eliminated for a fault mid-game.
#[test]
fn the_rebuilt_position_agrees_with_every_call() {
    use realm_blocking::bots::MctsBot;
    use realm_core::Bot;
    use realm_search::SearchOptions;
    for (variant, players) in [(0, 2), (1, 4), (2, 2), (2, 3), (2, 4)] {
        let spec = spec(variant, players, 11);
        let mut referee = new_referee(&spec).unwrap();
        let options = SearchOptions::parse("iters=16").unwrap();
        let mut mcts = MctsBot::new(1, options);
        let mut others: Vec<_> = (0..players)
            .map(|i| new_bot("random", i as u64, None).unwrap())
            .collect();
        let mut calls = 0;
        while let Some(req) = referee.next_request() {
            let out = if req.player == 0 {
                let out = mcts.play_turn(&mut LinesInput::new(&req.lines)).unwrap();
                assert!(mcts.is_tracking(), "variant {variant}, call {calls}");
                calls += 1;
                out
            } else if players > 2 && req.player == players - 1 && calls == 3 {
                vec!["garbage".to_string()] // eliminates this player
            } else {
                others[req.player]
                    .play_turn(&mut LinesInput::new(&req.lines))
                    .unwrap()
            };
            referee.answer(req.player, &out);
        }
        assert!(calls > 5, "variant {variant}: {calls} calls");
    }
}

/// Every search option plays whole games, to the end where the tree's paths reach it (RAVE
/// once panicked there, with no playout action to mark).
#[test]
fn the_search_options_play_whole_games() {
    for options in [
        "mcts:iters=300,rave=100",
        "mcts:iters=300,ravew=0",
        "mcts:iters=300,puct=0.05",
        "mcts:iters=300,algo=flat",
        "mcts:iters=300,pw=100,deeper=0,expand=1",
        "mcts:ms=2,spread=1",
    ] {
        for variant in [0, 1] {
            let spec = spec(variant, 4, 11);
            let names: Vec<&str> = (0..spec.n_players)
                .map(|i| if i == 0 { options } else { "greedy" })
                .collect();
            let answers = play(&spec, &names, 11);
            assert!(answers.len() > 20, "{options}: {}", answers.len());
        }
    }
}

#[test]
fn an_iteration_budget_makes_the_bot_deterministic() {
    let spec = spec(0, 2, 5);
    let names = ["mcts:iters=40", "greedy"];
    assert_eq!(play(&spec, &names, 3), play(&spec, &names, 3));
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let err = new_bot("mcts:speed=3", 0, None).err().unwrap().to_string();
    assert_eq!(
        err,
        "built-in bot `mcts:speed=3` of blocking: unknown option `speed`; options: ms, first, iters, \
         c, depth, det, algo (uct|flat), pw, pwe, prior, expand, deeper, rave, ravew, puct, book, spread"
    );
    assert!(new_bot("greedy:iters=3", 0, None).is_err());
}

/// In Blokus Duo the bot opens from its book: two bots that search a single iteration a move
/// play the book's main line, answer for answer, for the book's whole depth.
#[test]
fn duo_bots_open_from_the_book() {
    use realm_blocking::bots::book::{book_move, BOOK_PLIES};
    use realm_blocking::protocol::representative;
    use realm_blocking::{Config, Position, Variant};
    let answers = play(&spec(0, 2, 5), &["mcts:iters=1", "mcts:iters=1"], 5);
    let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
    for (ply, answer) in answers.iter().take(BOOK_PLIES).enumerate() {
        let mv = book_move(&pos).expect("the main line is in the book");
        let player = pos.current().unwrap();
        assert_eq!(
            *answer,
            representative(&pos, player, mv).to_string(),
            "ply {ply}"
        );
        pos.play(mv);
    }
}
