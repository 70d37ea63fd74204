//! `realm play GAME human BOT`: the person's seat over HTTP, as the page drives it. The server
//! refuses a move without the match's token, an illegal move, a move from another origin and a
//! move after the end; a whole game played through the routes is recorded as any other.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use common::realm;
use realm_core::Replay;
use serde_json::Value;

/// A running `realm play ... human ...` and the page URL it printed.
struct Served {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &std::path::Path, args: &[&str]) -> Served {
    let mut child = Command::new(realm())
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("play in the browser: ")
        .unwrap_or_else(|| panic!("no URL first: {line}"))
        .to_string();
    let port = url.split(':').nth(2).unwrap().split('/').next().unwrap();
    let token = url.split("#token=").nth(1).unwrap().to_string();
    assert!(url.ends_with(&format!("/play/1/#token={token}")), "{url}");
    Served {
        child,
        port: port.parse().unwrap(),
        token,
    }
}

/// One request; the status and the JSON body.
fn request(port: u16, method: &str, target: &str, extra: &[(&str, &str)]) -> (u16, Value) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("Content-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).unwrap().parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

impl Served {
    fn state(&self) -> Value {
        let auth = [("X-Realm-Token", self.token.as_str())];
        request(self.port, "GET", "/play/1/state", &auth).1
    }

    fn act(&self, id: u64, token: Option<&str>) -> (u16, Value) {
        let auth: Vec<(&str, &str)> = token.map(|t| ("X-Realm-Token", t)).into_iter().collect();
        request(self.port, "POST", &format!("/play/1/act?id={id}"), &auth)
    }

    /// Waits (long-polling) until the person is asked or the match is over.
    fn next_call(&self) -> Value {
        loop {
            let state = self.state();
            if state["status"] != "thinking" {
                return state;
            }
        }
    }
}

#[test]
fn a_person_plays_a_whole_game_through_the_routes_and_bad_moves_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "human",
            "builtin:greedy",
            "--seed",
            "5",
            "--replay",
            "r.json",
        ],
    );
    let state = served.next_call();
    assert_eq!(state["status"], "waiting");
    let first = state["legal"][0]["id"].as_u64().unwrap();
    let refused = |(status, body): (u16, Value)| (status, body["error"].clone());
    assert_eq!(
        refused(served.act(first, None)),
        (403, "this page does not hold the match's token".into())
    );
    assert_eq!(
        refused(served.act(first, Some("0123456789abcdef0123456789abcdef"))),
        (403, "this page does not hold the match's token".into())
    );
    let foreign = request(
        served.port,
        "POST",
        &format!("/play/1/act?id={first}"),
        &[
            ("X-Realm-Token", &served.token),
            ("Origin", "http://evil.example"),
        ],
    );
    assert_eq!(foreign.0, 403, "another site's page");
    let legal: Vec<u64> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_u64().unwrap())
        .collect();
    let illegal = (0..).find(|id| !legal.contains(id)).unwrap();
    assert_eq!(
        refused(served.act(illegal, Some(&served.token))),
        (
            409,
            format!("action {illegal} is not legal in this position").into()
        )
    );
    let mut clicked = Vec::new();
    let mut state = state;
    while state["status"] == "waiting" {
        let action = &state["legal"][clicked.len() % state["legal"].as_array().unwrap().len()];
        clicked.push(action["text"].as_str().unwrap().to_string());
        let (status, _) = served.act(action["id"].as_u64().unwrap(), Some(&served.token));
        assert_eq!(status, 200);
        state = served.next_call();
    }
    assert_eq!(state["status"], "over");
    assert_eq!(state["replay"], "/replay/r.json");
    assert_eq!(
        refused(served.act(first, Some(&served.token))),
        (409, "the match is over".into())
    );
    let replay: Replay =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    assert!(replay.outcome.faults.iter().all(Option::is_none));
    assert_eq!(replay.players[0].name, "human");
    let answers: Vec<String> = replay
        .turns
        .iter()
        .filter(|t| t.player == 0)
        .map(|t| t.output.join("\n"))
        .collect();
    assert_eq!(answers, clicked, "the replay holds the moves played");
}

#[test]
fn resigning_ends_the_match_with_the_person_at_fault() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        dir.path(),
        &[
            "play",
            "blocking",
            "builtin:random",
            "human",
            "--variant",
            "duo",
            "--seed",
            "2",
            "--replay",
            "r.json",
        ],
    );
    assert_eq!(served.next_call()["status"], "waiting");
    let auth = [("X-Realm-Token", served.token.as_str())];
    assert_eq!(request(served.port, "POST", "/play/1/resign", &[]).0, 403);
    assert_eq!(request(served.port, "POST", "/play/1/resign", &auth).0, 200);
    assert_eq!(served.next_call()["status"], "over");
    let replay: Replay =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    let fault = replay.outcome.faults[1]
        .as_ref()
        .expect("the person's fault");
    // Blocking's R17 counts a seat that stops answering as timed out, and says so.
    assert_eq!(
        fault.detail,
        "the person resigned: a closed output counts as a timeout (R17)"
    );
    assert_eq!(replay.outcome.ranks, [1, 2]);
}

#[test]
fn a_page_that_stops_asking_resigns_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "human",
            "builtin:random",
            "--seed",
            "3",
            "--replay",
            "r.json",
            "--abandon-after",
            "1",
        ],
    );
    let state = served.next_call();
    assert_eq!(state["abandon_after_s"], 1, "the page says the timeout");
    // The page asks no more: the seat resigns,
    // the bots finish the match and realm exits on its own.
    let mut served = served;
    let status = served.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let replay: Replay =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    let fault = replay.outcome.faults[0]
        .as_ref()
        .expect("the person's fault");
    assert_eq!(
        fault.detail,
        "the page was closed for more than 1 s: resigned"
    );
}

#[test]
fn ice_and_fire_publishes_gold_and_income_after_the_commands_chosen_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        dir.path(),
        &[
            "play",
            "ice-and-fire",
            "human",
            "builtin:greedy",
            "--seed",
            "8",
        ],
    );
    let state = served.next_call();
    assert_eq!(state["status"], "waiting");
    let gold_before = state["view"]["gold"][0].as_i64().expect("the view's gold");
    assert_eq!(state["view"]["gold"], state["frame"]["gold"]);
    assert!(
        state["view"].get("messages").is_none(),
        "only the referee's"
    );
    let train = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["text"].as_str().unwrap().starts_with("TRAIN 1 "))
        .expect("a level-1 unit can be trained at the start");
    let (status, after) = served.act(train["id"].as_u64().unwrap(), Some(&served.token));
    assert_eq!(status, 200);
    // A level-1 unit costs 10 gold (RULES.md), taken in the pending position; its new cell
    // adds 1 of income and its upkeep takes 1.
    assert_eq!(after["view"]["gold"][0].as_i64(), Some(gold_before - 10));
    assert_eq!(after["view"]["income"], state["view"]["income"]);
    assert_eq!(after["view"]["units"].as_array().unwrap().len(), 1);
    assert_eq!(
        after["frame"], state["frame"],
        "the referee's frame is unchanged"
    );
}

#[test]
fn games_without_a_view_publish_none() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "human",
            "builtin:greedy",
            "--seed",
            "4",
        ],
    );
    let state = served.next_call();
    assert_eq!(state["status"], "waiting");
    assert_eq!(state["view"], Value::Null);
}
