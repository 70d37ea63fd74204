//! Dev-only helpers for the game crates' tests. `check_conformance` is the suite every playable
//! game runs: seeded random playouts that check the `State` contract and the `Referee` contract.
//! Nothing here is used by the shipped binary.

use std::fmt::{Debug, Write as _};
use std::path::Path;

use rand_core::RngCore;
use realm_core::{chacha_rng, Outcome, Referee, State, VerdictKind};

/// Plays `n_games` random games from `make(seed)` for seeds `0..n_games` and checks, at every
/// step: the player to move has legal actions, each listed action is legal and distinct,
/// `random_action` draws a listed action, the game ends within `max_actions`; at the end: ranks are well formed and the same seed replays
/// to the same actions and outcome, also from a clone taken mid-game.
pub fn check_conformance<S, F>(make: F, n_games: u64, max_actions: usize)
where
    S: State,
    S::Action: Debug,
    F: Fn(u64) -> S,
{
    for seed in 0..n_games {
        let (actions, outcome, mid_clone) = play_recorded(make(seed), seed, max_actions);
        check_outcome(&outcome, make(seed).n_players());
        let (again, outcome_again, _) = play_recorded(make(seed), seed, max_actions);
        assert_eq!(actions, again, "seed {seed}: same seed, different actions");
        assert_eq!(
            outcome, outcome_again,
            "seed {seed}: same seed, different outcome"
        );
        if let Some((at, mut clone)) = mid_clone {
            for action in &actions[at..] {
                assert!(
                    clone.is_legal(action),
                    "seed {seed}: clone rejects {action:?}"
                );
                clone.apply(action);
            }
            assert_eq!(clone.outcome(), outcome, "seed {seed}: clone diverged");
        }
    }
}

type Recorded<S> = (Vec<<S as State>::Action>, Outcome, Option<(usize, S)>);

fn play_recorded<S: State>(mut state: S, seed: u64, max_actions: usize) -> Recorded<S>
where
    S::Action: Debug,
{
    let mut rng = chacha_rng(seed, 0x7e57);
    let mut sampler = chacha_rng(seed, 0x5a3b);
    let mut scratch = Vec::new();
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    let mut mid_clone = None;
    while let Some(player) = state.to_move() {
        assert!(
            player < state.n_players(),
            "seed {seed}: player {player} out of range"
        );
        assert!(
            actions.len() < max_actions,
            "seed {seed}: no end after {max_actions} actions"
        );
        state.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "seed {seed}: player {player} to move without legal actions"
        );
        for (i, action) in legal.iter().enumerate() {
            assert!(
                !legal[..i].contains(action),
                "seed {seed}: {action:?} listed twice"
            );
        }
        let sampled = state.random_action(&mut sampler, &mut scratch);
        assert!(
            sampled.as_ref().is_some_and(|a| legal.contains(a)),
            "seed {seed}: random_action drew {sampled:?}, which is not listed"
        );
        let pick = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
        assert!(
            state.is_legal(&pick),
            "seed {seed}: listed action {pick:?} is not legal"
        );
        if actions.len() == 3 {
            mid_clone = Some((actions.len(), state.clone()));
        }
        state.apply(&pick);
        actions.push(pick);
    }
    assert_eq!(
        state.random_action(&mut sampler, &mut scratch),
        None,
        "seed {seed}: random_action after the end"
    );
    let outcome = state.outcome();
    (actions, outcome, mid_clone)
}

/// Checks that ranks are 1-based competition ranks over all players and that every fault and
/// score slot exists.
pub fn check_outcome(outcome: &Outcome, n_players: usize) {
    assert_eq!(outcome.scores.len(), n_players, "one score per player");
    assert_eq!(outcome.ranks.len(), n_players, "one rank per player");
    assert_eq!(outcome.faults.len(), n_players, "one fault slot per player");
    for (p, &rank) in outcome.ranks.iter().enumerate() {
        let better = outcome.ranks.iter().filter(|&&r| r < rank).count() as u32;
        assert_eq!(
            rank,
            better + 1,
            "player {p}: rank {rank} is not 1 + players ranked above"
        );
    }
}

/// Drives a referee with `answer(request_lines, player) -> lines` until it ends, returning the
/// number of calls made. Checks that every request asks for at least one line and that frames
/// are JSON objects with a `scores` array of one entry per player.
pub fn drive_referee(
    referee: &mut dyn Referee,
    n_players: usize,
    max_calls: usize,
    mut answer: impl FnMut(usize, &[String]) -> Vec<String>,
) -> usize {
    let mut calls = 0;
    while let Some(request) = referee.next_request() {
        assert!(calls < max_calls, "no end after {max_calls} calls");
        assert!(request.expected_lines >= 1);
        let lines = answer(request.player, &request.lines);
        referee.answer(request.player, &lines);
        let frame = referee.frame();
        let scores = frame.get("scores").and_then(|s| s.as_array());
        assert_eq!(
            scores.map(|s| s.len()),
            Some(n_players),
            "frame needs scores: {frame}"
        );
        calls += 1;
    }
    check_outcome(&referee.outcome(), n_players);
    calls
}

/// The whole text of a match, the golden playthroughs' format: `title`, then for every call
/// the request's lines (`<`), the answer (`>`), the verdict (`=`) and the running scores, then
/// the outcome. `answer(player, lines)` gives the player's one-line answer.
pub fn match_transcript(
    title: &str,
    referee: &mut dyn Referee,
    mut answer: impl FnMut(usize, &[String]) -> String,
) -> String {
    let mut out = format!("{title}\n");
    let mut call = 0;
    while let Some(request) = referee.next_request() {
        call += 1;
        let limit = request.time_limit.as_millis();
        writeln!(
            out,
            "## call {call}: player {} ({limit} ms)",
            request.player
        )
        .unwrap();
        for line in &request.lines {
            writeln!(out, "< {line}").unwrap();
        }
        let line = answer(request.player, &request.lines);
        writeln!(out, "> {line}").unwrap();
        let verdict = referee.answer(request.player, &[line]);
        let kind = match verdict.kind {
            VerdictKind::Ok => "ok".to_string(),
            VerdictKind::Warning => "warning".to_string(),
            VerdictKind::Fault(f) => f.code().to_string(),
        };
        writeln!(out, "= {}", format!("{kind} {}", verdict.detail).trim_end()).unwrap();
        writeln!(out, "  scores {}", referee.frame()["scores"]).unwrap();
    }
    let outcome = referee.outcome();
    writeln!(out, "## outcome").unwrap();
    writeln!(out, "scores {:?}", outcome.scores).unwrap();
    writeln!(out, "ranks {:?}", outcome.ranks).unwrap();
    writeln!(out, "end {} {}", outcome.end.code(), outcome.detail).unwrap();
    out
}

/// Compares `text` line by line with the golden file at `path` (the first differing line is
/// named); `REALM_BLESS=1` writes the file instead, creating its folder.
pub fn check_golden(path: impl AsRef<Path>, text: &str) {
    let path = path.as_ref();
    if std::env::var("REALM_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (REALM_BLESS=1 writes it)", path.display()));
    for (i, (got, want)) in text.lines().zip(golden.lines()).enumerate() {
        assert_eq!(got, want, "{}:{}", path.display(), i + 1);
    }
    assert_eq!(
        text.lines().count(),
        golden.lines().count(),
        "{}: line count",
        path.display()
    );
}
