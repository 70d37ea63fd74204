//! Benchmarks: whole random games per second with the random player of `playout` (map
//! generation included), map generation alone, the `State` contract's uniform random playout
//! (what generic search code sees), and legal-action generation.

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

criterion_group!(benches, games);
criterion_main!(benches);
