//! Kingdom Builder through every tool, as a user runs them: `realm games`, `realm play` with
//! built-in bots and its options, a fault, `realm arena`, `realm league` and `realm sprt`.

mod common;

use std::path::Path;

use common::{run, stderr, stdout};
use realm_core::Replay;
use serde_json::Value;

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "realm {args:?}: {}", stderr(&out));
    stdout(&out)
}

fn replay(dir: &Path, name: &str) -> Replay {
    serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
}

#[test]
fn realm_games_lists_kingdom_builder_with_its_leagues_options_and_bots() {
    let dir = tempfile::tempdir().unwrap();
    let text = ok(dir.path(), &["games"]);
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("kingdom-builder "))
        .take(5)
        .collect();
    assert_eq!(block[0], "kingdom-builder  (Kingdom Builder)");
    assert!(
        block[1].starts_with("  variant standard  players 2,3,4   the board game"),
        "{text}"
    );
    assert_eq!(block[2], "  leagues 1,2,3 (default 3)");
    assert_eq!(block[3], "  options cards, lords, board");
    assert_eq!(
        block[4],
        "  bots    builtin:mcts, builtin:greedy, builtin:random"
    );
}

#[test]
fn a_whole_game_between_built_in_bots_ends_with_every_seat_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "kingdom-builder",
        "builtin:mcts:iters=30",
        "builtin:greedy",
        "builtin:random",
        "--seed",
        "4",
        "--no-timeout",
        "--replay",
        "r.json",
    ];
    let text = ok(dir.path(), &args);
    assert!(
        text.starts_with("kingdom-builder, 3 players, seed 4, "),
        "{text}"
    );
    let replay = replay(dir.path(), "r.json");
    assert_eq!(replay.outcome.faults, [None, None, None]);
    assert_eq!(replay.outcome.detail, "finished");
    assert!(replay.turns.len() > 20, "{} calls", replay.turns.len());
    assert!(replay.turns.iter().all(|t| !t.verdict.is_fault()));
    // The last frame is the final position: every seat's gold as its score.
    let last = &replay.turns.last().unwrap().frame;
    let scores: Vec<i64> = replay.outcome.scores.clone();
    assert_eq!(last["scores"], serde_json::json!(scores));
}

#[test]
fn options_reach_the_match_cards_lords_and_a_map_file_read_by_the_shell() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &[
            "play",
            "kingdom-builder",
            "builtin:random",
            "builtin:random",
            "--seed",
            "2",
            "--replay",
            "a.json",
        ],
    );
    // The map of that match, as a map file, then played with seed 9 and fixed cards.
    let first = replay(d, "a.json");
    let map: Vec<String> = first.turns[0].input[2..22].to_vec();
    std::fs::write(d.join("map.txt"), map.join("\n") + "\n").unwrap();
    let map_text = std::fs::read_to_string(d.join("map.txt")).unwrap();
    let board = format!("board={map_text}");
    ok(
        d,
        &[
            "play",
            "kingdom-builder",
            "builtin:random",
            "builtin:random",
            "--seed",
            "9",
            "--option",
            "cards=fishermen,1,7",
            "--option",
            "lords=zero",
            "--option",
            &board,
            "--replay",
            "b.json",
        ],
    );
    let second = replay(d, "b.json");
    assert_eq!(second.turns[0].input[1], "1 3 7 1");
    assert_eq!(second.turns[0].input[2..22], map[..]);
    let out = run(
        d,
        &[
            "play",
            "kingdom-builder",
            "builtin:random",
            "builtin:random",
            "--option",
            "cards=1,2",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: option `cards` of kingdom-builder: `1,2` names 2 cards, not 3\n"
    );
}

#[test]
fn an_illegal_command_eliminates_its_seat_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "echo 'BUILD 99 99'; sleep 30";
    let args = [
        "play",
        "kingdom-builder",
        "builtin:greedy",
        bad,
        "--seed",
        "3",
        "--no-timeout",
        "--replay",
        "f.json",
    ];
    let text = ok(dir.path(), &args);
    assert!(
        text.contains(
            "fault: seat 1 (echo 'BUILD 99 99'; sleep 30) invalid_action in turn 2: \
             command 1 `BUILD 99 99`: (99,99) is off the board"
        ),
        "{text}"
    );
    let replay = replay(dir.path(), "f.json");
    assert_eq!(replay.outcome.scores[1], -1);
    assert_eq!(replay.outcome.ranks, [1, 2]);
}

#[test]
fn arena_league_and_sprt_play_kingdom_builder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bots = ["builtin:greedy", "builtin:random"];
    let arena = [
        &["arena", "kingdom-builder"][..],
        &bots,
        &["--games", "4", "--db", "a.sqlite", "--quiet"],
    ]
    .concat();
    ok(d, &arena);
    assert_eq!(common::stored(&d.join("a.sqlite")).len(), 4);

    ok(
        d,
        &[
            "league",
            "new",
            "main",
            "kingdom-builder",
            "--db",
            "l.sqlite",
        ],
    );
    for bot in bots {
        ok(d, &["league", "add", "main", bot, "--db", "l.sqlite"]);
    }
    ok(
        d,
        &[
            "league", "run", "main", "--games", "4", "--db", "l.sqlite", "--quiet",
        ],
    );
    let rows: Vec<Value> = serde_json::from_str(&ok(
        d,
        &[
            "league", "show", "main", "--format", "json", "--db", "l.sqlite",
        ],
    ))
    .unwrap();
    let played: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(played, 8, "{rows:?}");

    let sprt = [
        &["sprt", "kingdom-builder"][..],
        &bots,
        &["--max-games", "4", "--elo1", "50", "--db", "s.sqlite"],
    ]
    .concat();
    let text = ok(d, &sprt);
    assert!(
        text.lines().last() == Some("run 1 stored in s.sqlite"),
        "{text}"
    );
    assert_eq!(common::stored(&d.join("s.sqlite")).len(), 4);
}
