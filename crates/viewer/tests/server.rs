//! The viewer as a client sees it: a real server on a free port, raw HTTP over TCP (so request
//! targets reach the server exactly as written, `..` and `%2e%2e` included), every refusal a
//! 404, and the runs pages over an in-memory `RunSource`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use realm_viewer::{
    BotDetails, LeaderRow, MatchFilter, MatchRow, PairRecord, RunDetail, RunSource, RunSummary,
    RunningServer, SeatRecord, SeatResult, ServerConfig, SourceError,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const GAMES: [&str; 5] = [
    "kingdomino",
    "blocking",
    "ice-and-fire",
    "carcassonne",
    "kingdom-builder",
];
const SECRET: &str = "TOP-SECRET-CONTENT";

struct Reply {
    status: u16,
    head: String,
    body: String,
}

/// Sends one request exactly as given and reads the whole answer.
fn raw(server: &RunningServer, request: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

fn request(server: &RunningServer, method: &str, target: &str) -> Reply {
    raw(
        server,
        &format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    )
}

fn get(server: &RunningServer, target: &str) -> Reply {
    request(server, "GET", target)
}

/// A temp dir holding `replays/` (the fixtures, one in a sub-folder) next to a secret file, and
/// a symlink inside `replays/` that points at the secret.
fn replay_tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("replays");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    for game in GAMES {
        let target = if game == "blocking" {
            root.join("sub").join("blocking game.json")
        } else {
            root.join(format!("{game}.json"))
        };
        std::fs::copy(Path::new(FIXTURES).join(format!("{game}.json")), target).unwrap();
    }
    std::fs::write(dir.path().join("secret.json"), SECRET).unwrap();
    std::fs::write(dir.path().join("passwd"), SECRET).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.json"), root.join("link.json")).unwrap();
    (dir, root)
}

fn serve(root: &Path) -> RunningServer {
    realm_viewer::start(ServerConfig::folder(root)).unwrap()
}

