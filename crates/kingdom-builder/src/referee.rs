//! The full game's referee (PROTOCOL.md, "Full game"): the match options, who is asked and
//! what they read, an answer applied command by command through the engine, faults (R21: the
//! seat is eliminated, nothing of its turn stays, its settlements do), and the outcome (R20).

use std::time::Duration;

use realm_core::{
    EndReason, Fault, FaultKind, MatchSpec, Outcome, PlayerId, Request, SetupError, State, Verdict,
};

use crate::cards::parse_card_list;
use crate::game::{Action, GameConfig, GameState, Map, Phase};
use crate::protocol::{
    command_action, illegal_reason, initial_lines, parse_answer, turn_lines, Command,
};
use crate::score::LordsRule;
use crate::view;

/// The first call of a seat may take this long (it includes the initial input).
pub const FIRST_TIME_LIMIT: Duration = Duration::from_millis(1000);
/// Every later call.
pub const TIME_LIMIT: Duration = Duration::from_millis(100);

/// The match options (`MatchSpec::options`): `cards`, `lords`, `board`.
pub const OPTIONS: [&str; 3] = ["cards", "lords", "board"];

/// The game set-up of a checked league and the spec's options: `cards=1,fishermen,7` fixes the
/// three scoring cards, `lords=zero` is the `--lords-zero` variant, `board=MAP` plays on a map
/// in the map file format (rows separated by line feeds or `/`). Returns the map to play on,
/// if given.
pub fn config_of(spec: &MatchSpec, league: u32) -> Result<(GameConfig, Option<Map>), SetupError> {
    let mut config = GameConfig::new(spec.n_players, league);
    let mut map = None;
    for (key, value) in &spec.options {
        let bad = |reason: String| SetupError::BadOption {
            game: spec.game.clone(),
            key: key.clone(),
            reason,
        };
        match key.as_str() {
            "cards" => {
                let cards = parse_card_list(value).map_err(|e| bad(e.to_string()))?;
                if cards.len() != 3 {
                    return Err(bad(format!("`{value}` names {} cards, not 3", cards.len())));
                }
                let mut cards = cards;
                cards.sort();
                config.cards = Some(cards);
            }
            "lords" => {
                config.lords = match value.as_str() {
                    "zero" => LordsRule::ZeroCountsRank,
                    "nonzero" => LordsRule::NonZeroCounts,
                    _ => return Err(bad(format!("`{value}` is not one of zero, nonzero"))),
                }
            }
            "board" => {
                let text = value.replace('/', "\n");
                map = Some(Map::parse(&text).map_err(|e| bad(format!("map: {e}")))?);
            }
            _ => {
                return Err(SetupError::UnknownOption {
                    game: spec.game.clone(),
                    key: key.clone(),
                    known: OPTIONS.join(", "),
                })
            }
        }
    }
    Ok((config, map))
}

/// The start position of a spec whose league was checked.
pub fn start_state(spec: &MatchSpec, league: u32) -> Result<GameState, SetupError> {
    let (config, map) = config_of(spec, league)?;
    Ok(match map {
        Some(map) => GameState::with_map(&config, map, spec.seed),
        None => GameState::new(&config, spec.seed),
    })
}

/// The last complete turn, for the viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastTurn {
    pub player: PlayerId,
    /// The turn's commands as applied (across continuation calls).
    pub commands: Vec<String>,
}

pub struct KingdomBuilderReferee {
    state: GameState,
    /// The position at the start of the current turn: a fault goes back to it (R21).
    turn_start: GameState,
    /// The current turn's commands applied so far (a turn resumed after a redraw).
    this_turn: Vec<String>,
    introduced: Vec<bool>,
    faults: Vec<Option<Fault>>,
    /// Completed calls (answered or faulted).
    n_calls: u32,
    last: Option<LastTurn>,
    last_elimination: Option<(PlayerId, FaultKind)>,
}

