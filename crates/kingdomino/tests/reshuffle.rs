//! `reshuffle_hidden` at every position of whole games, in every mode, player count and
//! league: it never panics (the last turn has no hidden line left), keeps every public fact
//! and the dealt lines, and redraws the undealt lines from the same tiles.

use realm_core::{chacha_rng, State};
use realm_kingdomino::bits::Bits;
use realm_kingdomino::setup::{Config, Mode};
use realm_kingdomino::{Action, Game, GameState};

/// (mode, players, league): every mode and player count, in the top league and league 1.
const CONFIGS: [(Mode, usize, u32); 8] = [
    (Mode::Standard, 2, 3),
    (Mode::Standard, 3, 3),
    (Mode::Standard, 4, 3),
    (Mode::Duel, 2, 3),
    (Mode::Standard, 2, 1),
    (Mode::Standard, 3, 1),
    (Mode::Standard, 4, 1),
    (Mode::Duel, 2, 1),
];

const SEEDS: u64 = 4;

/// Everything `reshuffle_hidden` must keep: what players see, and the lines dealt so far.
fn public_facts<B: Bits>(game: &Game<B>) -> impl PartialEq + std::fmt::Debug {
    let mut legal: Vec<Action> = Vec::new();
    game.legal_actions(&mut legal);
    let dealt = game.lines()[..(game.turn() as usize).min(game.lines().len())].to_vec();
    let kingdoms: Vec<_> = (0..game.n_players()).map(|p| *game.kingdom(p)).collect();
    (
        (
            game.turn(),
            game.slot_index(),
            game.to_move(),
            game.is_over(),
        ),
        (game.current().to_vec(), game.next().to_vec()),
        (kingdoms, legal, dealt),
    )
}

/// The IDs of the lines not dealt yet, sorted.
fn hidden_ids<B: Bits>(game: &Game<B>) -> Vec<u8> {
    let len = game.config().line_len();
    let start = (game.turn() as usize).min(game.lines().len());
    let mut ids: Vec<u8> = game.lines()[start..]
        .iter()
        .flat_map(|l| l[..len].iter().copied())
        .collect();
    ids.sort_unstable();
    ids
}

/// Reshuffles a copy of `game` and checks it; returns whether the hidden lines moved.
fn check_reshuffle<B: Bits>(game: &Game<B>, seed: u64) -> bool {
    let mut twin = game.clone();
    twin.reshuffle_hidden(seed);
    assert_eq!(public_facts(&twin), public_facts(game), "seed {seed}");
    assert_eq!(hidden_ids(&twin), hidden_ids(game), "seed {seed}");
    // The reshuffled game plays on to its end.
    realm_core::random_playout(&mut twin, &mut chacha_rng(seed, 9), &mut Vec::new());
    assert!(twin.is_over());
    twin.lines() != game.lines()
}

/// Plays a random game, reshuffling a copy at every position (start and end included).
fn reshuffle_through_a_game<B: Bits>(game: &mut Game<B>, seed: u64) -> usize {
    let mut rng = chacha_rng(seed, 1);
    let mut buf = Vec::new();
    let mut moved = 0;
    for step in 0.. {
        moved += usize::from(check_reshuffle(game, seed * 1000 + step));
        match State::random_action(game, &mut rng, &mut buf) {
            Some(action) => game.apply(&action),
            None => break,
        }
    }
    assert!(game.is_over());
    // The last turn deals nothing: reshuffling then is a no-op.
    let mut twin = game.clone();
    twin.reshuffle_hidden(seed);
    assert_eq!(twin.lines(), game.lines());
    moved
}

#[test]
fn reshuffle_hidden_holds_at_every_position_of_whole_games() {
    for (mode, players, league) in CONFIGS {
        let config = Config::new(mode, players).with_league(league);
        for seed in 0..SEEDS {
            let moved = match GameState::new(config, seed) {
                GameState::Standard(mut g) => reshuffle_through_a_game(&mut g, seed),
                GameState::Duel(mut g) => reshuffle_through_a_game(&mut g, seed),
            };
            // Early on there are several hidden lines, so some reshuffle changes them.
            assert!(moved > 0, "{mode:?} {players}p league {league} seed {seed}");
        }
    }
}

#[test]
fn reshuffle_hidden_in_the_last_turn_does_not_panic() {
    for (mode, players, _) in CONFIGS {
        let config = Config::new(mode, players);
        let mut state = GameState::new(config, 7);
        let mut rng = chacha_rng(7, 2);
        let mut buf = Vec::new();
        // Play up to the last turn's first decision, then reshuffle there.
        while let Some(action) = state.random_action(&mut rng, &mut buf) {
            let last_turn = match &state {
                GameState::Standard(g) => g.turn() == config.n_turns(),
                GameState::Duel(g) => g.turn() == config.n_turns(),
            };
            if last_turn {
                break;
            }
            state.apply(&action);
        }
        state.reshuffle_hidden(3);
        assert!(state.to_move().is_some());
    }
}