#[test]
fn every_fixture_is_a_valid_replay_and_is_served_as_json() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    for game in GAMES {
        let path = if game == "blocking" {
            "sub/blocking%20game.json".to_string()
        } else {
            format!("{game}.json")
        };
        let reply = get(&server, &format!("/api/replay/{path}"));
        assert_eq!(reply.status, 200, "{game}");
        assert!(reply.head.contains("Content-Type: application/json"));
        let replay: realm_core::Replay = serde_json::from_str(&reply.body).unwrap();
        assert_eq!(replay.spec.game, game);
        assert!(!replay.turns.is_empty());
        for frame in
            std::iter::once(&replay.initial_frame).chain(replay.turns.iter().map(|t| &t.frame))
        {
            let scores = frame["scores"].as_array().expect("every frame has scores");
            assert_eq!(scores.len(), replay.spec.n_players, "{game}");
        }
        let page = get(&server, &format!("/replay/{path}"));
        assert_eq!(page.status, 200);
        assert!(page
            .body
            .contains(&format!(r#"data-src="/api/replay/{path}""#)));
        assert!(page.body.contains(r#"src="/assets/replay.js""#));
    }
    server.shutdown();
}

#[test]
fn every_fixture_file_parses_as_a_replay_with_scores_in_every_frame() {
    let mut n = 0;
    for item in std::fs::read_dir(FIXTURES).unwrap() {
        let path = item.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let replay: realm_core::Replay =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            GAMES.contains(&replay.spec.game.as_str()),
            "{}",
            path.display()
        );
        for turn in &replay.turns {
            assert!(turn.player < replay.spec.n_players);
            assert_eq!(
                turn.frame["scores"].as_array().map(Vec::len),
                Some(replay.spec.n_players),
                "{}",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n >= GAMES.len());
}

#[test]
fn path_traversal_is_refused_with_404() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    let attempts = [
        "/api/replay/../secret.json",
        "/replay/../secret.json",
        "/api/replay/%2e%2e/secret.json",
        "/api/replay/%2E%2E%2Fsecret.json",
        "/api/replay/sub/..%2f..%2fsecret.json",
        "/api/replay/sub/%2e%2e/%2e%2e/secret.json",
        "/api/replay/..%5csecret.json",
        "/api/replay/%252e%252e/secret.json",
        "/api/replay/.%2e/secret.json",
        "//etc/passwd",
        "/../passwd",
        "/api/replay//etc/passwd",
        "/api/replay/%2fetc%2fpasswd",
        "/api/replay/%2Fetc%2Fpasswd%00.json",
        "/assets/../../Cargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/api/replay/link.json",
        "/replay/link.json",
        "http://127.0.0.1/api/replay/../secret.json",
        "/api/replay/kingdomino.json/../../secret.json",
    ];
    for target in attempts {
        let reply = get(&server, target);
        assert_eq!(reply.status, 404, "{target}");
        assert!(!reply.body.contains(SECRET), "{target} leaked the secret");
    }
    // The same files by honest names are fine, so the refusals above are not blanket ones.
    assert_eq!(get(&server, "/api/replay/kingdomino.json").status, 200);
    assert_eq!(
        get(&server, "/api/replay/sub/blocking%20game.json").status,
        200
    );
    server.shutdown();
}

#[test]
fn unknown_urls_are_404_and_writes_are_405() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    for target in [
        "/nope",
        "/index.html",
        "/assets/missing.js",
        "/api/replay/missing.json",
        "/replay/",
        "/api/replays/x",
        "/runs",
        "/runs/1",
        "/api/runs",
    ] {
        assert_eq!(get(&server, target).status, 404, "{target}");
    }
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let reply = request(&server, method, "/api/replay/kingdomino.json");
        assert_eq!(reply.status, 405, "{method}");
        assert!(reply.head.contains("Allow: GET, HEAD"));
    }
    let head = request(&server, "HEAD", "/api/replay/kingdomino.json");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "HEAD has no body");
    server.shutdown();
}

#[test]
fn a_foreign_host_name_is_refused() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    let ask = |host: &str| {
        raw(
            &server,
            &format!("GET /api/replays HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        )
        .status
    };
    assert_eq!(ask("evil.example:80"), 404, "DNS rebinding");
    assert_eq!(ask("localhost:9"), 200);
    assert_eq!(ask("[::1]:9"), 200);
    assert_eq!(ask(&format!("127.0.0.1:{}", server.port())), 200);
    server.shutdown();
}

#[test]
fn the_index_lists_the_replays_newest_first() {
    let (_dir, root) = replay_tree();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    std::fs::File::options()
        .write(true)
        .open(root.join("carcassonne.json"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let server = serve(&root);
    let index = get(&server, "/");
    assert_eq!(index.status, 200);
    for href in [
        "/replay/kingdomino.json",
        "/replay/sub/blocking%20game.json",
        "/replay/ice-and-fire.json",
        "/replay/kingdom-builder.json",
    ] {
        assert!(index.body.contains(href), "{href}");
    }
    assert!(!index.body.contains("link.json"), "symlinks are not listed");
    let list: Vec<serde_json::Value> =
        serde_json::from_str(&get(&server, "/api/replays").body).unwrap();
    assert_eq!(list.len(), 5);
    assert_eq!(list[4]["name"], "carcassonne.json", "the oldest is last");
    assert_eq!(list[4]["summary"]["game"], "carcassonne");
    assert_eq!(
        list[4]["summary"]["players"],
        serde_json::json!(["greedy", "mcts"])
    );
    server.shutdown();
}

#[test]
fn the_index_pages_through_every_replay_with_game_bot_and_folder_filters() {
    let (_dir, root) = replay_tree();
    std::fs::create_dir(root.join("bulk")).unwrap();
    let tiny = r#"{"format_version":1,"realm_version":"0.1.0",
        "spec":{"game":"blocking","n_players":2,"seed":5},
        "players":[{"name":"mine","command":"./mine"},{"name":"b","command":"builtin:b"}],
        "initial_frame":{},"turns":[],
        "outcome":{"scores":[3,1],"ranks":[1,2],"end":{"kind":"finished"},"detail":"","faults":[null,null]}}"#;
    for i in 0..2001 {
        std::fs::write(root.join(format!("bulk/m{i:04}.json")), tiny).unwrap();
    }
    let server = serve(&root);
    let index = get(&server, "/").body;
    assert!(
        index.contains("Replays <small>(2006)</small>"),
        "every replay counted"
    );
    assert!(index.contains("page 1 of 21"));
    let last = get(&server, "/?page=21").body;
    assert_eq!(last.matches("<tr data-replay=").count(), 6, "{last}");
    let game = get(&server, "/?game=kingdomino").body;
    assert!(game.contains("Replays <small>(1)</small>"), "{game}");
    assert!(game.contains(r#"href="/replay/kingdomino.json""#));
    let bot = get(&server, "/?bot=mine&page=2").body;
    assert!(bot.contains("Replays <small>(2001)</small>"));
    assert!(
        bot.contains(r#"href="/?page=3&amp;bot=mine" rel="next""#),
        "{bot}"
    );
    let folder = get(&server, "/?folder=sub").body;
    assert!(folder.contains("Replays <small>(1)</small>"), "{folder}");
    assert!(folder.contains("sub/blocking game.json"));
    assert!(folder.contains(r#"<input name="folder" value="sub">"#));
    server.shutdown();
}

#[test]
fn a_missing_folder_is_an_empty_list_until_it_appears() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("later");
    let server = serve(&root);
    assert_eq!(get(&server, "/api/replays").body, "[]");
    assert!(get(&server, "/").body.contains("No replays"));
    std::fs::create_dir(&root).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("kingdomino.json"),
        root.join("k.json"),
    )
    .unwrap();
    assert_eq!(get(&server, "/api/replay/k.json").status, 200);
    server.shutdown();
}

#[test]
fn a_file_as_replay_folder_is_an_error() {
    let file = Path::new(FIXTURES).join("kingdomino.json");
    let err = realm_viewer::start(ServerConfig::folder(&file))
        .err()
        .unwrap();
    assert!(err.to_string().ends_with("is not a folder"), "{err}");
}

#[test]
fn single_replay_mode_serves_that_file_only() {
    let (_dir, root) = replay_tree();
    let server = realm_viewer::start(ServerConfig::single(root.join("kingdomino.json"))).unwrap();
    assert!(
        server.url().ends_with("/replay/kingdomino.json"),
        "{}",
        server.url()
    );
    let page = get(&server, "/replay/kingdomino.json");
    assert_eq!(page.status, 200);
    assert_eq!(get(&server, "/api/replay/kingdomino.json").status, 200);
    assert_eq!(get(&server, "/api/replay/kingdomin%6F.json").status, 200);
    assert_eq!(get(&server, "/api/replay/ice-and-fire.json").status, 404);
    assert_eq!(get(&server, "/api/replay/../secret.json").status, 404);
    let list: Vec<serde_json::Value> =
        serde_json::from_str(&get(&server, "/api/replays").body).unwrap();
    assert_eq!(list.len(), 1);
    server.shutdown();
}

#[test]
fn shutdown_closes_the_port() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    let port = server.port();
    assert_eq!(get(&server, "/").status, 200);
    server.shutdown();
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
}

#[test]
fn a_taken_port_is_an_error_unless_falling_back_is_allowed() {
    let (_dir, root) = replay_tree();
    let holder = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let taken = holder.local_addr().unwrap().port();
    let mut strict = ServerConfig::folder(&root);
    strict.port = Some(taken);
    match realm_viewer::start(strict) {
        Err(realm_viewer::ViewerError::Bind { port, .. }) => assert_eq!(port, taken),
        other => panic!("expected a bind error, got {:?}", other.map(|s| s.port())),
    }
    let mut lenient = ServerConfig::folder(&root);
    lenient.port = Some(taken);
    lenient.fall_back_to_free_port = true;
    let server = realm_viewer::start(lenient).unwrap();
    assert_ne!(server.port(), taken);
    assert_eq!(server.taken_port().map(|(p, _)| p), Some(taken));
    assert_eq!(get(&server, "/").status, 200);
    server.shutdown();
}

/// One run of two bots with three matches (match 2 kept its replay), plus `generated` more
/// matches (ids from 4, won by greedy, seed 1000 + id) to page through.
struct FakeStore {
    replay: PathBuf,
    generated: i64,
    /// A generated match that kept `replay` too, far from match 2.
    far: Option<i64>,
    /// Where match 3's replay was, a file that is gone.
    gone: Option<PathBuf>,
}

fn seat(bot: &str, score: i64, rank: u32, fault: Option<&str>) -> SeatResult {
    SeatResult {
        bot: bot.to_string(),
        score,
        rank,
        fault: fault.map(str::to_string),
    }
}

impl RunSource for FakeStore {
    fn runs(&self) -> Result<Vec<RunSummary>, SourceError> {
        Ok(vec![RunSummary {
            id: 7,
            label: "arena <kingdomino>".into(),
            game: "kingdomino".into(),
            started: "2026-11-22 04:00".into(),
            n_bots: 2,
            n_matches_done: 3,
            n_matches_planned: 4,
            status: "running".into(),
            last_activity: Some("2026-11-22T04:10:00Z".into()),
        }])
    }

    fn run(&self, run_id: i64) -> Result<Option<RunDetail>, SourceError> {
        if run_id != 7 {
            return Ok(None);
        }
        let record = |wins, draws, losses| {
            Some(PairRecord {
                wins,
                draws,
                losses,
            })
        };
        Ok(Some(RunDetail {
            summary: self.runs()?.remove(0),
            leaderboard: vec![
                LeaderRow {
                    rank: 1,
                    bot: "greedy".into(),
                    games: 3,
                    wins: 2,
                    draws: 0,
                    losses: 1,
                    rating: Some(35.2),
                    rating_error: Some(120.0),
                    faults: 0,
                    details: BotDetails {
                        response_p50_us: Some(1200),
                        response_p99_us: Some(9000),
                        seats: vec![
                            SeatRecord {
                                seat: 0,
                                games: 2,
                                wins: 2,
                                draws: 0,
                                losses: 0,
                            },
                            SeatRecord {
                                seat: 1,
                                games: 1,
                                wins: 0,
                                draws: 0,
                                losses: 1,
                            },
                        ],
                        data: [("nodes".to_string(), 12.5)].into(),
                        status: Some("active".into()),
                        note: Some("first try".into()),
                        version: Some("./bot.py @abcdef12".into()),
                        p_better_than_next: Some(0.93),
                        ..BotDetails::default()
                    },
                },
                LeaderRow {
                    rank: 2,
                    bot: "random".into(),
                    games: 3,
                    wins: 1,
                    draws: 0,
                    losses: 2,
                    rating: None,
                    rating_error: None,
                    faults: 1,
                    details: BotDetails {
                        fault_kinds: [("timeout".to_string(), 1)].into(),
                        status: Some("retired".into()),
                        ..BotDetails::default()
                    },
                },
            ],
            bots: vec!["greedy".into(), "random".into()],
            pairwise: vec![vec![None, record(2, 0, 1)], vec![record(1, 0, 2), None]],
            fault_codes: vec!["timeout".into()],
        }))
    }

    fn matches(&self, run_id: i64, filter: &MatchFilter) -> Result<Vec<MatchRow>, SourceError> {
        if run_id != 7 {
            return Err("no such run".into());
        }
        let row = |id, seed, seats, has_replay| MatchRow {
            id,
            seed,
            seats,
            end: "finished".into(),
            turns: Some(24),
            duration_ms: Some(120),
            has_replay: has_replay || self.far == Some(id) || (id == 3 && self.gone.is_some()),
            replay_missing: id == 3 && self.gone.is_some(),
        };
        let mut all = vec![
            row(
                1,
                100,
                vec![seat("greedy", 40, 1, None), seat("random", 12, 2, None)],
                false,
            ),
            row(
                2,
                101,
                vec![
                    seat("random", 0, 2, Some("timeout")),
                    seat("greedy", 30, 1, None),
                ],
                true,
            ),
            row(
                3,
                102,
                vec![seat("greedy", 10, 2, None), seat("random", 22, 1, None)],
                false,
            ),
        ];
        all.extend((4..4 + self.generated).map(|id| {
            let seats = vec![seat("greedy", 30, 1, None), seat("random", 20, 2, None)];
            row(id, 1000 + id as u64, seats, false)
        }));
        Ok(all
            .into_iter()
            .filter(|m| filter.accepts(m))
            .skip(filter.offset)
            .take(filter.limit)
            .collect())
    }

    fn replay_file(&self, run_id: i64, match_id: i64) -> Result<Option<PathBuf>, SourceError> {
        if run_id == 7 && match_id == 3 {
            return Ok(self.gone.clone());
        }
        Ok(
            (run_id == 7 && (match_id == 2 || self.far == Some(match_id)))
                .then(|| self.replay.clone()),
        )
    }
}

#[test]
fn runs_pages_show_leaderboard_matrix_filters_and_replays() {
    let (dir, root) = replay_tree();
    // The store's replay lives outside the replay folder: it is trusted because the store
    // named it, not the URL.
    let kept = dir.path().join("kept.json");
    std::fs::copy(Path::new(FIXTURES).join("kingdomino.json"), &kept).unwrap();
    let mut config = ServerConfig::folder(&root);
    config.runs = Some(Box::new(FakeStore {
        replay: kept,
        generated: 0,
        far: None,
        gone: None,
    }));
    let server = realm_viewer::start(config).unwrap();

    let index = get(&server, "/");
    assert!(index.body.contains(r#"href="/runs/7""#));
    assert!(
        index.body.contains("arena &lt;kingdomino&gt;"),
        "labels are escaped"
    );
    assert!(get(&server, "/runs").body.contains(r#"data-run="7""#));

    let run = get(&server, "/runs/7");
    assert_eq!(run.status, 200);
    assert!(run.body.contains(r#"id="leaderboard""#));
    assert!(run.body.contains("35.2 ± 120.0"));
    assert!(run.body.contains(r#"id="pairwise""#));
    assert!(run.body.contains("67%"), "greedy scored 2/3 against random");

    let count = |target: &str| get(&server, target).body.matches("data-match=").count();
    assert_eq!(count("/runs/7/matches"), 3);
    assert_eq!(count("/runs/7/matches?bot=greedy&result=win"), 2);
    assert_eq!(
        count("/runs/7/matches?bot=random&result=win&seed=&fault="),
        1
    );
    assert_eq!(count("/runs/7/matches?fault=timeout"), 1);
    assert_eq!(count("/runs/7/matches?seed=102"), 1);
    // Win and loss without a bot filter nothing, and the page says why.
    let no_bot = get(&server, "/runs/7/matches?result=loss");
    assert_eq!(no_bot.body.matches("data-match=").count(), 3);
    assert!(no_bot.body.contains(r#"id="result-ignored""#));
    assert_eq!(count("/runs/7/matches?result=decisive"), 3);
    assert_eq!(count("/runs/7/matches?result=draw"), 0);
    // The fault filter offers the run's own codes.
    let form = get(&server, "/runs/7/matches?bot=greedy").body;
    assert!(
        form.contains(r#"<option value="timeout">timeout</option>"#),
        "{form}"
    );
    assert!(form.contains(r#"<option value="any">any fault</option>"#));
    assert!(
        !form.contains(" disabled data-needs-bot"),
        "win and loss enabled with a bot"
    );
    let form = get(&server, "/runs/7/matches").body;
    assert_eq!(form.matches(" disabled data-needs-bot").count(), 2);
    let api: Vec<MatchRow> =
        serde_json::from_str(&get(&server, "/api/runs/7/matches?fault=any").body).unwrap();
    assert_eq!(api.iter().map(|m| m.id).collect::<Vec<_>>(), [2]);

    let page = get(&server, "/runs/7/matches/2");
    assert_eq!(page.status, 200);
    assert!(page
        .body
        .contains(r#"data-src="/api/runs/7/matches/2/replay""#));
    let replay = get(&server, "/api/runs/7/matches/2/replay");
    assert_eq!(replay.status, 200);
    serde_json::from_str::<realm_core::Replay>(&replay.body).unwrap();

    for target in [
        "/runs/8",
        "/runs/7/matches/1",
        "/api/runs/7/matches/1/replay",
        "/runs/x",
        "/runs/07x",
        "/runs/7/matches/2/extra",
        "/api/runs/8/matches",
    ] {
        assert_eq!(get(&server, target).status, 404, "{target}");
    }
    server.shutdown();
}

#[test]
fn a_run_page_shows_the_report_status_and_league_marks() {
    let (_dir, server) = sparse_store_server(0, 2, false);
    let run = get(&server, "/runs/7").body;
    for expected in [
        r#"data-live="true""#,
        r#"<span id="run-status" data-status="running">running <small>(last activity 2026-11-22T04:10:00Z)</small></span>"#,
        "3/4 matches",
        "<td>1.2 / 9.0</td>",
        r#"<td class="p-next">93%</td>"#,
        r#"<td class="version">./bot.py @abcdef12 · first try</td>"#,
        r#"<tr data-bot="random" class="status-retired" data-status="retired">"#,
        r#"<small class="bot-status">retired</small>"#,
        r#"<td class="kinds">timeout 1</td>"#,
        r#"<table class="list" id="per-seat">"#,
        r#"<tr data-bot="greedy"><td>greedy</td><td>2/0/0</td><td>0/0/1</td></tr>"#,
        r#"<table class="list" id="bot-data">"#,
        "<td>12.50</td>",
        r#"<section id="pairwise-section">"#,
    ] {
        assert!(run.contains(expected), "{expected} missing from {run}");
    }
    let list = get(&server, "/runs").body;
    assert!(list.contains("<td>3/4</td>"), "{list}");
    server.shutdown();
}

#[test]
fn long_match_lists_are_paged_with_the_filter_kept() {
    let (dir, root) = replay_tree();
    let mut config = ServerConfig::folder(&root);
    config.runs = Some(Box::new(FakeStore {
        replay: dir.path().join("none.json"),
        generated: 2100,
        far: None,
        gone: None,
    }));
    let server = realm_viewer::start(config).unwrap();
    // HTTP/1.0, so that the long pages come unchunked.
    let page = |target: &str| {
        raw(
            &server,
            &format!("GET {target} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"),
        )
        .body
    };
    let ids = |body: &str| -> Vec<i64> {
        body.split(r#"data-match=""#)
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect()
    };
    // 2103 matches: 1000, 1000, 103.
    let first = page("/runs/7/matches");
    assert_eq!(ids(&first).len(), 1000);
    assert_eq!(ids(&first)[..3], [1, 2, 3]);
    assert!(first.contains(r#"<a rel="next" href="/runs/7/matches?page=2">"#));
    assert!(!first.contains(r#"rel="prev""#));
    assert!(first.contains("(1–1000, more on the next page)"));
    let second = page("/runs/7/matches?page=2");
    assert_eq!(ids(&second).first(), Some(&1001));
    assert!(second.contains(r#"rel="prev" href="/runs/7/matches""#));
    assert!(second.contains(r#"rel="next" href="/runs/7/matches?page=3""#));
    let third = page("/runs/7/matches?page=3");
    assert_eq!(ids(&third).len(), 103);
    assert_eq!(ids(&third).last(), Some(&2103));
    assert!(!third.contains(r#"rel="next""#));
    assert!(ids(&page("/runs/7/matches?page=4")).is_empty());
    // Links keep the filter: greedy's 2102 wins span three pages too.
    let wins = page("/runs/7/matches?bot=greedy&result=win&page=2");
    assert_eq!(ids(&wins).len(), 1000);
    assert!(wins.contains(r#"href="/runs/7/matches?bot=greedy&amp;result=win&amp;page=3""#));
    // The API pages the same way.
    let api: Vec<MatchRow> = serde_json::from_str(&page("/api/runs/7/matches?page=3")).unwrap();
    assert_eq!(api.len(), 103);
    server.shutdown();
}

/// A server over a `FakeStore` of `generated` more matches, `far` keeping a replay too and,
/// with `gone`, match 3's replay named but gone.
fn sparse_store_server(generated: i64, far: i64, gone: bool) -> (tempfile::TempDir, RunningServer) {
    let (dir, root) = replay_tree();
    let kept = dir.path().join("kept.json");
    std::fs::copy(Path::new(FIXTURES).join("kingdomino.json"), &kept).unwrap();
    let mut config = ServerConfig::folder(&root);
    config.runs = Some(Box::new(FakeStore {
        replay: kept,
        generated,
        far: Some(far),
        gone: gone.then(|| dir.path().join("replays-moved-away/match-000003.json")),
    }));
    (dir, realm_viewer::start(config).unwrap())
}

#[test]
fn a_match_page_links_the_nearest_kept_replays_however_far_inside_its_filter() {
    let (_dir, server) = sparse_store_server(300, 250, false);
    let from_2 = get(&server, "/runs/7/matches/2").body;
    assert!(
        from_2.contains(r#"<a href="/runs/7/matches/250" rel="next" id="next-match">"#),
        "{from_2}"
    );
    let from_250 = get(&server, "/runs/7/matches/250").body;
    assert!(
        from_250.contains(r#"<a href="/runs/7/matches/2" rel="prev""#),
        "{from_250}"
    );
    // Inside a filter the links keep it.
    let wins = get(&server, "/runs/7/matches/250?bot=greedy&result=win").body;
    assert!(
        wins.contains(r#"<a href="/runs/7/matches/2?bot=greedy&amp;result=win" rel="prev""#),
        "{wins}"
    );
    assert!(!wins.contains(r#"rel="next""#));
    assert!(wins.contains(r#"href="/runs/7/matches?bot=greedy&amp;result=win">its matches"#));
    assert!(wins.contains("kept replays of: win of greedy"), "{wins}");
    // Random won nothing that kept a replay: no neighbours in its wins.
    let none = get(&server, "/runs/7/matches/250?bot=random&result=win").body;
    assert!(!none.contains(r#"rel="prev""#) && !none.contains(r#"rel="next""#));
    // The list's watch links carry the filter to the match page.
    let list = get(&server, "/runs/7/matches?bot=greedy&result=win").body;
    assert!(list.contains(r#"<a href="/runs/7/matches/250?bot=greedy&amp;result=win">watch</a>"#));
    server.shutdown();
}

#[test]
fn a_stored_replay_that_is_gone_is_named_and_not_offered() {
    let (_dir, server) = sparse_store_server(0, 2, true);
    for target in ["/runs/7/matches/3", "/api/runs/7/matches/3/replay"] {
        let reply = get(&server, target);
        assert_eq!(reply.status, 404, "{target}");
        assert!(
            reply.body.contains("the results store references ")
                && reply.body.contains("replays-moved-away/match-000003.json as the replay of match 3 of run #7, but it cannot be read"),
            "{target}: {}",
            reply.body
        );
    }
    let unkept = get(&server, "/runs/7/matches/1");
    assert_eq!(unkept.status, 404);
    assert!(unkept.body.contains("match 1 of run #7 kept no replay"));
    let list = get(&server, "/runs/7/matches").body;
    assert!(
        !list.contains(r#"href="/runs/7/matches/3""#),
        "no watch link for a gone file"
    );
    assert!(list.contains(r#"<span class="missing""#));
    server.shutdown();
}

#[test]
fn an_oversized_request_head_is_431_and_the_server_goes_on() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    // 200 KiB of one header field, and 100 fields: both far past what a browser sends.
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(200 * 1024)
    );
    let many: String = (0..100).map(|i| format!("X-{i}: 1\r\n")).collect();
    let many = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}\r\n");
    for request in [huge, many] {
        let reply = raw(&server, &request);
        assert_eq!(reply.status, 431, "{}", reply.head);
        assert!(reply
            .body
            .starts_with("431 Request Header Fields Too Large"));
    }
    assert_eq!(get(&server, "/").status, 200);
    server.shutdown();
}

#[test]
fn head_gets_the_length_of_the_body_without_the_body() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    let body = get(&server, "/api/replay/kingdomino.json").body;
    let reply = request(&server, "HEAD", "/api/replay/kingdomino.json");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, "");
    assert!(
        reply
            .head
            .contains(&format!("Content-Length: {}", body.len())),
        "{}",
        reply.head
    );
    server.shutdown();
}

/// One GET with a read timeout far beyond any answer's time: its status, or `None` when the
/// server did not answer within it. A refused connection may be reset after its answer, so
/// what was read before an error counts.
fn status_within(server: &RunningServer, timeout: Duration) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    stream.set_read_timeout(Some(timeout)).unwrap();
    let head = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let _ = stream.write_all(head.as_bytes());
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut chunk) {
        bytes.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8_lossy(&bytes)
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
}

/// Clients that take every one of the viewer's 64 connection slots and keep them by sending
/// a byte of an unfinished request head now and then, until released.
struct SlotHolders {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl SlotHolders {
    fn take_every_slot(server: &RunningServer) -> SlotHolders {
        let mut clients: Vec<TcpStream> = (0..64)
            .map(|_| TcpStream::connect(("127.0.0.1", server.port())).unwrap())
            .collect();
        for client in &mut clients {
            client.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
        }
        // Kept from the start, so that no slot times out while the others are taken.
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                for client in &mut clients {
                    let _ = client.write_all(b"a");
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        // Every slot is taken once a request is refused.
        let refused = (0..600).any(|_| {
            let status = status_within(server, Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(50));
            status == Some(503)
        });
        assert!(refused, "the 64 slot holders never filled the viewer");
        SlotHolders { stop, thread }
    }

    /// Closes the holders' connections, freeing their slots.
    fn release(self) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap();
    }
}

#[test]
fn idle_connections_beyond_the_cap_do_not_stall_other_clients() {
    let (_dir, root) = replay_tree();
    let server = serve(&root);
    let holders = SlotHolders::take_every_slot(&server);
    // 86 more clients that connect and never send nor close, all refused. A refusal that
    // waited on its idle client (a second each) kept the accept loop from every later client
    // for over a minute.
    let idle: Vec<TcpStream> = (0..86)
        .map(|_| TcpStream::connect(("127.0.0.1", server.port())).unwrap())
        .collect();
    assert_eq!(status_within(&server, Duration::from_secs(30)), Some(503));
    holders.release();
    // The freed slots serve the next request (asked again while the viewer has yet to see the
    // holders gone).
    let mut status = None;
    for _ in 0..300 {
        status = status_within(&server, Duration::from_secs(30));
        if status != Some(503) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(status, Some(200));
    drop(idle);
    server.shutdown();
}

/// A Play page that starts nothing (the CLI's starter knows the games).
struct NoMatches;

impl realm_viewer::MatchStarter for NoMatches {
    fn catalog(&self) -> serde_json::Value {
        serde_json::json!({"games": []})
    }

    fn start(
        &self,
        _form: &std::collections::BTreeMap<String, String>,
        _hall: &Arc<realm_viewer::PlayHall>,
    ) -> Result<Arc<realm_viewer::PlayMatch>, String> {
        Err("no matches here".to_string())
    }
}

#[test]
fn the_header_links_to_the_play_page_only_when_the_server_has_one() {
    let (_dir, root) = replay_tree();
    let link = r#"<a href="/play" id="nav-play">Play</a>"#;
    let plain = serve(&root);
    assert!(!get(&plain, "/").body.contains(link));
    let without_form = ServerConfig {
        play: Some(realm_viewer::PlayHall::new(None, Duration::from_secs(60))),
        ..ServerConfig::folder(&root)
    };
    let one_match = realm_viewer::start(without_form).unwrap();
    assert!(
        !get(&one_match, "/").body.contains(link),
        "realm play: no form"
    );
    let with_form = ServerConfig {
        play: Some(realm_viewer::PlayHall::new(
            Some(Box::new(NoMatches)),
            Duration::from_secs(60),
        )),
        ..ServerConfig::folder(&root)
    };
    let server = realm_viewer::start(with_form).unwrap();
    for page in ["/", "/play", "/replay/ice-and-fire.json", "/no-such-page"] {
        let reply = get(&server, page);
        assert_eq!(
            reply.body.matches(link).count(),
            1,
            "{page}: {}",
            reply.status
        );
    }
    assert!(!get(&server, "/api/replay/ice-and-fire.json")
        .body
        .contains(link));
}
