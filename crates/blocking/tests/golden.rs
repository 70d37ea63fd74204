//! Golden playthroughs: the exact protocol text of whole games (Blocking 2, 3 and 4 players)
//! and of the first two rounds of Duo and Classic, between the built-in bots, compared line by
//! line with `tests/golden/*.txt`. `REALM_BLESS=1 cargo test -p realm-blocking --test golden`
//! rewrites the files; review the diff.

use std::fmt::Write as _;

use realm_blocking::{new_bot, new_referee};
use realm_core::{LinesInput, MatchSpec, VerdictKind};

fn transcript(spec: &MatchSpec, names: &[&str], max_calls: usize) -> String {
    let mut referee = new_referee(spec).unwrap();
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| new_bot(n, i as u64, None).unwrap())
        .collect();
    let mut out = String::new();
    writeln!(out, "# realm-blocking playthrough").unwrap();
    writeln!(
        out,
        "# variant {}, {} players, seed {}; bots {} (bot seed = seat)",
        spec.variant.as_deref().unwrap_or("standard"),
        spec.n_players,
        spec.seed,
        names.join(" ")
    )
    .unwrap();
    let mut calls = 0;
    while let Some(req) = referee.next_request() {
        if calls == max_calls {
            writeln!(out, "== stopped after {max_calls} calls").unwrap();
            return out;
        }
        calls += 1;
        writeln!(
            out,
            "== call {calls}: player {}, turn {}, limit {} ms, {} lines",
            req.player,
            req.turn,
            req.time_limit.as_millis(),
            req.lines.len()
        )
        .unwrap();
        for line in &req.lines {
            writeln!(out, "> {line}").unwrap();
        }
        let answer = bots[req.player]
            .play_turn(&mut LinesInput::new(&req.lines))
            .unwrap();
        for line in &answer {
            writeln!(out, "< {line}").unwrap();
        }
        let verdict = referee.answer(req.player, &answer);
        let kind = match verdict.kind {
            VerdictKind::Ok => "ok".to_string(),
            VerdictKind::Warning => "warning".to_string(),
            VerdictKind::Fault(f) => f.code().to_string(),
        };
        if verdict.detail.is_empty() {
            writeln!(out, "= {kind}").unwrap();
        } else {
            writeln!(out, "= {kind}: {}", verdict.detail).unwrap();
        }
    }
    let o = referee.outcome();
    writeln!(
        out,
        "== end: scores {:?}, ranks {:?}, end {}, detail {}",
        o.scores,
        o.ranks,
        o.end.code(),
        o.detail
    )
    .unwrap();
    let board = referee.frame()["board"].clone();
    for row in board.as_array().unwrap() {
        writeln!(out, "| {}", row.as_str().unwrap()).unwrap();
    }
    out
}

fn check(file: &str, text: &str) {
    let path = format!("{}/tests/golden/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var("REALM_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run with REALM_BLESS=1 to create it)"));
    for (i, (got, want)) in text.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "{file}:{}", i + 1);
    }
    assert_eq!(
        text.lines().count(),
        expected.lines().count(),
        "{file}: line count"
    );
}

#[test]
fn golden_blocking_2p_whole_game() {
    let spec = MatchSpec::new("blocking", 2, 3);
    check(
        "blocking_2p_seed3.txt",
        &transcript(&spec, &["greedy", "random"], usize::MAX),
    );
}

#[test]
fn golden_blocking_3p_whole_game() {
    let spec = MatchSpec::new("blocking", 3, 1);
    check(
        "blocking_3p_seed1.txt",
        &transcript(&spec, &["greedy", "random", "greedy"], usize::MAX),
    );
}

#[test]
fn golden_blocking_4p_whole_game() {
    let spec = MatchSpec::new("blocking", 4, 2);
    let bots = ["random", "greedy", "random", "greedy"];
    check(
        "blocking_4p_seed2.txt",
        &transcript(&spec, &bots, usize::MAX),
    );
}

#[test]
fn golden_duo_two_rounds() {
    let spec = MatchSpec::new("blocking", 2, 0).with_variant("duo");
    check(
        "duo_two_rounds.txt",
        &transcript(&spec, &["greedy", "random"], 4),
    );
}

#[test]
fn golden_classic_two_rounds() {
    let spec = MatchSpec::new("blocking", 4, 0).with_variant("classic");
    let bots = ["greedy", "random", "greedy", "random"];
    check("classic_two_rounds.txt", &transcript(&spec, &bots, 8));
}
