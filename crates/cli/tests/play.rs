//! `realm play`, `realm bot`, `realm referee` and `realm score` as a user runs them, with real
//! child processes: a Python bot that plays from the protocol alone, and bots that misbehave
//! in every way the brief lists. Each must end with the right fault and leave no process.

mod common;

use std::fs;

use common::{live_processes_with, python_bot, run, stderr, stdout};
use realm_core::{FaultKind, Replay};

fn play(dir: &std::path::Path, bots: &[&str], extra: &[&str]) -> (String, Replay) {
    let replay = dir.join("r.json");
    let mut args = vec!["play", "kingdomino"];
    args.extend_from_slice(bots);
    args.extend_from_slice(&["--seed", "1", "--replay", replay.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let out = run(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: Replay = serde_json::from_slice(&fs::read(&replay).unwrap()).unwrap();
    (stdout(&out), replay)
}

fn fault_kind(replay: &Replay, seat: usize) -> Option<FaultKind> {
    replay.outcome.faults[seat].as_ref().map(|f| f.kind)
}

#[test]
fn builtin_bots_play_and_the_replay_is_byte_identical_on_a_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let (summary, replay) = play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert!(summary.contains("replay: "), "{summary}");
    assert!(summary.contains("builtin:greedy"), "{summary}");
    assert_eq!(replay.turns.len(), 28, "2 players: 7 turns of 4 calls");
    let first = fs::read(dir.path().join("r.json")).unwrap();
    play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert_eq!(first, fs::read(dir.path().join("r.json")).unwrap());
}

#[test]
fn kingdomino_leagues_above_three_play_as_league_three() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:greedy", "builtin:random"];
    let (_, top) = play(dir.path(), &bots, &["--league", "3"]);
    let (summary, higher) = play(dir.path(), &bots, &["--league", "7"]);
    assert!(summary.contains("builtin:greedy"), "{summary}");
    assert_eq!(higher.outcome, top.outcome);
    let inputs = |r: &Replay| r.turns.iter().map(|t| t.input.clone()).collect::<Vec<_>>();
    assert!(
        inputs(&higher) == inputs(&top),
        "league 7 played differently from 3"
    );
}

#[test]
fn a_python_bot_plays_a_whole_game_from_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:greedy"], &[]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
    assert_eq!(replay.turns.len(), 28);
    let mine: Vec<_> = replay.turns.iter().filter(|t| t.player == 0).collect();
    assert_eq!(
        mine[0].input.len(),
        2 + 18 + 8,
        "initial lines, two grids, two tile lines"
    );
    assert_eq!(mine[0].input[0], "2");
    assert!(
        mine[2].stderr.starts_with("placed at PUT"),
        "{:?}",
        mine[2].stderr
    );
    assert!(replay.outcome.scores[0] > 0);
}

#[test]
fn a_bot_that_sleeps_past_the_limit_is_eliminated_for_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--misbehave sleep 4");
    let started = std::time::Instant::now();
    let (summary, replay) = play(dir.path(), &[&bot, "builtin:greedy"], &[]);
    assert_eq!(
        fault_kind(&replay, 0),
        Some(FaultKind::Timeout),
        "{summary}"
    );
    let fault = replay.outcome.faults[0].as_ref().unwrap();
    assert_eq!(
        fault.detail,
        "no complete answer within 50 ms (0 of 2 lines)"
    );
    assert!(summary.contains("fault: seat 0"), "{summary}");
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn a_bot_that_crashes_mid_game_is_recorded_with_its_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--misbehave crash 3");
    let (_, replay) = play(dir.path(), &["builtin:greedy", &bot], &[]);
    let fault = replay.outcome.faults[1].as_ref().unwrap();
    assert_eq!(fault.kind, FaultKind::Crashed);
    assert!(
        fault.detail.contains("exit status: 3") && fault.detail.contains("about to crash"),
        "{}",
        fault.detail
    );
}

