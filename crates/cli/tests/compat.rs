//! realm as the tools CodinGame players run expect it: cg-brutaltester's and the SDK's referee
//! command line and `-l` game result, cgarena's and psyleague's `--json` contract, and
//! `realm arena --referee` with external referees.

mod common;

use common::{realm, run, stderr, stdout, stored};

/// A seeded built-in bot process (unseeded, it would say its fresh seed on stderr).
fn bot(name: &str) -> String {
    format!("{} bot kingdomino {name} --seed 1", realm())
}

#[test]
fn the_referee_prints_the_game_parameters_after_the_scores_and_ignores_unknown_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (greedy, random) = (bot("greedy"), bot("random"));
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            &greedy,
            "-p2",
            &random,
            "-d",
            "seed=5\nleague=2\nfrom_a_newer_sdk=1",
            "--no-timeout",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "",
        "cg-brutaltester counts any referee stderr as an error"
    );
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].parse::<i64>().unwrap() > lines[1].parse::<i64>().unwrap());
    // One shell word, so cg-brutaltester's "replay this game" hint (`... -d LINE`) runs as is.
    assert_eq!(lines[2], "seed=5,league=2");
}

#[test]
fn the_referees_log_is_the_sdk_game_result() {
    let dir = tempfile::tempdir().unwrap();
    let talker = format!("echo '[PDATA] depth = 3' >&2; exec {}", bot("greedy"));
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            &talker,
            "-p2",
            "exit 1",
            "-d",
            "seed=9",
            "-l",
            "game.json",
            "--no-timeout",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("game.json")).unwrap()).unwrap();
    let printed: Vec<i64> = stdout(&out)
        .lines()
        .take(2)
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(result["scores"]["0"], printed[0]);
    assert_eq!(result["scores"]["1"], -1, "the crashed player");
    assert_eq!(
        result["faults"],
        serde_json::json!({"0": null, "1": "crashed"})
    );
    assert_eq!(result["trueScores"], result["scores"]);
    assert_eq!(result["failCause"], serde_json::Value::Null);
    assert_eq!(result["uinput"], serde_json::json!(["seed=9"]));
    // One entry per turn for every player; a player's stderr on its own turns.
    let errors0 = result["errors"]["0"].as_array().unwrap();
    assert_eq!(errors0.len(), result["summaries"].as_array().unwrap().len());
    assert_eq!(errors0[0], "[PDATA] depth = 3\n");
    assert!(result["outputs"]["0"][0]
        .as_str()
        .unwrap()
        .starts_with("PUT "));
    assert_eq!(result["outputs"]["1"][0], serde_json::Value::Null);
}

#[test]
fn play_json_meets_cgarenas_contract() {
    // cgarena 1.4.2 reads `ranks` and `errors` as lists of u8 and `attributes` as
    // {name: string, player: index|null, turn: u16|null, value: string}.
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "exit 1",
            "builtin:greedy",
            "--json",
            "--seed",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["ranks"], serde_json::json!([1, 0]));
    assert_eq!(json["errors"], serde_json::json!([1, 0]));
    assert_eq!(json["attributes"], serde_json::json!([]));
}

#[test]
fn arena_takes_brutaltester_style_players_and_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "-p2",
            "builtin:random",
            "-p1",
            "builtin:greedy",
            "-t",
            "1",
            "--games",
            "4",
            "--quiet",
            "--format",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["bots"][0]["name"], "builtin:greedy");
    assert_eq!(report["bots"][1]["name"], "builtin:random");
    assert_eq!(report["run"]["matches_played"], 4);
}

#[test]
fn realms_referee_inside_and_outside_plays_the_same_games_with_built_in_bots() {
    let dir = tempfile::tempdir().unwrap();
    // The reference bot is deterministic, so the same seed gives the same game on both sides.
    let common = [
        "arena",
        "kingdomino",
        "builtin:reference",
        "builtin:greedy",
        "--games",
        "6",
        "--seed",
        "11",
        "--league",
        "3",
        "--quiet",
    ];
    let inside = run(dir.path(), &[&common[..], &["--db", "in.sqlite"]].concat());
    assert!(inside.status.success(), "{}", stderr(&inside));
    let referee = format!("{} referee kingdomino", realm());
    let outside = run(
        dir.path(),
        &[&common[..], &["--db", "out.sqlite", "--referee", &referee]].concat(),
    );
    assert!(outside.status.success(), "{}", stderr(&outside));
    let (inside, outside) = (
        stored(&dir.path().join("in.sqlite")),
        stored(&dir.path().join("out.sqlite")),
    );
    assert_eq!(inside.len(), 6);
    for (a, b) in inside.iter().zip(&outside) {
        assert_eq!(a.seed, b.seed, "one seed stream");
        assert!(a.seed < 1 << 31);
        assert_eq!(
            a.scores[a.seats.iter().position(|&s| s == 0).unwrap()],
            b.scores[b.seats.iter().position(|&s| s == 0).unwrap()],
            "the reference bot scores the same on seed {}",
            a.seed
        );
    }
}