impl KingdomBuilderReferee {
    pub fn new(state: GameState) -> Self {
        let n = state.n_players();
        KingdomBuilderReferee {
            turn_start: state.clone(),
            state,
            this_turn: Vec::new(),
            introduced: vec![false; n],
            faults: vec![None; n],
            n_calls: 0,
            last: None,
            last_elimination: None,
        }
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    pub fn last(&self) -> Option<&LastTurn> {
        self.last.as_ref()
    }

    /// Calls completed so far.
    pub fn turn(&self) -> u32 {
        self.n_calls
    }

    fn eliminate(&mut self, player: PlayerId, kind: FaultKind, detail: String) -> Verdict {
        self.record_fault(
            player,
            Fault {
                kind,
                turn: self.n_calls + 1,
                detail: detail.clone(),
            },
        );
        Verdict::fault(kind, detail)
    }

    /// R21: nothing of the seat's turn stays, the seat leaves the game.
    fn record_fault(&mut self, player: PlayerId, fault: Fault) {
        self.last_elimination = Some((player, fault.kind));
        self.faults[player] = Some(fault);
        self.state = self.turn_start.clone();
        self.state.eliminate(player);
        self.start_next_turn();
    }

    fn start_next_turn(&mut self) {
        self.turn_start = self.state.clone();
        self.this_turn.clear();
        self.n_calls += 1;
    }

    fn invalid(
        &mut self,
        player: PlayerId,
        index: usize,
        command: &Command,
        why: String,
    ) -> Verdict {
        let detail = format!("command {} `{command}`: {why}", index + 1);
        self.eliminate(player, FaultKind::InvalidAction, detail)
    }

    /// Applies one answer line command by command; the caller checked `player` is to move.
    fn judge(&mut self, player: PlayerId, line: &str) -> Verdict {
        let commands = match parse_answer(line) {
            Ok(c) => c,
            Err(e) => return self.eliminate(player, FaultKind::Malformed, e.to_string()),
        };
        let card = self.state.revealed();
        for (i, command) in commands.iter().enumerate() {
            let action = match command_action(command) {
                Ok(a) => a,
                Err(why) => return self.invalid(player, i, command, why),
            };
            if !self.state.is_legal(&action) {
                let why = illegal_reason(&self.state, &action);
                return self.invalid(player, i, command, why);
            }
            self.state.apply(&action);
            self.this_turn.push(command.to_string());
            if self.state.revealed() != card {
                return self.continue_after_redraw(commands.len() - i - 1);
            }
        }
        if self.state.phase() != Phase::AfterBuild {
            let (built, left) = self.state.build_progress();
            let detail = format!(
                "the mandatory build is not complete: {built} of {} settlements placed",
                built + left
            );
            return self.eliminate(player, FaultKind::InvalidAction, detail);
        }
        self.state.apply(&Action::EndTurn);
        self.last = Some(LastTurn {
            player,
            commands: std::mem::take(&mut self.this_turn),
        });
        self.start_next_turn();
        Verdict::ok()
    }

    /// D28 during the answer: the revealed card was discarded and a new one drawn, which the
    /// seat could not know; the call ends here and the seat is asked again for the rest of its
    /// turn.
    fn continue_after_redraw(&mut self, ignored: usize) -> Verdict {
        self.n_calls += 1;
        if ignored == 0 {
            Verdict::ok()
        } else {
            Verdict::warning(format!(
                "new card drawn; {ignored} command(s) after it ignored, the turn goes on in the next call"
            ))
        }
    }
}

impl realm_core::Referee for KingdomBuilderReferee {
    fn next_request(&mut self) -> Option<Request> {
        let player = self.state.to_move()?;
        let first = !self.introduced[player];
        let mut lines = Vec::new();
        if first {
            lines.extend(initial_lines(&self.state, player));
            self.introduced[player] = true;
        }
        lines.extend(turn_lines(&self.state, player));
        Some(Request {
            player,
            turn: self.n_calls + 1,
            lines,
            expected_lines: 1,
            time_limit: if first { FIRST_TIME_LIMIT } else { TIME_LIMIT },
        })
    }

    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict {
        if self.state.to_move() != Some(player) {
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
        if self.state.to_move() == Some(player) {
            self.record_fault(player, fault);
        }
    }

    fn frame(&self) -> serde_json::Value {
        view::match_frame(self)
    }

    fn outcome(&self) -> Outcome {
        let mut outcome = self.state.outcome();
        outcome.faults = self.faults.clone();
        let n = self.faults.len();
        let left = (0..n).filter(|&p| !self.state.is_eliminated(p)).count();
        if self.state.to_move().is_none() && left <= 1 && n > 1 {
            outcome.end = match self.last_elimination {
                Some((player, fault)) if n == 2 => EndReason::Fault { player, fault },
                _ => EndReason::Eliminations,
            };
        }
        outcome
    }
}
