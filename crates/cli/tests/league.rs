//! `realm league`: a league of bots that grows while it runs, in a real results store.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{realm, run, stderr, stdout};
use serde_json::Value;

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "realm {args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The leaderboard rows by label.
fn board(dir: &Path) -> Vec<Value> {
    serde_json::from_str(&ok(dir, &["league", "show", "main", "--format", "json"])).unwrap()
}

fn row<'a>(rows: &'a [Value], label: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {rows:?}"))
}

fn games(dir: &Path, label: &str) -> u64 {
    row(&board(dir), label)["games"].as_u64().unwrap()
}

#[test]
fn a_league_adds_retires_and_removes_bots_and_ranks_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["league", "new", "main", "kingdomino"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);
    ok(
        d,
        &[
            "league",
            "add",
            "main",
            "builtin:random",
            "--as",
            "rnd",
            "--note",
            "baseline",
        ],
    );
    // A bot that crashes on its first call is reported and never scheduled.
    let crash = run(d, &["league", "add", "main", "exit 3"]);
    assert_eq!(crash.status.code(), Some(1));
    assert!(
        stderr(&crash).contains("faulted playing itself"),
        "{}",
        stderr(&crash)
    );
    let same = run(d, &["league", "add", "main", "builtin:greedy"]);
    assert!(
        !same.status.success() && stderr(&same).contains("already in league"),
        "{}",
        stderr(&same)
    );
    let taken = run(
        d,
        &["league", "add", "main", "builtin:reference", "--as", "rnd"],
    );
    assert!(
        !taken.status.success() && stderr(&taken).contains("is taken"),
        "{}",
        stderr(&taken)
    );
    assert!(
        !taken.status.success() && stderr(&taken).contains("is taken"),
        "{}",
        stderr(&taken)
    );

    ok(
        d,
        &[
            "league", "run", "main", "--games", "40", "--jobs", "2", "--quiet",
        ],
    );
    let rows = board(d);
    assert_eq!(rows[0]["label"], "builtin:greedy", "{rows:?}");
    assert_eq!(row(&rows, "builtin:greedy")["games"], 40);
    assert_eq!(row(&rows, "rnd")["games"], 40);
    assert_eq!(row(&rows, "rnd")["note"], "baseline");
    assert_eq!(row(&rows, "exit 3")["games"], 0);
    assert_eq!(row(&rows, "exit 3")["status"], "rejected");
    assert!(row(&rows, "builtin:greedy")["win_rate"].as_f64().unwrap() > 0.9);

    // A third bot: the newcomer plays first; a retired bot keeps its games and plays no more.
    ok(d, &["league", "add", "main", "builtin:reference"]);
    ok(d, &["league", "retire", "main", "rnd"]);
    ok(d, &["league", "run", "main", "--games", "10", "--quiet"]);
    assert_eq!(games(d, "rnd"), 40);
    assert_eq!(games(d, "builtin:reference"), 10);
    assert_eq!(games(d, "builtin:greedy"), 50);
    let info = ok(d, &["league", "info", "main", "builtin:greedy"]);
    assert!(
        info.contains("50 games") && info.contains("rnd") && info.contains("builtin:reference"),
        "{info}"
    );

    // Removing a bot deletes its matches: greedy's games against it go too.
    ok(d, &["league", "remove", "main", "rnd"]);
    let rows = board(d);
    assert!(rows.iter().all(|r| r["label"] != "rnd"), "{rows:?}");
    assert_eq!(row(&rows, "builtin:greedy")["games"], 10);
    let csv = ok(d, &["league", "show", "main", "--format", "csv"]);
    assert!(
        csv.starts_with(
            "rank,label,status,rating,interval,games,win_rate,faults,p_better_than_next\n"
        ),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 3);
}

