//! `realm arena`, `realm sprt`, `realm report` and `realm merge` end to end: interrupted runs
//! resume without losing or repeating a match, shards merge into the whole run, misbehaving bots
//! become recorded faults, and external referees plug in.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{live_processes_with, python_bot, realm, run, stderr, stdout};
use realm_store::{MatchRecord, Store};

fn stored(db: &Path) -> Vec<MatchRecord> {
    let store = Store::open(db).unwrap();
    let run = store.latest_run().unwrap().expect("a run");
    store.matches(run.id).unwrap()
}

/// Records without the fields that legitimately differ between two runs of one match.
fn comparable(mut records: Vec<MatchRecord>) -> Vec<MatchRecord> {
    for r in &mut records {
        r.duration_ms = 0;
        r.times_us.iter_mut().for_each(Vec::clear);
    }
    records.sort_by_key(|r| r.match_idx);
    records
}

#[test]
fn a_run_killed_with_sigkill_resumes_without_losing_or_repeating_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let bot = python_bot("");
    // Generous limits: this test is about interruption, not speed, and must not flake under load.
    let args = [
        "arena",
        "kingdomino",
        &bot,
        "builtin:greedy",
        "--games",
        "40",
        "--jobs",
        "2",
        "--time-scale",
        "20",
        "--quiet",
        "--db",
        "r.sqlite",
    ];
    let mut child = Command::new(realm())
        .args(args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let count = if db.exists() {
            Store::open(&db).ok().and_then(|s| {
                s.latest_run()
                    .ok()
                    .flatten()
                    .map(|r| s.done_matches(r.id).unwrap().len())
            })
        } else {
            None
        };
        if count.unwrap_or(0) >= 6 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stored(&db).len();
    assert!((6..40).contains(&before), "killed after {before} matches");
    // Bots of the killed run die with it (PR_SET_PDEATHSIG), whatever they were doing.
    let waited = Instant::now();
    while !live_processes_with(&bot).is_empty() && waited.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(live_processes_with(&bot), Vec::<String>::new());

    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = stored(&db);
    let indices: BTreeSet<u64> = records.iter().map(|r| r.match_idx).collect();
    assert_eq!(records.len(), 40, "every match stored exactly once");
    assert_eq!(indices, (0..40).collect());
    assert!(records.iter().all(|r| r.faults.iter().all(Option::is_none)));
}

#[test]
fn two_arena_processes_share_one_store_without_losing_or_repeating_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let args = |seed: &'static str| {
        [
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "300",
            "--seed",
            seed,
            "--quiet",
            "--keep-replays",
            "none",
            "--db",
            "shared.sqlite",
        ]
    };
    // The same run twice at once (both play it all; each match is stored once) and a second
    // run beside them.
    let spawn = |seed| {
        Command::new(realm())
            .args(args(seed))
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children = [spawn("1"), spawn("1"), spawn("2")];
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let store = Store::open(&dir.path().join("shared.sqlite")).unwrap();
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 2, "two runs");
    for stored_run in runs {
        let idx: Vec<u64> = store
            .matches(stored_run.id)
            .unwrap()
            .iter()
            .map(|m| m.match_idx)
            .collect();
        assert_eq!(idx.len(), 300, "run {}: every match stored", stored_run.key);
        let distinct: BTreeSet<u64> = idx.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            300,
            "run {}: no match twice",
            stored_run.key
        );
    }
    let report = run(dir.path(), &["report", "--db", "shared.sqlite", "--list"]);
    assert!(report.status.success(), "{}", stderr(&report));
}

#[test]
fn shards_merged_equal_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let common_args = [
        "arena",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "builtin:reference",
        "--games",
        "24",
        "--quiet",
    ];
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = common_args.to_vec();
        args.extend_from_slice(extra);
        let out = run(dir.path(), &args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    with(&["--db", "whole.sqlite"]);
    with(&["--db", "a.sqlite", "--shard", "1/2"]);
    with(&["--db", "b.sqlite", "--shard", "2/2"]);
    let merge = run(
        dir.path(),
        &["merge", "a.sqlite", "b.sqlite", "--into", "all.sqlite"],
    );
    assert!(merge.status.success(), "{}", stderr(&merge));
    let again = run(dir.path(), &["merge", "a.sqlite", "--into", "all.sqlite"]);
    assert_eq!(stdout(&again), "a.sqlite: 0 matches added\n");
    let whole = comparable(stored(&dir.path().join("whole.sqlite")));
    assert_eq!(whole.len(), 24);
    assert_eq!(comparable(stored(&dir.path().join("all.sqlite"))), whole);
}

