//! Random full games per second (the bar: 20,000 two-player games per second on one
//! core), plus the cost of one greedy decision.

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

criterion_group!(benches, random_games, greedy_turn);
criterion_main!(benches);
