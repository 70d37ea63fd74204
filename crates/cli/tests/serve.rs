//! `realm serve` and `realm view` as a user starts them: a URL on 127.0.0.1 that shows the
//! store's runs and the kept replays.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use common::{realm, run, stderr, stdout};

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(dir: &std::path::Path, args: &[&str]) -> Server {
        Server::spawn(
            Command::new(realm())
                .args(args)
                .current_dir(dir)
                .stderr(Stdio::null()),
        )
    }

    /// Starts `command` (realm, or a shell that `exec`s it; its stderr set by the caller) and
    /// waits for its URL line.
    fn spawn(command: &mut Command) -> Server {
        let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
        // The URL line may follow other output (`realm score --view` prints the scores first).
        let mut reader = BufReader::new(child.stdout.as_mut().unwrap());
        let mut seen = String::new();
        let url = loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                panic!("no URL in the output: {seen}");
            }
            if let Some(url) = line
                .split_whitespace()
                .find(|w| w.starts_with("http://127.0.0.1:"))
            {
                break url.to_string();
            }
            seen.push_str(&line);
        };
        let base = url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        Server { child, base }
    }

    /// Status code and body of a GET.
    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.base).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.base
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_shows_runs_matches_and_replays_of_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "4",
            "--keep-replays",
            "all",
            "--quiet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let server = Server::start(dir.path(), &["serve", "--port", "0"]);
    let (status, runs) = server.get("/api/runs");
    assert_eq!(status, 200);
    let runs: serde_json::Value = serde_json::from_str(&runs).unwrap();
    assert_eq!(runs[0]["n_matches_done"], 4);
    let (status, detail) = server.get("/api/runs/1");
    assert_eq!(status, 200);
    let detail: serde_json::Value = serde_json::from_str(&detail).unwrap();
    assert_eq!(detail["leaderboard"][0]["bot"], "builtin:greedy");
    assert_eq!(detail["pairwise"][0][1]["wins"], 4);
    assert_eq!(detail["fault_codes"], serde_json::json!([]));
    let (status, matches) = server.get("/api/runs/1/matches?bot=builtin%3Arandom&result=win");
    assert_eq!((status, matches.as_str()), (200, "[]"));
    let (_, all) = server.get("/api/runs/1/matches?result=decisive");
    let all: serde_json::Value = serde_json::from_str(&all).unwrap();
    assert_eq!(
        all.as_array().unwrap().len(),
        4,
        "greedy won all four outright"
    );
    assert_eq!(server.get("/api/runs/1/matches?page=2").1, "[]");
    assert_eq!(server.get("/runs/1/matches/2").0, 200);
    assert_eq!(server.get("/api/replays").0, 200);
    assert_eq!(server.get("/replay/..%2f..%2fetc%2fpasswd").0, 404);
}

#[test]
fn view_serves_one_replay() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--seed",
            "2",
            "--replay",
            "one.json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let server = Server::start(dir.path(), &["view", "one.json"]);
    let (status, body) = server.get("/api/replays");
    assert_eq!(status, 200);
    assert!(body.contains("one.json"), "{body}");
}

#[test]
fn score_view_writes_and_serves_the_scored_board() {
    let dir = tempfile::tempdir().unwrap();
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../kingdom-builder/data/kingdom_builder_example_board.txt"
    );
    std::fs::copy(board, dir.path().join("example.txt")).unwrap();
    let server = Server::start(
        dir.path(),
        &[
            "score",
            "kingdom-builder",
            "example.txt",
            "--cards",
            "1,3,7",
            "--view",
        ],
    );
    let written = dir.path().join("replays/kingdom-builder-example.json");
    assert!(written.is_file(), "the replay is kept where --view says");
    let (status, list) = server.get("/api/replays");
    assert_eq!(status, 200);
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["name"], "kingdom-builder-example.json");
    assert_eq!(
        list[0]["summary"]["scores"],
        serde_json::json!([52, 46, 43, 62])
    );
    let (status, page) = server.get("/replay/kingdom-builder-example.json");
    assert_eq!(status, 200);
    assert!(
        page.contains("/api/replay/kingdom-builder-example.json"),
        "{page}"
    );
}

/// The smallest file `realm view` serves: the viewer reads it only in the browser.
const TINY_REPLAY: &str = r#"{"format_version":1}"#;

