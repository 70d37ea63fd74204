//! Scenario builders shared by the integration tests: scripted referees (bag given by letters)
//! and a step helper that checks legal counts, scores and echoed lines like the spec's tables.

#![allow(dead_code)]

use realm_carcassonne::protocol::placed_line;
use realm_carcassonne::setup::bag_from_letters;
use realm_carcassonne::{CarcassonneReferee, State};
use realm_core::{Referee, Request, Verdict};

pub fn scripted(league: u32, n_players: usize, letters: &str) -> CarcassonneReferee {
    CarcassonneReferee::new(State::with_bag(
        league,
        n_players,
        bag_from_letters(letters).unwrap(),
    ))
}

/// Legal placements of the tile to place.
pub fn legal_count(referee: &CarcassonneReferee) -> usize {
    let state = referee.state();
    state
        .current_tile()
        .map_or(0, |ty| state.board().sorted_placements(ty).len())
}

/// One answered turn and what followed.
pub struct Step {
    pub request: Request,
    pub legal: usize,
    pub verdict: Verdict,
}

pub fn play(referee: &mut CarcassonneReferee, line: &str) -> Step {
    let request = referee.next_request().expect("a request");
    let legal = legal_count(referee);
    let verdict = referee.answer(request.player, &[line.to_string()]);
    Step {
        request,
        legal,
        verdict,
    }
}

pub fn scores(referee: &CarcassonneReferee) -> Vec<i64> {
    referee.state().board().scores().to_vec()
}

pub fn end_now(referee: &CarcassonneReferee) -> Vec<i64> {
    referee.state().board().end_now()
}

/// The tile line of the last tile placed.
pub fn last_echo(referee: &CarcassonneReferee) -> String {
    let board = referee.state().board();
    placed_line(board, board.placed().len() - 1)
}
