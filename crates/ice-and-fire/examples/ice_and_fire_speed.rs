//! Engine speed in CPU time of this thread (from /proc/thread-self/schedstat): the random
//! player of `playout.rs` playing whole league-4 games (map generation included), and the same
//! games replayed action by action through the `State` contract (`State::apply`), the path the
//! referee and the search use.
//!
//! `cargo run --release -p realm-ice-and-fire --example ice_and_fire_speed [GAMES]`
//!
//! With `--dump FILE`, it also writes the games for an external replayer (issue 19 compares
//! with the official Java logic on identical games): per game a line `GAME seed league`, one
//! line per phase with that phase's commands in protocol text separated by `;` and ending in
//! `WAIT`, and a line `END` with both players' final gold and unit counts, to check that the
//! replay reached the same state.

use std::fmt::Write as _;
use std::hint::black_box;

use realm_core::{chacha_rng, State};
use realm_ice_and_fire::playout::random_attempt;
use realm_ice_and_fire::{Action, GameState, League};

/// CPU nanoseconds consumed by this thread so far.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// One random game as `playout::random_game` plays it, keeping its actions (`End` between
/// phases).
fn record(seed: i64, league: League, rng: &mut impl rand_core::RngCore) -> Vec<Action> {
    let mut state = GameState::new(seed, league);
    let mut actions = Vec::new();
    while state.ending().is_none() {
        for _ in 0..realm_ice_and_fire::playout::ATTEMPTS_PER_PHASE {
            if let Some(action) = random_attempt(&state, rng.next_u64()) {
                state.apply_unchecked(&action);
                actions.push(action);
                if state.ending().is_some() {
                    return actions;
                }
            }
        }
        state.end_phase();
        actions.push(Action::End);
    }
    actions
}

/// The dump of one game (see the module comment).
fn dump(seed: i64, league: League, actions: &[Action]) -> String {
    let mut state = GameState::new(seed, league);
    let mut out = format!("GAME {seed} 4\n");
    let mut phase = Vec::new();
    for action in actions {
        phase.push(state.command(action));
        state.apply(action);
        if *action == Action::End {
            writeln!(out, "{}", phase.join(";")).expect("string");
            phase.clear();
        }
    }
    if !phase.is_empty() {
        phase.push("WAIT".to_string());
        writeln!(out, "{}", phase.join(";")).expect("string");
    }
    let units = |p| state.units(p).len();
    writeln!(
        out,
        "END {} {} {} {}",
        state.gold(0),
        state.gold(1),
        units(0),
        units(1)
    )
    .expect("string");
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: i64 = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .map_or(500, |a| a.parse().expect("GAMES is a number"));
    let dump_to = args
        .iter()
        .position(|a| a == "--dump")
        .map(|i| args.get(i + 1).expect("--dump FILE").clone());
    let league = League::new(4).expect("league 4");
    let mut rng = chacha_rng(19, 0);
    let recorded: Vec<Vec<Action>> = (1..=games).map(|s| record(s, league, &mut rng)).collect();
    let n_actions: usize = recorded.iter().map(Vec::len).sum();

    // The random player itself, seeds 1..=games, repeated for a CPU second.
    let t0 = cpu_ns();
    let mut played = 0u64;
    while cpu_ns() - t0 < 1_000_000_000 {
        let mut rng = chacha_rng(19, 0);
        for seed in 1..=games {
            black_box(realm_ice_and_fire::playout::random_game(
                seed, league, &mut rng,
            ));
            played += 1;
        }
    }
    let direct = played as f64 / ((cpu_ns() - t0) as f64 / 1e9);

    // The same games through `State::apply`.
    let t0 = cpu_ns();
    let mut replayed = 0u64;
    while cpu_ns() - t0 < 1_000_000_000 {
        for (seed, actions) in (1..=games).zip(&recorded) {
            let mut state = GameState::new(seed, league);
            for action in actions {
                state.apply(action);
            }
            black_box(state.outcome());
            replayed += 1;
        }
    }
    let through_state = replayed as f64 / ((cpu_ns() - t0) as f64 / 1e9);
    println!(
        "league 4: {direct:.0} games/s random player, {through_state:.0} games/s replayed through State ({:.0} actions a game)",
        n_actions as f64 / games as f64
    );
    if let Some(path) = dump_to {
        let text: String = (1..=games)
            .zip(&recorded)
            .map(|(seed, actions)| dump(seed, league, actions))
            .collect();
        std::fs::write(&path, text).expect("writable dump file");
        println!("wrote {games} games to {path}");
    }
}
