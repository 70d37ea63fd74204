//! Engine speed in CPU time of this thread (from /proc/thread-self/schedstat): the random
//! player of `playout.rs` playing whole league-4 games (map generation included), and the same
//! games replayed action by action through the `State` contract (`State::apply`), the path the
//! referee and the search use.
//!
//! The same games are also replayed from their command text: parsed by the referee's parser
//! and played with the rules' checks (the work the official Java referee does on an answer
//! line), and through realm's whole referee, which also builds every phase's input text.
//!
//! Last, uniform playouts through the `State` contract (`State::random_action` until the
//! game ends): a different distribution (every legal action equally likely, `End` included),
//! so its games are longer, and it is compared with the random player per action.
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

use realm_core::{chacha_rng, random_playout, Referee, State};
use realm_ice_and_fire::playout::random_attempt;
use realm_ice_and_fire::protocol::{parse_line, Command};
use realm_ice_and_fire::{Action, Cell, GameState, IceAndFireReferee, League};

/// CPU nanoseconds consumed by this thread so far.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Games per CPU second of `play(seed)` over seeds 1..=`games`, repeated for a CPU second.
fn games_per_second(games: i64, mut play: impl FnMut(i64)) -> f64 {
    let t0 = cpu_ns();
    let mut played = 0u64;
    while cpu_ns() - t0 < 1_000_000_000 {
        for seed in 1..=games {
            play(seed);
            played += 1;
        }
    }
    played as f64 / ((cpu_ns() - t0) as f64 / 1e9)
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

/// The answer line of each phase of a recorded game (`;`-separated commands, then `WAIT`),
/// and the final state.
fn phase_lines(seed: i64, league: League, actions: &[Action]) -> (Vec<String>, GameState) {
    let mut state = GameState::new(seed, league);
    let mut lines = Vec::new();
    let mut phase = Vec::new();
    for action in actions {
        phase.push(state.command(action));
        state.apply(action);
        if *action == Action::End {
            lines.push(phase.join(";"));
            phase.clear();
        }
    }
    if !phase.is_empty() {
        phase.push("WAIT".to_string());
        lines.push(phase.join(";"));
    }
    (lines, state)
}

/// The `State` action of a parsed command (`None` for `WAIT` and `MSG`).
fn action_of(state: &GameState, command: &Command) -> Option<Action> {
    let cell = |x: u32, y: u32| Cell::checked(i64::from(x), i64::from(y)).expect("on the map");
    match *command {
        Command::Wait | Command::Msg(_) => None,
        Command::Move { id, x, y } => Some(Action::Move {
            from: state.unit_by_id(id).expect("a live unit").cell,
            to: cell(x, y),
        }),
        Command::Train { level, x, y } => Some(Action::Train {
            level: level as u8,
            at: cell(x, y),
        }),
        Command::Build { kind, x, y } => Some(Action::Build {
            kind,
            at: cell(x, y),
        }),
    }
}

/// The dump of one game (see the module comment).
fn dump(seed: i64, league: League, actions: &[Action]) -> String {
    let (lines, state) = phase_lines(seed, league, actions);
    let mut out = format!("GAME {seed} 4\n");
    for line in lines {
        writeln!(out, "{line}").expect("string");
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

    // The random player itself, seeds 1..=games.
    let mut rng = chacha_rng(19, 0);
    let direct = games_per_second(games, |seed| {
        if seed == 1 {
            rng = chacha_rng(19, 0);
        }
        black_box(realm_ice_and_fire::playout::random_game(
            seed, league, &mut rng,
        ));
    });

    // The same games through `State::apply`.
    let through_state = games_per_second(games, |seed| {
        let mut state = GameState::new(seed, league);
        for action in &recorded[seed as usize - 1] {
            state.apply(action);
        }
        black_box(state.outcome());
    });

    // The same games from their text, through the referee.
    let texts: Vec<Vec<String>> = (1..=games)
        .zip(&recorded)
        .map(|(seed, actions)| phase_lines(seed, league, actions).0)
        .collect();
    let through_referee = games_per_second(games, |seed| {
        let mut referee = IceAndFireReferee::new(GameState::new(seed, league));
        for line in &texts[seed as usize - 1] {
            let Some(request) = referee.next_request() else {
                break;
            };
            black_box(referee.answer(request.player, std::slice::from_ref(line)));
        }
        black_box(referee.outcome());
    });

    // The same games from their text: parsed, then played with the rules' checks.
    let from_text = games_per_second(games, |seed| {
        let mut state = GameState::new(seed, league);
        for line in &texts[seed as usize - 1] {
            for (command, _) in parse_line(line).expect("recorded lines parse") {
                if let Some(action) = action_of(&state, &command) {
                    state.play(&action).expect("recorded actions are legal");
                }
            }
            state.end_phase();
            if state.ending().is_some() {
                break;
            }
        }
        black_box(state.outcome());
    });
    println!(
        "league 4 ({:.0} actions a game), games/s: random player {direct:.0}, replayed through State {through_state:.0}, from the text {from_text:.0}, through the referee {through_referee:.0}",
        n_actions as f64 / games as f64
    );
    // Uniform playouts through `State`, seeds 1..=games.
    let mut buf = Vec::new();
    let mut uniform_actions = 0usize;
    let mut uniform_games = 0usize;
    let uniform = games_per_second(games, |seed| {
        let mut state = GameState::new(seed, league);
        uniform_actions += random_playout(&mut state, &mut rng, &mut buf);
        uniform_games += 1;
    });
    let per_game = uniform_actions as f64 / uniform_games as f64;
    println!(
        "actions/s: random player {:.2} M; uniform playouts through State {:.2} M ({uniform:.0} games/s, {per_game:.0} actions a game)",
        direct * n_actions as f64 / games as f64 / 1e6,
        uniform * per_game / 1e6,
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
