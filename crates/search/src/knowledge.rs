//! What a game may teach the search. Every method has a knowledge-free default, so a game
//! starts with `Uniform` and adds only what measurably helps.

use rand_chacha::ChaCha8Rng;
use realm_core::State;

use crate::reward::{rank_rewards, Rewards};

pub trait Knowledge<S: State> {
    /// The next playout action (default: uniform through `State::random_action`).
    fn playout_action(
        &mut self,
        state: &S,
        rng: &mut ChaCha8Rng,
        buf: &mut Vec<S::Action>,
    ) -> Option<S::Action> {
        state.random_action(rng, buf)
    }

    /// Rewards of a position where a depth-cut playout stops, or `None` to play on to the
    /// end (the default).
    fn evaluate(&mut self, _state: &S) -> Option<Rewards> {
        None
    }

    /// Orders freshly listed actions best first. With progressive widening only a prefix is
    /// searched at first, so the order is the prior. The default keeps the listed order
    /// (the search shuffles it first so that ties are broken at random). It may also drop
    /// actions not worth searching, never all of them: the node's children are what is left.
    fn order(&mut self, _state: &S, _actions: &mut Vec<S::Action>) {}

    /// `order` where only the first `k` actions need to be in order: the search creates
    /// children for a prefix of the list (the widening's first few) and lists the node again
    /// when it needs more. A game whose ordering sorts may select the prefix and sort only
    /// that; the default orders all.
    fn order_prefix(&mut self, state: &S, actions: &mut Vec<S::Action>, _k: usize) {
        self.order(state, actions);
    }

    /// Each action's prior in [0, 1] (1 for the likeliest), in `actions`' order after
    /// `order` (`actions` may be a prefix of what `order` ordered), into `out`; the search gives a child `MctsParams::prior_visits` virtual visits
    /// at the parent's mean times its prior. The default (nothing) leaves children unbiased.
    fn priors(&mut self, _state: &S, _actions: &[S::Action], _out: &mut Vec<f32>) {}

    /// How many distinct `rave_key`s the game's actions have (0, the default: no move
    /// statistics shared across the tree, whatever `MctsParams::rave_equiv` says).
    fn rave_keys(&self) -> usize {
        0
    }

    /// `action`'s index below `rave_keys()`: actions with the same key count as the same move
    /// wherever in the tree they are played.
    fn rave_key(&self, _action: &S::Action) -> usize {
        0
    }

    /// Rewards of a finished game (default: shares of opponents beaten, from the ranks).
    fn terminal_rewards(&mut self, state: &S) -> Rewards {
        rank_rewards(&state.outcome().ranks)
    }
}

/// No game knowledge: uniform playouts to the end, rank rewards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<S: State> Knowledge<S> for Uniform {}

/// Plays a playout from `state` with `knowledge`: at most `depth` actions (then the leaf
/// evaluator, if it answers), otherwise to the end. With `played`, every action is appended
/// to it with the player who played it.
pub(crate) fn playout<S: State, K: Knowledge<S>>(
    state: &mut S,
    knowledge: &mut K,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<S::Action>,
    depth: Option<u32>,
    mut played: Option<&mut Vec<(u8, S::Action)>>,
) -> Rewards {
    let mut n = 0u32;
    loop {
        let Some(player) = state.to_move() else {
            return knowledge.terminal_rewards(state);
        };
        if depth.is_some_and(|d| n >= d) {
            if let Some(r) = knowledge.evaluate(state) {
                return r;
            }
        }
        match knowledge.playout_action(state, rng, buf) {
            Some(action) => {
                state.apply(&action);
                if let Some(played) = played.as_deref_mut() {
                    played.push((player as u8, action));
                }
            }
            None => return knowledge.terminal_rewards(state),
        }
        n += 1;
    }
}
