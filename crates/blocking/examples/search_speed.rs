//! The Duo bot's search speed on given positions, for comparing with another engine on the
//! same positions (`tools/blokus_search_speed.py` runs it beside Pentobi).
//!
//! Each line of stdin is one Duo position: the placements so far, space-separated, each a
//! comma-separated list of GTP squares (`e10,f10,f9`: column letter, row counted from the
//! bottom), the first player's first. For each line the bot's search (the bot's own parameters
//! and knowledge, a fresh tree, no book) runs for `--iters N` iterations or `--time SECONDS`,
//! and a line `iterations seconds iterations/s cpu_seconds iterations/cpu_s` is printed
//! (wall-clock seconds, then this thread's CPU time, user and system).
//!
//! `cargo run --release -p realm-blocking --example search_speed -- --time 3 < positions`
//! (`--variant classic` for Blokus Classic positions, the four colours in turn;
//! `--options KEY=VALUE,...` for search settings other than the bot's defaults).

use std::io::BufRead;
use std::time::{Duration, Instant};

mod common;

use common::position;
use realm_blocking::bots::{default_params, BlokusKnowledge};
use realm_blocking::{Config, Variant};
use realm_search::{Budget, Mcts, SearchOptions};

/// CPU nanoseconds consumed by this thread so far (user and system time).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<f64>().expect("a number"))
    };
    let iters = value("--iters");
    // `--variant classic` reads Blokus Classic positions (four players, 20 × 20).
    let config = match args.iter().position(|a| a == "--variant") {
        Some(i) if args.get(i + 1).map(String::as_str) == Some("classic") => {
            Config::new(Variant::Classic, 4, 1)
        }
        Some(_) => panic!("--variant takes classic (Duo is the default)"),
        None => Config::new(Variant::Duo, 2, 1),
    };
    let time = value("--time").unwrap_or(3.0);
    // `--options KEY=VALUE,...`: the bot's search settings over its defaults (as after
    // `builtin:mcts:`).
    let params = match args.iter().position(|a| a == "--options") {
        Some(i) => SearchOptions::parse(args.get(i + 1).map_or("", String::as_str))
            .unwrap_or_else(|e| panic!("--options: {e}"))
            .apply(default_params()),
        None => default_params(),
    };
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let pos = position(&line, &config);
        let mut search = Mcts::new(params, BlokusKnowledge::default(), 7);
        let (start, cpu) = (Instant::now(), cpu_ns());
        let budget = match iters {
            Some(n) => Budget::iterations(n as u64),
            None => Budget::time_from(start, Duration::from_secs_f64(time)),
        };
        let result = search.search(&pos, budget).expect("a position with a move");
        let seconds = start.elapsed().as_secs_f64();
        let cpu = (cpu_ns() - cpu) as f64 * 1e-9;
        let n = result.iterations as f64;
        println!(
            "{n} {seconds:.3} {:.0} {cpu:.3} {:.0}",
            n / seconds,
            n / cpu
        );
    }
}
