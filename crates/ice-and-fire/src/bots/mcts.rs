//! `mcts`: UCT over the bot's own phase. An action is one command (MOVE, TRAIN, BUILD) or the
//! end of the phase, so the tree searches command sequences. A leaf is valued by rollout:
//! greedy completes the phase from there, greedy plays the opponent's whole reply, and the
//! position after both is valued by a heuristic: active cells, income, gold and army for each
//! side, and above all the threat of a lethal TRAIN chain to an HQ on the next phase (the
//! cheapest chain's cost on bitboards, `paths::chain_cost`, against the gold the player will
//! have). Rollouts are deterministic, so the search is close to best-first (exploration 0.01:
//! against greedy, 0.3 scored 79.5% and 0.01 95% in process; STRENGTH.md). Before searching,
//! the bot takes a lethal chain it can afford now, as greedy does. The answer is the most
//! visited command sequence of the tree, unless greedy's plan for the phase ends in a position
//! the rollout values at least as high.

use realm_core::{Bot, BotError, ClockedInput, Input, PlayerId};
use realm_search::{Knowledge, Mcts, MctsParams, Rewards, SearchOptions, TurnLimits};

use super::greedy::{greedy_answer, greedy_play};
use super::paths::chain_cost;
use super::Tracker;
use crate::referee::{FIRST_TIME_LIMIT, TIME_LIMIT};
use crate::rules::{Action, Ending, GameState};

/// The referee's limits, which the search's default budgets are shares of.
const TURN_LIMITS: TurnLimits = TurnLimits {
    first: FIRST_TIME_LIMIT,
    later: TIME_LIMIT,
};

/// Values a position by greedy's rollout of both phases (see the module comment).
#[derive(Clone, Copy, Debug)]
pub struct IceAndFireKnowledge {
    pub me: PlayerId,
}

/// How good the position is for `p`, in rough gold units.
fn material(state: &GameState, p: PlayerId) -> f32 {
    let cells = state.active(p).count() as f32;
    let income = state.income(p) as f32;
    cells * 2.0 + income * 4.0 + state.military_power(p) as f32 * 0.3
}

/// True when `p` can afford a chain to the enemy HQ in its next phase.
fn lethal_next(state: &GameState, p: PlayerId) -> bool {
    let next_gold = state.gold(p) + state.income(p);
    chain_cost(state, p) <= next_gold
}

impl IceAndFireKnowledge {
    /// The heuristic value of `state` for the searching player, in [0, 1].
    fn value(&self, state: &GameState) -> f32 {
        let (me, other) = (self.me, 1 - self.me);
        if let Some(Ending::HqCaptured { loser }) = state.ending() {
            return if loser == me { 0.0 } else { 1.0 };
        }
        if lethal_next(state, other) {
            return 0.02;
        }
        let diff = (material(state, me) - material(state, other)) / 40.0;
        let base = 1.0 / (1.0 + (-diff).exp());
        if lethal_next(state, me) {
            0.5 + 0.5 * base
        } else {
            0.1 + 0.8 * base
        }
    }
}

impl Knowledge<GameState> for IceAndFireKnowledge {
    fn evaluate(&mut self, state: &GameState) -> Option<Rewards> {
        let mut after = state.clone();
        // The rest of the searching player's phase (if it is still on), then the reply.
        if after.player() == self.me && after.ending().is_none() {
            greedy_play(&mut after);
            after.end_phase();
        }
        if after.player() != self.me && after.ending().is_none() {
            greedy_play(&mut after);
            after.end_phase();
        }
        let value = self.value(&after);
        let mut rewards = [0.0; realm_search::MAX_PLAYERS];
        rewards[self.me] = value;
        rewards[1 - self.me] = 1.0 - value;
        Some(rewards)
    }
}

/// The search parameters the bot plays with unless its name overrides them.
pub fn default_params() -> MctsParams {
    MctsParams {
        exploration: 0.01,
        playout_depth: Some(0),
        ..MctsParams::default()
    }
}

pub struct MctsBot {
    tracker: Tracker,
    options: SearchOptions,
    seed: u64,
}

impl MctsBot {
    pub fn new(seed: u64, league: Option<u32>, options: SearchOptions) -> MctsBot {
        MctsBot {
            tracker: Tracker::new(league),
            options,
            seed,
        }
    }

    /// The most visited command sequence of the phase, as protocol text, played on `state`.
    fn best_line(
        &self,
        search: &Mcts<GameState, IceAndFireKnowledge>,
        state: &mut GameState,
    ) -> Vec<String> {
        let mut path: Vec<Action> = Vec::new();
        let mut commands = Vec::new();
        while let Some(action) = search.most_visited_after(&path) {
            if action == Action::End {
                break;
            }
            // The text names units by their id, so it is written before the move is played.
            let text = state.command(&action);
            if state.play(&action).is_err() {
                break;
            }
            commands.push(text);
            path.push(action);
        }
        commands
    }
}

impl Bot for MctsBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let first_call = self.tracker.n_calls() == 0;
        let mut input = ClockedInput::new(input);
        let (state, _) = self.tracker.read(&mut input)?;
        let budget = self
            .options
            .budget_within(TURN_LIMITS, first_call, input.started());
        let me = state.player();
        // A chain to the enemy HQ that is affordable now wins at once: greedy plays it.
        if chain_cost(&state, me) <= state.gold(me) {
            return Ok(vec![greedy_answer(&mut state.clone())]);
        }
        let params = self.options.apply(default_params());
        let seed = self.seed ^ u64::from(self.tracker.n_calls());
        let mut search = Mcts::new(params, IceAndFireKnowledge { me }, seed);
        let _ = search.search(&state, budget);
        let mut played = state.clone();
        let commands = self.best_line(&search, &mut played);
        // Greedy's plan is a strong candidate the random tree rarely finds: the bot answers
        // whichever of the two ends its phase in the better position.
        let mut knowledge = IceAndFireKnowledge { me };
        let mut value_after = |mut after: GameState| {
            after.end_phase();
            knowledge.evaluate(&after).map_or(0.0, |r| r[me])
        };
        let mut greedy_state = state.clone();
        let greedy = greedy_answer(&mut greedy_state);
        if commands.is_empty() || value_after(greedy_state) >= value_after(played) {
            return Ok(vec![greedy]);
        }
        Ok(vec![commands.join(";")])
    }
}
