//! `mcts`: UCT search (realm-search) over the full position, which the bot rebuilds from the
//! protocol: the shape set from the initial input, then every move the other players made
//! (listed each call) and its own. Blokus knowledge:
//!
//! * children are ordered largest shape first (the prior for progressive widening): big
//!   shapes are hard to place late, so they are the moves worth searching first;
//! * playouts place a random shape among the largest that fit, which is far closer to real
//!   play than uniform moves (uniform playouts waste the big shapes early and misjudge
//!   territory);
//! * rewards blend the rank with the score margin, so the bot prefers bigger wins and smaller
//!   losses once the result is clear.
//!
//! If the rebuilt position ever disagrees with the board or the valid-move list read (say, a
//! player was eliminated for a fault the protocol does not announce), the bot answers the
//! greedy move for that turn instead.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input, State};
use realm_search::{margin_rewards, Knowledge, Mcts, MctsParams, Rewards, SearchOptions, Widening};

use super::greedy;
use super::observe::{Observation, Reader};
use crate::protocol::{board_rows, resolve, valid_moves};
use crate::referee::{FIRST_LIMIT, LATER_LIMIT};
use crate::rules::{Placement, Position};
use crate::setup::{Config, Variant};

/// Blokus knowledge for the search (see the module comment).
#[derive(Clone, Copy, Debug, Default)]
pub struct BlokusKnowledge;

impl Knowledge<Position> for BlokusKnowledge {
    fn playout_action(
        &mut self,
        state: &Position,
        rng: &mut ChaCha8Rng,
        buf: &mut Vec<Placement>,
    ) -> Option<Placement> {
        state.to_move()?;
        state.legal_actions(buf);
        let largest = buf.iter().map(|m| m.shape().n).max()?;
        let n_largest = buf.iter().filter(|m| m.shape().n == largest).count();
        let pick = (rng.next_u64() % n_largest as u64) as usize;
        buf.iter()
            .filter(|m| m.shape().n == largest)
            .nth(pick)
            .copied()
    }

    fn order(&mut self, _state: &Position, actions: &mut Vec<Placement>) {
        // Stable: the search shuffled the list, so equal sizes stay in random order.
        actions.sort_by_key(|m| std::cmp::Reverse(m.shape().n));
    }

    fn terminal_rewards(&mut self, state: &Position) -> Rewards {
        margin_rewards(&state.outcome(), 10.0, 0.3)
    }
}

/// The search parameters the bot plays with unless its name overrides them.
pub fn default_params() -> MctsParams {
    MctsParams {
        exploration: 0.4,
        widening: Some(Widening {
            base: 4.0,
            exponent: 0.5,
        }),
        ..MctsParams::default()
    }
}

pub struct MctsBot {
    reader: Reader,
    options: SearchOptions,
    search: Mcts<Position, BlokusKnowledge>,
    rng: ChaCha8Rng,
    /// The position as the bot tracks it (`None` before the first call or after a desync).
    position: Option<Position>,
    /// Actions played since the last search, for tree reuse (`None` when an elimination,
    /// which is no action, broke the path).
    since_search: Option<Vec<Placement>>,
    first_call: bool,
}

impl MctsBot {
    pub fn new(seed: u64, options: SearchOptions) -> Self {
        MctsBot {
            reader: Reader::default(),
            search: Mcts::new(options.apply(default_params()), BlokusKnowledge, seed),
            options,
            rng: chacha_rng(seed, 1),
            position: None,
            since_search: Some(Vec::new()),
            first_call: true,
        }
    }

    /// True while the bot's rebuilt position agrees with what it read (false after a
    /// fallback to greedy).
    pub fn is_tracking(&self) -> bool {
        self.position.is_some()
    }

    /// Brings the tracked position up to this call: the others' moves, then every player
    /// still listed as to move before the bot is out of the game (eliminated for a fault).
    fn track(&mut self, obs: &Observation) -> Option<Position> {
        let mut pos = match self.position.take() {
            Some(pos) => pos,
            None if self.first_call => Position::new(&config_of(obs)?),
            None => return None,
        };
        for &(player, name) in &obs.others {
            while pos.to_move()? != player {
                self.since_search = None;
                pos.eliminate_current();
            }
            let mv = resolve(&pos, player, &name).ok()?;
            pos.play(mv);
            if let Some(path) = &mut self.since_search {
                path.push(mv);
            }
        }
        while pos.to_move()? != obs.my_id {
            self.since_search = None;
            pos.eliminate_current();
        }
        // The rebuilt position must show exactly what was read.
        let rows = board_rows(&pos, Some(obs.my_id));
        let listed: Vec<String> = valid_moves(&pos, obs.my_id)
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
        let read: Vec<String> = obs.valid.iter().map(|(n, _)| n.to_string()).collect();
        (rows == obs.rows && listed == read).then_some(pos)
    }
}

/// The variant and shape set the initial input describes.
fn config_of(obs: &Observation) -> Option<Config> {
    let variant = match (obs.size, obs.n_players) {
        (14, 2) => Variant::Duo,
        (20, 4) => Variant::Classic,
        (13, _) => Variant::Blocking,
        _ => return None,
    };
    Some(Config::with_set(variant, obs.n_players, obs.set))
}

impl Bot for MctsBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let limit = if self.first_call {
            FIRST_LIMIT
        } else {
            LATER_LIMIT
        };
        let budget = self.options.budget_within(limit);
        let obs = self.reader.read_turn(input)?;
        let tracked = self.track(&obs);
        self.first_call = false;
        let Some(pos) = tracked else {
            self.position = None;
            let pick = greedy::choose(&obs, &mut self.rng);
            return Ok(vec![obs.valid[pick].0.to_string()]);
        };
        if let Some(path) = self.since_search.take() {
            self.search.advance(&path);
        }
        let best = self
            .search
            .search(&pos, budget)
            .map(|r| r.best)
            .ok_or_else(|| BotError::BadInput("no legal move in the rebuilt position".into()))?;
        let name = crate::protocol::representative(&pos, obs.my_id, best);
        let mut after = pos;
        after.play(best);
        self.since_search = Some(vec![best]);
        self.position = Some(after);
        Ok(vec![name.to_string()])
    }
}