#[test]
fn an_edited_bot_file_is_a_new_version() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bot = d.join("bot.py");
    std::fs::copy(common::python_bot_path(), &bot).unwrap();
    // Not about time: a Python bot's self-play check must not time out on a loaded machine.
    ok(d, &["league", "new", "main", "kingdomino", "--no-timeout"]);
    let cmd = format!("python3 {}", bot.display());
    ok(d, &["league", "add", "main", &cmd]);
    let mut text = std::fs::read_to_string(&bot).unwrap();
    text.push_str("\n# version 2\n");
    std::fs::write(&bot, text).unwrap();
    let added = ok(d, &["league", "add", "main", &cmd]);
    assert!(added.contains("bot.py#2"), "{added}");
    let labels: Vec<String> = board(d)
        .iter()
        .map(|r| r["label"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(labels.len(), 2, "{labels:?}");
}

#[test]
fn until_stable_stops_once_neighbours_are_ordered() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["league", "new", "main", "kingdomino"]);
    for bot in ["builtin:greedy", "builtin:random", "builtin:reference"] {
        ok(d, &["league", "add", "main", bot]);
    }
    ok(
        d,
        &[
            "league",
            "run",
            "main",
            "--until-stable",
            "--games",
            "3000",
            "--quiet",
        ],
    );
    let rows = board(d);
    let played: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert!(
        played < 2 * 3000,
        "stable before the budget: {played} seats played"
    );
    for r in &rows[..2] {
        assert!(
            r["p_better_than_next"].as_f64().unwrap() >= 0.95,
            "{rows:?}"
        );
    }
}

#[test]
fn a_running_league_takes_a_bot_added_from_elsewhere_and_stops_cleanly_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["league", "new", "main", "kingdomino"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);
    ok(d, &["league", "add", "main", "builtin:random"]);
    let league = Command::new(realm())
        .args(["league", "run", "main", "--jobs", "1", "--quiet"])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded waits guard against a hang; nothing here judges speed.
    let wait_until = |what: &str, done: &dyn Fn() -> bool| {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "waited too long for {what}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    wait_until("first matches", &|| games(d, "builtin:greedy") >= 4);
    ok(d, &["league", "add", "main", "builtin:reference"]);
    wait_until("the new bot's games", &|| {
        games(d, "builtin:reference") >= 4
    });
    unsafe { libc::kill(league.id() as i32, libc::SIGINT) };
    let out = league.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What is stored is whole: every seat of every stored match is counted once.
    let rows = board(d);
    let seats: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    let store = realm_store::Store::open(&d.join("realm.sqlite")).unwrap();
    let run = store.run("league:main").unwrap();
    assert_eq!(seats, 2 * store.matches(run.id).unwrap().len() as u64);
    let resumed = ok(d, &["league", "run", "main", "--games", "2", "--quiet"]);
    assert!(resumed.contains("builtin:reference"), "{resumed}");
}

#[test]
fn league_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run(d, &["league", "show", "nope"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).trim(),
        "error: no league `nope` in this store (create it with `realm league new nope GAME`)"
    );
    ok(
        d,
        &["league", "new", "main", "blocking", "--variant", "duo"],
    );
    let again = run(d, &["league", "new", "main", "kingdomino"]);
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );
    let bad = run(d, &["league", "new", "x", "blocking", "--variant", "hex"]);
    assert!(
        !bad.status.success() && stderr(&bad).lines().count() == 1,
        "{}",
        stderr(&bad)
    );
    let few = run(d, &["league", "run", "main"]);
    assert_eq!(few.status.code(), Some(2));
    assert!(
        stderr(&few).contains("0 active bots for 2 seats"),
        "{}",
        stderr(&few)
    );
}

#[test]
fn league_names_are_one_printable_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let long = "x".repeat(65);
    let refused = [
        ("", "league name \"\" is empty"),
        (
            "a\nb",
            "league name \"a\\nb\" has a control character (a newline, a tab)",
        ),
        (
            "tab\there",
            "league name \"tab\\there\" has a control character (a newline, a tab)",
        ),
        (" main", "league name \" main\" starts or ends with a space"),
        (
            "-main",
            "league name \"-main\" starts with `-` (it would read as a flag)",
        ),
        (long.as_str(), "is longer than 64 characters"),
    ];
    for (name, why) in refused {
        // `--` lets a name that starts with `-` reach realm's own check.
        let out = run(d, &["league", "new", "--", name, "kingdomino"]);
        assert_eq!(out.status.code(), Some(2), "{name:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(why), "{err}");
        assert!(
            err.trim_end().ends_with(": a name is one printable line"),
            "{err}"
        );
    }
    // Refused before the store is even opened.
    assert!(!d.join("realm.sqlite").exists());
    let fine = "main v2 (ß)".to_string() + &"y".repeat(64 - 11);
    ok(d, &["league", "new", &fine, "kingdomino"]);
}

