//! The CodinGame turn semantics on top of `rules`: one request per phase with the exact input
//! lines and time limits (§3, §4), the parse-then-execute handling of an answer line (R12.8–10,
//! R22–R28), faults (R33, R34), and a commentary log in the vectors' format so tests can compare
//! every verdict with the reference.

use std::time::Duration;

use realm_core::{EndReason, Fault, FaultKind, Outcome, PlayerId, Referee, Request, Verdict};

use crate::geom::Cell;
use crate::protocol::{
    initial_lines, java_split, java_trim, parse_line, parse_piece, phase_lines, Command,
};
use crate::rules::{loss_outcome, BuildingKind, GameState, Invalid};
use crate::view;

/// R40: the first answer of each player.
pub const FIRST_TIME_LIMIT: Duration = Duration::from_millis(1000);
/// R40: every later answer.
pub const TIME_LIMIT: Duration = Duration::from_millis(50);

/// A match of A Code of Ice and Fire driven over text.
pub struct IceAndFireReferee {
    state: GameState,
    /// Answers (or faults) already given by each player, to know whose call is the first.
    n_calls: [u32; 2],
    pending: Option<PlayerId>,
    /// The latest MSG of each player, cleared when its phase starts.
    messages: [String; 2],
    /// The player who lost by a fault (R33, R34), with the fault and the end code.
    fault: Option<(PlayerId, Fault, &'static str)>,
    /// Commentary of the latest phase, in the vectors' `// ...` format (without the `// `).
    log: Vec<String>,
    /// The turn and player of the latest phase that ran, for frames.
    last_phase: (u32, PlayerId),
}

/// A queued action after the R24 filters.
enum Queued {
    Move { id: u32, target: Cell },
    Train { level: u8, at: Cell },
    Build { kind: BuildingKind, at: Cell },
}

impl IceAndFireReferee {
    pub fn new(state: GameState) -> IceAndFireReferee {
        IceAndFireReferee {
            state,
            n_calls: [0; 2],
            pending: None,
            messages: Default::default(),
            fault: None,
            log: Vec::new(),
            last_phase: (1, 0),
        }
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The commentary of the latest phase: turn-start deaths, filter codes, then one line per
    /// executed action or the fatal piece, as in the vector files.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    pub fn messages(&self) -> &[String; 2] {
        &self.messages
    }

    fn is_over(&self) -> bool {
        self.fault.is_some() || self.state.ending().is_some()
    }

    /// R24: filters a recognised command against the state at parse time.
    fn filter(&self, p: PlayerId, command: &Command) -> Result<Option<Queued>, Invalid> {
        let cell = |x: u32, y: u32| {
            Cell::checked(x as i64, y as i64)
                .filter(|c| self.state.map().is_playable(*c))
                .ok_or(Invalid::OutOfBounds)
        };
        let league = self.state.league();
        Ok(Some(match *command {
            Command::Wait | Command::Msg(_) => return Ok(None),
            Command::Move { id, x, y } => {
                let target = cell(x, y)?;
                let unit = self.state.unit_by_id(id).ok_or(Invalid::BadId)?;
                if unit.owner != p {
                    return Err(Invalid::NotYours);
                }
                Queued::Move { id, target }
            }
            Command::Train { level, x, y } => {
                let at = cell(x, y)?;
                if league.number() == 1 && level != 1 {
                    return Err(Invalid::League);
                }
                if level < 1 || level > league.top_level() as u32 {
                    return Err(Invalid::BadLevel);
                }
                Queued::Train {
                    level: level as u8,
                    at,
                }
            }
            Command::Build { kind, x, y } => Queued::Build {
                kind,
                at: cell(x, y)?,
            },
        }))
    }

    fn execute(&mut self, p: PlayerId, action: &Queued) -> Result<(), Invalid> {
        let line = match *action {
            Queued::Move { id, target } => {
                let from = self
                    .state
                    .unit_by_id(id)
                    .filter(|u| u.owner == p)
                    .ok_or(Invalid::BadId)?
                    .cell;
                let to = self.state.try_move(from, target)?;
                format!("P{p} ok move unit {id} -> {to}")
            }
            Queued::Train { level, at } => {
                self.state.try_train(level, at)?;
                format!("P{p} ok train at {at}")
            }
            Queued::Build { kind, at } => {
                self.state.try_build(kind, at)?;
                format!("P{p} ok build {} at {at}", kind.name())
            }
        };
        self.log.push(line);
        Ok(())
    }

