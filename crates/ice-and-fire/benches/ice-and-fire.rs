//! Benchmarks: whole random games per second with the random player of `playout` (map
//! generation included), map generation alone, the `State` contract's uniform random playout
//! (what generic search code sees), legal-action generation, and the search bot's MCTS
//! iterations per second.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use realm_core::{chacha_rng, random_playout};
use realm_ice_and_fire::playout::random_game;
use realm_ice_and_fire::{GameState, League, Map};

fn games(c: &mut Criterion) {
    let league = League::new(4).unwrap();
    let mut group = c.benchmark_group("ice-and-fire");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0i64;
    let mut rng = chacha_rng(1, 0);
    group.bench_function("random_game_league4", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(seed, league, &mut rng).turn())
        })
    });
    group.bench_function("map_generation", |b| {
        b.iter(|| {
            seed += 1;
            black_box(Map::generate(seed, league).playable())
        })
    });
    let mut buf = Vec::new();
    group.bench_function("state_uniform_playout_league4", |b| {
        b.iter(|| {
            seed += 1;
            let mut state = GameState::new(seed, league);
            black_box(random_playout(&mut state, &mut rng, &mut buf))
        })
    });
    let state = GameState::new(42, league);
    group.bench_function("single_actions_opening", |b| {
        b.iter(|| {
            state.single_actions(&mut buf);
            black_box(buf.len())
        })
    });
    group.finish();
}

/// The search bot's engine: MCTS iterations per second over the first player's phase (random
/// commands until the phase passes, then the heuristic valuation), at the opening and after
/// 20 turns of random play.
fn mcts_iterations(c: &mut Criterion) {
    use realm_core::State;
    use realm_ice_and_fire::bots::{default_params, IceAndFireKnowledge};
    use realm_search::{Budget, Mcts};
    const N: u64 = 2_000;
    let league = League::new(4).unwrap();
    let mut group = c.benchmark_group("mcts_iterations");
    group.throughput(Throughput::Elements(N));
    group.sample_size(10);
    let opening = GameState::new(5, league);
    let mut middle = opening.clone();
    let mut rng = chacha_rng(5, 1);
    let mut buf = Vec::new();
    while middle.turn() < 20 && middle.to_move().is_some() {
        let action = middle
            .random_action(&mut rng, &mut buf)
            .expect("a running game");
        middle.apply(&action);
    }
    for (name, state) in [("league4_opening", opening), ("league4_midgame", middle)] {
        let me = state.player();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut search = Mcts::new(default_params(), IceAndFireKnowledge { me }, 3);
                black_box(search.search(&state, Budget::iterations(N)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games, mcts_iterations);
criterion_main!(benches);
