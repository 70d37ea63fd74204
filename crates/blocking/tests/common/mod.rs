//! Scenario helpers shared by the integration tests: referees from specs, the "policy first"
//! and "policy last" bots of spec §8, and request parsing.

#![allow(dead_code)]

use realm_blocking::{new_referee, BlockingReferee, Config, Variant};
use realm_core::{MatchSpec, Outcome, Referee, Request};

pub fn blocking(n_players: usize, seed: u64) -> Box<dyn Referee> {
    new_referee(&MatchSpec::new("blocking", n_players, seed)).unwrap()
}

pub fn variant(name: &str, n_players: usize) -> Box<dyn Referee> {
    new_referee(&MatchSpec::new("blocking", n_players, 0).with_variant(name)).unwrap()
}

pub fn with_set(n_players: usize, set: &str) -> BlockingReferee {
    let bits = set.bytes().fold(0u32, |acc, c| acc | 1 << (c - b'A'));
    BlockingReferee::new(&Config::with_set(Variant::Blocking, n_players, bits))
}

/// The valid-move lines at the end of a request.
pub fn valid_lines(request: &Request) -> Vec<String> {
    let lines = &request.lines;
    let mut i = lines.len();
    // Walk back: the count line is the one whose value equals the number of lines after it.
    loop {
        i -= 1;
        if lines[i].parse::<usize>().ok() == Some(lines.len() - i - 1) {
            return lines[i + 1..].to_vec();
        }
    }
}

/// The board rows of a request (after the initial input when there is one).
pub fn board(request: &Request, n: usize) -> Vec<String> {
    let start = if request.lines[1].contains(' ') {
        request.lines[0].parse::<usize>().unwrap() + 5
    } else {
        0
    };
    request.lines[start..start + n].to_vec()
}

/// Anchor cells marked `x` in rows, row-major.
pub fn anchors(rows: &[String]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == 'x' {
                out.push((x, y));
            }
        }
    }
    out
}

/// Plays a whole game where every player answers the first (or last) listed move; returns
/// the number of accepted placements and the outcome.
pub fn policy_game(referee: &mut dyn Referee, last: bool) -> (usize, Outcome) {
    let mut placements = 0;
    while let Some(request) = referee.next_request() {
        let valid = valid_lines(&request);
        let pick = if last { valid.last() } else { valid.first() };
        let verdict = referee.answer(request.player, &[pick.unwrap().clone()]);
        assert!(!verdict.is_fault(), "{verdict:?}");
        placements += 1;
    }
    (placements, referee.outcome())
}

pub fn answer(referee: &mut dyn Referee, line: &str) -> (Request, realm_core::Verdict) {
    let request = referee.next_request().expect("a request");
    let verdict = referee.answer(request.player, &[line.to_string()]);
    (request, verdict)
}
