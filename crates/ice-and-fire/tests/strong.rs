//! `builtin:strong` in positions written as the protocol text a bot reads: it wins with a
//! chain that costs exactly its gold (unit levels included) and does not try one it is a gold
//! short of, uses a unit's move to make a chain affordable, takes the single cell whose
//! capture cuts most of the enemy territory off, and stops a chain the opponent could pay
//! for next phase. Every command it sends is accepted, over whole games in every league.

mod common;

use common::{after_answer, position};
use realm_core::LinesInput;
use realm_ice_and_fire::bots::chain_cost;
use realm_ice_and_fire::new_bot;

/// A deterministic budget: valuations only, no clock.
const BOT: &str = "strong:evals=20000";

fn answer(lines: &[String]) -> String {
    let mut bot = new_bot(BOT, 7, Some(4)).unwrap();
    bot.play_turn(&mut LinesInput::new(lines))
        .unwrap()
        .join("\n")
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
    common::stops_a_chain_the_opponent_could_pay_for(BOT);
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

/// The enemy block x 8..=11, y 0..=5 (24 cells, three units) reaches its HQ only through
/// (9, 6), where an enemy level-1 unit stands (a level-2 train, 20 gold, takes it). Only the
/// bot's unit at (7, 6) can open the way: its move to the neutral (8, 6) makes (9, 6) a cell
/// the bot may train on. An enemy level-2 unit at (8, 5) could take the unit on (8, 6), so
/// the move alone is worth little; a small cut, (5, 11), kills one enemy unit for 10 gold.
const MOVE_CUT: [&str; 12] = [
    "OOOOOO##XXXX",
    "OOOOOO##XXXX",
    "OOOOOO##XXXX",
    "OOOOOO##XXXX",
    "OOOOOO##XXXX",
    "OOOOOO##XXXX",
    "OOOOOOOO.X##",
    "OOOOOOO..XXX",
    "OOOOOOO....X",
    "OOOOOOO....X",
    "OOOOOOO....X",
    "OOOOXXXXXXXX",
];
const MOVE_CUT_UNITS: [(u8, u32, u8, u32, u32); 6] = [
    (0, 1, 1, 7, 6),
    (1, 2, 1, 9, 6),
    (1, 3, 2, 8, 5),
    (1, 4, 1, 10, 2),
    (1, 5, 1, 11, 4),
    (1, 6, 1, 4, 11),
];

#[test]
fn the_bot_moves_a_unit_to_open_a_cut_that_kills_more_than_it_costs() {
    let lines = position([20, 0], MOVE_CUT, &MOVE_CUT_UNITS);
    // One plan grown, no blocking plans: only the candidate lines decide.
    let with = |cuts: u32| {
        let mut bot = new_bot(
            &format!("strong:evals=20000,plans=1,blocks=0,cuts={cuts}"),
            7,
            Some(4),
        )
        .unwrap();
        bot.play_turn(&mut LinesInput::new(&lines))
            .unwrap()
            .join("")
    };
    let line = with(1);
    assert!(line.starts_with("MOVE 1 8 6;TRAIN 2 9 6"), "{line}");
    let mut state = after_answer(&lines, &line);
    state.end_phase();
    assert_eq!(state.units(1).len(), 1, "only the unit on (4, 11) is left");
    // Without move-then-cut lines, the small cut comes first and the gold is gone.
    let line = with(0);
    assert!(!line.contains("TRAIN 2 9 6"), "{line}");
}

/// Every answer of a whole league-4 game between two `strong` bots with a valuation budget
/// and no clock.
fn game_answers(bot: &str) -> Vec<String> {
    use realm_core::MatchSpec;
    use realm_ice_and_fire::new_referee;
    let spec = MatchSpec::new("ice-and-fire", 2, 1234).with_league(4);
    let mut referee = new_referee(&spec).unwrap();
    let mut bots: Vec<_> = (0..2).map(|i| new_bot(bot, i, Some(4)).unwrap()).collect();
    let mut answers = Vec::new();
    while let Some(req) = referee.next_request() {
        let out = bots[req.player]
            .play_turn(&mut LinesInput::new(&req.lines))
            .unwrap();
        referee.answer(req.player, &out);
        answers.extend(out);
    }
    answers
}

#[test]
fn with_a_valuation_budget_and_no_clock_a_whole_game_is_played_the_same_twice() {
    let bot = "strong:evals=4000";
    let first = game_answers(bot);
    assert!(first.len() > 10, "{first:?}");
    assert_eq!(first, game_answers(bot));
    // The budget decides: a much smaller one plays another game.
    assert_ne!(first, game_answers("strong:evals=300"));
}

#[test]
fn the_bot_builds_the_tower_that_alone_stops_the_enemy_chain() {
    // With 25 gold the enemy has 45 next phase, and its unit on (3, 0) steps into (2, 0) for
    // free: the chain costs 20. A unit of the bot's on it makes it 30 or 40; only a tower
    // (15 gold, all the bot has) next to (2, 0) keeps the unit out and makes each cell near
    // it need a level 3. The unit also keeps the bot from taking (3, 0) with 15 gold.
    let line = common::stops_the_enemy_chain(BOT, [15, 25], &[(1, 1, 1, 3, 0)]);
    assert!(line.contains("BUILD TOWER"), "{line}");
}

#[test]
fn the_bot_does_not_play_greedys_economy_plan_that_leaves_a_chain_for_next_phase() {
    // The position of the chain test with 14 gold for the bot (no tower): greedy trains a unit
    // on the frontier nearest the enemy HQ and leaves the enemy's 30-gold chain against its 35
    // gold; a unit on the chain makes it 40.
    let lines = position([14, 15], common::CHAIN_ROWS, &[]);
    let mut greedy = new_bot("greedy", 7, Some(4)).unwrap();
    let line = greedy
        .play_turn(&mut LinesInput::new(&lines))
        .unwrap()
        .join("");
    let mut state = after_answer(&lines, &line);
    state.end_phase();
    assert!(
        chain_cost(&state, 1) <= state.gold(1),
        "greedy's `{line}` was meant to lose"
    );
    common::stops_the_enemy_chain(BOT, [14, 15], &[]);
}

#[test]
fn where_every_plan_loses_the_bot_still_plays_rather_than_waits() {
    // The enemy's 30-gold chain against its 120 gold next phase: nothing the bot's 10 gold buy
    // stops it, so every plan values the same lost position. Of equal plans the bot answers
    // greedy's (a train), as it always did, not the empty one: the valuation's chain counts
    // every enemy step as free, so a position it calls lost may still be played on.
    let lines = position([10, 100], common::CHAIN_ROWS, &[]);
    let line = answer(&lines);
    assert_ne!(line, "WAIT");
    assert!(line.starts_with("TRAIN 1 "), "{line}");
}
