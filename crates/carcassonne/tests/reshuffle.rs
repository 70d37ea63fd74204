//! `reshuffle_hidden` at every position of whole games, in every league and player count: it
//! never panics (the bag may be empty), keeps every public fact, and redraws the bag's order
//! from the same tiles.

use realm_carcassonne::State;
use realm_core::{chacha_rng, State as _};

const SEEDS: u64 = 2;

/// Everything `reshuffle_hidden` must keep: the board, the tile in hand, whose turn, scores.
fn public_facts(state: &State) -> impl PartialEq + std::fmt::Debug {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let board = state.board();
    let men: Vec<u8> = (0..state.n_players()).map(|p| board.men_left(p)).collect();
    (
        (state.to_move(), state.current_tile(), state.pending_slot()),
        (board.placed().to_vec(), board.scores().to_vec(), men),
        (legal, state.discarded().to_vec()),
    )
}

fn sorted(tiles: &[u8]) -> Vec<u8> {
    let mut tiles = tiles.to_vec();
    tiles.sort_unstable();
    tiles
}

/// Reshuffles a copy of `state` and checks it; returns whether the bag's order changed.
fn check_reshuffle(state: &State, seed: u64) -> bool {
    let mut twin = state.clone();
    twin.reshuffle_hidden(seed);
    assert_eq!(public_facts(&twin), public_facts(state), "seed {seed}");
    assert_eq!(sorted(twin.bag_left()), sorted(state.bag_left()));
    // The reshuffled game plays on to its end.
    realm_core::random_playout(&mut twin, &mut chacha_rng(seed, 9), &mut Vec::new());
    assert!(twin.to_move().is_none());
    twin.bag_left() != state.bag_left()
}

#[test]
fn reshuffle_hidden_holds_at_every_position_of_whole_games() {
    for league in 1..=3 {
        for players in 2..=4 {
            for seed in 0..SEEDS {
                let mut state = State::new(league, players, seed);
                let mut rng = chacha_rng(seed, 1);
                let mut buf = Vec::new();
                let mut moved = 0;
                for step in 0.. {
                    moved += usize::from(check_reshuffle(&state, seed * 1000 + step));
                    match state.random_action(&mut rng, &mut buf) {
                        Some(action) => state.apply(&action),
                        None => break,
                    }
                }
                assert!(state.bag_left().is_empty());
                assert!(moved > 0, "league {league}, {players}p, seed {seed}");
            }
        }
    }
}
