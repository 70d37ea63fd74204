//! `mcts`: determinized UCT over the tile bag. The bot rebuilds the board from the tile
//! history (as every built-in bot does); the bag's order is hidden, so each search samples
//! several bags from the tiles it has not seen (the league's tile set minus every tile placed
//! and the one in hand), searches one tree per sample, and merges the root statistics.
//! Knowledge: playouts stop after `depth` actions (default 8, about four turns) and the
//! position is valued by `valuation` (the score plus what each kind of open feature would pay
//! now and the men in supply, weighed by how much of the bag is left, as fitted on recorded
//! two-player league 3 games; the end-now score and men elsewhere), as rank and margin
//! rewards; a finished game is valued by its final scores.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{Bot, BotError, ClockedInput, Input, State as _};
use realm_search::{
    Algorithm, Knowledge, Mcts, MctsParams, Rewards, SearchOptions, TurnLimits, MAX_PLAYERS,
};

use super::valuation::{valuation, VALUE_UNIT};
use super::{Greedy, Observation, Reader};
use crate::protocol::answer_line;
use crate::referee::{FIRST_TIME_LIMIT, TIME_LIMIT};
use crate::rules::{Action, State};
use crate::setup::{start_type, unshuffled_bag};

/// The referee's limits, which the search's default budgets are shares of.
const TURN_LIMITS: TurnLimits = TurnLimits {
    first: FIRST_TIME_LIMIT,
    later: TIME_LIMIT,
};

/// Points of margin over the best opponent that count as a clear lead.
const MARGIN_SCALE: f32 = 15.0;

/// Ranks and margins from per-player values counted in 1 / `unit` points, in [0, 1].
fn rewards_from_values(values: &[i64], unit: f32) -> Rewards {
    let n = values.len().min(MAX_PLAYERS);
    let mut rewards = [0.0; MAX_PLAYERS];
    for i in 0..n {
        let mut beaten = 0.0;
        let mut best_other = i64::MIN;
        for j in (0..n).filter(|&j| j != i) {
            beaten += match values[i].cmp(&values[j]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            best_other = best_other.max(values[j]);
        }
        let rank = if n > 1 { beaten / (n - 1) as f32 } else { 1.0 };
        let margin = (values[i] - best_other) as f32 / (MARGIN_SCALE * unit);
        rewards[i] = 0.6 * rank + 0.4 / (1.0 + (-margin).exp());
    }
    rewards
}

#[derive(Clone, Copy, Debug, Default)]
pub struct CarcassonneKnowledge;

impl Knowledge<State> for CarcassonneKnowledge {
    fn evaluate(&mut self, state: &State) -> Option<Rewards> {
        let values = valuation(state.board(), state.league(), state.bag_left().len());
        Some(rewards_from_values(
            &values[..state.n_players()],
            VALUE_UNIT,
        ))
    }

    /// Uniform placements, but no man two times out of three: random men would leave the
    /// supply empty within a few turns, which real players never do.
    fn playout_action(
        &mut self,
        state: &State,
        rng: &mut ChaCha8Rng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let action = state.random_action(rng, buf)?;
        match action {
            Action::Man(Some(_)) if rng.next_u64() % 3 != 0 => Some(Action::Man(None)),
            other => Some(other),
        }
    }

    fn terminal_rewards(&mut self, state: &State) -> Rewards {
        rewards_from_values(state.board().scores(), 1.0)
    }
}

/// The search parameters the bot plays with unless its name overrides them.
pub fn default_params() -> MctsParams {
    MctsParams {
        exploration: 0.3,
        playout_depth: Some(8),
        determinizations: 8,
        ..MctsParams::default()
    }
}

pub struct MctsBot {
    reader: Reader,
    league: u32,
    options: SearchOptions,
    seed: u64,
    rng: ChaCha8Rng,
    greedy: Greedy,
    n_calls: u64,
}

impl MctsBot {
    pub fn new(seed: u64, league: u32, options: SearchOptions) -> Self {
        MctsBot {
            reader: Reader::default(),
            league,
            options,
            seed,
            rng: realm_core::chacha_rng(seed, 0x6d637473),
            greedy: Greedy::new(seed),
            n_calls: 0,
        }
    }
}

/// The tiles a player has not seen: the league's bag minus every tile on the board (the start
/// tile is not in the bag) and the one in hand. `None` if the board holds a tile the league's
/// set does not (the bot was told the wrong league).
pub fn unseen_tiles(league: u32, obs: &Observation) -> Option<Vec<u8>> {
    let mut bag = unshuffled_bag(league);
    let start = start_type(league);
    let mut placed: Vec<u8> = obs.board.placed().iter().map(|p| p.ty).collect();
    // The first tile of the history is the start tile, which the bag never held.
    if placed.first() == Some(&start) {
        placed.remove(0);
    }
    placed.push(obs.tile);
    for ty in placed {
        let i = bag.iter().position(|&t| t == ty)?;
        bag.swap_remove(i);
    }
    Some(bag)
}

/// A full state consistent with `obs`: the board as seen, the tile in hand, and the `unseen`
/// tiles in a random order as the bag (what each determinization of the search plays).
pub fn sampled_state(league: u32, obs: &Observation, unseen: &[u8], rng: &mut ChaCha8Rng) -> State {
    let mut bag = unseen.to_vec();
    for i in (1..bag.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        bag.swap(i, j);
    }
    State::from_observed(league, obs.board.clone(), obs.me, obs.tile, bag)
}

impl Bot for MctsBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let first_call = self.n_calls == 0;
        self.n_calls += 1;
        let mut input = ClockedInput::new(input);
        let obs = self.reader.read(&mut input)?;
        let budget = self
            .options
            .budget_within(TURN_LIMITS, first_call, input.started());
        let Some(unseen) = unseen_tiles(self.league, &obs) else {
            return self.greedy.answer(&obs);
        };
        let mut sample = |rng: &mut ChaCha8Rng| sampled_state(self.league, &obs, &unseen, rng);
        let params = self.options.apply(default_params());
        let mut search = Mcts::new(params, CarcassonneKnowledge, self.seed ^ self.n_calls);
        let result = match self.options.algorithm.unwrap_or(Algorithm::Uct) {
            Algorithm::Uct => search.search_sampled(&mut sample, budget),
            Algorithm::Flat => realm_search::flat_monte_carlo(
                &mut sample,
                &mut CarcassonneKnowledge,
                &mut self.rng,
                budget,
                params.playout_depth,
            ),
        };
        let Some(Action::Place(at)) = result.map(|r| r.best) else {
            return self.greedy.answer(&obs);
        };
        // The man step is the next action of the same player: the trees ranked it already.
        let man = match search.most_visited_after(&[Action::Place(at)]) {
            Some(Action::Man(token)) => token,
            _ => self.greedy.man_for(&obs, at),
        };
        Ok(vec![answer_line(at, man)])
    }
}
