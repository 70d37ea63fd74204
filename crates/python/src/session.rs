//! A match where some seats are played from Python one action at a time and the others are
//! realm bots (built-in or processes): what the Gymnasium wrapper steps through. The referee
//! stays the judge; the agent acts on a copy of its position and the actions of one call are
//! sent as one answer.

use realm_arena::{make_seat, settle_call, Entrant, Seat};
use realm_core::{FaultKind, MatchSpec, Outcome, PlayerId, Request, Verdict};

use std::sync::Arc;

use crate::history::{Call, History, Step};
use realm_core::engine::Engine;
use realm_core::Table;
use realm_games::new_table;

/// The agent's call being answered.
struct Waiting {
    request: Request,
    /// The referee's position with the agent's actions of this call applied.
    engine: Box<dyn Engine>,
    texts: Vec<String>,
    ids: Vec<u32>,
}

pub struct Session {
    table: Box<dyn Table>,
    /// `None`: the seat is played from Python.
    seats: Vec<Option<Seat>>,
    waiting: Option<Waiting>,
    /// Every call the referee settled, so that a position can be rebuilt (pickled).
    calls: Arc<Vec<Call>>,
}

impl Session {
    /// `bots[i]` is seat i's bot (`builtin:NAME` or a command), or `None` for Python.
    pub fn new(spec: &MatchSpec, bots: &[Option<String>]) -> Result<Session, String> {
        if bots.len() != spec.n_players {
            return Err(format!(
                "{} seats given for {} players",
                bots.len(),
                spec.n_players
            ));
        }
        let table = new_table(spec).map_err(|e| e.to_string())?;
        let mut seats = Vec::new();
        for (i, bot) in bots.iter().enumerate() {
            seats.push(match bot {
                None => None,
                Some(arg) => Some(new_seat(spec, i, &Entrant::from_arg(arg)?)?),
            });
        }
        let mut session = Session {
            table,
            seats,
            waiting: None,
            calls: Arc::default(),
        };
        session.advance()?;
        Ok(session)
    }

    /// The agent's position while an agent is to act, else the referee's final position, with
    /// how it came about.
    pub fn position(&self) -> (Box<dyn Engine>, History) {
        let (engine, ids) = match &self.waiting {
            Some(waiting) => (waiting.engine.clone_box(), &waiting.ids[..]),
            None => (self.table.engine(), &[][..]),
        };
        let history = History {
            calls: Some(Arc::clone(&self.calls)),
            steps: ids.iter().map(|&id| Step::Apply(id)).collect(),
        };
        (engine, history)
    }

    /// The seat the agent acts for now.
    pub fn agent(&self) -> Option<PlayerId> {
        self.waiting.as_ref().map(|w| w.request.player)
    }

    /// Plays one legal action id of the agent to move; when it ends the call, the answer goes
    /// to the referee and the bots play until an agent is to act again.
    pub fn play(&mut self, id: u32) -> Result<(), String> {
        let waiting = self.waiting.as_mut().ok_or("the match is over")?;
        let text = waiting
            .engine
            .text(id)
            .ok_or_else(|| format!("action {id} is not legal now"))?;
        let closes = waiting.engine.closes_answer(id);
        waiting.engine.apply(id)?;
        waiting.texts.push(text);
        waiting.ids.push(id);
        if closes {
            let waiting = self.waiting.take().expect("checked above");
            let lines = waiting.engine.answer_lines(&waiting.texts);
            let verdict = self.settle(&waiting.request, Ok(lines), Vec::new());
            if verdict.is_fault() {
                return Err(format!(
                    "the referee refused the answer: {}",
                    verdict.detail
                ));
            }
            self.advance()?;
        }
        Ok(())
    }

    pub fn outcome(&mut self) -> Outcome {
        self.table.referee().outcome()
    }

    /// Hands one call's result to the referee and records it.
    fn settle(
        &mut self,
        request: &Request,
        answer: Result<Vec<String>, (FaultKind, String)>,
        partial: Vec<String>,
    ) -> Verdict {
        let (_, verdict) = settle_call(
            self.table.referee(),
            request,
            answer.clone(),
            partial.clone(),
        );
        Arc::make_mut(&mut self.calls).push(Call { answer, partial });
        verdict
    }

    /// Lets the bots play until an agent's call or the end.
    fn advance(&mut self) -> Result<(), String> {
        while let Some(request) = self.table.referee().next_request() {
            let Some(seat) = &mut self.seats[request.player] else {
                let engine = self.table.engine();
                if engine.to_move() != Some(request.player) {
                    return Err(format!(
                        "the referee asks seat {} while the position has {:?} to move",
                        request.player,
                        engine.to_move()
                    ));
                }
                self.waiting = Some(Waiting {
                    request,
                    engine,
                    texts: Vec::new(),
                    ids: Vec::new(),
                });
                return Ok(());
            };
            // No time limit: a loaded machine must not decide a learning run.
            let report = seat.call(&request.lines, request.expected_lines, None);
            if self
                .settle(&request, report.answer, report.partial)
                .is_fault()
            {
                if let Some(seat) = &mut self.seats[request.player] {
                    seat.stop();
                }
            }
        }
        for seat in self.seats.iter_mut().flatten() {
            seat.stop();
        }
        Ok(())
    }
}

/// A built-in bot or a process for seat `seat`, seeded as the arena seeds it.
pub fn new_seat(spec: &MatchSpec, seat: usize, entrant: &Entrant) -> Result<Seat, String> {
    make_seat(
        &realm_games::Catalog,
        spec,
        seat,
        entrant,
        Default::default(),
    )
    .map_err(|e| e.to_string())
}
