//! Training data for the learned move prior (`bots::mcts::prior`): replays recorded Blokus Duo
//! or Classic games and writes, for every position, the features of the move played and of up to K other
//! legal moves drawn at random, as binary rows for `tools/fit_blocking_prior.py`.
//!
//! `cargo run --release -p realm-blocking --example prior_data -- GAMES.txt [K] > rows.bin`
//!
//! With `eval` for K it writes no rows but reports how often the move played is among the
//! first 1, 5, 20 and 50 moves of each order the search can use (the learned prior and the
//! size-then-contact order).
//!
//! A game is one line: an id, then each move as `COLOUR:SQUARES` in GTP notation
//! (`b:e8,d9,e9,f9,e10`, `w:pass`; Classic's colours `1` to `4`): columns `a`.. from the left,
//! rows 1.. from the bottom.
//! Each row is: position number (u32, little-endian), chosen (u8), legal moves (u16), then
//! the `N_FEATURES` feature counts (u8 each).

use std::io::{BufRead, Write};

use rand_core::RngCore;
use realm_blocking::bots::{contact_value, PriorContext, N_FEATURES};
use realm_blocking::rules::{Placement, Position};
use realm_blocking::setup::{Config, Variant};

fn squares(text: &str, n: usize) -> Option<Vec<(usize, usize)>> {
    let mut out: Vec<(usize, usize)> = text
        .split(',')
        .map(|sq| {
            let x = (sq.as_bytes()[0] - b'a') as usize;
            let row: usize = sq[1..].parse().ok()?;
            (x < n && (1..=n).contains(&row)).then_some((x, n - row))
        })
        .collect::<Option<_>>()?;
    out.sort();
    Some(out)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: prior_data GAMES.txt [K]");
    let eval = args.get(1).is_some_and(|a| a == "eval");
    let k: usize = if eval {
        0
    } else {
        args.get(1).map_or(40, |s| s.parse().expect("K"))
    };
    let mut ranks: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("games file"));
    let mut rng = realm_core::chacha_rng(7, 0);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut group, mut skipped) = (0u32, 0usize);
    let mut legal = Vec::new();
    let mut features = [0u8; N_FEATURES];
    for line in file.lines() {
        let line = line.expect("read");
        // Pentobi's Classic colours are `1` to `4` (realm's players 0 to 3), Duo's `b` and `w`.
        let classic = line
            .split_whitespace()
            .nth(1)
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()));
        let config = if classic {
            Config::new(Variant::Classic, 4, 1)
        } else {
            Config::new(Variant::Duo, 2, 1)
        };
        let mut pos = Position::new(&config);
        let mut rows: Vec<u8> = Vec::new();
        let mut ok = true;
        for token in line.split_whitespace().skip(1) {
            let (colour, sqs) = token.split_once(':').expect("COLOUR:SQUARES");
            if sqs == "pass" {
                continue;
            }
            let player = match colour {
                "b" => 0,
                "w" => 1,
                digit => digit.parse::<usize>().expect("a colour: b, w or 1-4") - 1,
            };
            let Some(target) = squares(sqs, pos.size()) else {
                ok = false;
                break;
            };
            if pos.current() != Some(player) {
                ok = false;
                break;
            }
            legal.clear();
            pos.generate(player, &mut legal);
            let cells_of = |m: &Placement| {
                let mut c: Vec<_> = m.cells().collect();
                c.sort();
                c
            };
            let Some(chosen) = legal.iter().position(|m| cells_of(m) == target) else {
                ok = false;
                break;
            };
            let ctx = PriorContext::new(&pos).expect("a player to move");
            if eval {
                let learned: Vec<f32> = legal.iter().map(|&m| ctx.score(m)).collect();
                let contact: Vec<f32> = legal
                    .iter()
                    .map(|&m| (m.shape().n as i32 * 1000 + contact_value(&pos, m)) as f32)
                    .collect();
                for (slot, keys) in [learned, contact].iter().enumerate() {
                    let mine = keys[chosen];
                    let above = keys.iter().filter(|&&v| v > mine).count() as f64;
                    let ties = keys.iter().filter(|&&v| v == mine).count() as f64 - 1.0;
                    ranks[slot].push(above + ties / 2.0);
                }
            }
            let mut emit = |index: usize, is_chosen: bool, rows: &mut Vec<u8>| {
                ctx.features(legal[index], &mut features);
                rows.extend_from_slice(&group.to_le_bytes());
                rows.push(is_chosen as u8);
                rows.extend_from_slice(&(legal.len() as u16).to_le_bytes());
                rows.extend_from_slice(&features);
            };
            emit(chosen, true, &mut rows);
            let others = legal.len() - 1;
            for _ in 0..k.min(others) {
                let mut j = (rng.next_u64() % others as u64) as usize;
                if j >= chosen {
                    j += 1;
                }
                emit(j, false, &mut rows);
            }
            group += 1;
            pos.play(legal[chosen]);
        }
        if !ok {
            skipped += 1;
        } else if !eval {
            out.write_all(&rows).expect("write");
        }
    }
    eprintln!("{group} positions, {skipped} games skipped");
    if eval {
        for (name, r) in ["learned", "size then contact"].iter().zip(&ranks) {
            let share = |k: f64| r.iter().filter(|&&v| v < k).count() as f64 / r.len() as f64;
            eprintln!(
                "{name}: played move in the first 1 / 5 / 20 / 50: {:.1}% / {:.1}% / {:.1}% / {:.1}%",
                100.0 * share(1.0),
                100.0 * share(5.0),
                100.0 * share(20.0),
                100.0 * share(50.0)
            );
        }
    }
}
