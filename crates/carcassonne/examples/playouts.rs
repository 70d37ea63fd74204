//! Plays random full games and prints games per second and the mean number of legal
//! placements per turn: `cargo run --release --example playouts -- [games] [league] [players]`.

use std::time::Instant;

use realm_carcassonne::State;
use realm_core::{chacha_rng, random_playout, State as _};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(20_000);
    let league = args.get(1).copied().unwrap_or(3) as u32;
    let players = args.get(2).copied().unwrap_or(2) as usize;
    let mut rng = chacha_rng(7, 0);
    let mut buf = Vec::new();
    let (mut actions, mut placements, mut place_turns) = (0, 0, 0);
    let start = Instant::now();
    for seed in 0..games {
        let mut state = State::new(league, players, seed);
        actions += random_playout(&mut state, &mut rng, &mut buf);
        if seed % 100 == 0 {
            // Sample the branching factor on a separate replay of this seed.
            let mut state = State::new(league, players, seed);
            while state.to_move().is_some() {
                state.legal_actions(&mut buf);
                if state.current_tile().is_some() {
                    placements += buf.len();
                    place_turns += 1;
                }
                let pick = buf[0];
                state.apply(&pick);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games in {secs:.3} s: {:.0} games/s, {:.1} actions/game, {:.1} placements/turn (sampled)",
        games as f64 / secs,
        actions as f64 / games as f64,
        placements as f64 / place_turns.max(1) as f64
    );
}
