//! The full game's `State` over random games: realm-testkit's conformance suite for every seat
//! count and league, invariants under random action sequences, the final outcome against the
//! scorer, and `reshuffle_hidden` at every position.

use proptest::prelude::*;
use realm_core::{chacha_rng, ranks_from_keys, State};
use realm_kingdom_builder::game::{Action, GameConfig, GameState, Phase, SETTLEMENTS};
use realm_kingdom_builder::{score_table_with_water, ScoreRules};
use realm_testkit::check_conformance;

fn legal(state: &GameState) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out
}

#[test]
fn conformance_for_every_seat_count_and_league() {
    for n_players in 2..=4 {
        for league in 1..=3 {
            let config = GameConfig::new(n_players, league);
            check_conformance(|seed| GameState::new(&config, seed), 6, 4000);
        }
    }
}

/// The rules' bookkeeping that must hold in every position.
fn check_invariants(state: &GameState) {
    let n = state.n_players();
    let mut union = realm_kingdom_builder::game::Bits::EMPTY;
    for p in 0..n {
        let mine = state.settlements(p);
        assert!((union & mine).is_empty(), "two settlements on one cell");
        union |= mine;
        assert_eq!(
            mine.len() + usize::from(state.supply(p)),
            usize::from(SETTLEMENTS)
        );
        assert!((state.held_tiles(p) - state.taken_tiles(p)).is_empty());
    }
    assert_eq!(union, state.occupied());
    // Tiles are conserved: on the hexes, or taken by someone (held, used up or lost).
    let hexes = state.terrain_cells(realm_kingdom_builder::game::Terrain::Location);
    let on_hexes: usize = hexes.iter().map(|h| usize::from(state.tiles_left(h))).sum();
    let taken: usize = (0..n).map(|p| state.taken_tiles(p).len()).sum();
    let dealt = if state.has_tiles() {
        2 * hexes.len()
    } else {
        0
    };
    assert_eq!(on_hexes + taken, dealt);
    // 25 cards: pile, discards and one per seat.
    assert_eq!(
        state.deck().pile().len() + state.deck().discards().len() + n,
        25
    );
    if state.to_move().is_some() {
        assert!(!legal(state).is_empty());
    }
}

/// Plays a random game to its end, checking invariants and reshuffling hidden cards of a copy
/// at every position; returns the final state and the number of actions.
fn play_random(n_players: usize, league: u32, seed: u64) -> (GameState, usize) {
    let mut state = GameState::new(&GameConfig::new(n_players, league), seed);
    let mut rng = chacha_rng(seed, 0x6b62);
    let mut buf = Vec::new();
    let mut n_actions = 0;
    while let Some(action) = state.random_action(&mut rng, &mut buf) {
        check_invariants(&state);
        check_reshuffle(&state, seed ^ n_actions as u64);
        state.apply(&action);
        n_actions += 1;
        assert!(n_actions < 5000, "seed {seed}: no end");
    }
    check_invariants(&state);
    (state, n_actions)
}

/// G14: reshuffling never changes what the mover sees, keeps the hidden cards' multiset, and
/// leaves a position whose legal actions are the same (they depend only on what is seen).
fn check_reshuffle(state: &GameState, seed: u64) {
    let mover = state.mover();
    let mut copy = state.clone();
    copy.reshuffle_hidden(seed);
    assert_eq!(copy.observation(mover), state.observation(mover));
    assert_eq!(legal(&copy), legal(state));
    let hidden = |s: &GameState| {
        let mut cards: Vec<u8> = s.deck().pile().to_vec();
        cards.extend(
            (0..s.n_players())
                .filter(|&p| p != mover)
                .map(|p| s.hand(p) as u8),
        );
        cards.sort();
        cards
    };
    assert_eq!(hidden(&copy), hidden(state));
    check_invariants(&copy);
}

#[test]
fn final_outcome_is_the_scorers_gold() {
    for (n_players, league, seed) in [(2, 3, 1), (3, 2, 2), (4, 1, 3), (4, 3, 4)] {
        let (state, _) = play_random(n_players, league, seed);
        assert_eq!(state.phase(), Phase::Over);
        let rules = ScoreRules {
            n_players,
            lords: state.lords_rule(),
        };
        let gold = score_table_with_water(
            &state.scoring_board(),
            &state.settlements_on_water(),
            state.cards(),
            rules,
        )
        .totals();
        let outcome = state.outcome();
        assert_eq!(
            outcome.scores,
            gold.iter().map(|&g| i64::from(g)).collect::<Vec<_>>()
        );
        assert_eq!(outcome.ranks, ranks_from_keys(&gold));
        assert_eq!(outcome.detail, "finished");
        // The game ended with a complete round in which some seat ran out of settlements.
        assert_eq!(state.turn() % n_players as u32, 0);
        assert!((0..n_players).any(|p| state.supply(p) == 0));
    }
}

#[test]
fn reshuffle_hidden_never_changes_what_the_mover_sees() {
    // `play_random` reshuffles a copy at every position of whole games.
    for n_players in 2..=4 {
        play_random(n_players, 3, 40 + n_players as u64);
    }
}

fn arbitrary_action() -> impl Strategy<Value = Action> {
    let tile = (0usize..8).prop_map(|k| realm_kingdom_builder::game::TileKind::ALL[k]);
    prop_oneof![
        any::<u16>().prop_map(Action::Build),
        (tile, proptest::option::of(any::<u16>()), any::<u16>())
            .prop_map(|(tile, from, to)| Action::UseTile { tile, from, to }),
        Just(Action::EndTurn),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal sequences never panic and keep the invariants; arbitrary actions (any cell
    /// number, any tile) never panic `is_legal`, which agrees with the listing.
    #[test]
    fn random_sequences_never_panic(
        seed in any::<u64>(),
        n_players in 2usize..=4,
        league in 1u32..=3,
        choices in proptest::collection::vec(any::<u32>(), 0..400),
        probes in proptest::collection::vec(arbitrary_action(), 0..40),
    ) {
        let mut state = GameState::new(&GameConfig::new(n_players, league), seed);
        for (i, choice) in choices.iter().enumerate() {
            let actions = legal(&state);
            if actions.is_empty() {
                prop_assert!(state.to_move().is_none());
                break;
            }
            if let Some(probe) = probes.get(i % probes.len().max(1)) {
                prop_assert_eq!(state.is_legal(probe), actions.contains(probe));
            }
            let action = actions[*choice as usize % actions.len()];
            state.apply(&action);
            check_invariants(&state);
        }
    }
}