#[test]
fn a_bot_whose_data_overflows_leaves_the_league_usable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Not about time: the process bot must not time out on a loaded machine.
    ok(d, &["league", "new", "main", "kingdomino", "--no-timeout"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);
    let big = format!(
        "echo '[PDATA+] s = 1e308' >&2; echo '[PDATA+] s = 1e308' >&2; echo '[PDATA] n = 2' >&2; \
         exec {} bot kingdomino random",
        realm()
    );
    ok(d, &["league", "add", "main", &big, "--as", "big"]);
    let out = run(d, &["league", "run", "main", "--games", "2", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bot `big`: the `[PDATA+] s` sum overflowed; dropped"),
        "{}",
        stderr(&out)
    );
    assert_eq!(row(&board(d), "big")["data"], serde_json::json!({"n": 2.0}));
    // An older realm stored the overflowed sum as JSON null.
    let sql = "UPDATE matches SET data = '[{\"s\":null,\"n\":2},{\"s\":null,\"n\":2}]'";
    let script = "import sqlite3, sys; c = sqlite3.connect('realm.sqlite'); \
                  c.execute(sys.argv[1]); c.commit()";
    let status = Command::new("python3")
        .args(["-c", script, sql])
        .current_dir(d)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(row(&board(d), "big")["data"], serde_json::json!({"n": 2.0}));
    ok(d, &["report"]);
    ok(d, &["league", "run", "main", "--games", "1", "--quiet"]);
    let removed = ok(d, &["league", "remove", "main", "big"]);
    assert!(removed.contains("with its 3 matches"), "{removed}");
}

/// A bot whose start-up takes 3 s against the first turn's 1 s (a slow interpreter shim, the
/// README's case for `--time-scale`); once started it answers as fast as realm's own bot.
fn slow_starter() -> String {
    format!("sleep 3; exec {} bot kingdomino greedy", realm())
}

/// One column of a bot's leaderboard row in `league`.
fn cell(dir: &Path, league: &str, label: &str, column: &str) -> Value {
    let out = ok(dir, &["league", "show", league, "--format", "json"]);
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    row(&rows, label)[column].clone()
}

#[test]
fn league_time_flags_let_a_slow_starting_bot_in() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slow = slow_starter();
    // The games' own limits: 2 s late on its first turn, so rejected.
    ok(d, &["league", "new", "strict", "kingdomino"]);
    let late = run(d, &["league", "add", "strict", &slow, "--as", "slow"]);
    assert_eq!(late.status.code(), Some(1), "{}", stderr(&late));
    assert!(stderr(&late).contains("(timeout: "), "{}", stderr(&late));
    assert_eq!(cell(d, "strict", "slow", "status"), "rejected");

    // Limits stored with the league hold for every `add` and `run`.
    let made = ok(
        d,
        &[
            "league",
            "new",
            "patient",
            "kingdomino",
            "--time-scale",
            "100",
        ],
    );
    // 100 s for the first turn, 5 s later: far above the start-up and any load.
    assert!(made.contains("time limits x100"), "{made}");
    ok(d, &["league", "add", "patient", &slow, "--as", "slow"]);
    ok(d, &["league", "add", "patient", "builtin:greedy"]);
    ok(d, &["league", "run", "patient", "--games", "2", "--quiet"]);
    assert_eq!(cell(d, "patient", "slow", "games"), 2);
    assert_eq!(cell(d, "patient", "slow", "faults"), 0);

    // Flags given to `add` or `run` hold for that command only.
    ok(d, &["league", "new", "loose", "kingdomino"]);
    ok(
        d,
        &[
            "league",
            "add",
            "loose",
            &slow,
            "--as",
            "slow",
            "--no-timeout",
        ],
    );
    ok(d, &["league", "add", "loose", "builtin:greedy"]);
    ok(
        d,
        &[
            "league",
            "run",
            "loose",
            "--games",
            "2",
            "--quiet",
            "--no-timeout",
        ],
    );
    assert_eq!(cell(d, "loose", "slow", "faults"), 0);
    ok(d, &["league", "run", "loose", "--games", "2", "--quiet"]);
    assert_eq!(
        cell(d, "loose", "slow", "faults"),
        2,
        "the league's own limits again"
    );

    // The same validation as `realm arena`'s flags: one line, exit 2.
    for args in [
        &["league", "new", "bad", "kingdomino", "--time-scale", "0"][..],
        &[
            "league",
            "add",
            "loose",
            "builtin:random",
            "--time-scale=-1",
        ],
        &["league", "run", "loose", "--time-scale", "5000"],
    ] {
        let out = run(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.lines().count() == 1 && err.contains("--time-scale"),
            "{err}"
        );
    }
}

