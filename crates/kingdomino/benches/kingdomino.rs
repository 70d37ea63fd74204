//! Speed of the rules: random 2-player games per second in-process through the `State` trait
//! (the bar is 200,000 per second on one core), the Duel, the same games listing every
//! action at every decision, a whole text-level match through the referee with built-in random
//! bots, and the search bot's MCTS iterations per second.
//!
//! Run: `cargo bench -p realm-kingdomino -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::RngCore;
use realm_core::{chacha_rng, random_playout, Bot, LinesInput, MatchSpec, State};
use realm_kingdomino::setup::{Config, Mode};
use realm_kingdomino::{new_bot, new_referee, GameState};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("kingdomino");
    group.throughput(Throughput::Elements(1));
    // `listing`: issue 19's loop shape, every legal action listed at every decision and one
    // picked; otherwise each action is sampled without listing (`random_playout`).
    for (name, config, listing) in [
        ("random_game_2p", Config::new(Mode::Standard, 2), false),
        ("random_game_4p", Config::new(Mode::Standard, 4), false),
        ("random_game_duel", Config::new(Mode::Duel, 2), false),
        (
            "random_game_2p_listing",
            Config::new(Mode::Standard, 2),
            true,
        ),
        (
            "random_game_4p_listing",
            Config::new(Mode::Standard, 4),
            true,
        ),
    ] {
        let mut rng = chacha_rng(42, u64::from(listing));
        let mut buf = Vec::with_capacity(4096);
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut state = GameState::new(config, seed);
                if listing {
                    while state.to_move().is_some() {
                        state.legal_actions(&mut buf);
                        let pick = buf[(rng.next_u64() % buf.len() as u64) as usize];
                        state.apply(&pick);
                    }
                } else {
                    random_playout(&mut state, &mut rng, &mut buf);
                }
                black_box(state.outcome())
            })
        });
    }
    group.bench_function("referee_match_2p_random_bots", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let mut referee = new_referee(&MatchSpec::new("kingdomino", 2, seed)).expect("spec");
            let mut bots: Vec<Box<dyn Bot>> = (0..2)
                .map(|i| new_bot("random", seed + i, None).expect("bot"))
                .collect();
            while let Some(request) = referee.next_request() {
                let answer = bots[request.player]
                    .play_turn(&mut LinesInput::new(&request.lines))
                    .expect("answer");
                referee.answer(request.player, &answer);
            }
            black_box(referee.outcome())
        })
    });
    group.finish();
}

/// The search bot's engine: MCTS iterations per second on one sampled 2-player game with the
/// bot's 2-player parameters (one iteration: selection, expansion with greedy's ordering, a
/// uniform playout to the end, backpropagation) at the opening and after six turns.
fn mcts_iterations(c: &mut Criterion) {
    use realm_kingdomino::bots::{default_params, KingdominoKnowledge};
    use realm_kingdomino::Game;
    use realm_search::{Budget, Mcts};
    const N: u64 = 5_000;
    let mut group = c.benchmark_group("mcts_iterations");
    group.throughput(Throughput::Elements(N));
    group.sample_size(10);
    let opening: Game<u128> = Game::new(Config::new(Mode::Standard, 2), 11);
    let mut middle = opening.clone();
    let mut rng = chacha_rng(11, 1);
    let mut buf = Vec::new();
    for _ in 0..12 {
        let action = State::random_action(&middle, &mut rng, &mut buf).expect("a running game");
        middle.apply(&action);
    }
    for (name, game) in [
        ("kingdomino_2p_opening", opening),
        ("kingdomino_2p_midgame", middle),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut search = Mcts::new(default_params(2), KingdominoKnowledge::default(), 3);
                black_box(search.search(&game, Budget::iterations(N)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, random_games, mcts_iterations);
criterion_main!(benches);
