//! The text-level referee (spec §3.2, §3.7, §4, §5): who is asked next and with which lines,
//! how an answer is judged, and eliminations. Turn order, skipping and the end of the game are
//! the engine's (`Position`); this module adds the conversation around it: the other players'
//! moves since each player's last turn, first-call bookkeeping and fault records.

use std::time::Duration;

use realm_core::{EndReason, Fault, FaultKind, Outcome, PlayerId, Referee, Request, Verdict};

use crate::protocol::{initial_input, parse_answer, resolve, turn_input, Name};
use crate::rules::{Placement, Position};
use crate::setup::Config;
use crate::view;

/// §5: the first answer of each player.
pub const FIRST_LIMIT: Duration = Duration::from_millis(1000);
/// §5: every later answer.
pub const LATER_LIMIT: Duration = Duration::from_millis(200);

/// One accepted placement, kept for the other players' inputs and the viewer.
#[derive(Clone, Debug)]
pub struct Played {
    pub player: PlayerId,
    pub name: Name,
    pub placement: Placement,
}

/// A Blocking / Duo / Classic match driven over text.
pub struct BlockingReferee {
    pos: Position,
    history: Vec<Played>,
    /// Index into `history` of the first move each player has not been told about.
    seen: Vec<usize>,
    asked: Vec<bool>,
    pending: Option<PlayerId>,
    /// Number of requests made so far; the request being answered has this number.
    turn: u32,
    faults: Vec<Option<Fault>>,
    /// The player whose elimination ended the game through R15 b, if any.
    last_eliminated: Option<(PlayerId, FaultKind)>,
}

impl BlockingReferee {
    pub fn new(config: &Config) -> Self {
        let np = config.n_players;
        BlockingReferee {
            pos: Position::new(config),
            history: Vec::new(),
            seen: vec![0; np],
            asked: vec![false; np],
            pending: None,
            turn: 0,
            faults: vec![None; np],
            last_eliminated: None,
        }
    }

    /// The engine position (for tests and the viewer).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Accepted placements so far.
    pub fn history(&self) -> &[Played] {
        &self.history
    }

    fn eliminate(&mut self, player: PlayerId, kind: FaultKind, detail: String) {
        self.faults[player] = Some(Fault {
            kind,
            turn: self.turn,
            detail,
        });
        self.last_eliminated = Some((player, kind));
        self.pos.eliminate_current();
        self.pending = None;
    }
}

impl Referee for BlockingReferee {
    fn next_request(&mut self) -> Option<Request> {
        let player = self.pos.current()?;
        if self.pending != Some(player) {
            self.turn += 1;
        }
        self.pending = Some(player);
        let mut lines = Vec::new();
        let first = !self.asked[player];
        if first {
            lines = initial_input(&self.pos, player);
        }
        let others: Vec<String> = self.history[self.seen[player]..]
            .iter()
            .filter(|m| m.player != player)
            .map(|m| format!("{} {}", m.player, m.name))
            .collect();
        lines.extend(turn_input(&self.pos, player, &others));
        Some(Request {
            player,
            turn: self.turn,
            lines,
            expected_lines: 1,
            time_limit: if first { FIRST_LIMIT } else { LATER_LIMIT },
        })
    }

    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict {
        if self.pending != Some(player) {
            return Verdict::warning(format!("player {player} was not asked; answer ignored"));
        }
        self.asked[player] = true;
        self.seen[player] = self.history.len();
        let line = lines.first().map(String::as_str).unwrap_or("");
        let Some(name) = parse_answer(line) else {
            let detail = format!("`{}` does not match `X Y Lfrk`", truncate(line));
            self.eliminate(player, FaultKind::Malformed, detail.clone());
            return Verdict::fault(FaultKind::Malformed, detail);
        };
        match resolve(&self.pos, player, &name) {
            Ok(placement) => {
                self.history.push(Played {
                    player,
                    name,
                    placement,
                });
                self.seen[player] = self.history.len();
                self.pos.play(placement);
                self.pending = None;
                Verdict::ok()
            }
            Err(reason) => {
                let detail = format!("{name}: {reason}");
                self.eliminate(player, FaultKind::InvalidAction, detail.clone());
                Verdict::fault(FaultKind::InvalidAction, detail)
            }
        }
    }

    fn fault(&mut self, player: PlayerId, fault: Fault) {
        if self.pending != Some(player) {
            return;
        }
        self.asked[player] = true;
        let (kind, detail) = as_r17_reason(fault.kind, fault.detail);
        self.eliminate(player, kind, detail);
    }

    fn frame(&self) -> serde_json::Value {
        view::frame(&self.pos, self.turn, self.history.last())
    }

    fn outcome(&self) -> Outcome {
        let mut outcome = self.pos.outcome();
        outcome.faults = self.faults.clone();
        if self.pos.ended_by_eliminations() && self.pos.player_count() == 2 {
            if let Some((player, fault)) = self.last_eliminated {
                outcome.end = EndReason::Fault { player, fault };
            }
        }
        outcome
    }
}

/// R17: "a closed output or an exited process counts as a timeout", so both are reported as
/// `timeout`, the runner's own account kept in the detail. An output flood and a closed input
/// are runner guards the spec does not know; they keep their own kind.
fn as_r17_reason(kind: FaultKind, detail: String) -> (FaultKind, String) {
    let what = match kind {
        FaultKind::Crashed => "an exited process",
        FaultKind::ClosedOutput => "a closed output",
        _ => return (kind, detail),
    };
    (
        FaultKind::Timeout,
        format!("{detail}: {what} counts as a timeout (R17)"),
    )
}

/// Keeps verdict details short whatever a bot prints.
fn truncate(line: &str) -> String {
    let mut s: String = line.chars().take(40).collect();
    if line.chars().count() > 40 {
        s.push('…');
    }
    s
}
