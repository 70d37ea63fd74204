//! Engine speed measured in CPU time of this thread (from /proc/thread-self/schedstat), so the
//! figures stay meaningful on a loaded machine where criterion's wall-clock numbers do not.
//!
//! `cargo run --release -p realm-blocking --example speed`

use std::hint::black_box;

use rand_core::RngCore;
use realm_blocking::{Config, Placement, Position, Variant};
use realm_core::{chacha_rng, State};

/// CPU nanoseconds consumed by this thread so far.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn mid_games(variant: Variant, n_players: usize, depth: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..64 {
        let mut pos = Position::new(&Config::new(variant, n_players, 1));
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

fn main() {
    let cases = [
        ("blocking_2p", Variant::Blocking, 2, 12),
        ("duo", Variant::Duo, 2, 14),
        ("classic", Variant::Classic, 4, 32),
    ];
    // `speed classic` (or `duo`, `blocking_2p`) measures one variant only.
    let only = std::env::args().nth(1);
    for (name, variant, np, depth) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let positions = mid_games(variant, np, depth);
        let mut buf: Vec<Placement> = Vec::with_capacity(4096);
        let mut moves = 0u64;
        let t0 = cpu_ns();
        let mut rounds = 0;
        while cpu_ns() - t0 < 1_000_000_000 {
            for pos in &positions {
                pos.legal_actions(&mut buf);
                moves += black_box(buf.len()) as u64;
            }
            rounds += 1;
        }
        let secs = (cpu_ns() - t0) as f64 / 1e9;
        println!(
            "{name:12} legal moves: {:6.1} M/s ({} positions, {:.0} moves each)",
            moves as f64 / secs / 1e6,
            positions.len(),
            moves as f64 / (rounds * positions.len()) as f64
        );

        let initial = Position::new(&Config::new(variant, np, 1));
        let mut rng = chacha_rng(7, 2);
        let mut games = 0u64;
        let mut placements = 0u64;
        let mut listed = 0u64;
        let t0 = cpu_ns();
        while cpu_ns() - t0 < 1_000_000_000 {
            for _ in 0..100 {
                // The loop of issue 19's comparison: a full legal list at every ply.
                let mut pos = initial.clone();
                while let Some(p) = pos.current() {
                    pos.generate(p, &mut buf);
                    listed += buf.len() as u64;
                    let pick = buf[(rng.next_u64() % buf.len() as u64) as usize];
                    buf.clear();
                    pos.play(pick);
                    placements += 1;
                }
                games += 1;
            }
        }
        let secs = (cpu_ns() - t0) as f64 / 1e9;
        println!(
            "{name:12} random games: {:8.0} /s ({:.1} placements each), {:.1} M moves listed/s",
            games as f64 / secs,
            placements as f64 / games as f64,
            listed as f64 / secs / 1e6
        );
    }
}
