//! Shared helpers of the full game's match tests: the reference bot FirstFit and a transcript
//! of a whole match through the referee.

#![allow(dead_code)]

use std::fmt::Write as _;

use realm_core::{LinesInput, MatchSpec, Referee, VerdictKind};
use realm_kingdom_builder::bots::{play_turn, Reader};
use realm_kingdom_builder::game::Action;
use realm_kingdom_builder::new_referee;

/// FirstFit: every settlement of the build on the first legal cell in row-major order, no
/// tile, then the end of the turn (as the spec's first-fit of 7.7, under the adjacency rule).
pub fn first_fit(reader: &mut Reader, lines: &[String]) -> String {
    let obs = reader.read(&mut LinesInput::new(lines)).unwrap();
    play_turn(&obs.state, |_, legal| {
        legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Build(_)))
            .unwrap_or(Action::EndTurn)
    })
}

pub fn spec(n: usize, seed: u64, league: u32) -> MatchSpec {
    MatchSpec::new("kingdom-builder", n, seed).with_league(league)
}

pub fn referee(n: usize, seed: u64, league: u32) -> Box<dyn Referee> {
    new_referee(&spec(n, seed, league)).unwrap()
}

fn verdict_text(kind: &VerdictKind, detail: &str) -> String {
    let kind = match kind {
        VerdictKind::Ok => "ok".to_string(),
        VerdictKind::Warning => "warning".to_string(),
        VerdictKind::Fault(f) => f.code().to_string(),
    };
    format!("{kind} {detail}").trim_end().to_string()
}

/// The whole text of a match with FirstFit in every seat: every request's lines (`<`), the
/// answer (`>`), the verdict (`=`) and the running scores, then the outcome.
pub fn first_fit_transcript(n: usize, seed: u64, league: u32) -> String {
    let mut referee = referee(n, seed, league);
    let mut readers = vec![Reader::default(); n];
    let mut out = format!(
        "# kingdom-builder league {league}, {n} players, seed {seed}, FirstFit in every seat\n"
    );
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
        let answer = first_fit(&mut readers[request.player], &request.lines);
        writeln!(out, "> {answer}").unwrap();
        let verdict = referee.answer(request.player, &[answer]);
        writeln!(out, "= {}", verdict_text(&verdict.kind, &verdict.detail)).unwrap();
        writeln!(out, "  scores {}", referee.frame()["scores"]).unwrap();
    }
    let outcome = referee.outcome();
    writeln!(out, "## outcome").unwrap();
    writeln!(out, "scores {:?}", outcome.scores).unwrap();
    writeln!(out, "ranks {:?}", outcome.ranks).unwrap();
    writeln!(out, "end {} {}", outcome.end.code(), outcome.detail).unwrap();
    out
}
