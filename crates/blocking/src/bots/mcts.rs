//! `mcts`: UCT search (realm-search) over the full position, which the bot rebuilds from the
//! protocol (`rebuild`), with Blokus knowledge (`knowledge`, `prior`, `local`): children ordered
//! by a learned move prior (the order of progressive widening, and virtual visits that keep the
//! likeliest moves in view), playouts that answer the opponent's last two placements first and
//! otherwise favour large shapes (`local`), and rewards that blend the rank with the score
//! margin. The tree is reused from one call to the next.
//!
//! If the rebuilt position ever disagrees with the board or the valid-move list read, or the
//! search's choice is not in that list, the bot answers the greedy move instead (and keeps
//! doing so for the rest of the game).

pub mod book;
mod centre;
mod knowledge;
mod local;
mod prior;
mod rebuild;
mod schedule;

use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use realm_core::{chacha_rng, Bot, BotError, ClockedInput, Input};
use realm_search::{Mcts, MctsParams, SearchOptions, TurnLimits, Widening};

pub use knowledge::{contact_value, BlokusKnowledge, Order, Playout};

/// Boards of this side and more (Classic's 20 × 20) get Classic's tunings: the prior's
/// weights (`prior`), the playouts' shape weights (`local`) and the opening's centre rule
/// (`centre`). Duo's and Blocking's smaller boards get Duo's.
const CLASSIC_SIDE: usize = 20;
pub use prior::{PriorContext, N_FEATURES};
pub use rebuild::config_of;

use super::greedy;
use super::observe::{Observation, Reader};
use crate::protocol::representative;
use crate::referee::{FIRST_LIMIT, LATER_LIMIT};
use crate::rules::{Placement, Position};

/// The limits the search's default budgets are shares of (60%): the referee's first limit, and
/// its later limit less `DESCHEDULED`, so that a later answer thinks 100 ms of the 200 ms.
/// With both cores loaded (two matches and a busy loop, STRENGTH.md) answers after 120 ms of
/// thinking had a p99 of 158–179 ms and reached 250–311 ms, over the limit in 1.3–7.5% of the
/// games; after 100 ms the p99 was 140 ms and 1 game in 300 timed out (4 at 120 ms in the same
/// run), and the two scored level (146-12-142).
const TURN_LIMITS: TurnLimits = TurnLimits {
    first: FIRST_LIMIT,
    later: LATER_LIMIT.saturating_sub(DESCHEDULED),
};

/// What a descheduled process may lose of a later call's limit (see `TURN_LIMITS`).
const DESCHEDULED: Duration = Duration::from_micros(33_334);

/// The search parameters the bot plays with unless its name overrides them.
pub fn default_params() -> MctsParams {
    MctsParams {
        exploration: 0.4,
        // 4·n^0.35 children at n visits: narrower than √n, it scored 67-5-28 and 66-5-29
        // against Pentobi level 2 where √n scored 45-10-45 (100 Duo games each; STRENGTH.md).
        widening: Some(Widening {
            base: 4.0,
            exponent: 0.35,
        }),
        // Three virtual visits at the parent's mean times the child's prior: 32-1-67 against
        // Pentobi level 5 where none scored 21-6-73 (5,000 iterations a move; STRENGTH.md).
        prior_visits: 3.0,
        // Children listed and ordered on a node's third visit, not its second: listing and
        // scoring every placement is a third of an iteration in the opening, and later
        // expansion raised the score against Pentobi level 6 from 21-3-76 to 31-8-61 (120 ms a
        // move; 4 visits: 31-6-63; STRENGTH.md).
        expand_visits: 2,
        // One visit more every second ply below the root, as Pentobi's threshold grows: 16%
        // more iterations a second at the opening, and 45.1% over 400 games against Pentobi
        // level 6 at equal time where the plain threshold scored 44.3% over 200 (STRENGTH.md).
        expand_deeper: 2,
        // Pentobi's RAVE: a later play of a child's action adds the reward to the child's own
        // statistics at weight 0.7 · (1 − distance / length). Against Pentobi level 6 at equal
        // time 48.3% over 400 games where the search without it scored 44.6% on the same
        // seeds in the same hour, and +17 to +42 Elo in five self-play runs (STRENGTH.md).
        rave_weight: 0.7,
        ..MctsParams::default()
    }
}

