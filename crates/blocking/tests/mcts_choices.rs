//! The search with the bot's own parameters and knowledge finds the one winning move of small
//! endgames, and a tree reused after the opponent's move chooses like a fresh search.
//!
//! The endgames come from seeded games of largest-shape random play (the first moves found
//! where exactly one placement wins and it is not of the largest size, so the size prior alone
//! would miss it); an exact solver checks each position before the search is asked.

use rand_core::RngCore;
use realm_blocking::bots::{default_params, BlokusKnowledge};
use realm_blocking::{Config, Placement, Position, Variant};
use realm_core::{chacha_rng, State};
use realm_search::{Budget, Mcts};

/// The position after `plies` placements of largest-shape random play from `seed`'s start,
/// and the placements made.
fn endgame(variant: Variant, seed: u64, plies: usize) -> (Position, Vec<Placement>) {
    let mut pos = Position::new(&Config::new(variant, 2, seed));
    let mut rng = chacha_rng(seed, 5);
    let mut buf = Vec::new();
    let mut history = Vec::new();
    for _ in 0..plies {
        pos.legal_actions(&mut buf);
        let largest = buf
            .iter()
            .map(|m| m.shape().n)
            .max()
            .expect("game still running");
        buf.retain(|m| m.shape().n == largest);
        let mv = buf[(rng.next_u64() % buf.len() as u64) as usize];
        history.push(mv);
        pos.play(mv);
    }
    (pos, history)
}

/// Exact final margin (player 0's score minus player 1's) under best play by both.
fn solve(pos: &Position) -> i64 {
    let Some(p) = pos.current() else {
        return pos.score(0) - pos.score(1);
    };
    let mut moves = Vec::new();
    pos.legal_actions(&mut moves);
    let values = moves.into_iter().map(|mv| {
        let mut next = pos.clone();
        next.play(mv);
        solve(&next)
    });
    if p == 0 {
        values.max().expect("a player to move has a move")
    } else {
        values.min().expect("a player to move has a move")
    }
}

/// The only placement after which the player to move wins with best play (checked: it wins,
/// every other placement draws or loses, and a larger shape could be placed instead).
fn only_winning_move(pos: &Position) -> Placement {
    let p = pos.current().expect("game running");
    let mut moves = Vec::new();
    pos.legal_actions(&mut moves);
    let sign = if p == 0 { 1 } else { -1 };
    let winners: Vec<Placement> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            sign * solve(&next) > 0
        })
        .collect();
    assert_eq!(winners.len(), 1, "{winners:?} of {} moves", moves.len());
    let largest = moves.iter().map(|m| m.shape().n).max().unwrap();
    assert!(
        winners[0].shape().n < largest,
        "the size prior alone finds it"
    );
    winners[0]
}

fn search_choice(pos: &Position, iterations: u64) -> Placement {
    let mut search = Mcts::new(default_params(), BlokusKnowledge::default(), 7);
    search
        .search(pos, Budget::iterations(iterations))
        .unwrap()
        .best
}

/// Each solved endgame (seed, plies played) has exactly one winning move, and the search finds it.
fn finds_the_only_winning_moves(variant: Variant, endgames: &[(u64, usize)]) {
    for &(seed, plies) in endgames {
        let (pos, _) = endgame(variant, seed, plies);
        let winner = only_winning_move(&pos);
        assert_eq!(
            search_choice(&pos, 2_000),
            winner,
            "seed {seed} after {plies}"
        );
    }
}

#[test]
fn the_search_finds_the_only_winning_move_of_duo_endgames() {
    finds_the_only_winning_moves(Variant::Duo, &[(355, 30), (232, 25), (331, 25)]);
}

#[test]
fn the_search_finds_the_only_winning_move_of_blocking_endgames() {
    finds_the_only_winning_moves(Variant::Blocking, &[(176, 23), (36, 25)]);
}

/// Searching the position before the opponent's last move, then advancing the tree by that
/// move, gives the same (winning) choice as a fresh search of the same budget and seed.
#[test]
fn a_reused_tree_chooses_like_a_fresh_search() {
    let (seed, plies) = (232, 25);
    let (before, _) = endgame(Variant::Duo, seed, plies - 1);
    let (pos, history) = endgame(Variant::Duo, seed, plies);
    assert_ne!(
        before.current(),
        pos.current(),
        "the last ply is the opponent's"
    );
    let winner = only_winning_move(&pos);
    let budget = Budget::iterations(2_000);

    let mut reused = Mcts::new(default_params(), BlokusKnowledge::default(), 7);
    reused.search(&before, budget).unwrap();
    assert!(reused.advance(&history[plies - 1..]), "the subtree is kept");
    assert!(reused.root_visits() > 0);
    let from_reused = reused.search(&pos, budget).unwrap().best;

    assert_eq!(from_reused, winner);
    assert_eq!(search_choice(&pos, 2_000), winner);
}