#[test]
fn misbehaving_bots_in_a_long_run_end_as_recorded_faults_and_leave_no_process() {
    let dir = tempfile::tempdir().unwrap();
    // Limits are scaled by 5 (5 s in turn 1, 250 ms later) so that no fault here depends on the
    // machine's load; the hangs happen after turn 1 so each costs only 250 ms.
    let bots = [
        python_bot("--misbehave crash 2 --spawn 7783"),
        python_bot("--misbehave sleep 3 --spawn 7781"),
        python_bot("--misbehave garbage 1"),
        python_bot("--misbehave flood 2"),
        python_bot("--misbehave quit 2"),
        python_bot("--ignore-term --misbehave sleep 4 --spawn 7782"),
        "builtin:greedy".to_string(),
    ];
    let mut args: Vec<&str> = vec!["arena", "kingdomino"];
    args.extend(bots.iter().map(String::as_str));
    args.extend([
        "--games",
        "168",
        "--jobs",
        "4",
        "--time-scale",
        "5",
        "--quiet",
        "--db",
        "r.sqlite",
        "--format",
        "json",
    ]);
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["run"]["matches_played"], 168);
    let faults = |bot: usize| report["bots"][bot]["faults"].clone();
    assert_eq!(faults(0), serde_json::json!({"crashed": 48}));
    assert_eq!(faults(1), serde_json::json!({"timeout": 48}));
    assert_eq!(faults(2), serde_json::json!({"malformed": 48}));
    let flood: u64 = faults(3)
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(flood, 48, "{}", faults(3));
    assert_eq!(faults(4), serde_json::json!({"crashed": 48}));
    assert_eq!(faults(5), serde_json::json!({"timeout": 48}));
    assert_eq!(faults(6), serde_json::json!({}));
    assert_eq!(report["bots"][6]["wins"], 48);
    for record in stored(&dir.path().join("r.sqlite")) {
        for (fault, seat) in record.faults.iter().zip(&record.seats) {
            if let Some((_, reason)) = fault {
                assert!(!reason.is_empty(), "bot {seat}: a fault without a reason");
            }
        }
    }
    for marker in [
        "sleep 7781",
        "sleep 7782",
        "sleep 7783",
        "kingdomino_bot.py --misbehave",
        "kingdomino_bot.py --ignore",
    ] {
        assert_eq!(
            live_processes_with(marker),
            Vec::<String>::new(),
            "{marker}"
        );
    }
}

#[test]
fn sprt_decides_that_greedy_beats_random() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "sprt",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--elo0",
            "0",
            "--elo1",
            "50",
            "--quiet",
            "--db",
            "s.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("H1 accepted: the candidate is stronger"),
        "{text}"
    );
    let report = run(
        dir.path(),
        &["report", "--db", "s.sqlite", "--format", "csv"],
    );
    let csv = stdout(&report);
    assert!(csv.starts_with("bot,command,games,wins"), "{csv}");
    assert_eq!(csv.lines().count(), 3);
}

#[test]
fn an_external_referee_drives_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    let referee = format!("{} referee kingdomino", realm());
    let greedy = format!("{} bot kingdomino greedy", realm());
    let random = format!("{} bot kingdomino random", realm());
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "--referee",
            &referee,
            &greedy,
            &random,
            "--games",
            "6",
            "--quiet",
            "--db",
            "x.sqlite",
            "--format",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["bots"][0]["wins"], 6);
    assert_eq!(
        report["head_to_head"]["pentanomial"],
        serde_json::json!([0, 0, 0, 0, 3])
    );
}

#[test]
fn the_report_shows_ratings_for_more_than_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "builtin:reference",
            "--players",
            "3",
            "--games",
            "9",
            "--quiet",
            "--db",
            "m.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Weng-Lin"), "{text}");
    assert!(text.contains("batch fit (Elo scale)"), "{text}");
    assert!(text.contains("pairwise score"), "{text}");
    let listing = stdout(&run(dir.path(), &["report", "--db", "m.sqlite", "--list"]));
    assert!(
        listing.contains("kingdomino") && listing.contains("9/9 matches"),
        "{listing}"
    );
}
