//! `builtin:strong` in positions written as the protocol text a bot reads: it wins with a
//! chain that costs exactly its gold (unit levels included) and does not try one it is a gold
//! short of, uses a unit's move to make a chain affordable, takes the single cell whose
//! capture cuts most of the enemy territory off, and stops a chain the opponent could pay
//! for next phase. Every command it sends is accepted, over whole games in every league.

mod common;

use realm_core::{LinesInput, VerdictKind};
use realm_ice_and_fire::bots::{chain_cost, Tracker};
use realm_ice_and_fire::rules::{GameState, HQ};
use realm_ice_and_fire::{new_bot, IceAndFireReferee};

/// A deterministic budget: valuations only, no clock.
const BOT: &str = "strong:evals=20000";

/// One phase's input for the bot (player 0, HQ at 0 0): no mine spots, the rows as drawn
/// (`O` own, `X` enemy, `.` neutral), both HQs and the units `(owner, id, level, x, y)`.
fn position(gold: [i32; 2], rows: [&str; 12], units: &[(u8, u32, u8, u32, u32)]) -> Vec<String> {
    let mut lines = vec!["0".to_string()];
    let count = |c: char| rows.iter().map(|r| r.matches(c).count()).sum::<usize>();
    lines.extend([
        gold[0].to_string(),
        count('O').to_string(),
        gold[1].to_string(),
        count('X').to_string(),
    ]);
    lines.extend(rows.iter().map(|r| r.to_string()));
    lines.extend(["2".into(), "0 0 0 0".into(), "1 0 11 11".into()]);
    lines.push(units.len().to_string());
    lines.extend(
        units
            .iter()
            .map(|(o, id, l, x, y)| format!("{o} {id} {l} {x} {y}")),
    );
    lines
}

fn answer(lines: &[String]) -> String {
    let mut bot = new_bot(BOT, 7, Some(4)).unwrap();
    bot.play_turn(&mut LinesInput::new(lines))
        .unwrap()
        .join("\n")
}

/// The bot's model of `lines` with its answer played on it by the referee's own line
/// execution, which must accept every command.
fn after_answer(lines: &[String], answer: &str) -> GameState {
    let mut tracker = Tracker::new(Some(4));
    let (state, _) = tracker.read(&mut LinesInput::new(lines)).unwrap();
    let mut referee = IceAndFireReferee::new(state);
    let verdict = referee.execute_line(answer);
    assert_eq!(verdict.kind, VerdictKind::Ok, "`{answer}`: {verdict:?}");
    referee.state().clone()
}

/// Everything is the bot's but the enemy HQ corner, whose two neighbours hold enemy level-1
/// units: entering either needs a level-2 unit (20 gold), then the HQ a level-1 (10 gold).
const CORNER: [&str; 12] = [
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOO",
    "OOOOOOOOOOOX",
    "OOOOOOOOOOXX",
];
const CORNER_GUARDS: [(u8, u32, u8, u32, u32); 2] = [(1, 1, 1, 11, 10), (1, 2, 1, 10, 11)];

#[test]
fn the_finisher_wins_with_exactly_the_gold_the_chain_costs() {
    let lines = position([30, 0], CORNER, &CORNER_GUARDS);
    let line = answer(&lines);
    assert!(line.contains("TRAIN 1 11 11"), "{line}");
    assert!(
        line.contains("TRAIN 2 11 10") || line.contains("TRAIN 2 10 11"),
        "{line}"
    );
    assert!(after_answer(&lines, &line).ending().is_some());
}

#[test]
fn the_finisher_does_not_try_a_chain_it_is_one_gold_short_of() {
    let lines = position([29, 0], CORNER, &CORNER_GUARDS);
    let line = answer(&lines);
    assert!(!line.contains("11 11"), "{line}");
    assert!(after_answer(&lines, &line).ending().is_none());
}

#[test]
fn the_finisher_moves_a_unit_to_make_the_chain_affordable() {
    // The bot's level-2 unit next to both guards can kill one by moving (free); the HQ
    // then costs a level-1 train: 10 gold, against 30 for trains alone.
    let mut units = CORNER_GUARDS.to_vec();
    units.push((0, 3, 2, 10, 10));
    let lines = position([10, 0], CORNER, &units);
    let line = answer(&lines);
    assert!(line.starts_with("MOVE 3 "), "{line}");
    assert!(line.ends_with("TRAIN 1 11 11"), "{line}");
    assert!(after_answer(&lines, &line).ending().is_some());
}

#[test]
fn the_bot_takes_the_cell_that_cuts_most_of_the_enemy_territory_off() {
    // The enemy block x 5..=10, y 0..=5 (36 cells, four units) reaches its HQ only through
    // (5, 6); the bot's cell (4, 6) touches it. Ten gold pay for one level-1 train. No side
    // can win soon: the enemy has no gold and the chains cost 50 or more.
    let rows = [
        "OOOO.XXXXXX.",
        "OOOO.XXXXXX.",
        "OOOO.XXXXXX.",
        "OOOO.XXXXXX.",
        "OOOO.XXXXXX.",
        "OOOO.XXXXXX.",
        "OOOOOX......",
        "OOOO.XXXXXXX",
        "OOOO.......X",
        "OOOO.......X",
        "OOOO.......X",
        "OOOO.......X",
    ];
    let units = [
        (1, 1, 1, 6, 1),
        (1, 2, 1, 7, 2),
        (1, 3, 1, 8, 3),
        (1, 4, 1, 9, 4),
    ];
    let lines = position([10, 0], rows, &units);
    let line = answer(&lines);
    assert!(line.contains("TRAIN 1 5 6"), "{line}");
    let mut state = after_answer(&lines, &line);
    state.end_phase();
    assert!(state.units(1).is_empty(), "the cut-off units die");
    assert_eq!(state.active(1).count(), 11, "row 7 and column 11 are left");
}

#[test]
fn the_bot_stops_a_chain_the_opponent_could_pay_for_next_phase() {
    // The enemy holds row 0 from x 3 and column 11 (20 cells: income 20) and has 15 gold:
    // 35 next phase, and its chain (2, 0), (1, 0), (0, 0) costs 30.
    let rows = [
        "OOOXXXXXXXXX",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
        "OOO........X",
    ];
    let lines = position([20, 15], rows, &[]);
    let mut tracker = Tracker::new(Some(4));
    let (before, _) = tracker.read(&mut LinesInput::new(&lines)).unwrap();
    assert_eq!(chain_cost(&before, 1), 30, "the threat is real");

    let line = answer(&lines);
    let mut state = after_answer(&lines, &line);
    state.end_phase();
    assert_eq!(state.player(), 1);
    assert!(
        chain_cost(&state, 1) > state.gold(1),
        "`{line}` leaves a chain of {} against {} gold",
        chain_cost(&state, 1),
        state.gold(1)
    );
    assert!(state.owned(0).has(HQ[0]));
}

#[test]
fn every_command_is_accepted_in_every_league() {
    common::every_command_is_accepted("strong:evals=3000", 60);
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let err = new_bot("strong:cell=-1", 0, None)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        err,
        "built-in bot `strong:cell=-1` of ice-and-fire: option `cell`: `-1` is not a \
         non-negative number"
    );
    let err = new_bot("strong:depth=3", 0, None)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("unknown option `depth`"), "{err}");
}
