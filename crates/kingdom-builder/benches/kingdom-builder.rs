//! Speed of the scorer: parsing the example board, scoring it with all ten cards, and the whole
//! command path (parse, check, score, format).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
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

criterion_group!(benches, bench);
criterion_main!(benches);
