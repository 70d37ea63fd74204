//! Builds Blokus Duo's opening book (`data/duo_book.txt`, read by the `mcts` bot; see
//! `bots::book`): from the empty board, breadth first to the book's depth, every position gets
//! a search of a fixed number of iterations (seeded by the position's key, so the file is the
//! same on every machine); its most visited move is the book's move, and the `WIDTH` most
//! visited moves with at least a tenth of the best one's visits lead to the next depth's
//! positions (mirror images merged), `LAST_WIDTH` of them into the book's last depth (whose
//! positions are many). Two threads search at once.
//!
//! `--deep FILE DEEP_ITERS`: the positions listed in FILE (`data/duo_book_deep.txt`, the lines
//! a strong opponent played against the book) take their book move from a search of
//! `DEEP_ITERS` iterations, which the walk also follows (searched after the walk when it does
//! not reach them).
//!
//! `cargo run --release -p realm-blocking --example duo_book -- [ITERS] [WIDTH] [LAST_WIDTH] [--deep FILE DEEP_ITERS] > crates/blocking/data/duo_book.txt`
//!
//! The embedded book's command is its second line.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use realm_blocking::bots::book::{canonical, cells_under, format_entry, BOOK_PLIES};
use realm_blocking::bots::{default_params, BlokusKnowledge};
use realm_blocking::{Config, Placement, Position, Variant};
use realm_search::{Budget, Mcts};

mod common;

use common::position;

/// The book move and the moves worth following of one position.
struct Searched {
    key: u64,
    symmetry: usize,
    best: Placement,
    followed: Vec<Placement>,
}

/// How long the positions are searched: `iterations` each, and the deep file's positions
/// `deep_iterations` for their book move.
struct Effort {
    iterations: u64,
    deep: HashSet<u64>,
    deep_iterations: u64,
}

/// The most visited move of a search of `iterations`, and the `width` most visited with at
/// least a tenth of its visits.
fn searched_moves(
    pos: &Position,
    key: u64,
    iterations: u64,
    width: usize,
) -> (Placement, Vec<Placement>) {
    let mut mcts = Mcts::new(default_params(), BlokusKnowledge::default(), key);
    let result = mcts
        .search(pos, Budget::iterations(iterations))
        .expect("a book position has moves");
    let floor = result.stats[0].visits / 10;
    let followed = result
        .stats
        .iter()
        .filter(|s| s.visits >= floor.max(1))
        .take(width)
        .map(|s| s.action)
        .collect();
    (result.best, followed)
}

/// A position's book move and the moves the walk follows from it: a deep position's move is
/// its deep search's, which the walk follows too (so the book's own line stays in the book),
/// beside the usual search's candidates (so the walk only gains the deep moves' lines).
fn search(pos: &Position, effort: &Effort, width: usize) -> Searched {
    let (key, symmetry) = canonical(pos).expect("a book position");
    let deep = effort.deep.contains(&key);
    // A deep position the walk does not go on from (width 0) needs only its deep search.
    let (mut best, mut followed) = match (deep, width) {
        (true, 0) => searched_moves(pos, key, effort.deep_iterations, 0),
        _ => searched_moves(pos, key, effort.iterations, width),
    };
    if deep && width > 0 {
        best = searched_moves(pos, key, effort.deep_iterations, 0).0;
        if !followed.contains(&best) {
            followed.push(best);
        }
    }
    Searched {
        key,
        symmetry,
        best,
        followed,
    }
}

/// Searches every position on two threads; results in the positions' order.
fn search_all(positions: &[Position], effort: &Effort, width: usize) -> Vec<Searched> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(pos) = positions.get(i) else { break };
                let searched = search(pos, effort, width);
                done.lock().expect("no thread panicked").push((i, searched));
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panicked");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, s)| s).collect()
}

/// The positions of the deep file: one per line, `start` and then the placements as
/// `common::position` reads them; `#` starts a comment.
fn deep_positions(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let config = Config::new(Variant::Duo, 2, 1);
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| position(line.trim_start_matches("start"), &config))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `--deep FILE ITERS`: the positions of FILE get ITERS iterations each.
    let at = args.iter().position(|a| a == "--deep");
    let deep = at.map(|i| {
        let iters = args.get(i + 2).and_then(|n| n.parse::<u64>().ok());
        (args[i + 1].clone(), iters.expect("--deep FILE ITERS"))
    });
    let plain = &args[1..at.unwrap_or(args.len())];
    let arg = |n: usize, default: u64| -> u64 {
        plain
            .get(n)
            .map(|a| a.parse().expect("ITERS and WIDTH are whole numbers"))
            .unwrap_or(default)
    };
    let (iterations, width, last_width) = (arg(0, 100_000), arg(1, 6) as usize, arg(2, 2) as usize);
    let deep_positions = deep
        .as_ref()
        .map_or(Vec::new(), |(path, _)| deep_positions(path));
    let effort = Effort {
        iterations,
        deep: deep_positions
            .iter()
            .filter_map(canonical)
            .map(|k| k.0)
            .collect(),
        deep_iterations: deep.as_ref().map_or(iterations, |d| d.1),
    };
    let mut frontier = vec![Position::new(&Config::new(Variant::Duo, 2, 1))];
    let mut seen: HashSet<u64> = frontier.iter().filter_map(canonical).map(|k| k.0).collect();
    let mut lines = BTreeMap::new();
    for ply in 0..BOOK_PLIES {
        let width = if ply + 2 == BOOK_PLIES {
            last_width
        } else {
            width
        };
        let searched = search_all(&frontier, &effort, width);
        let mut next = Vec::new();
        for (pos, s) in frontier.iter().zip(&searched) {
            lines.insert(
                s.key,
                format_entry(s.key, &cells_under(&s.best, s.symmetry)),
            );
            for &mv in &s.followed {
                let mut child = pos.clone();
                child.play(mv);
                if let Some((key, _)) = canonical(&child) {
                    if seen.insert(key) {
                        next.push(child);
                    }
                }
            }
        }
        eprintln!("ply {ply}: {} positions searched", frontier.len());
        frontier = next;
    }
    let mut command = format!("{iterations} {width} {last_width}");
    if let Some((path, iters)) = &deep {
        // The deep positions the walk did not reach.
        let unreached: Vec<Position> = deep_positions
            .into_iter()
            .filter(|pos| canonical(pos).is_some_and(|(key, _)| seen.insert(key)))
            .collect();
        for s in search_all(&unreached, &effort, 0) {
            lines.insert(
                s.key,
                format_entry(s.key, &cells_under(&s.best, s.symmetry)),
            );
        }
        eprintln!("{path}: {} more positions searched", unreached.len());
        command += &format!(" --deep {path} {iters}");
    }
    println!(
        "# Blokus Duo opening book: position key, then the move's cells (see bots/mcts/book.rs)."
    );
    println!("# cargo run --release -p realm-blocking --example duo_book -- {command}");
    for line in lines.values() {
        println!("{line}");
    }
}
