//! The command line as a newcomer meets it: help everywhere, one-line errors that say what is
//! wrong, and built-in bots that refuse bad input alike.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{realm, run, stderr, stdout};

const COMMANDS: &[&str] = &[
    "games", "play", "bot", "score", "arena", "sprt", "report", "merge", "serve", "view", "referee",
];

#[test]
fn every_command_answers_help_with_a_description_and_examples() {
    let dir = tempfile::tempdir().unwrap();
    for command in COMMANDS {
        for flag in ["--help", "-h"] {
            let out = run(dir.path(), &[command, flag]);
            assert_eq!(out.status.code(), Some(0), "realm {command} {flag}");
            let text = stdout(&out);
            assert!(text.contains("Example"), "realm {command} {flag}:\n{text}");
            assert!(
                text.contains(&format!("realm {command}")),
                "{command}: {text}"
            );
        }
    }
    let text = stdout(&run(dir.path(), &["--help"]));
    assert!(
        text.starts_with("Referee CodinGame-style territory games"),
        "{text}"
    );
}

#[test]
fn seeds_out_of_range_are_refused_and_negative_ones_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let play = |seed: &str| {
        run(
            dir.path(),
            &[
                "play",
                "kingdomino",
                "builtin:greedy",
                "builtin:random",
                "--seed",
                seed,
            ],
        )
    };
    let out = play("18446744073709551616");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: seed `18446744073709551616` is not a 64-bit integer \
         (0 to 18446744073709551615, or negative down to -9223372036854775808)\n"
    );
    let out = play("-1");
    assert!(out.status.success());
    assert_eq!(
        stderr(&out),
        "note: seed -1 is used as 18446744073709551615 (the same 64 bits, as replays record it)\n"
    );
    assert!(stdout(&out).starts_with("kingdomino, 2 players, seed 18446744073709551615,"));
}

#[test]
fn the_referee_refuses_a_seed_given_twice() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            "x",
            "-p2",
            "y",
            "-d",
            "seed=7",
            "-seed",
            "8",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: seed given twice, as 7 and as 8\n");
}

/// `realm bot GAME greedy` fed `input`: its exit code and stderr (seeded: unseeded, it would
/// first say the seed it drew).
fn bot_on(game: &str, input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(realm())
        .args(["bot", game, "greedy", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (out.status.code(), stderr(&out))
}

/// Each game `realm games` lists, with whether it is listed as scoring only (no match play).
fn listed_games(dir: &std::path::Path) -> Vec<(String, bool)> {
    let text = stdout(&run(dir, &["games"]));
    let mut games: Vec<(String, bool)> = Vec::new();
    for line in text.lines().take_while(|l| !l.is_empty()) {
        match (line.starts_with(' '), games.last_mut()) {
            (false, _) => games.push((line.split(' ').next().unwrap().to_string(), false)),
            (true, Some(game)) => game.1 |= line.contains("scoring only"),
            (true, None) => panic!("{text}"),
        }
    }
    games
}

#[test]
fn every_built_in_bot_refuses_garbage_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let games = listed_games(dir.path());
    assert_eq!(games.len(), 5, "{games:?}");
    for (game, _) in games.iter().filter(|(_, scoring_only)| !scoring_only) {
        assert_eq!(
            bot_on(game, "garbage\n"),
            (Some(2), "error: unexpected input: garbage\n".to_string()),
            "{game}"
        );
    }
}

#[test]
fn a_game_without_match_play_says_so_instead_of_listing_no_bots() {
    let dir = tempfile::tempdir().unwrap();
    for (game, _) in listed_games(dir.path()).iter().filter(|(_, s)| *s) {
        let out = run(dir.path(), &["bot", game, "greedy"]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!(
                "error: {game} cannot be played as a match yet: only board scoring is \
                 implemented (realm score {game})\n"
            )
        );
    }
}

#[test]
fn each_cause_of_an_error_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--db",
            "no/dir/x.sqlite",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: results store no/dir/x.sqlite: unable to open database file: no/dir/x.sqlite\n"
    );
}

#[test]
fn bare_realm_says_where_it_writes_before_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let here = dir.path().canonicalize().unwrap();
    let said = format!(
        "It writes its results to {} and its replays under {} (about 5 MB);",
        here.join("realm.sqlite").display(),
        here.join("replays").display()
    );
    assert_eq!(text.lines().nth(1), Some(said.as_str()), "{text}");
    assert!(here.join("realm.sqlite").is_file());
}

