//! Engine speed: legal moves generated per second on mid-game positions and uniformly random
//! full games per second, for Blocking 2p, Blokus Duo and Blokus Classic (single thread), and
//! the search bot's MCTS iterations and playouts per second.
//!
//! `cargo bench -p realm-blocking -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::RngCore;
use realm_blocking::{Config, Placement, Position, Variant};
use realm_core::{chacha_rng, random_playout, State};

fn start(variant: Variant, n_players: usize) -> Position {
    Position::new(&Config::new(variant, n_players, 1))
}

/// Positions reached by `depth` random placements from several seeds (still running games).
fn mid_games(variant: Variant, n_players: usize, depth: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..64 {
        let mut pos = start(variant, n_players);
        let mut rng = chacha_rng(seed, 1);
        for _ in 0..depth {
            if pos.to_move().is_none() {
                break;
            }
            pos.legal_actions(&mut buf);
            let pick = buf[(rng.next_u64() % buf.len() as u64) as usize];
            pos.apply(&pick);
        }
        if pos.to_move().is_some() {
            out.push(pos);
        }
    }
    out
}

const CASES: [(&str, Variant, usize, usize); 3] = [
    ("blocking_2p", Variant::Blocking, 2, 12),
    ("duo", Variant::Duo, 2, 14),
    ("classic", Variant::Classic, 4, 32),
];

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, variant, np, depth) in CASES {
        let positions = mid_games(variant, np, depth);
        let mut buf: Vec<Placement> = Vec::with_capacity(4096);
        let total: usize = positions
            .iter()
            .map(|p| {
                p.legal_actions(&mut buf);
                buf.len()
            })
            .sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for pos in &positions {
                    pos.legal_actions(&mut buf);
                    black_box(buf.len());
                }
            })
        });
    }
    group.finish();
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(1));
    for (name, variant, np, _) in CASES {
        let initial = start(variant, np);
        let mut rng = chacha_rng(7, 2);
        let mut buf = Vec::with_capacity(4096);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut pos = initial.clone();
                black_box(random_playout(&mut pos, &mut rng, &mut buf))
            })
        });
    }
    group.finish();
}

/// The search bot's engine: MCTS iterations per second (one iteration: selection, expansion
/// with the contact order, a largest-shape playout to the end, backpropagation) with the bot's
/// parameters, at the opening and at a mid-game position (14 random placements from seed 0)
/// of Duo and 2-player Blocking.
fn mcts_iterations(c: &mut Criterion) {
    use realm_blocking::bots::{default_params, BlokusKnowledge};
    use realm_search::{Budget, Mcts};
    const N: u64 = 2_000;
    let mut group = c.benchmark_group("mcts_iterations");
    group.throughput(Throughput::Elements(N));
    group.sample_size(10);
    let cases = [
        ("duo_opening", start(Variant::Duo, 2)),
        ("duo_midgame", mid_games(Variant::Duo, 2, 14).swap_remove(0)),
        ("blocking_2p_opening", start(Variant::Blocking, 2)),
        (
            "blocking_2p_midgame",
            mid_games(Variant::Blocking, 2, 14).swap_remove(0),
        ),
    ];
    for (name, pos) in cases {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut search = Mcts::new(default_params(), BlokusKnowledge::default(), 3);
                black_box(search.search(&pos, Budget::iterations(N)))
            })
        });
    }
    group.finish();
}

/// Whole games per second played by the search's playout policy (the largest shape that fits)
/// through `State`, from the start.
fn knowledge_playouts(c: &mut Criterion) {
    use realm_blocking::bots::BlokusKnowledge;
    use realm_search::Knowledge;
    let mut group = c.benchmark_group("knowledge_playouts");
    group.throughput(Throughput::Elements(1));
    for (name, variant, np, _) in CASES {
        let initial = start(variant, np);
        let mut knowledge = BlokusKnowledge::default();
        let mut rng = chacha_rng(7, 3);
        let mut buf = Vec::with_capacity(4096);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut pos = initial.clone();
                while let Some(mv) = knowledge.playout_action(&pos, &mut rng, &mut buf) {
                    pos.apply(&mv);
                }
                black_box(pos.n_placements())
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    legal_moves,
    random_games,
    mcts_iterations,
    knowledge_playouts
);
criterion_main!(benches);
