//! What realm writes besides results: a reader closing realm's stdout early is a quiet, normal
//! end for every command, and `realm serve` never writes to the results store it shows.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};

use common::{realm, run, stderr};

/// Runs `realm ARGS` with stdout a pipe whose reader is already gone, so that its first write
/// fails with EPIPE; returns the exit code and stderr.
fn with_closed_stdout(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors, which are then owned here exactly once.
    let (reader, writer) = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    drop(reader);
    let out = Command::new(realm())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (out.status.code(), stderr(&out))
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let arena = [
        "arena",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "--games",
        "4",
        "--quiet",
    ];
    assert!(run(dir.path(), &arena).status.success());
    let referee_bot = format!("{} bot kingdomino greedy", realm());
    for args in [
        &arena[..],
        &["report"],
        &["report", "--format", "json"],
        &["report", "--format", "csv"],
        &["report", "--list"],
        &["games"],
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--seed",
            "1",
        ],
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--json",
        ],
        &[
            "referee",
            "kingdomino",
            "-p1",
            "builtin:greedy",
            "-p2",
            &referee_bot,
            "--no-timeout",
        ],
        &["merge", "realm.sqlite", "--into", "all.sqlite"],
        &[
            "sprt",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--elo1",
            "100",
            "--quiet",
        ],
    ] {
        assert_eq!(
            with_closed_stdout(dir.path(), args),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
}

/// The store's bytes and the folder's listing.
fn snapshot(dir: &Path) -> (Vec<u8>, Vec<String>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (std::fs::read(dir.join("realm.sqlite")).unwrap(), names)
}

fn get(base: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(base).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn serving_a_store_leaves_its_bytes_and_folder_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store_dir = dir.path().join("store");
    std::fs::create_dir(&store_dir).unwrap();
    let out = run(
        &store_dir,
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "4",
            "--quiet",
            "--keep-replays",
            "none",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let before = snapshot(&store_dir);
    assert_eq!(before.1, ["realm.sqlite"]);
    let mut server = Command::new(realm())
        .args(["serve", "--db"])
        .arg(store_dir.join("realm.sqlite"))
        .args(["--replays", "."])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .expect(&line)
        .trim_end_matches('/')
        .to_string();
    let runs = get(&base, "/api/runs");
    assert!(runs.starts_with("HTTP/1.1 200"), "{runs}");
    assert!(runs.contains("builtin:greedy"), "{runs}");
    let detail = get(&base, "/api/runs/1");
    assert!(detail.starts_with("HTTP/1.1 200"), "{detail}");
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(snapshot(&store_dir), before);
}

#[test]
fn serving_a_file_that_is_not_a_store_is_a_one_line_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("realm.sqlite"), b"").unwrap();
    let out = run(dir.path(), &["serve"]);
    assert_eq!(out.status.code(), Some(2));
    let shown = dir.path().join("realm.sqlite");
    assert_eq!(
        stderr(&out),
        format!(
            "error: {} is not a realm results store (empty file)\n",
            shown.display()
        )
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["realm.sqlite"]);
    assert_eq!(std::fs::read(dir.path().join("realm.sqlite")).unwrap(), b"");
}