#[test]
fn more_bots_than_cores_at_once_is_warned_for_process_bots_only() {
    let dir = tempfile::tempdir().unwrap();
    let process = format!("{} bot kingdomino random", realm());
    let arena = |bot: &str| {
        let args = ["arena", "kingdomino", bot, "builtin:greedy", "--games", "2"];
        let out = run(
            dir.path(),
            &[&args[..], &["--jobs", "1000", "--quiet"]].concat(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let text = arena(&process);
    assert!(
        text.starts_with("warning: 1000 jobs x 2 seats = 2000 bots may think at once on "),
        "{text}"
    );
    assert!(!arena("builtin:random").contains("warning"));
}

/// Each `realm ARGS`, in a fresh folder, exits 2 with its error line and nothing else.
fn assert_each_refused(cases: &[(Vec<&str>, &str)]) {
    for (args, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = run(dir.path(), args);
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (Some(2), format!("{expected}\n")),
            "{args:?}"
        );
    }
}

#[test]
fn counts_elo_bounds_and_search_budgets_that_cannot_work_are_refused() {
    let arena = ["arena", "kingdomino", "builtin:greedy", "builtin:random"];
    let sprt = ["sprt", "kingdomino", "builtin:greedy", "builtin:random"];
    let cases: [(Vec<&str>, &str); 12] = [
        (
            [&arena[..], &["--jobs", "0"]].concat(),
            "error: invalid value '0' for '--jobs <JOBS>': expected a whole number of at least 1 \
             (see --help)",
        ),
        (
            [&arena[..], &["-t", "-2"]].concat(),
            "error: invalid value '-2' for '--jobs <JOBS>': expected a whole number of at least 1 \
             (see --help)",
        ),
        (
            [&arena[..], &["--games", "0"]].concat(),
            "error: invalid value '0' for '--games <GAMES>': expected a whole number of at least \
             1 (see --help)",
        ),
        (
            [&sprt[..], &["--max-games", "0"]].concat(),
            "error: invalid value '0' for '--max-games <MAX_GAMES>': expected a whole number of \
             at least 1 (see --help)",
        ),
        (
            [&sprt[..], &["--elo1", "100000"]].concat(),
            "error: --elo1 must be between -1000 and 1000 (normalized Elo), not 100000",
        ),
        (
            [&sprt[..], &["--elo0", "-1001"]].concat(),
            "error: --elo0 must be between -1000 and 1000 (normalized Elo), not -1001",
        ),
        (
            [&sprt[..], &["--elo0", "5", "--elo1", "5"]].concat(),
            "error: --elo0 must be less than --elo1, not 5 against 5",
        ),
        (
            [&sprt[..], &["--elo0", "20", "--elo1", "10"]].concat(),
            "error: --elo0 must be less than --elo1, not 20 against 10",
        ),
        (
            vec!["play", "kingdomino", "builtin:mcts:ms=0", "builtin:random"],
            "error: built-in bot `mcts:ms=0` of kingdomino: option `ms`: `0` is not a positive \
             whole number",
        ),
        (
            vec![
                "play",
                "kingdomino",
                "builtin:mcts:iters=0",
                "builtin:random",
            ],
            "error: built-in bot `mcts:iters=0` of kingdomino: option `iters`: `0` is not a \
             positive whole number",
        ),
        (
            [&arena[..], &["--time-margin", "-5"]].concat(),
            "error: invalid value '-5' for '--time-margin <MS>': expected a whole number, 0 or \
             more (see --help)",
        ),
        (
            vec!["bot", "kingdomino", "mcts:first=0"],
            "error: built-in bot `mcts:first=0` of kingdomino: option `first`: `0` is not a \
             positive whole number",
        ),
    ];
    assert_each_refused(&cases);
}

#[test]
fn negative_numbers_reach_their_flags_check_instead_of_being_taken_for_flags() {
    let play = ["play", "kingdomino", "builtin:greedy", "builtin:random"];
    let sprt = ["sprt", "kingdomino", "builtin:greedy", "builtin:random"];
    let cases: [(Vec<&str>, &str); 4] = [
        (
            [&play[..], &["--time-scale", "-1"]].concat(),
            "error: --time-scale must be a positive number, not -1",
        ),
        (
            [&sprt[..], &["--referee-timeout", "-3"]].concat(),
            "error: --referee-timeout must be a positive number of seconds, not -3",
        ),
        (
            [&sprt[..], &["--alpha", "-0.1"]].concat(),
            "error: invalid SPRT configuration: alpha must be between 0 and 1",
        ),
        (
            [&sprt[..], &["--beta", "-0.1"]].concat(),
            "error: invalid SPRT configuration: beta must be between 0 and 1",
        ),
    ];
    assert_each_refused(&cases);
}

#[test]
fn a_league_commands_negative_time_flags_reach_their_checks() {
    let dir = tempfile::tempdir().unwrap();
    let created = run(dir.path(), &["league", "new", "main", "kingdomino"]);
    assert_eq!(created.status.code(), Some(0), "{}", stderr(&created));
    for command in ["add", "run"] {
        let mut args = vec!["league", command, "main"];
        if command == "add" {
            args.push("builtin:greedy");
        }
        let scale = run(dir.path(), &[&args[..], &["--time-scale", "-1"]].concat());
        assert_eq!(
            (scale.status.code(), stderr(&scale)),
            (
                Some(2),
                "error: --time-scale must be a positive number, not -1\n".to_string()
            ),
            "{command}"
        );
        let margin = run(dir.path(), &[&args[..], &["--time-margin", "-5"]].concat());
        assert_eq!(
            (margin.status.code(), stderr(&margin)),
            (
                Some(2),
                "error: invalid value '-5' for '--time-margin <MS>': expected a whole number, \
                 0 or more (see --help)\n"
                    .to_string()
            ),
            "{command}"
        );
    }
}