#[test]
fn a_negative_score_from_an_external_referee_is_a_loss_not_a_fault() {
    let dir = tempfile::tempdir().unwrap();
    // A referee in which player 1's HQ always falls: it scores -1, as the official Ice and Fire
    // referee gives.
    std::fs::write(dir.path().join("referee.sh"), "echo 3; echo -1\n").unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "ice-and-fire",
            "--referee",
            "sh referee.sh",
            "./a",
            "./b",
            "--games",
            "2",
            "--league",
            "4",
            "--quiet",
            "--db",
            "r.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for record in stored(&dir.path().join("r.sqlite")) {
        assert_eq!(record.scores, vec![3, -1]);
        assert_eq!(record.ranks, vec![1, 2]);
        assert_eq!(record.faults, vec![None, None]);
    }
}

#[test]
fn the_league_goes_to_an_sdk_referee_as_its_own_flag_and_templates_shape_the_arguments() {
    let dir = tempfile::tempdir().unwrap();
    // The referee logs its arguments, one per line, and scores 1 - 0.
    std::fs::write(
        dir.path().join("referee.sh"),
        "printf '%s\\n' \"$@\" >> args.log; echo 1; echo 0\n",
    )
    .unwrap();
    let arena = |extra: &[&str]| {
        let args = [
            "arena",
            "kingdomino",
            "--referee",
            "sh referee.sh",
            "./a",
            "./b",
            "--games",
            "2",
            "--seed",
            "4",
            "--quiet",
        ];
        let out = run(dir.path(), &[&args[..], extra].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        let log = std::fs::read_to_string(dir.path().join("args.log")).unwrap();
        std::fs::remove_file(dir.path().join("args.log")).unwrap();
        (stderr(&out), log)
    };
    let (warned, log) = arena(&["--db", "a.sqlite", "--league", "2"]);
    assert_eq!(warned, "");
    let first: Vec<&str> = log.lines().take(7).collect();
    assert_eq!(first[..4], ["-p1", "./a", "-p2", "./b"]);
    assert_eq!(first[4], "-d");
    assert!(first[5].starts_with("seed="), "{log}");
    assert!(log.contains("league=2\n-league\n2\n"), "{log}");
    let (warned, log) = arena(&["--db", "b.sqlite", "--referee-args", "seed"]);
    assert!(warned.starts_with("warning: no --league given"), "{warned}");
    let first: Vec<&str> = log.lines().take(6).collect();
    assert_eq!(first[..5], ["-p1", "./a", "-p2", "./b", "-seed"]);
    assert!(first[5].parse::<u32>().is_ok(), "{log}");
    let (_, log) = arena(&[
        "--db",
        "c.sqlite",
        "--league",
        "1",
        "--referee-args",
        "--first {P1} --second {P2} {SEED} L{LEAGUE}",
    ]);
    let first: Vec<&str> = log.lines().take(6).collect();
    assert_eq!(first[..4], ["--first", "./a", "--second", "./b"]);
    assert_eq!(first[5], "L1");
}

#[test]
fn compare_referee_plays_the_same_matches_through_both_referees() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "arena",
        "kingdomino",
        "builtin:reference",
        "builtin:greedy",
        "--games",
        "4",
        "--league",
        "3",
    ];
    let same = format!("{} referee kingdomino --no-timeout", realm());
    let out = run(
        dir.path(),
        &[&args[..], &["--compare-referee", &same]].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("4 of 4 matches agree between realm's referee and `{same}`\n")
    );
    // A referee that always scores 1 - 2 disagrees with every match, each one named.
    std::fs::write(dir.path().join("fixed.sh"), "echo 1; echo 2\n").unwrap();
    let out = run(
        dir.path(),
        &[&args[..], &["--compare-referee", "sh fixed.sh"]].concat(),
    );
    assert_eq!(out.status.code(), Some(3));
    let text = stdout(&out);
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(" vs referee [1, 2]"))
            .count(),
        4,
        "{text}"
    );
    assert!(text.ends_with("0 of 4 matches agree between realm's referee and `sh fixed.sh`\n"));
    assert!(
        !dir.path().join("realm.sqlite").exists(),
        "a comparison stores nothing"
    );
}

/// Runs `realm referee ... -s`, which serves the match until killed: returns its first four
/// stdout lines (two scores, the parameters, the viewer's address) and its stderr.
fn first_lines_of_a_shown_match(command: &mut std::process::Command) -> (Vec<String>, String) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut referee = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines: Vec<String> = BufReader::new(referee.stdout.take().unwrap())
        .lines()
        .take(4)
        .map(Result::unwrap)
        .collect();
    referee.kill().unwrap();
    (lines, stderr(&referee.wait_with_output().unwrap()))
}