/// A child killed when dropped, so a failing assertion leaves no `realm` waiting forever.
struct KillOnDrop(Option<std::process::Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn a_bot_is_scheduled_only_after_its_self_play_check_passes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["league", "new", "main", "kingdomino"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);
    ok(d, &["league", "add", "main", "builtin:random"]);
    // Its check waits for the gate file, then the bot crashes: until then it is pending.
    let gate = d.join("gate");
    let mut adding = KillOnDrop(Some(
        Command::new(realm())
            .args(["league", "add", "main", "--as", "gated", "--no-timeout"])
            .arg("while [ ! -e \"$LEAGUE_GATE\" ]; do sleep 0.05; done; exit 3")
            .env("LEAGUE_GATE", &gate)
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    ));
    let start = Instant::now();
    while !board(d).iter().any(|r| r["label"] == "gated") {
        assert!(start.elapsed() < Duration::from_secs(300), "never added");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(cell(d, "main", "gated", "status"), "pending");
    // A league run while the check is under way leaves the pending bot out.
    ok(d, &["league", "run", "main", "--games", "6", "--quiet"]);
    assert_eq!(cell(d, "main", "gated", "games"), 0);
    assert_eq!(games(d, "builtin:greedy"), 6);

    std::fs::write(&gate, "").unwrap();
    let out = adding.0.take().unwrap().wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("faulted playing itself"),
        "{}",
        stderr(&out)
    );
    assert_eq!(cell(d, "main", "gated", "status"), "rejected");
    ok(d, &["league", "run", "main", "--games", "2", "--quiet"]);
    assert_eq!(cell(d, "main", "gated", "games"), 0);
}

/// A bot that plays as realm's greedy bot when `$FLAKY_REALM` names realm and crashes when it
/// is unset, as after a transient failure: the same command and files either way (the binary
/// is not named in the command, so a rebuild of it is not a new version).
const FLAKY: &str = "exec \"$FLAKY_REALM\" bot kingdomino greedy";

/// `realm ARGS` in `dir`, with `$FLAKY_REALM` set when `healthy`.
fn realm_with(dir: &Path, args: &[&str], healthy: bool) -> std::process::Output {
    let mut command = Command::new(realm());
    command.args(args).current_dir(dir);
    if healthy {
        command.env("FLAKY_REALM", realm());
    }
    command.output().unwrap()
}

