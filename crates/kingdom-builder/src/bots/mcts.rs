//! `mcts`: determinized UCT (realm-search), one search per decision of the turn. The hidden
//! cards (the other seats' and the draw pile's order) are dealt anew for every sample by
//! `GameState::reshuffle_hidden`. Knowledge: playouts build only (a random target of the
//! revealed card, then the end of the turn) and stop after about one round, where the position
//! is valued by its gold plus its held tiles' worth (`TILE_GOLD`, rank and margin); a finished
//! game by its final gold.
//!
//! The call's budget (a share of the time limits, or `iters=` iterations per decision) is
//! split over the decisions still to come: the rest of the build plus one.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{Bot, BotError, ClockedInput, Input, State as _};
use realm_search::{
    Algorithm, Budget, Knowledge, Mcts, MctsParams, Rewards, SearchOptions, TurnLimits, MAX_PLAYERS,
};

use super::{play_turn, Reader};
use crate::game::{Action, GameState, Phase, SETTLEMENTS};
use crate::referee::{FIRST_TIME_LIMIT, TIME_LIMIT};

/// The referee's limits, which the search's default budgets are shares of.
const TURN_LIMITS: TurnLimits = TurnLimits {
    first: FIRST_TIME_LIMIT,
    later: TIME_LIMIT,
};

/// Gold of margin over the best opponent that counts as a clear lead.
const MARGIN_SCALE: f32 = 10.0;

/// Rank and margin rewards in [0, 1] from gold (eliminated seats count as -1).
fn rewards_from_gold(state: &GameState, gold: &[u32]) -> Rewards {
    let values: Vec<f32> = gold.iter().map(|&g| g as f32).collect();
    rewards_from_values(state, &values)
}

