//! CodinGame turn semantics over the text protocol: who is asked, what they read, how an answer
//! is judged (§3.8: an illegal or malformed placement eliminates, a bad man is ignored), runner
//! faults, and the outcome with its faults.

use std::time::Duration;

use realm_core::{EndReason, Fault, FaultKind, Outcome, PlayerId, Request, Verdict};

use crate::board::Placement;
use crate::protocol::{initial_lines, parse_answer, parse_token, turn_lines};
use crate::rules::{EndCause, State};
use crate::tiles::tileset;
use crate::view;

/// The first answer of a player may take this long (§5).
pub const FIRST_TIME_LIMIT: Duration = Duration::from_millis(1000);
/// Every later answer.
pub const TIME_LIMIT: Duration = Duration::from_millis(100);

/// The last tile a player placed, for the viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub player: PlayerId,
    pub at: Placement,
    /// The man token that was accepted, if any.
    pub man: Option<u8>,
}

pub struct CarcassonneReferee {
    state: State,
    /// Players who already received their initial input.
    introduced: Vec<bool>,
    faults: Vec<Option<Fault>>,
    /// Completed calls (answered or faulted).
    n_calls: u32,
    last: Option<LastMove>,
    /// The last elimination (player, kind), used for the end reason.
    last_elimination: Option<(PlayerId, FaultKind)>,
}

impl CarcassonneReferee {
    pub fn new(state: State) -> Self {
        let n = realm_core::State::n_players(&state);
        CarcassonneReferee {
            state,
            introduced: vec![false; n],
            faults: vec![None; n],
            n_calls: 0,
            last: None,
            last_elimination: None,
        }
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn last(&self) -> Option<&LastMove> {
        self.last.as_ref()
    }

    /// The game's turn number shown to people: calls completed so far.
    pub fn turn(&self) -> u32 {
        self.n_calls
    }

    fn to_move(&self) -> Option<PlayerId> {
        realm_core::State::to_move(&self.state)
    }

    fn eliminate(&mut self, player: PlayerId, kind: FaultKind, detail: String) -> Verdict {
        self.faults[player] = Some(Fault {
            kind,
            turn: self.n_calls + 1,
            detail: detail.clone(),
        });
        self.record_elimination(player, kind);
        Verdict::fault(kind, detail)
    }

    fn record_elimination(&mut self, player: PlayerId, kind: FaultKind) {
        self.state.eliminate(player);
        self.last_elimination = Some((player, kind));
        self.introduced[player] = true;
        self.n_calls += 1;
    }

    /// Judges one answer line; the caller has checked that `player` is to move.
    fn judge(&mut self, player: PlayerId, line: &str) -> Verdict {
        let answer = match parse_answer(line) {
            Ok(a) => a,
            Err(e) => return self.eliminate(player, FaultKind::Malformed, e.to_string()),
        };
        let ty = self.state.current_tile().unwrap_or(0);
        if !self.state.try_place(answer.row, answer.col, answer.angle) {
            let detail = format!(
                "{} {} {} is not a legal placement of {}",
                answer.row,
                answer.col,
                answer.angle,
                tileset().get(ty).letter
            );
            return self.eliminate(player, FaultKind::InvalidAction, detail);
        }
        let at = Placement {
            row: answer.row as u8,
            col: answer.col as u8,
            angle: answer.angle as u8,
        };
        let mut warnings = Vec::new();
        // `-1` and unknown forms both leave the man step empty; only the latter is reported.
        let token = parse_token(&answer.man);
        let refusal = match self.state.finish_turn(token) {
            Err(r) => Some(r.code()),
            Ok(()) => (answer.man != "-1" && token.is_none()).then_some("invalid_token"),
        };
        if let Some(code) = &refusal {
            warnings.push(format!("man `{}` refused: {code}", answer.man));
        }
        if answer.extra {
            warnings.push("tokens after the 4th ignored".to_string());
        }
        self.last = Some(LastMove {
            player,
            at,
            man: if refusal.is_none() { token } else { None },
        });
        self.introduced[player] = true;
        self.n_calls += 1;
        if warnings.is_empty() {
            Verdict::ok()
        } else {
            Verdict::warning(warnings.join("; "))
        }
    }
}

impl realm_core::Referee for CarcassonneReferee {
    fn next_request(&mut self) -> Option<Request> {
        let player = self.to_move()?;
        let ty = self.state.current_tile()?;
        let first = !self.introduced[player];
        let mut lines = Vec::new();
        if first {
            lines.extend(initial_lines(self.introduced.len(), player));
        }
        lines.extend(turn_lines(self.state.board(), ty));
        Some(Request {
            player,
            turn: self.n_calls + 1,
            lines,
            expected_lines: 1,
            time_limit: if first { FIRST_TIME_LIMIT } else { TIME_LIMIT },
        })
    }

    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict {
        if self.to_move() != Some(player) || self.state.current_tile().is_none() {
            return Verdict::fault(
                FaultKind::InvalidAction,
                format!("player {player} is not to move"),
            );
        }
        match lines.first() {
            Some(line) => self.judge(player, line),
            None => self.eliminate(player, FaultKind::Malformed, "no answer line".to_string()),
        }
    }

    fn fault(&mut self, player: PlayerId, fault: Fault) {
        if self.to_move() != Some(player) {
            return;
        }
        let kind = fault.kind;
        self.faults[player] = Some(fault);
        self.record_elimination(player, kind);
    }

    fn frame(&self) -> serde_json::Value {
        view::frame(self)
    }

    fn outcome(&self) -> Outcome {
        let mut outcome = realm_core::State::outcome(&self.state);
        outcome.faults = self.faults.clone();
        if self.state.end_cause() == Some(EndCause::OnePlayerLeft) && self.faults.len() == 2 {
            if let Some((player, fault)) = self.last_elimination {
                outcome.end = EndReason::Fault { player, fault };
            }
        }
        outcome
    }
}