#[test]
fn the_referees_show_flag_serves_the_match_in_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let (lines, _) = first_lines_of_a_shown_match(
        std::process::Command::new(realm())
            .args([
                "referee",
                "kingdomino",
                "-p1",
                &bot("greedy"),
                "-p2",
                &bot("random"),
            ])
            .args(["-d", "seed=3", "-s", "--no-timeout"])
            .current_dir(dir.path()),
    );
    // The scores and parameters first (brutaltester reads them), then the viewer's address.
    assert_eq!(lines[2], "seed=3");
    assert!(
        lines[3].starts_with("realm viewer: http://127.0.0.1:") && lines[3].contains("/replay/"),
        "{lines:?}"
    );
    assert!(dir.path().join("replays/kingdomino-3.json").is_file());
}

/// Plays one Blokus Duo match between two `realm bot blocking random` processes, each given
/// `seeds[seat]` as `--seed` when there is one, and returns the replay's bytes and the bots'
/// first stderr lines.
fn duo_between_bot_processes(dir: &std::path::Path, seeds: [Option<u64>; 2]) -> (Vec<u8>, String) {
    let bots: Vec<String> = seeds
        .iter()
        .map(|seed| {
            let flag = seed.map(|s| format!(" --seed {s}")).unwrap_or_default();
            format!("{} bot blocking random{flag}", realm())
        })
        .collect();
    let out = run(
        dir,
        &[
            "play",
            "blocking",
            &bots[0],
            &bots[1],
            "--variant",
            "duo",
            "--seed",
            "1",
            "--replay",
            "duo.json",
            "--no-timeout",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(dir.join("duo.json")).unwrap();
    let replay: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let first_stderr = replay["turns"][0]["stderr"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (bytes, first_stderr)
}

#[test]
fn unseeded_bot_processes_play_different_games_and_say_their_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (a, said) = duo_between_bot_processes(dir.path(), [None, None]);
    let (b, _) = duo_between_bot_processes(dir.path(), [None, None]);
    assert_ne!(a, b, "two unseeded random bots played the same game twice");
    // The seed the bot drew replays its game.
    let seed: u64 = said
        .strip_prefix("realm bot: seed ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no seed on the bot's stderr: {said:?}"));
    assert_eq!(
        said,
        format!("realm bot: seed {seed} (--seed {seed} plays this game again)\n")
    );
}

#[test]
fn seeded_bot_processes_repeat_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let (a, said) = duo_between_bot_processes(dir.path(), [Some(5), Some(6)]);
    let (b, _) = duo_between_bot_processes(dir.path(), [Some(5), Some(6)]);
    assert_eq!(a, b, "the same seeds played different games");
    assert_eq!(said, "", "a seeded bot says nothing");
    let (c, _) = duo_between_bot_processes(dir.path(), [Some(5), Some(7)]);
    assert_ne!(a, c, "another seed, another game");
}

#[test]
fn built_in_bots_under_an_external_referee_get_the_seeds_they_have_in_process() {
    // Random bots play the same games through `realm referee` as inside realm only when each
    // `realm bot` process is seeded from the match seed and seat as the in-process bot is.
    let dir = tempfile::tempdir().unwrap();
    let referee = format!("{} referee blocking --no-timeout", realm());
    let out = run(
        dir.path(),
        &[
            "arena",
            "blocking",
            "builtin:random",
            "builtin:greedy",
            "--variant",
            "duo",
            "--games",
            "4",
            "--compare-referee",
            &referee,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        format!("4 of 4 matches agree between realm's referee and `{referee}`\n")
    );
}

/// cg-brutaltester's "replay this game" hint (GameThread.logHelp) for a game it ran as
/// `command` (the argv it executed): the words joined by spaces, unquoted, then ` -s -d ` and
/// what followed the last score, as its java.util.Scanner reads it: the rest of the score line
/// (empty), a newline, then the referee's remaining lines.
fn brutaltester_hint(command: &[String], referee_stdout: &str, players: usize) -> String {
    let after_scores: String = referee_stdout
        .lines()
        .skip(players)
        .map(|line| format!("{line}\n"))
        .collect();
    format!("{} -s -d \n{after_scores}", command.join(" "))
}

#[test]
fn brutaltesters_replay_hint_replays_the_game_with_multi_word_bot_commands() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    // As brutaltester runs it: `-r` split on spaces, each -pN command one argument.
    let reference = format!("{} bot kingdomino reference", realm());
    let command: Vec<String> = [realm(), "referee", "kingdomino", "--no-timeout"]
        .into_iter()
        .chain(["-p1", &reference, "-p2", &reference])
        .map(String::from)
        .collect();
    let first = Command::new(&command[0])
        .args(&command[1..])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let printed = stdout(&first);
    let hint = brutaltester_hint(&command, &printed, 2);
    assert!(hint.contains(" -p1 /") && hint.contains(" bot kingdomino reference -p2 /"));
    // The hint's two lines joined, as the README says, and run as a shell splits it.
    let joined = hint.replace('\n', "");
    let words: Vec<&str> = joined.split_whitespace().collect();
    let (lines, said) = first_lines_of_a_shown_match(
        Command::new(words[0])
            .args(&words[1..])
            .current_dir(dir.path()),
    );
    assert_eq!(said, "", "{joined}");
    // The same game (the reference bot is deterministic), then the viewer's address for -s.
    assert_eq!(
        lines[..3],
        printed.lines().collect::<Vec<_>>()[..],
        "{joined}"
    );
    assert!(lines[3].starts_with("realm viewer: http://"), "{lines:?}");
}