#[test]
fn a_bot_printing_garbage_is_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--misbehave garbage 2");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:greedy"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Malformed));
    let faulted = replay.turns.iter().find(|t| t.verdict.is_fault()).unwrap();
    assert_eq!(faulted.output, vec!["hello", "world"]);
}

#[test]
fn a_bot_that_prints_nothing_and_exits_has_crashed() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--misbehave quit 1");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Crashed));
    assert_eq!(replay.outcome.faults[0].as_ref().unwrap().turn, 1);
}

#[test]
fn a_flooding_bot_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--misbehave flood 2");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert!(replay.outcome.faults[0].is_some(), "{:?}", replay.outcome);
}

#[test]
fn a_child_that_sleeps_forever_dies_with_its_bot() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("--spawn 7771");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
    assert_eq!(live_processes_with("sleep 7771"), Vec::<String>::new());
    let bot = python_bot("--spawn 7772 --misbehave sleep 2");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Timeout));
    assert_eq!(live_processes_with("sleep 7772"), Vec::<String>::new());
    assert_eq!(
        live_processes_with("kingdomino_bot.py --spawn 777"),
        Vec::<String>::new()
    );
}

#[test]
fn no_timeout_and_time_scale_change_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    // 50 ms scaled by 0.001 is 50 µs: a Python bot cannot answer that fast after turn 1.
    let bot = python_bot("");
    let (_, replay) = play(
        dir.path(),
        &[&bot, "builtin:random"],
        &["--time-scale", "0.001"],
    );
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Timeout));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &["--no-timeout"]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
}

#[test]
fn realm_bot_speaks_the_protocol_from_the_other_side() {
    let dir = tempfile::tempdir().unwrap();
    let as_process = format!("{} bot kingdomino greedy", common::realm());
    let (_, through_process) = play(dir.path(), &[&as_process, "builtin:random"], &[]);
    let (_, in_process) = play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert_eq!(through_process.outcome, in_process.outcome);
    let outputs = |r: &Replay| r.turns.iter().map(|t| t.output.clone()).collect::<Vec<_>>();
    assert_eq!(outputs(&through_process), outputs(&in_process));
}

#[test]
fn psyleague_json_gives_zero_based_ranks_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:random",
            "builtin:greedy",
            "--seed",
            "3",
            "--json",
        ],
    );
    assert_eq!(
        stdout(&out).trim(),
        r#"{"errors":[false,false],"ranks":[1,0]}"#
    );
}

#[test]
fn the_referee_command_prints_one_score_per_player() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            "builtin:greedy",
            "-p2",
            "exit 1",
            "-d",
            "seed=5",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<i64> = stdout(&out).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0] > 0);
    assert_eq!(lines[1], -1, "a crashed player scores -1");
}

#[test]
fn bad_flags_and_files_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (vec!["play", "kingdomino", "builtin:greedy"], "error: kingdomino is played by 2, 3, 4 players, not 1"),
        (vec!["play", "chess", "a", "b"], "error: chess does not exist; known games: kingdomino, blocking, ice-and-fire, carcassonne, kingdom-builder"),
        (vec!["play", "ice-and-fire", "a", "b", "--league", "9"], "error: ice-and-fire has no league 9; leagues: 1, 2, 3, 4"),
        (vec!["play", "kingdomino", "builtin:nope", "b"], "error: kingdomino has no built-in bot `nope`"),
        (vec!["play", "kingdomino", "a", "b", "--seed", "x"], "error: seed `x` is not a 64-bit integer"),
        (vec!["play", "kingdomino", "a", "b", "--bogus"], "error: unexpected argument '--bogus' found (see --help)"),
        (vec!["score", "kingdom-builder", "missing.txt"], "error: cannot read missing.txt"),
        (vec!["report", "--db", "nothing.sqlite"], "error: no results store at nothing.sqlite"),
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(expected), "{args:?}: {err}");
    }
}

#[test]
fn the_scorer_reads_a_board_file() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../kingdom-builder/data/kingdom_builder_example_board.txt"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["score", "kingdom-builder", "--cards", "1,3,7", board],
    );
    assert_eq!(stdout(&out), "52 46 43 62\n");
}
