//! Shared helpers of the full game's match tests: the reference bot FirstFit and a transcript
//! of a whole match through the referee.

#![allow(dead_code)]

use realm_core::{LinesInput, MatchSpec, Referee};
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

/// The whole text of a match with FirstFit in every seat (`realm_testkit::match_transcript`).
pub fn first_fit_transcript(n: usize, seed: u64, league: u32) -> String {
    let mut referee = referee(n, seed, league);
    let mut readers = vec![Reader::default(); n];
    let title = format!(
        "# kingdom-builder league {league}, {n} players, seed {seed}, FirstFit in every seat"
    );
    realm_testkit::match_transcript(&title, referee.as_mut(), |player, lines| {
        first_fit(&mut readers[player], lines)
    })
}
