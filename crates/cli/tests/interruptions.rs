//! A cluster cancelling a job (scancel, a time limit, preemption) signals every process of the
//! job, bots included, and a bot may die before realm handles its own signal. Such a match is
//! never a result: after resuming, the store equals an uninterrupted run's, and no replay file
//! shows a match no result counts.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{live_pids_with, python_bot, realm, run, stderr, tag, wait_for_process_with};
use realm_store::{MatchRecord, Store};

fn stored(db: &Path) -> Vec<MatchRecord> {
    let store = Store::open(db).unwrap();
    let run = store.latest_run().unwrap().expect("a run");
    let mut records = store.matches(run.id).unwrap();
    for r in &mut records {
        r.duration_ms = 0;
        r.times_us.iter_mut().for_each(Vec::clear);
        r.replay_path = None;
    }
    records.sort_by_key(|r| r.match_idx);
    records
}

fn signal(pid: i32, sig: i32) {
    // SAFETY: kill(2) on a process id; no memory involved.
    unsafe {
        libc::kill(pid, sig);
    }
}

#[test]
fn bots_signalled_just_before_realm_never_leave_a_false_result() {
    let dir = tempfile::tempdir().unwrap();
    let marker = tag("sigterm-bots");
    let bot = python_bot(&marker);
    // No time limits: this test is about interruptions and must not flake under load.
    let args = |db: &str, replays: &str| -> Vec<String> {
        [
            "arena",
            "kingdomino",
            &bot,
            "builtin:greedy",
            "--games",
            "24",
            "--jobs",
            "2",
            "--no-timeout",
            "--quiet",
            "--keep-replays",
            "all",
            "--replay-dir",
            replays,
            "--db",
            db,
        ]
        .map(String::from)
        .to_vec()
    };
    let reference = args("whole.sqlite", "whole");
    let reference: Vec<&str> = reference.iter().map(String::as_str).collect();
    let out = run(dir.path(), &reference);
    assert!(out.status.success(), "{}", stderr(&out));

    let interrupted = args("cut.sqlite", "cut");
    let interrupted: Vec<&str> = interrupted.iter().map(String::as_str).collect();
    for round in 0..6 {
        let mut child = Command::new(realm())
            .args(&interrupted)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for_process_with(&marker);
        std::thread::sleep(Duration::from_millis(20 * round));
        // As a scheduler does: every bot first, realm a moment later.
        for pid in live_pids_with(&marker) {
            signal(pid, libc::SIGTERM);
        }
        std::thread::sleep(Duration::from_millis(3));
        signal(child.id() as i32, libc::SIGTERM);
        let status = child.wait().unwrap();
        // 130: interrupted; 0 or 3: the run ended before realm's own signal arrived.
        assert!(
            matches!(status.code(), Some(0 | 3 | 130)),
            "round {round}: {status:?}"
        );
    }
    let out = run(dir.path(), &interrupted);
    assert!(out.status.success(), "{}", stderr(&out));
    let whole = stored(&dir.path().join("whole.sqlite"));
    let cut = stored(&dir.path().join("cut.sqlite"));
    assert_eq!(cut.len(), 24);
    let differing: Vec<String> = cut
        .iter()
        .zip(&whole)
        .filter(|(c, w)| c != w)
        .map(|(c, w)| {
            format!(
                "match {}: {:?} {:?} vs {:?}",
                c.match_idx, c.scores, c.faults, w.scores
            )
        })
        .collect();
    assert_eq!(
        differing,
        Vec::<String>::new(),
        "the resumed run equals the uninterrupted one"
    );
    assert!(cut.iter().all(|r| r.faults.iter().all(Option::is_none)));

    // Every kept replay belongs to a stored match and shows no fault; nothing is left pending.
    for entry in std::fs::read_dir(dir.path().join("cut")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(name.ends_with(".json"), "left behind: {name}");
        let replay: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let faults = replay["outcome"]["faults"].as_array().unwrap();
        assert!(faults.iter().all(|f| f.is_null()), "{name}: {faults:?}");
    }
}
