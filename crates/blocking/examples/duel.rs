//! Strength in-process: bot A against bot B through the referee, A taking every seat in turn
//! (seat-swapped pairs with two players), on consecutive match seeds. Prints A's wins, draws
//! and losses (a draw: sharing first place), its score (the share of opponents it beat, ties
//! half) and its thinking time per call against the limits.
//!
//! `cargo run --release -p realm-blocking --example duel -- VARIANT PLAYERS GAMES A B [SEED]`
//!
//! VARIANT is `standard`, `duo` or `classic`. A bot is a built-in name (`mcts`,
//! `mcts:iters=2000`, `greedy`) or, for comparing knowledge, `PRESET/OPTIONS`, an mcts bot
//! with one of the knowledge presets below and the given search options (`old/iters=2000`).

use std::time::{Duration, Instant};

use realm_blocking::bots::{BlokusKnowledge, MctsBot, Order, Playout};
use realm_blocking::{new_bot, new_referee};
use realm_core::{Bot, LinesInput, MatchSpec};
use realm_search::{rank_rewards, SearchOptions};

fn preset(name: &str) -> Option<BlokusKnowledge> {
    let (playout, order) = match name {
        "default" => return Some(BlokusKnowledge::default()),
        "old" => (Playout::LargestShape, Order::Size),
        // The defaults before the learned prior (2026-11-26).
        "contact" => (Playout::LargestShape, Order::SizeThenContact),
        "learned" => (Playout::LargestShape, Order::Learned),
        "bestof2" => (
            Playout::LargestShapeBestOf { samples: 2 },
            Order::SizeThenContact,
        ),
        "bestof4" => (
            Playout::LargestShapeBestOf { samples: 4 },
            Order::SizeThenContact,
        ),
        "uniform" => (Playout::Uniform, Order::Size),
        _ => return None,
    };
    Some(BlokusKnowledge::new(playout, order))
}

fn make_bot(name: &str, seed: u64) -> Box<dyn Bot> {
    if let Some((preset_name, options)) = name.split_once('/') {
        let knowledge = preset(preset_name).unwrap_or_else(|| panic!("no preset `{preset_name}`"));
        let options = SearchOptions::parse(options).expect("search options");
        return Box::new(MctsBot::with_knowledge(seed, options, knowledge));
    }
    new_bot(name, seed, None).unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: duel VARIANT PLAYERS GAMES A B [SEED]");
        std::process::exit(2);
    }
    let variant = match args[0].as_str() {
        "standard" => None,
        v => Some(v.to_string()),
    };
    let players: usize = args[1].parse().expect("players");
    let games: u64 = args[2].parse().expect("games");
    let (a, b) = (&args[3], &args[4]);
    let first_seed: u64 = args.get(5).map_or(1, |s| s.parse().expect("seed"));

    let (mut wins, mut draws, mut losses, mut score) = (0, 0, 0, 0.0);
    let mut first_calls: Vec<Duration> = Vec::new();
    let mut later_calls: Vec<Duration> = Vec::new();
    let started = Instant::now();
    for g in 0..games {
        let seed = first_seed + g / players as u64;
        let seat_a = (g % players as u64) as usize;
        let mut spec = MatchSpec::new("blocking", players, seed);
        if let Some(v) = &variant {
            spec = spec.with_variant(v);
        }
        let mut referee = new_referee(&spec).expect("spec");
        let mut bots: Vec<Box<dyn Bot>> = (0..players)
            .map(|s| make_bot(if s == seat_a { a } else { b }, seed * 8 + s as u64))
            .collect();
        let mut called = vec![false; players];
        while let Some(req) = referee.next_request() {
            let t = Instant::now();
            let out = bots[req.player]
                .play_turn(&mut LinesInput::new(&req.lines))
                .expect("bot answer");
            if req.player == seat_a {
                let list = if called[seat_a] {
                    &mut later_calls
                } else {
                    &mut first_calls
                };
                list.push(t.elapsed());
            }
            called[req.player] = true;
            let verdict = referee.answer(req.player, &out);
            assert!(!verdict.is_fault(), "seat {}: {verdict:?}", req.player);
        }
        let outcome = referee.outcome();
        let ranks = &outcome.ranks;
        let reward = rank_rewards(ranks)[seat_a] as f64;
        score += reward;
        let firsts = ranks.iter().filter(|&&r| r == 1).count();
        match (ranks[seat_a], firsts) {
            (1, 1) => wins += 1,
            (1, _) => draws += 1,
            _ => losses += 1,
        }
        eprintln!(
            "game {g} seed {seed} A in seat {seat_a}: scores {:?} ranks {ranks:?}",
            outcome.scores
        );
    }
    later_calls.sort();
    let pct = |v: &[Duration], q: f64| {
        v.get(((v.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{a} vs {b}, {} {players}p, {games} games: W-D-L {wins}-{draws}-{losses}, score {:.1}%",
        args[0],
        100.0 * score / games as f64
    );
    println!(
        "A's time per call: first max {:.1} ms; later p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms \
         ({} calls); {:.0} s in all",
        first_calls
            .iter()
            .max()
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        pct(&later_calls, 0.5),
        pct(&later_calls, 0.99),
        pct(&later_calls, 1.0),
        later_calls.len(),
        started.elapsed().as_secs_f64()
    );
}
