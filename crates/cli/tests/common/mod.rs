//! Helpers for the `realm` binary's integration tests: run it, find leftover processes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The matches of the newest run in the results store at `db`, in match order.
pub fn stored(db: &Path) -> Vec<realm_store::MatchRecord> {
    let store = realm_store::Store::open(db).unwrap();
    let run = store.latest_run().unwrap().expect("a run");
    store.matches(run.id).unwrap()
}

pub fn realm() -> &'static str {
    env!("CARGO_BIN_EXE_realm")
}

/// Runs `realm ARGS` in `dir` and returns its output.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(realm())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("realm runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The Python test bot, optionally misbehaving.
pub fn python_bot(extra: &str) -> String {
    format!("python3 {} {extra}", python_bot_path().display())
        .trim_end()
        .to_string()
}

pub fn python_bot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/kingdomino_bot.py")
}

/// `--tag NAME-PID/`: a command-line marker unique to this test and this test process, so
/// that test runs in parallel never see each other's bots. The Python bot ignores it.
pub fn tag(name: &str) -> String {
    format!("--tag {name}-{}/", std::process::id())
}

/// A `sleep` duration unique to this test process (`N.PID`) and the command-line text that finds
/// that `sleep` (the trailing space stops `N.12` from matching `N.123`).
pub fn unique_sleep(n: u32) -> (String, String) {
    let seconds = format!("{n}.{}", std::process::id());
    let marker = format!("sleep {seconds} ");
    (seconds, marker)
}

/// Waits (up to a minute, polling) until no live process has `marker` in its command line, and
/// returns those still there: killed processes take a moment to disappear, a long one on a
/// loaded machine. The bound guards against waiting forever; it does not judge speed.
pub fn processes_left_with(marker: &str) -> Vec<String> {
    let started = Instant::now();
    loop {
        let left = live_processes_with(marker);
        if left.is_empty() || started.elapsed() > Duration::from_secs(60) {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (up to two minutes, polling: a Python start-up on a loaded machine is slow) until a
/// live process has `marker` in its command line.
pub fn wait_for_process_with(marker: &str) {
    let started = Instant::now();
    while live_processes_with(marker).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no process with {marker} appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The process ids of `live_processes_with(marker)`.
pub fn live_pids_with(marker: &str) -> Vec<i32> {
    live_processes_with(marker)
        .iter()
        .filter_map(|p| p.split(':').next()?.parse().ok())
        .collect()
}

/// Live (non-zombie) processes whose command line contains `marker`, realm itself excepted
/// (its command line names its bots).
pub fn live_processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().to_string();
        if !pid.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(") ")
            .next()
            .is_some_and(|rest| rest.starts_with('Z'));
        let is_realm = cmdline.starts_with(&format!("{} ", realm()));
        if cmdline.contains(marker) && !zombie && !cmdline.contains("cargo") && !is_realm {
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}
