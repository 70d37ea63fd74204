//! Flat Monte Carlo: the root actions take turns getting one playout each; the action with the
//! best mean reward for the player to move wins. (Kingdomino's 2018 IEEE CIG study found it
//! stronger than UCT in that game.)

use rand_chacha::ChaCha8Rng;
use realm_core::State;

use crate::budget::{Budget, Pacer};
use crate::knowledge::{playout, Knowledge};
use crate::mcts::{RootStat, SearchResult};

/// Runs flat Monte Carlo from states drawn by `sample` (for perfect information, a closure
/// that clones the position). Every sample must offer the same root actions. `None` when the
/// root has no legal action.
pub fn flat_monte_carlo<S: State, K: Knowledge<S>>(
    sample: &mut dyn FnMut(&mut ChaCha8Rng) -> S,
    knowledge: &mut K,
    rng: &mut ChaCha8Rng,
    budget: Budget,
    playout_depth: Option<u32>,
) -> Option<SearchResult<S::Action>> {
    let first = sample(rng);
    let player = first.to_move()?;
    let mut actions = Vec::new();
    first.legal_actions(&mut actions);
    if actions.is_empty() {
        return None;
    }
    let mut sums = vec![0.0f32; actions.len()];
    let mut visits = vec![0u32; actions.len()];
    let mut buf = Vec::new();
    let mut iterations = 0u64;
    let mut next_state = Some(first);
    let mut pacer = Pacer::new(budget);
    while !pacer.exhausted(iterations) {
        let i = (iterations % actions.len() as u64) as usize;
        let mut state = match next_state.take() {
            Some(s) => s,
            None => sample(rng),
        };
        state.apply(&actions[i]);
        let rewards = playout(&mut state, knowledge, rng, &mut buf, playout_depth, None);
        sums[i] += rewards[player];
        visits[i] += 1;
        iterations += 1;
    }
    let mut stats: Vec<RootStat<S::Action>> = actions
        .into_iter()
        .zip(sums.iter().zip(&visits))
        .map(|(action, (&sum, &v))| RootStat {
            action,
            visits: v,
            mean: if v == 0 { 0.0 } else { sum / v as f32 },
        })
        .collect();
    stats.sort_by(|a, b| {
        b.mean
            .partial_cmp(&a.mean)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.visits.cmp(&a.visits))
    });
    Some(SearchResult {
        best: stats[0].action.clone(),
        iterations,
        stats,
    })
}