/// `realm referee` for a Blokus Duo match (seed 3) between `p1` and a seeded greedy bot, with
/// `extra` flags; returns the printed scores and the `-l` game result.
fn duo_referee(dir: &std::path::Path, p1: &str, extra: &[&str]) -> (Vec<i64>, serde_json::Value) {
    let greedy = format!("{} bot blocking greedy --seed 2", realm());
    let args = [
        "referee",
        "blocking",
        "-variant",
        "duo",
        "-p1",
        p1,
        "-p2",
        &greedy,
        "-d",
        "seed=3",
        "-l",
        "game.json",
        "--no-timeout",
    ];
    let out = run(dir, &[&args[..], extra].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "",
        "cg-brutaltester counts referee stderr as an error"
    );
    let scores = stdout(&out)
        .lines()
        .take(2)
        .map(|l| l.parse().unwrap())
        .collect();
    let result = serde_json::from_slice(&std::fs::read(dir.join("game.json")).unwrap()).unwrap();
    (scores, result)
}

#[test]
fn nonnegative_scores_keep_the_order_and_leave_negative_only_to_faults() {
    let dir = tempfile::tempdir().unwrap();
    let random = format!("{} bot blocking random --seed 1", realm());
    let (true_scores, _) = duo_referee(dir.path(), &random, &[]);
    assert!(
        true_scores.iter().all(|&s| s < 0),
        "Blokus Duo scores the squares left in hand: {true_scores:?}"
    );
    let (shifted, result) = duo_referee(dir.path(), &random, &["--nonnegative-scores"]);
    let offset = -true_scores.iter().min().unwrap();
    assert_eq!(
        shifted,
        vec![true_scores[0] + offset, true_scores[1] + offset]
    );
    assert_eq!(
        result["scores"],
        serde_json::json!({"0": shifted[0], "1": shifted[1]})
    );
    assert_eq!(
        result["trueScores"],
        serde_json::json!({"0": true_scores[0], "1": true_scores[1]})
    );
    // A player at fault is the only negative score.
    let (with_fault, result) = duo_referee(dir.path(), "exit 1", &["--nonnegative-scores"]);
    assert_eq!(with_fault[0], -1);
    assert_eq!(
        with_fault[1], 0,
        "the one player not at fault is the lowest, made 0"
    );
    // Blocking's rules count an exit as a timeout (R17).
    assert_eq!(
        result["faults"],
        serde_json::json!({"0": "timeout", "1": null})
    );
    // Without the flag, both print -89 (no square placed): a draw to cg-brutaltester.
    let (unshifted, _) = duo_referee(dir.path(), "exit 1", &[]);
    assert_eq!(unshifted, vec![-89, -89]);
}

#[test]
fn the_sdk_play_script_counts_faults_as_errors_not_negative_scores() {
    let dir = tempfile::tempdir().unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/compat/sdk_play_game.py"
    );
    let play = |p1: &str| -> serde_json::Value {
        let out = std::process::Command::new("python3")
            .args([
                script,
                &format!("{} referee blocking -variant duo --no-timeout", realm()),
            ])
            .args([
                "3",
                p1,
                &format!("{} bot blocking greedy --seed 2", realm()),
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    // Both Blokus Duo scores are negative, and nobody is at fault.
    let random = format!("{} bot blocking random --seed 1", realm());
    let (true_scores, _) = duo_referee(dir.path(), &random, &[]);
    let line = play(&random);
    assert_eq!(line["errors"], serde_json::json!([0, 0]));
    let first = usize::from(true_scores[1] > true_scores[0]);
    assert_eq!(line["ranks"][first], 0, "{line} for scores {true_scores:?}");
    // A crash is an error, and ranks below the player not at fault.
    let line = play("exit 1");
    assert_eq!(line["errors"], serde_json::json!([1, 0]));
    assert_eq!(line["ranks"], serde_json::json!([1, 0]));
}
