//! `realm play` beyond one bot per seat: `--players N` repeats the bots, the summary shows the
//! game's result figures, and `--json` prints what psyleague's cmd_play_game reads.

mod common;

use common::{realm, run, stderr, stdout};
use realm_core::Replay;

#[test]
fn fewer_bots_than_players_are_repeated_in_seat_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "carcassonne",
            "builtin:greedy",
            "builtin:random",
            "--players",
            "4",
            "--seed",
            "5",
            "--replay",
            "r.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: Replay =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    let commands: Vec<&str> = replay.players.iter().map(|p| p.command.as_str()).collect();
    assert_eq!(
        commands,
        [
            "builtin:greedy",
            "builtin:random",
            "builtin:greedy",
            "builtin:random"
        ]
    );
    assert_eq!(replay.spec.n_players, 4);
    let text = stdout(&out);
    let players: Vec<&str> = text
        .lines()
        .skip(2)
        .take(4)
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    let mut sorted = players.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "builtin:greedy",
            "builtin:greedy#2",
            "builtin:random",
            "builtin:random#2"
        ],
        "{text}"
    );

    let too_many = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "builtin:greedy",
            "--players",
            "2",
        ],
    );
    assert_eq!(too_many.status.code(), Some(2));
    assert_eq!(
        stderr(&too_many),
        "error: 3 bots cannot sit at 2 seats (--players 2)\n"
    );
}

#[test]
fn the_summary_shows_the_games_result_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--seed",
            "4",
            "--replay",
            "k.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: Replay =
        serde_json::from_slice(&std::fs::read(dir.path().join("k.json")).unwrap()).unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let names: Vec<&str> = replay
        .outcome
        .stats
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "raw_score",
            "territory",
            "crowns",
            "tiles_placed",
            "tiles_discarded"
        ]
    );
    assert_eq!(
        lines[1],
        "  rank  score  seat  raw_score  territory  crowns  tiles_placed  tiles_discarded  player"
    );
    // Each player's row carries its own figures, in seat order of the stats.
    for line in &lines[2..4] {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let seat: usize = cells[2].parse().unwrap();
        let figures: Vec<i64> = cells[3..8].iter().map(|c| c.parse().unwrap()).collect();
        let expected: Vec<i64> = replay
            .outcome
            .stats
            .iter()
            .map(|s| s.values[seat])
            .collect();
        assert_eq!(figures, expected, "{line}");
        assert_eq!(cells[8], replay.players[seat].name);
    }
}

#[test]
fn json_gives_psyleague_ranks_errors_test_data_and_player_data_and_no_replay() {
    let dir = tempfile::tempdir().unwrap();
    let talker = format!(
        "echo '[TDATA] map = big' >&2; echo '[PDATA] depth = 7' >&2; \
         echo '[PDATA+] evals = 2' >&2; echo '[PDATA+] evals = 3.5' >&2; \
         echo '[PDATA][1] gold = 40' >&2; \
         exec {} bot kingdomino greedy",
        realm()
    );
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            &talker,
            "builtin:random",
            "--seed",
            "3",
            "--json",
            "--no-timeout",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"ranks\":[0,1],\"errors\":[0,0],\"test_data\":{\"map\":\"big\",\"seed\":3},\
         \"player_data\":[{\"depth\":7,\"evals\":5.5,\"gold\":40},{}],\"attributes\":[\
         {\"name\":\"map\",\"player\":null,\"turn\":null,\"value\":\"big\"},\
         {\"name\":\"depth\",\"player\":0,\"turn\":null,\"value\":\"7\"},\
         {\"name\":\"evals\",\"player\":0,\"turn\":null,\"value\":\"2\"},\
         {\"name\":\"evals\",\"player\":0,\"turn\":null,\"value\":\"3.5\"},\
         {\"name\":\"gold\",\"player\":0,\"turn\":1,\"value\":\"40\"}]}\n"
    );
    assert!(
        !dir.path().join("replays").exists(),
        "--json writes no replay"
    );
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
            "--replay",
            "j.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        dir.path().join("j.json").is_file(),
        "unless --replay asks for one"
    );
}
