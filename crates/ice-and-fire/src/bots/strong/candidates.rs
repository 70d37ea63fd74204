//! The candidate lines of one planning step: every legal single action, and the cuts, chains
//! of two or three TRAINs that each enter an enemy cell next to the previous one (each at the
//! cheapest level that may enter it). A single train into enemy land rarely pays for itself;
//! the chain that severs a region does, so the planner must see it whole.

use crate::geom::Cell;
use crate::rules::{Action, GameState, UNIT_COST};

/// The longest cut tried.
const CUT_LENGTH: usize = 3;

/// Every line the planner values at this step.
pub fn lines(state: &GameState) -> Vec<Vec<Action>> {
    let mut singles = Vec::new();
    state.single_actions(&mut singles);
    let mut lines: Vec<Vec<Action>> = singles.into_iter().map(|a| vec![a]).collect();
    let me = state.player();
    let starts = state.playable_mask(me).and(state.owned(1 - me));
    for at in starts.iter() {
        extend_cut(state, at, &mut Vec::new(), &mut lines);
    }
    lines
}

/// The cheapest level `state`'s player may train on `at` and pay now.
fn cheapest_train(state: &GameState, at: Cell) -> Option<Action> {
    let me = state.player();
    (1..=state.league().top_level())
        .find(|&l| state.capturable(at, me, l))
        .filter(|&l| state.gold(me) >= UNIT_COST[l as usize])
        .map(|level| Action::Train { level, at })
}

/// Trains on `at`, records the chain so far when it has two trains or more, and goes on into
/// the enemy cells next to `at`.
fn extend_cut(state: &GameState, at: Cell, line: &mut Vec<Action>, out: &mut Vec<Vec<Action>>) {
    let Some(train) = cheapest_train(state, at) else {
        return;
    };
    let mut after = state.clone();
    if after.play(&train).is_err() || after.ending().is_some() {
        return;
    }
    line.push(train);
    if line.len() >= 2 {
        out.push(line.clone());
    }
    if line.len() < CUT_LENGTH {
        let enemy = after.owned(1 - state.player());
        for next in state.map().neighbours(at).filter(|c| enemy.has(*c)) {
            extend_cut(&after, next, line, out);
        }
    }
    line.pop();
}