/// Waits (up to a generous 60 s, polling) for `child` to end and returns its exit code, `None`
/// when it did not end in that time (`Server`'s drop kills it then).
fn exit_code_within_a_minute(child: &mut Child) -> Option<Option<i32>> {
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(60) {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status.code());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    None
}

#[test]
fn serve_and_view_end_on_int_term_and_hup_even_when_started_ignoring_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("r.json"), TINY_REPLAY).unwrap();
    for (args, signal) in [
        ("serve --port 0", libc::SIGINT),
        ("serve --port 0", libc::SIGTERM),
        ("serve --port 0", libc::SIGHUP),
        ("view r.json", libc::SIGINT),
    ] {
        // As a script's background job starts (there SIGINT is ignored), and more: all three
        // signals ignored, and realm exec'd so that the signal reaches realm itself.
        let mut server = Server::spawn(
            Command::new("sh")
                .args(["-c", &format!("trap '' INT TERM HUP; exec \"$0\" {args}")])
                .arg(realm())
                .current_dir(dir.path())
                .stderr(Stdio::null()),
        );
        assert_eq!(server.get("/").0, 200, "{args}");
        // SAFETY: kill(2) on our own child, which has not been reaped yet.
        unsafe { libc::kill(server.child.id() as i32, signal) };
        assert_eq!(
            exit_code_within_a_minute(&mut server.child),
            Some(Some(130)),
            "realm {args} and signal {signal}"
        );
    }
}

