//! The example bots under `examples/bots/` (the templates the README points newcomers to) play
//! whole games through the documented protocol without a single fault.

mod common;

use std::path::PathBuf;

use common::{run, stderr};
use realm_core::Replay;

/// `realm play GAME "python3 examples/bots/FILE" builtin:greedy EXTRA...` and its replay.
fn play_example(game: &str, file: &str, extra: &[&str]) -> Replay {
    let dir = tempfile::tempdir().unwrap();
    let bot_path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/bots")
        .join(file);
    let bot = format!("python3 {}", bot_path.display());
    let mut args = vec!["play", game, &bot, "builtin:greedy", "--seed", "1"];
    // Not about time: a loaded machine must not turn a slow Python answer into a timeout.
    args.extend_from_slice(&["--no-timeout", "--replay", "r.json"]);
    args.extend_from_slice(extra);
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{game}: {}", stderr(&out));
    serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap()
}

/// Every call of the example bot (seat 0) was answered without a fault, up to the game's end.
fn assert_played_cleanly(replay: &Replay) {
    assert_eq!(replay.outcome.faults[0], None, "{:?}", replay.outcome);
    let calls = replay.turns.iter().filter(|t| t.player == 0).count();
    assert!(calls > 5, "the bot played a whole game, not {calls} calls");
    assert!(
        replay
            .turns
            .iter()
            .filter(|t| t.player == 0)
            .all(|t| !t.verdict.is_fault()),
        "no call of the example bot faulted"
    );
}

#[test]
fn the_kingdomino_example_plays_a_whole_game() {
    assert_played_cleanly(&play_example("kingdomino", "kingdomino.py", &[]));
    assert_played_cleanly(&play_example(
        "kingdomino",
        "kingdomino.py",
        &["--variant", "duel"],
    ));
}

#[test]
fn the_blocking_example_plays_a_whole_game() {
    assert_played_cleanly(&play_example("blocking", "blocking.py", &[]));
    assert_played_cleanly(&play_example(
        "blocking",
        "blocking.py",
        &["--variant", "duo"],
    ));
}

#[test]
fn the_ice_and_fire_example_plays_a_whole_game() {
    for league in ["1", "4"] {
        assert_played_cleanly(&play_example(
            "ice-and-fire",
            "ice_and_fire.py",
            &["--league", league],
        ));
    }
}

#[test]
fn the_carcassonne_example_plays_a_whole_game() {
    assert_played_cleanly(&play_example("carcassonne", "carcassonne.py", &[]));
    assert_played_cleanly(&play_example(
        "carcassonne",
        "carcassonne.py",
        &["--league", "1"],
    ));
}

#[test]
fn the_kingdom_builder_example_plays_a_whole_game() {
    assert_played_cleanly(&play_example("kingdom-builder", "kingdom_builder.py", &[]));
    assert_played_cleanly(&play_example(
        "kingdom-builder",
        "kingdom_builder.py",
        &["--league", "1"],
    ));
}