pub struct MctsBot {
    reader: Reader,
    options: SearchOptions,
    search: Mcts<Position, BlokusKnowledge>,
    rng: ChaCha8Rng,
    /// The position after the bot's last move (`None` before the first call or after a
    /// disagreement, from which on the bot plays greedy).
    position: Option<Position>,
    /// The bot's last move, the first step of the path `advance` follows in the tree.
    last_move: Option<Placement>,
    first_call: bool,
    reused_visits: u32,
}

impl MctsBot {
    pub fn new(seed: u64, options: SearchOptions) -> Self {
        MctsBot::with_knowledge(seed, options, BlokusKnowledge::default())
    }

    /// A bot with other knowledge (for measuring one piece of knowledge against another).
    pub fn with_knowledge(seed: u64, options: SearchOptions, knowledge: BlokusKnowledge) -> Self {
        MctsBot {
            reader: Reader::default(),
            search: Mcts::new(options.apply(default_params()), knowledge, seed),
            options,
            rng: chacha_rng(seed, 1),
            position: None,
            last_move: None,
            first_call: true,
            reused_visits: 0,
        }
    }

    /// True while the bot's rebuilt position agrees with what it read (false after a
    /// fallback to greedy).
    pub fn is_tracking(&self) -> bool {
        self.position.is_some()
    }

    /// How many visits the tree had before the last search (non-zero when it was reused).
    pub fn reused_visits(&self) -> u32 {
        self.reused_visits
    }

    fn greedy(&mut self, obs: &Observation) -> Vec<String> {
        self.position = None;
        let pick = greedy::choose(obs, &mut self.rng);
        vec![obs.valid[pick].0.to_string()]
    }
}

impl Bot for MctsBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        // The clock runs from the input's first line (reading the input is part of the time).
        let mut input = ClockedInput::new(input);
        let obs = self.reader.read_turn(&mut input)?;
        let budget = self
            .options
            .budget_within(TURN_LIMITS, self.first_call, input.started());
        let previous = match self.position.take() {
            Some(pos) => Some(pos),
            None if self.first_call => config_of(&obs).map(|c| Position::new(&c)),
            None => None,
        };
        self.first_call = false;
        let Some(caught) = previous.and_then(|pos| rebuild::catch_up(pos, &obs)) else {
            return Ok(self.greedy(&obs));
        };
        self.reused_visits = 0;
        if let Some(path) = caught.path {
            let path: Vec<Placement> = self.last_move.into_iter().chain(path).collect();
            if self.search.advance(&path) {
                self.reused_visits = self.search.root_visits();
            }
        }
        let pos = caught.position;
        // Only a given `ms` is spread: the default budget is a share of the referee's limit,
        // and twice it would pass the limit.
        let budget = match (self.options.spread, self.options.ms, pos.current()) {
            (Some(true), Some(_), Some(me)) => {
                let placed = (pos.set() & !pos.remaining(me)).count_ones();
                schedule::spread(budget, input.started(), placed)
            }
            _ => budget,
        };
        let from_book = match self.options.book {
            Some(false) => None,
            _ => book::book_move(&pos),
        };
        let best = match from_book {
            Some(mv) => {
                self.search.forget();
                mv
            }
            None => match self.search.search(&pos, budget) {
                Some(result) => result.best,
                None => return Ok(self.greedy(&obs)),
            },
        };
        let name = representative(&pos, obs.my_id, best);
        if !obs.valid.iter().any(|(listed, _)| *listed == name) {
            return Ok(self.greedy(&obs));
        }
        let mut after = pos;
        after.play(best);
        self.position = Some(after);
        self.last_move = Some(best);
        Ok(vec![name.to_string()])
    }
}