/// What `realm ARGS` (a server) writes to stderr before it serves: read once its URL is out and
/// it has been stopped, so this never waits on a server that said nothing.
fn stderr_before_serving(dir: &std::path::Path, args: &[&str]) -> String {
    let mut command = Command::new(realm());
    command.args(args).current_dir(dir).stderr(Stdio::piped());
    let mut server = Server::spawn(&mut command);
    server.child.kill().unwrap();
    let mut text = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[test]
fn serve_of_a_missing_store_is_an_error_when_named_and_a_notice_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let mut named = Command::new(realm())
        .args(["serve", "--db", "typo.sqlite"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let code = exit_code_within_a_minute(&mut named);
    let _ = named.kill();
    assert_eq!(code, Some(Some(2)), "an error, not a server");
    let mut said = String::new();
    named
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    assert_eq!(said, "error: no results store at typo.sqlite\n");
    assert_eq!(
        stderr_before_serving(dir.path(), &["serve", "--port", "0"]),
        "no results store at realm.sqlite yet: no runs to show, only replays\n"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(files.is_empty(), "serve creates nothing: {files:?}");
}

#[test]
fn view_warns_of_a_replay_from_a_newer_realm_and_serves_it() {
    let dir = tempfile::tempdir().unwrap();
    let newer = realm_core::REPLAY_FORMAT_VERSION + 1;
    let text = format!(r#"{{"format_version":{newer}}}"#);
    std::fs::write(dir.path().join("future.json"), &text).unwrap();
    assert_eq!(
        stderr_before_serving(dir.path(), &["view", "future.json"]),
        format!(
            "warning: future.json is replay format {newer}, newer than this realm's {}; \
             the viewer may show it wrongly\n",
            newer - 1
        )
    );
    let server = Server::start(dir.path(), &["view", "future.json"]);
    assert_eq!(server.get("/api/replay/future.json"), (200, text));
}

/// How many calls of the replay at `path` carry a response time.
fn timed_calls(path: &std::path::Path) -> usize {
    let replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["time_us"].is_u64())
        .count()
}

/// The kept replays of an arena run in `dir` with `args` added, by file name.
fn kept_replays(dir: &std::path::Path, args: &[&str]) -> Vec<std::path::PathBuf> {
    let mut all = vec![
        "arena",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "exit 3",
        "--games",
        "3",
        "--seed",
        "1",
        "--replay-dir",
        "kept",
        "--quiet",
    ];
    all.extend_from_slice(args);
    let out = run(dir, &all);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<_> = std::fs::read_dir(dir.join("kept"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn faulted_replays_kept_by_arena_carry_response_times_and_others_only_when_asked() {
    let faults = tempfile::tempdir().unwrap();
    let kept = kept_replays(faults.path(), &[]);
    assert!(!kept.is_empty());
    for file in &kept {
        assert!(timed_calls(file) > 0, "{} has no timings", file.display());
    }
    let all = tempfile::tempdir().unwrap();
    for file in kept_replays(all.path(), &["--keep-replays", "all"]) {
        assert_eq!(timed_calls(&file), 0, "{}: timings unasked", file.display());
    }
    let asked = tempfile::tempdir().unwrap();
    for file in kept_replays(asked.path(), &["--keep-replays", "all", "--timings"]) {
        assert!(timed_calls(&file) > 0, "{} has no timings", file.display());
    }
}

#[test]
fn serve_uses_its_fixed_port_and_says_so_when_it_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("replays")).unwrap();
    // Taken by this test, or already by someone else: taken either way.
    let _holder = std::net::TcpListener::bind(("127.0.0.1", 7459));
    let said = stderr_before_serving(dir.path(), &["serve"]);
    let moved = said
        .strip_prefix("no results store at realm.sqlite yet: no runs to show, only replays\n")
        .unwrap_or(&said);
    let rest = moved
        .strip_prefix("port 7459 is taken (")
        .unwrap_or_else(|| panic!("no fallback notice: {said}"));
    let (_, port) = rest.split_once("): serving on port ").unwrap();
    assert_eq!(
        port.strip_suffix(" instead (--port chooses one)\n")
            .map(|p| p.parse::<u16>().is_ok()),
        Some(true),
        "{said}"
    );
    let help = run(dir.path(), &["serve", "--help"]);
    assert!(stdout(&help).contains("7459"), "{}", stdout(&help));
}

#[test]
fn serve_names_a_stored_replay_that_is_gone_and_links_kept_neighbours_in_a_filter() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "6",
            "--keep-replays",
            "all",
            "--replay-dir",
            "kept",
            "--quiet",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_file(dir.path().join("kept/match-000003.json")).unwrap();
    let server = Server::start(dir.path(), &["serve", "--port", "0"]);
    let (status, page) = server.get("/runs/1/matches/3");
    assert_eq!(status, 404);
    let gone = dir.path().join("kept/match-000003.json");
    assert!(
        page.contains(&format!(
            "the results store references {} as the replay of match 3 of run #1",
            gone.display()
        )),
        "{page}"
    );
    let (_, list) = server.get("/runs/1/matches");
    assert!(!list.contains(r#"href="/runs/1/matches/3""#) && list.contains("missing"));
    // The previous and next links keep the filter the match was opened from.
    let (status, page) = server.get("/runs/1/matches/2?bot=builtin%3Agreedy");
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"<a href="/runs/1/matches/1?bot=builtin%3Agreedy" rel="prev""#),
        "{page}"
    );
}

#[test]
fn serve_shows_run_states_and_a_leagues_structure_as_league_show_does() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "2",
            "--quiet",
        ][..],
        &["league", "new", "main", "kingdomino"],
        &[
            "league",
            "add",
            "main",
            "builtin:greedy",
            "--note",
            "first try",
        ],
        &["league", "add", "main", "builtin:random"],
        &["league", "run", "main", "--games", "4", "--quiet"],
        &["league", "retire", "main", "builtin:random"],
    ] {
        let out = run(dir.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let server = Server::start(dir.path(), &["serve", "--port", "0"]);
    let (_, runs) = server.get("/api/runs");
    let runs: serde_json::Value = serde_json::from_str(&runs).unwrap();
    // Newest first: the league (just played, so running), then the finished arena.
    assert_eq!(runs[0]["status"], "running", "{runs}");
    assert_eq!(runs[0]["label"], "league main (1 bots)", "one active bot");
    assert_eq!(runs[1]["status"], "complete");
    assert!(runs[1]["last_activity"].as_str().unwrap().ends_with('Z'));
    let (_, list) = server.get("/runs");
    assert!(
        list.contains("<td>4</td>"),
        "a league's progress has no planned size: {list}"
    );
    let (_, league) = server.get(&format!("/runs/{}", runs[0]["id"]));
    for expected in [
        r#"<small class="bot-status">retired</small>"#,
        r#"<td class="p-next">99%</td>"#,
        "first try",
        r#"<table class="matrix" id="pairwise">"#,
        r#"<table class="list" id="per-seat">"#,
    ] {
        assert!(
            league.contains(expected),
            "{expected} missing from {league}"
        );
    }
    let (_, arena) = server.get(&format!("/runs/{}", runs[1]["id"]));
    assert!(
        arena.contains(r#"data-live="false""#),
        "a complete run is not followed"
    );
    assert!(arena.contains(r#"data-status="complete""#));
}
