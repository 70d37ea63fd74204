//! Speed of the scorer: parsing the example board, scoring it with all ten cards, and the whole
//! command path (parse, check, score, format); and of the full game through `State`: random
//! playouts from the start (2 and 4 seats, league 3) and legal-move listings (throughput in
//! legal actions listed).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use realm_core::{chacha_rng, State};
use realm_kingdom_builder::game::{Action, GameConfig, GameState};
use realm_kingdom_builder::{
    parse_board, run_scorer, score_table, Card, ScoreFormat, ScoreOptions, ScoreRules,
    EXAMPLE_BOARD,
};

fn bench(c: &mut Criterion) {
    c.bench_function("parse_example_board", |b| {
        b.iter(|| parse_board(black_box(EXAMPLE_BOARD)).unwrap())
    });
    let board = parse_board(EXAMPLE_BOARD).unwrap();
    c.bench_function("score_all_ten_cards", |b| {
        b.iter(|| score_table(black_box(&board), &Card::ALL, ScoreRules::new(4)))
    });
    let options = ScoreOptions {
        cards: Some("1,3,7".into()),
        format: ScoreFormat::Detail,
        ..ScoreOptions::default()
    };
    c.bench_function("run_scorer_1_3_7_detail", |b| {
        b.iter(|| run_scorer(black_box(EXAMPLE_BOARD), &options).unwrap())
    });
}

/// A random game from the start position to its end; returns the actions played.
fn random_playout(start: &GameState, seed: u64, buf: &mut Vec<Action>) -> usize {
    let mut state = start.clone();
    let mut rng = chacha_rng(seed, 0);
    let mut n = 0;
    while let Some(action) = state.random_action(&mut rng, buf) {
        state.apply(&action);
        n += 1;
    }
    n
}

fn bench_full_game(c: &mut Criterion) {
    let mut group = c.benchmark_group("full_game");
    for n in [2, 4] {
        let start = GameState::new(&GameConfig::new(n, 3), 1);
        let mut buf = Vec::new();
        let mut seed = 0;
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("random_playout_{n}p"), |b| {
            b.iter(|| {
                seed += 1;
                random_playout(black_box(&start), seed, &mut buf)
            })
        });
    }
    // Legal moves of positions along one random 4-seat game (tiles in hand in the later ones).
    let start = GameState::new(&GameConfig::new(4, 3), 2);
    let mut positions = Vec::new();
    let mut state = start.clone();
    let mut rng = chacha_rng(2, 1);
    let mut buf = Vec::new();
    while let Some(action) = state.random_action(&mut rng, &mut buf) {
        positions.push(state.clone());
        state.apply(&action);
    }
    // Throughput in legal actions listed, so the figure reads as legal moves per second.
    let listed: usize = positions
        .iter()
        .map(|position| {
            position.legal_actions(&mut buf);
            buf.len()
        })
        .sum();
    eprintln!("{} positions, {listed} legal actions", positions.len());
    group.throughput(Throughput::Elements(listed as u64));
    group.bench_function("legal_actions_along_a_4p_game", |b| {
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                position.legal_actions(&mut buf);
                total += buf.len();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench, bench_full_game);
criterion_main!(benches);
