//! Random full games per second (the bar: 20,000 two-player games per second on one
//! core), plus the cost of one greedy decision and the search bot's MCTS iterations per second.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use realm_carcassonne::{new_bot, new_referee, State};
use realm_core::{chacha_rng, random_playout, LinesInput, MatchSpec};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_full_game");
    group.throughput(Throughput::Elements(1));
    for (league, n) in [(3u32, 2usize), (3, 4), (1, 2)] {
        let mut seed = 0u64;
        let mut rng = chacha_rng(1, 2);
        let mut buf = Vec::new();
        group.bench_function(format!("league{league}_{n}p"), |b| {
            b.iter(|| {
                seed += 1;
                let mut state = State::new(league, n, seed);
                black_box(random_playout(&mut state, &mut rng, &mut buf))
            })
        });
    }
    group.finish();
}

fn greedy_turn(c: &mut Criterion) {
    let spec = MatchSpec::new("carcassonne", 2, 5);
    let mut referee = new_referee(&spec).unwrap();
    // Advance ten turns with random bots so the board is not trivial.
    let mut randoms = [
        new_bot("random", 1, None).unwrap(),
        new_bot("random", 2, None).unwrap(),
    ];
    let mut request = referee.next_request().unwrap();
    for _ in 0..10 {
        let answer = randoms[request.player]
            .play_turn(&mut LinesInput::new(&request.lines))
            .unwrap();
        referee.answer(request.player, &answer);
        request = referee.next_request().unwrap();
    }
    let mut lines = vec![format!("2 {}", request.player), "143 143".to_string()];
    lines.extend(request.lines.iter().cloned());
    c.bench_function("greedy_decision_turn11", |b| {
        b.iter(|| {
            let mut greedy = new_bot("greedy", 2, None).unwrap();
            black_box(greedy.play_turn(&mut LinesInput::new(&lines)).unwrap())
        })
    });
}

/// The search bot's engine: MCTS iterations per second on one 2-player league-3 game with its
/// default knowledge (playouts cut after 8 actions and valued by `bots/valuation.rs`), at the
/// opening and after 30 turns. A public Rust Carcassonne MCTS bot runs about 7,500 (opening)
/// and 1,000-1,250 (middle game) iterations per second on this machine kind.
fn mcts_iterations(c: &mut Criterion) {
    use realm_carcassonne::bots::{default_params, CarcassonneKnowledge};
    use realm_core::State as _;
    use realm_search::{Budget, Mcts};
    const N: u64 = 2_000;
    let mut group = c.benchmark_group("mcts_iterations");
    group.throughput(Throughput::Elements(N));
    group.sample_size(10);
    let opening = State::new(3, 2, 17);
    let mut middle = opening.clone();
    let mut rng = chacha_rng(17, 1);
    let mut buf = Vec::new();
    for _ in 0..60 {
        let action = middle
            .random_action(&mut rng, &mut buf)
            .expect("a running game");
        middle.apply(&action);
    }
    for (name, state) in [
        ("carcassonne_2p_opening", opening),
        ("carcassonne_2p_midgame", middle),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut search = Mcts::new(default_params(), CarcassonneKnowledge, 3);
                black_box(search.search(&state, Budget::iterations(N)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, random_games, greedy_turn, mcts_iterations);
criterion_main!(benches);
