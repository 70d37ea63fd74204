//! The candidate lines of one planning step: every legal single action, and the cuts, chains
//! of two or three TRAINs that each enter an enemy cell next to the previous one (each at the
//! cheapest level that may enter it). A single train into enemy land rarely pays for itself;
//! the chain that severs a region does, so the planner must see it whole. A cut may also start
//! with a unit's move into a cell from which the trains can begin (move-then-cut): the public
//! contest bots cut that way most, and a planner that values one line at a time sees neither
//! the move (worth little alone) nor the trains (not legal before it).

use crate::geom::Cell;
use crate::rules::{Action, GameState, UNIT_COST};

/// The most trains of a cut.
const CUT_LENGTH: usize = 3;

/// Every line the planner values at this step; with `move_cuts`, the move-then-cut lines too.
pub fn lines(state: &GameState, move_cuts: bool) -> Vec<Vec<Action>> {
    let mut singles = Vec::new();
    state.single_actions(&mut singles);
    let mut lines: Vec<Vec<Action>> = singles.iter().map(|&a| vec![a]).collect();
    let me = state.player();
    let starts = state.playable_mask(me).and(state.owned(1 - me));
    for at in starts.iter() {
        extend_cut(state, at, &mut Vec::new(), CUT_LENGTH, &mut lines);
    }
    if move_cuts {
        for action in singles {
            let Action::Move { to, .. } = action else {
                continue;
            };
            let mut after = state.clone();
            if after.play(&action).is_err() || after.ending().is_some() {
                continue;
            }
            // Only the enemy cells the move opened: the others are cut without it.
            let opened = after
                .playable_mask(me)
                .and(after.owned(1 - me))
                .minus(starts);
            let mut line = vec![action];
            for at in opened
                .iter()
                .filter(|c| state.map().neighbours(to).any(|n| n == *c))
            {
                extend_cut(&after, at, &mut line, CUT_LENGTH + 1, &mut lines);
            }
        }
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

/// Trains on `at`, records the line so far when it has two actions or more, and goes on into
/// the enemy cells next to `at` while the line has fewer than `longest` actions.
fn extend_cut(
    state: &GameState,
    at: Cell,
    line: &mut Vec<Action>,
    longest: usize,
    out: &mut Vec<Vec<Action>>,
) {
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
    if line.len() < longest {
        let enemy = after.owned(1 - state.player());
        for next in state.map().neighbours(at).filter(|c| enemy.has(*c)) {
            extend_cut(&after, next, line, longest, out);
        }
    }
    line.pop();
}
