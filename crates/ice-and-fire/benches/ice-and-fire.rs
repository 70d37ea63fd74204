//! Benchmarks: whole random games per second with the random player of `playout` (map
//! generation included), map generation alone, the `State` contract's uniform random playout
//! (what generic search code sees), legal-action generation, the search bot's MCTS
//! iterations per second, and the time `strong` takes to plan one phase.

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

/// The first call's input of player 0 at `turn` of a game of `strong` (seat 0) against
/// greedy: the initial lines, then that phase's lines.
fn strong_input(turn: u32) -> Vec<String> {
    use realm_core::{LinesInput, MatchSpec};
    use realm_ice_and_fire::{new_bot, new_referee};
    let spec = MatchSpec::new("ice-and-fire", 2, 5).with_league(4);
    let mut referee = new_referee(&spec).unwrap();
    let mut bots = [
        new_bot("strong:evals=40000", 0, Some(4)).unwrap(),
        new_bot("greedy", 1, Some(4)).unwrap(),
    ];
    let mut initial: Option<Vec<String>> = None;
    let mut calls = 0;
    while let Some(req) = referee.next_request() {
        if req.player == 0 {
            calls += 1;
            let initial = initial.get_or_insert_with(|| {
                let n: usize = req.lines[0].parse().expect("the mine spot count");
                req.lines[..=n].to_vec()
            });
            if calls == turn {
                let phase = if calls == 1 {
                    req.lines[initial.len()..].to_vec()
                } else {
                    req.lines.clone()
                };
                return initial.iter().cloned().chain(phase).collect();
            }
        }
        let out = bots[req.player]
            .play_turn(&mut LinesInput::new(&req.lines))
            .unwrap();
        referee.answer(req.player, &out);
    }
    panic!("the game ended before turn {turn}");
}

/// `strong`'s planning time for one phase, without a clock (its default 40,000-valuation cap),
/// at the opening and at turn 8 of a game against greedy (reading the input included).
fn strong_phase(c: &mut Criterion) {
    use realm_core::LinesInput;
    use realm_ice_and_fire::new_bot;
    let mut group = c.benchmark_group("strong_phase");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    for (name, turn) in [("league4_opening", 1), ("league4_turn8", 8)] {
        let lines = strong_input(turn);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut bot = new_bot("strong:evals=40000", 0, Some(4)).unwrap();
                black_box(bot.play_turn(&mut LinesInput::new(&lines)).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, games, mcts_iterations, strong_phase);
criterion_main!(benches);
