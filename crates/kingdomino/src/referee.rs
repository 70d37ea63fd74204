//! The text-level referee (§2.5, §3, §4, R29): it asks the player of each slot, parses its two
//! lines, applies auto-discard, placement, invalid-PUT handling and the pick in the spec's
//! order, and turns every fault into an elimination.
//!
//! It never measures time; the runner reports timeouts and dead processes through `fault`.

use std::time::Duration;

use realm_core::{Fault, FaultKind, Outcome, PlayerId, Referee, Request, Verdict};

use crate::bits::Bits;
use crate::kingdom::Placement;
use crate::protocol::{input_lines, parse_pick, parse_put};
use crate::rules::Game;
use crate::setup::{Config, InvalidPut};
use crate::view;

/// Time limit of every call of turn 1 (§4).
pub const FIRST_TURN_LIMIT: Duration = Duration::from_millis(1000);
/// Time limit of every later call (§4).
pub const TURN_LIMIT: Duration = Duration::from_millis(50);

/// Lines every answer has: PUT and PICK.
pub const ANSWER_LINES: usize = 2;

/// A match of Kingdomino on grids of side `B::S`.
pub struct KingdominoReferee<B: Bits> {
    game: Game<B>,
    /// Whether each seat has had its first call (and so its initial input).
    called: [bool; 4],
    pending: Option<PlayerId>,
    last_player: Option<PlayerId>,
    faults: Vec<Option<Fault>>,
}

impl<B: Bits> KingdominoReferee<B> {
    pub fn new(config: Config, seed: u64) -> Self {
        KingdominoReferee {
            game: Game::new(config, seed),
            called: [false; 4],
            pending: None,
            last_player: None,
            faults: vec![None; config.n_players],
        }
    }

    /// The game behind the referee, for tests and tools.
    pub fn game(&self) -> &Game<B> {
        &self.game
    }

    // Eliminates the player of the current slot for `kind` and closes the slot.
    fn eliminate(&mut self, player: PlayerId, kind: FaultKind, detail: String) -> Verdict {
        self.faults[player] = Some(Fault {
            kind,
            turn: self.game.turn(),
            detail: detail.clone(),
        });
        self.game.eliminate(player);
        self.game.end_slot();
        Verdict::fault(kind, detail)
    }

    // Step 3 of §2.5: auto-discard, legal placement or R16. Returns a warning to report, or the
    // fault verdict when the player is eliminated.
    fn put(&mut self, player: PlayerId, [x, y, r]: [i64; 3]) -> Result<Option<String>, Verdict> {
        let Some(tile) = self.game.slot_tile() else {
            return Ok(None);
        };
        if !self.game.can_place() {
            self.game.discard();
            return Ok(Some(format!(
                "tile {} has no legal placement: discarded",
                tile.id
            )));
        }
        let placement =
            Placement::from_numbers(x, y, r, B::S).filter(|&p| self.game.is_legal_placement(p));
        if let Some(p) = placement {
            self.game.place(p);
            return Ok(None);
        }
        let detail = format!(
            "PUT {x} {y} {r} is not a legal placement of tile {}",
            tile.id
        );
        match self.game.config().invalid_put {
            InvalidPut::Discard => {
                self.game.discard();
                Ok(Some(format!("{detail}: discarded")))
            }
            InvalidPut::Eliminate => Err(self.eliminate(player, FaultKind::InvalidAction, detail)),
        }
    }
}

impl<B: Bits> Referee for KingdominoReferee<B> {
    fn next_request(&mut self) -> Option<Request> {
        let player = self.game.to_move()?;
        let first_call = !self.called[player];
        self.called[player] = true;
        self.pending = Some(player);
        let turn = self.game.turn();
        Some(Request {
            player,
            turn,
            lines: input_lines(&self.game, player, first_call),
            expected_lines: ANSWER_LINES,
            time_limit: if turn == 1 {
                FIRST_TURN_LIMIT
            } else {
                TURN_LIMIT
            },
        })
    }

    fn answer(&mut self, player: PlayerId, lines: &[String]) -> Verdict {
        if self.pending != Some(player) {
            return Verdict::warning(format!("player {player} has no pending call: ignored"));
        }
        self.pending = None;
        self.last_player = Some(player);
        if lines.len() < ANSWER_LINES {
            let detail = format!("expected 2 lines, got {}", lines.len());
            return self.eliminate(player, FaultKind::Malformed, detail);
        }
        let put = match parse_put(&lines[0]) {
            Ok(put) => put,
            Err(e) => return self.eliminate(player, FaultKind::Malformed, e.to_string()),
        };
        let pick = match parse_pick(&lines[1]) {
            Ok(pick) => pick,
            Err(e) => return self.eliminate(player, FaultKind::Malformed, e.to_string()),
        };
        let warning = match self.put(player, put) {
            Ok(warning) => warning,
            Err(verdict) => return verdict,
        };
        if self.game.picks_this_turn() {
            if !self.game.is_valid_pick(pick.id) {
                let detail = format!("PICK {} is not a free tile of the line", pick.id);
                return self.eliminate(player, FaultKind::InvalidAction, detail);
            }
            self.game.pick(pick.id as u8);
        }
        self.game.end_slot();
        match warning {
            Some(w) => Verdict::warning(w),
            None => Verdict::ok(),
        }
    }

    fn fault(&mut self, player: PlayerId, fault: Fault) {
        if player >= self.faults.len() || self.game.is_eliminated(player) {
            return;
        }
        self.last_player = Some(player);
        self.faults[player] = Some(fault);
        self.game.eliminate(player);
        if self.pending == Some(player) {
            self.pending = None;
            self.game.end_slot();
        }
    }

    fn frame(&self) -> serde_json::Value {
        view::frame(&self.game, self.last_player)
    }

    fn outcome(&self) -> Outcome {
        let mut outcome = self.game.base_outcome();
        outcome.faults = self.faults.clone();
        outcome
    }
}
