//! Builds Blokus Duo's opening book (`data/duo_book.txt`, read by the `mcts` bot; see
//! `bots::book`): from the empty board, breadth first to the book's depth, every position gets
//! a search of a fixed number of iterations (seeded by the position's key, so the file is the
//! same on every machine); its most visited move is the book's move, and the `WIDTH` most
//! visited moves with at least a tenth of the best one's visits lead to the next depth's
//! positions (mirror images merged), `LAST_WIDTH` of them into the book's last depth (whose
//! positions are many). Two threads search at once.
//!
//! `cargo run --release -p realm-blocking --example duo_book -- [ITERS] [WIDTH] [LAST_WIDTH] > crates/blocking/data/duo_book.txt`
//!
//! The defaults (100,000 iterations, 6 and 2) wrote the embedded book: four minutes on two cores.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use realm_blocking::bots::book::{canonical, cells_under, format_entry, BOOK_PLIES};
use realm_blocking::bots::{default_params, BlokusKnowledge};
use realm_blocking::{Config, Placement, Position, Variant};
use realm_search::{Budget, Mcts};

/// The book move and the moves worth following of one position.
struct Searched {
    key: u64,
    symmetry: usize,
    best: Placement,
    followed: Vec<Placement>,
}

fn search(pos: &Position, iterations: u64, width: usize) -> Searched {
    let (key, symmetry) = canonical(pos).expect("a book position");
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
    Searched {
        key,
        symmetry,
        best: result.best,
        followed,
    }
}

/// Searches every position on two threads; results in the positions' order.
fn search_all(positions: &[Position], iterations: u64, width: usize) -> Vec<Searched> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(pos) = positions.get(i) else { break };
                let searched = search(pos, iterations, width);
                done.lock().expect("no thread panicked").push((i, searched));
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panicked");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, s)| s).collect()
}

fn main() {
    let arg = |n: usize, default: u64| -> u64 {
        std::env::args()
            .nth(n)
            .map(|a| a.parse().expect("ITERS and WIDTH are whole numbers"))
            .unwrap_or(default)
    };
    let (iterations, width, last_width) = (arg(1, 100_000), arg(2, 6) as usize, arg(3, 2) as usize);
    let mut frontier = vec![Position::new(&Config::new(Variant::Duo, 2, 1))];
    let mut seen: HashSet<u64> = frontier.iter().filter_map(canonical).map(|k| k.0).collect();
    let mut lines = Vec::new();
    for ply in 0..BOOK_PLIES {
        let width = if ply + 2 == BOOK_PLIES {
            last_width
        } else {
            width
        };
        let searched = search_all(&frontier, iterations, width);
        let mut next = Vec::new();
        for (pos, s) in frontier.iter().zip(&searched) {
            lines.push(format_entry(s.key, &cells_under(&s.best, s.symmetry)));
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
    lines.sort();
    println!(
        "# Blokus Duo opening book: position key, then the move's cells (see bots/mcts/book.rs)."
    );
    println!("# cargo run --release -p realm-blocking --example duo_book -- {iterations} {width} {last_width}");
    for line in lines {
        println!("{line}");
    }
}