/// Rank and margin rewards in [0, 1] from each seat's value (eliminated seats count as -1).
fn rewards_from_values(state: &GameState, values: &[f32]) -> Rewards {
    let n = values.len().min(MAX_PLAYERS);
    let value = |p: usize| match state.is_eliminated(p) {
        true => -1.0,
        false => values[p],
    };
    let mut rewards = [0.0; MAX_PLAYERS];
    for (i, reward) in rewards.iter_mut().enumerate().take(n) {
        let mut beaten = 0.0;
        let mut best_other = f32::MIN;
        for j in (0..n).filter(|&j| j != i) {
            beaten += match value(i).total_cmp(&value(j)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            best_other = best_other.max(value(j));
        }
        let rank = if n > 1 { beaten / (n - 1) as f32 } else { 1.0 };
        let margin = (value(i) - best_other) / MARGIN_SCALE;
        *reward = 0.6 * rank + 0.4 / (1.0 + (-margin).exp());
    }
    rewards
}

/// Gold a held tile is worth at the start, when the whole supply is left: a tile is an extra
/// settlement every turn, which playouts (builds only) never see. Tuned against greedy
/// (STRENGTH.md: weights 3 to 15 scored 75-82% in two-player league 3, no tile value 65.5%).
const TILE_GOLD: f32 = 12.0;

#[derive(Clone, Copy, Debug, Default)]
pub struct KingdomBuilderKnowledge;

/// Each seat's gold plus its held tiles' worth, which shrinks with the seat's supply.
fn values_with_tiles(state: &GameState, gold: &[u32]) -> Vec<f32> {
    (0..gold.len())
        .map(|p| {
            let tiles = state.held_tiles(p).len() as f32;
            let supply_left = f32::from(state.supply(p)) / f32::from(SETTLEMENTS);
            gold[p] as f32 + TILE_GOLD * tiles * supply_left
        })
        .collect()
}

impl Knowledge<GameState> for KingdomBuilderKnowledge {
    fn playout_action(
        &mut self,
        state: &GameState,
        rng: &mut ChaCha8Rng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        match state.phase() {
            Phase::Over => None,
            Phase::AfterBuild => Some(Action::EndTurn),
            Phase::BeforeBuild | Phase::Building => {
                let targets = state.build_targets();
                let n = targets.len();
                if n == 0 {
                    return state.random_action(rng, buf);
                }
                let pick = (rng.next_u64() % n as u64) as usize;
                targets.iter().nth(pick).map(|c| Action::Build(c as u16))
            }
        }
    }

    fn evaluate(&mut self, state: &GameState) -> Option<Rewards> {
        Some(rewards_from_values(
            state,
            &values_with_tiles(state, &state.gold()),
        ))
    }

    fn terminal_rewards(&mut self, state: &GameState) -> Rewards {
        let gold: Vec<u32> = state
            .outcome()
            .scores
            .iter()
            .map(|&s| s.max(0) as u32)
            .collect();
        rewards_from_gold(state, &gold)
    }
}

/// The search parameters the bot plays with unless its name overrides them.
pub fn default_params() -> MctsParams {
    MctsParams {
        exploration: 0.4,
        playout_depth: Some(16),
        determinizations: 4,
        ..MctsParams::default()
    }
}

pub struct MctsBot {
    reader: Reader,
    options: SearchOptions,
    search: Mcts<GameState, KingdomBuilderKnowledge>,
    rng: ChaCha8Rng,
    n_calls: u64,
}

impl MctsBot {
    pub fn new(seed: u64, options: SearchOptions) -> Self {
        let params = options.apply(default_params());
        MctsBot {
            reader: Reader::default(),
            options,
            search: Mcts::new(params, KingdomBuilderKnowledge, seed),
            rng: realm_core::chacha_rng(seed, 0x6d637473),
            n_calls: 0,
        }
    }

    /// One decision's share of the call's budget: iterations as given, the time left split
    /// over the decisions still to come.
    fn decision_budget(call: Budget, state: &GameState) -> Budget {
        let (_, left) = state.build_progress();
        let decisions_left = u32::from(left) + 1;
        let deadline = call.deadline.map(|deadline| {
            let now = Instant::now();
            now + deadline.saturating_duration_since(now) / decisions_left
        });
        Budget {
            iterations: call.iterations,
            deadline,
        }
    }

    fn choose(&mut self, state: &GameState, legal: &[Action], call: Budget) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let budget = Self::decision_budget(call, state);
        let mut sample = |rng: &mut ChaCha8Rng| {
            let mut s = state.clone();
            s.reshuffle_hidden(rng.next_u64());
            s
        };
        let result = match self.options.algorithm.unwrap_or(Algorithm::Uct) {
            Algorithm::Uct => self.search.search_sampled(&mut sample, budget),
            Algorithm::Flat => realm_search::flat_monte_carlo(
                &mut sample,
                &mut KingdomBuilderKnowledge,
                &mut self.rng,
                budget,
                self.search.params.playout_depth,
            ),
        };
        match result {
            Some(r) if legal.contains(&r.best) => r.best,
            _ => super::greedy::greedy_action(state, legal, &mut self.rng),
        }
    }
}

impl Bot for MctsBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let first_call = self.n_calls == 0;
        self.n_calls += 1;
        let mut input = ClockedInput::new(input);
        let obs = self.reader.read(&mut input)?;
        let call = self
            .options
            .budget_within(TURN_LIMITS, first_call, input.started());
        let line = play_turn(&obs.state, |state, legal| self.choose(state, legal, call));
        Ok(vec![line])
    }
}

#[cfg(test)]
mod tests {
    use realm_core::chacha_rng;

    use super::*;
    use crate::game::GameConfig;

    /// Along a random game, a seat's value is its gold plus 12 gold per held tile scaled by
    /// the supply left, and some seat holds a tile at some point.
    #[test]
    fn held_tiles_add_to_the_leaf_value() {
        let mut state = GameState::new(&GameConfig::new(2, 3), 7);
        let mut rng = chacha_rng(7, 0);
        let mut buf = Vec::new();
        let mut seen_tile = false;
        while let Some(action) = state.random_action(&mut rng, &mut buf) {
            state.apply(&action);
            let gold = state.gold();
            let values = values_with_tiles(&state, &gold);
            for p in 0..2 {
                let tiles = state.held_tiles(p).len() as f32;
                let share = f32::from(state.supply(p)) / 40.0;
                assert_eq!(values[p], gold[p] as f32 + 12.0 * tiles * share);
                seen_tile |= tiles > 0.0 && share > 0.0;
            }
        }
        assert!(seen_tile);
    }
}