    /// Parses and executes one answer line for the player whose phase it is (R12.9–10)
    /// without ending the phase, so tests can look at the position right after the actions.
    /// `answer` is this followed by the end of the phase.
    pub fn execute_line(&mut self, line: &str) -> Verdict {
        let p = self.state.player();
        if self.is_over() {
            return Verdict::fault(FaultKind::Malformed, "the game is over");
        }
        let pieces = match parse_line(line) {
            Ok(pieces) => pieces,
            Err(bad) => {
                // The filters of the pieces before the bad one still show in the commentary.
                for piece in java_split(line) {
                    let piece = java_trim(piece);
                    match parse_piece(piece) {
                        Some(command) => {
                            if let Err(code) = self.filter(p, &command) {
                                self.log
                                    .push(format!("P{p} invalid [{}] {piece}", code.code()));
                            }
                        }
                        None => break,
                    }
                }
                self.log.push(format!("P{p} fatal [unrecognised] {bad}"));
                let detail = format!("unrecognised piece `{bad}`");
                let fault = Fault {
                    kind: FaultKind::Malformed,
                    turn: self.state.turn(),
                    detail: detail.clone(),
                };
                self.fault = Some((p, fault, "unrecognised"));
                return Verdict::fault(FaultKind::Malformed, detail);
            }
        };
        let mut queue = Vec::new();
        let mut refused = Vec::new();
        for (command, text) in &pieces {
            if let Command::Msg(m) = command {
                self.messages[p] = m.clone();
            }
            match self.filter(p, command) {
                Ok(Some(q)) => queue.push((q, *text)),
                Ok(None) => {}
                Err(code) => {
                    self.log
                        .push(format!("P{p} invalid [{}] {text}", code.code()));
                    refused.push(format!("{} ({text})", code.code()));
                }
            }
        }
        for (action, text) in &queue {
            if let Err(code) = self.execute(p, action) {
                self.log
                    .push(format!("P{p} invalid [{}] {text}", code.code()));
                refused.push(format!("{} ({text})", code.code()));
            }
            if self.state.ending().is_some() {
                break;
            }
        }
        if refused.is_empty() {
            Verdict::ok()
        } else {
            Verdict::warning(refused.join(", "))
        }
    }
}

impl Referee for IceAndFireReferee {
    /// §3.1: lines end at LF, CR or CRLF (D1); a line of 10,000 bytes or more counts as no
    /// answer (D3), which the runner reports as `output_flood` and R33 scores like a timeout.
    fn line_rules(&self) -> realm_core::LineRules {
        realm_core::LineRules::CODINGAME.with_max_line_bytes(9_999)
    }

    fn next_request(&mut self) -> Option<Request> {
        if self.is_over() {
            return None;
        }
        let p = self.state.player();
        if self.pending.is_none() {
            self.messages[p].clear();
            self.log.clear();
            let start = self.state.last_phase_start();
            if start.deaths > 0 {
                let bankrupt = if start.bankrupt { " [bankruptcy]" } else { "" };
                self.log.push(format!(
                    "P{p} turn-start deaths: {} unit(s){bankrupt}",
                    start.deaths
                ));
            }
        }
        self.pending = Some(p);
        let first = self.n_calls[p] == 0;
        let mut lines = if first {
            initial_lines(&self.state)
        } else {
            Vec::new()
        };
        lines.extend(phase_lines(&self.state, p));
        Some(Request {
            player: p,
            turn: self.state.turn(),
            lines,
            expected_lines: 1,
            time_limit: if first { FIRST_TIME_LIMIT } else { TIME_LIMIT },
        })
    }

    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict {
        if self.pending != Some(player) || self.is_over() {
            return Verdict::fault(
                FaultKind::Malformed,
                format!("player {player} was not asked to answer"),
            );
        }
        self.pending = None;
        self.n_calls[player] += 1;
        self.last_phase = (self.state.turn(), player);
        // A missing line is read as the empty line, which is unrecognised (R23.5).
        let line = lines.first().map(String::as_str).unwrap_or("");
        let verdict = self.execute_line(line);
        if !verdict.is_fault() {
            self.state.end_phase();
        }
        verdict
    }

    fn fault(&mut self, player: PlayerId, fault: Fault) {
        if self.pending != Some(player) || self.is_over() {
            return;
        }
        self.pending = None;
        self.n_calls[player] += 1;
        self.last_phase = (self.state.turn(), player);
        // R33: an exit, a crash, a closed stdout or an over-long line loses exactly like a
        // timeout, so the END reason is `timeout_pX_lost`; the fault keeps the precise reason
        // (D5).
        let code = match fault.kind {
            FaultKind::Malformed => "unrecognised",
            _ => "timeout",
        };
        self.log.push(format!(
            "P{player} fault [{}] {}",
            fault.kind.code(),
            fault.detail
        ));
        self.fault = Some((player, fault, code));
    }

    fn frame(&self) -> serde_json::Value {
        let (turn, player) = self.last_phase;
        let mut frame = view::frame(&self.state, turn, player, &self.messages);
        if self.is_over() {
            if let Some(obj) = frame.as_object_mut() {
                obj.insert(
                    "end".into(),
                    serde_json::Value::String(self.outcome().detail),
                );
            }
        }
        frame
    }

    fn outcome(&self) -> Outcome {
        match &self.fault {
            Some((loser, fault, code)) => {
                let power = [self.state.military_power(0), self.state.military_power(1)];
                let end = EndReason::Fault {
                    player: *loser,
                    fault: fault.kind,
                };
                let mut outcome = loss_outcome(*loser, power, end, code);
                outcome.faults[*loser] = Some(fault.clone());
                outcome
            }
            None => self.state.outcome(),
        }
    }
}
