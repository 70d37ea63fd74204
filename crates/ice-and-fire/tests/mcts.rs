//! `builtin:mcts`: it takes a win that is affordable and does not try one it cannot pay for,
//! and stops a chain the opponent could pay for next phase (positions written as the
//! protocol text a bot reads); every command it sends is accepted, over whole games in every
//! league.

mod common;

use realm_core::LinesInput;
use realm_ice_and_fire::new_bot;

/// One phase's input: no mine spots; the bot owns every cell but the enemy's HQ corner
/// (11, 11) and the two cells next to it; both HQs stand; no units.
fn position(gold: i32) -> Vec<String> {
    let mut lines = vec!["0".to_string()];
    lines.extend([gold.to_string(), "20".into(), "0".into(), "3".into()]);
    for y in 0..12 {
        let row: String = (0..12)
            .map(|x| match (x, y) {
                (11, 11) | (10, 11) | (11, 10) => 'X',
                _ => 'O',
            })
            .collect();
        lines.push(row);
    }
    lines.extend(["2".into(), "0 0 0 0".into(), "1 0 11 11".into(), "0".into()]);
    lines
}

fn answer(gold: i32) -> String {
    let mut bot = new_bot("mcts:iters=200", 7, Some(4)).unwrap();
    let lines = position(gold);
    bot.play_turn(&mut LinesInput::new(&lines))
        .unwrap()
        .join("\n")
}

#[test]
fn the_bot_captures_the_hq_when_it_can_pay_for_it() {
    // TRAIN 1 on a cell next to the HQ (10 gold), then TRAIN 1 on the HQ (10 gold).
    let line = answer(20);
    let commands: Vec<&str> = line.split(';').map(str::trim).collect();
    assert!(commands.contains(&"TRAIN 1 11 11"), "{line}");
}

#[test]
fn the_bot_does_not_try_a_chain_it_cannot_pay_for() {
    // 19 gold pays for one unit, not the two the chain needs.
    let line = answer(19);
    assert!(!line.contains("TRAIN 1 11 11"), "{line}");
}

#[test]
fn the_bot_stops_a_chain_the_opponent_could_pay_for_next_phase() {
    // Nothing is lost this phase: the threat is in the opponent's next one.
    common::stops_a_chain_the_opponent_could_pay_for("mcts:iters=400");
}

#[test]
fn every_command_is_accepted_in_every_league() {
    common::every_command_is_accepted("mcts:iters=60", 40);
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let err = new_bot("mcts:iters=0x", 0, None).err().unwrap().to_string();
    assert_eq!(
        err,
        "built-in bot `mcts:iters=0x` of ice-and-fire: option `iters`: `0x` is not a positive \
         whole number"
    );
}