#[test]
fn a_removed_rejected_or_retired_bot_can_be_added_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let flaky = FLAKY;
    let add = |extra: &[&str], healthy: bool| {
        let mut args = vec!["league", "add", "main", flaky, "--no-timeout"];
        args.extend_from_slice(extra);
        realm_with(d, &args, healthy)
    };
    let added = |extra: &[&str]| {
        let out = add(extra, true);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let entries = || board(d).iter().filter(|r| r["command"] == flaky).count();
    ok(d, &["league", "new", "main", "kingdomino"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);

    // Rejected after a transient failure, then taken back once it works.
    let failed = add(&["--as", "flaky"], false);
    assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
    assert_eq!(cell(d, "main", "flaky", "status"), "rejected");
    let back = added(&[]);
    assert!(
        back.contains("added `flaky` (was rejected) to league `main`"),
        "{back}"
    );
    assert_eq!(cell(d, "main", "flaky", "status"), "active");
    assert_eq!(entries(), 1);
    let again = add(&[], true);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("is already in league `main` as `flaky`"),
        "{}",
        stderr(&again)
    );
    let play = [
        "league",
        "run",
        "main",
        "--games",
        "4",
        "--quiet",
        "--no-timeout",
    ];
    assert!(realm_with(d, &play, true).status.success());
    assert_eq!(cell(d, "main", "flaky", "games"), 4);

    // Retired: back with its games, and a new note.
    ok(d, &["league", "retire", "main", "flaky"]);
    let back = added(&["--note", "back"]);
    assert!(back.contains("(was retired)"), "{back}");
    assert_eq!(cell(d, "main", "flaky", "status"), "active");
    assert_eq!(cell(d, "main", "flaky", "games"), 4);
    assert_eq!(cell(d, "main", "flaky", "note"), "back");

    // Removed: back without its deleted games, and scheduled again.
    ok(d, &["league", "remove", "main", "flaky"]);
    let back = added(&[]);
    assert!(back.contains("(was removed)"), "{back}");
    assert_eq!(cell(d, "main", "flaky", "games"), 0);
    assert!(realm_with(d, &play, true).status.success());
    assert_eq!(cell(d, "main", "flaky", "games"), 4);

    // A new label always makes a new entry, even of an active version; a label of another
    // version is refused.
    let twin = added(&["--as", "flaky2"]);
    assert!(twin.contains("added `flaky2` to league"), "{twin}");
    assert_eq!(cell(d, "main", "flaky2", "status"), "active");
    assert_eq!(entries(), 2);
    let taken = run(
        d,
        &["league", "add", "main", "builtin:random", "--as", "flaky"],
    );
    assert!(stderr(&taken).contains("is taken"), "{}", stderr(&taken));
}

#[test]
fn a_merged_league_keeps_its_retired_rejected_and_removed_bots_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["league", "new", "main", "kingdomino"]);
    ok(d, &["league", "add", "main", "builtin:greedy"]);
    ok(
        d,
        &[
            "league",
            "add",
            "main",
            "builtin:random",
            "--note",
            "baseline",
        ],
    );
    ok(d, &["league", "add", "main", "builtin:reference"]);
    let crash = run(d, &["league", "add", "main", "exit 3", "--as", "crash"]);
    assert_eq!(crash.status.code(), Some(1), "{}", stderr(&crash));
    ok(d, &["league", "run", "main", "--games", "6", "--quiet"]);
    ok(d, &["league", "retire", "main", "builtin:random"]);
    ok(d, &["league", "remove", "main", "builtin:reference"]);
    ok(d, &["merge", "realm.sqlite", "--into", "copy.sqlite"]);
    let show = |db: &str| {
        ok(
            d,
            &["league", "show", "main", "--db", db, "--format", "json"],
        )
    };
    assert_eq!(show("copy.sqlite"), show("realm.sqlite"));
    let rows: Vec<Value> = serde_json::from_str(&show("copy.sqlite")).unwrap();
    let standing = |label: &str| {
        let r = row(&rows, label);
        (r["status"].clone(), r["note"].clone())
    };
    assert_eq!(
        standing("builtin:random"),
        ("retired".into(), "baseline".into())
    );
    assert_eq!(standing("crash"), ("rejected".into(), Value::Null));
    // Only one bot is left to schedule, as in the league merged.
    let out = run(
        d,
        &[
            "league",
            "run",
            "main",
            "--db",
            "copy.sqlite",
            "--games",
            "2",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has 1 active bots for 2 seats"),
        "{}",
        stderr(&out)
    );
}
