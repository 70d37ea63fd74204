//! Engine speed in CPU time of this thread (from /proc/thread-self/schedstat), so the figures
//! stay meaningful on a loaded machine: uniformly random 2- and 4-player games, once sampling
//! each action without listing (`random_playout`) and once listing every legal action at every
//! decision and picking one, then reading every player's score (the loop of issue 19's
//! comparison with kdom-ai, whose driver does the same with `getScoresIndexed`).
//!
//! `cargo run --release -p realm-kingdomino --example kingdomino_speed [2p|4p]`

use std::hint::black_box;

use realm_core::{below, chacha_rng, random_playout, SplitMix64, State};
use realm_kingdomino::setup::{Config, Mode};
use realm_kingdomino::GameState;

/// CPU nanoseconds consumed by this thread so far.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Games per second of `play` (one whole game from a seed) over one CPU second.
fn rate(mut play: impl FnMut(u64) -> u64) -> (f64, f64) {
    let (mut games, mut listed, mut seed) = (0u64, 0u64, 0u64);
    let t0 = cpu_ns();
    while cpu_ns() - t0 < 1_000_000_000 {
        for _ in 0..1000 {
            seed += 1;
            listed += play(seed);
            games += 1;
        }
    }
    let secs = (cpu_ns() - t0) as f64 / 1e9;
    (games as f64 / secs, listed as f64 / games as f64)
}

fn main() {
    // `speed 2p` (or `4p`) measures one player count only.
    let only = std::env::args().nth(1);
    // `speed 2p listing` skips the sampled games (for profiling the listing loop alone).
    let listing_only = std::env::args().nth(2).as_deref() == Some("listing");
    for (name, players) in [("2p", 2), ("4p", 4)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let config = Config::new(Mode::Standard, players);
        let mut rng = chacha_rng(42, 0);
        // The listing loop picks like kdom-ai's driver: a small fast generator (xorshift there,
        // SplitMix64 here) and a multiply-shift index, no division.
        let mut pick_rng = SplitMix64::new(42);
        let mut buf = Vec::with_capacity(4096);
        // Skipped rather than timed as empty: a second of empty games would be a second of
        // clock reads in the profile.
        let sampled = (!listing_only).then(|| {
            rate(|seed| {
                let mut state = GameState::new(config, seed);
                random_playout(&mut state, &mut rng, &mut buf);
                black_box(state.outcome());
                0
            })
            .0
        });
        let (listing, per_game) = rate(|seed| {
            let mut state = GameState::new(config, seed);
            let mut listed = 0;
            while state.to_move().is_some() {
                state.legal_actions(&mut buf);
                listed += buf.len() as u64;
                let pick = buf[below(pick_rng.next_u64(), buf.len())];
                state.apply(&pick);
            }
            black_box(state.scores());
            listed
        });
        let sampled = sampled.map_or("skipped".to_string(), |rate| format!("{rate:.0}"));
        println!(
            "{name}: {sampled:>9} games/s sampled, {listing:9.0} games/s listing every action ({per_game:.0} actions listed a game)"
        );
    }
}
