//! Helpers for the `realm` binary's integration tests: run it, find leftover processes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let bot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/kingdomino_bot.py");
    format!("python3 {} {extra}", bot.display())
        .trim_end()
        .to_string()
}

/// Live (non-zombie) processes whose command line contains `marker`.
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
        if cmdline.contains(marker) && !zombie && !cmdline.contains("cargo") {
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}
