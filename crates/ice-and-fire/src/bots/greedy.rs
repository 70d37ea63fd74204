//! `greedy`: a one-phase planner on the model of the position.
//! 1. If the cheapest chain of TRAINs from its active territory to the enemy HQ (Dijkstra over
//!    the R15 training costs, own cells free) is affordable, it plays that chain and wins.
//! 2. Otherwise it moves every unit one step, preferring captures (HQ, units, mines, enemy
//!    cells, neutral cells) and then cells closer to the enemy HQ, and checks the chain again.
//! 3. It builds a mine on a free active spot, and a tower on a free cell that touches enemy
//!    territory near its HQ side, when it can afford them.
//! 4. It trains level-1 units on the frontier cells closest to the enemy HQ (level 2 or 3 to
//!    kill an adjacent enemy unit) while its income stays positive, unless it is saving for a
//!    chain it can afford next phase.

use realm_core::{Bot, BotError, Input, PlayerId};

use super::paths::{chain_cost, cheapest_chain};
use super::Tracker;
use crate::geom::{Bits, Cell};
use crate::rules::{Action, BuildingKind, GameState, HQ, UNIT_COST};
use crate::setup::UNREACHABLE;

pub struct GreedyBot {
    pub(super) tracker: Tracker,
}

impl GreedyBot {
    /// A greedy bot playing in `league` (`None`: league 4).
    pub fn new(league: Option<u32>) -> GreedyBot {
        GreedyBot {
            tracker: Tracker::new(league),
        }
    }
}

impl Bot for GreedyBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let (mut state, _) = self.tracker.read(input)?;
        Ok(vec![greedy_answer(&mut state)])
    }
}

/// Greedy's answer line for the phase of `state` (which it plays on, as the plan goes).
pub fn greedy_answer(state: &mut GameState) -> String {
    let mut plan = Plan {
        pieces: Vec::new(),
        record: true,
    };
    plan.run(state);
    if plan.pieces.is_empty() {
        plan.pieces.push("WAIT".to_string());
    }
    plan.pieces.join(";")
}

/// Greedy's phase played on `state` without writing its text (what search rollouts use).
pub fn greedy_play(state: &mut GameState) {
    Plan {
        pieces: Vec::new(),
        record: false,
    }
    .run(state);
}

/// The cell of `cells` closest to the enemy HQ (lowest index on ties).
fn best_by_distance(state: &GameState, cells: Bits) -> Option<Cell> {
    let dist = state.map().dist_to(HQ[1 - state.player()]);
    cells.iter().min_by_key(|c| dist[c.idx()])
}

struct Plan {
    pieces: Vec<String>,
    /// Whether the commands' text is written (the answer needs it; a rollout does not).
    record: bool,
}

impl Plan {
    fn run(&mut self, state: &mut GameState) {
        if !self.try_chain(state) {
            self.moves(state);
            if !self.try_chain(state) {
                self.builds(state);
                self.trains(state);
            }
        }
    }

    /// Plays `action` on the model and records its text when it succeeds.
    fn play(&mut self, state: &mut GameState, action: Action) -> bool {
        let text = self.record.then(|| state.command(&action));
        let ok = state.play(&action).is_ok();
        if ok {
            self.pieces.extend(text);
        }
        ok
    }

    /// Plays the cheapest TRAIN chain to the enemy HQ if it is affordable now.
    fn try_chain(&mut self, state: &mut GameState) -> bool {
        let me = state.player();
        // The cost alone (bitboards) decides; the cell-by-cell search only finds the path.
        if chain_cost(state, me) > state.gold(me) {
            return false;
        }
        let Some((_, chain)) = cheapest_chain(state, me) else {
            return false;
        };
        let mut trial = state.clone();
        let mut texts = Vec::new();
        for &(level, at) in &chain {
            let action = Action::Train { level, at };
            if self.record {
                texts.push(trial.command(&action));
            }
            if trial.play(&action).is_err() {
                return false;
            }
        }
        *state = trial;
        self.pieces.extend(texts);
        true
    }

    fn moves(&mut self, state: &mut GameState) {
        let me = state.player();
        let target = HQ[1 - me];
        let dist = *state.map().dist_to(target);
        let mut units = state.units(me);
        units.sort_by_key(|u| (dist[u.cell.idx()], u.id));
        for unit in units {
            let mask = state.capture_mask(me, unit.level);
            let here = dist[unit.cell.idx()];
            let best = unit
                .cell
                .around()
                .into_iter()
                .flatten()
                .filter(|c| mask.has(*c) && dist[c.idx()] != UNREACHABLE)
                .map(|c| (capture_value(state, me, c) * 64 - dist[c.idx()] as i32, c))
                .max_by_key(|&(score, c)| (score, std::cmp::Reverse(c)));
            if let Some((_, to)) = best {
                if capture_value(state, me, to) > 0 || dist[to.idx()] < here {
                    self.play(
                        state,
                        Action::Move {
                            from: unit.cell,
                            to,
                        },
                    );
                }
            }
        }
    }

    /// Builds at most one mine and one tower, as far as the league has them.
    fn builds(&mut self, state: &mut GameState) {
        let me = state.player();
        let league = state.league();
        if !league.has_mines() {
            return;
        }
        let free = state.active(me).minus(state.occupied());
        if state.turn() < 70 && state.income(me) > 0 {
            if let Some(at) = free.and(state.map().spots()).first() {
                self.play(
                    state,
                    Action::Build {
                        kind: BuildingKind::Mine,
                        at,
                    },
                );
            }
        }
        if !league.has_towers() || state.gold(me) < 15 + UNIT_COST[1] {
            return;
        }
        let enemy = state.owned(1 - me);
        let free = state
            .active(me)
            .minus(state.occupied())
            .minus(state.map().spots());
        let towers = state.towers(me);
        let exposed = free
            .and(enemy.grow(crate::geom::ALL))
            .minus(towers.grow(crate::geom::ALL).grow(crate::geom::ALL));
        let own_hq = state.map().dist_to(HQ[me]);
        if let Some(at) = exposed.iter().min_by_key(|c| own_hq[c.idx()]) {
            self.play(
                state,
                Action::Build {
                    kind: BuildingKind::Tower,
                    at,
                },
            );
        }
    }

    fn trains(&mut self, state: &mut GameState) {
        let me = state.player();
        let cost = chain_cost(state, me);
        if cost <= state.gold(me) + state.income(me).max(0) && cost > state.gold(me) {
            return; // Saving for next phase's winning chain.
        }
        // Kills of adjacent enemy units with the cheapest level that can do it.
        let enemy_units = state.all_units(1 - me);
        for target in enemy_units.and(state.playable_mask(me)).iter() {
            for level in 2..=state.league().top_level() {
                if state.capturable(target, me, level) && self.affordable(state, level) {
                    self.play(state, Action::Train { level, at: target });
                    break;
                }
            }
        }
        while self.affordable(state, 1) {
            let frontier = state
                .playable_mask(me)
                .and(state.capture_mask(me, 1))
                .minus(state.owned(me));
            let Some(at) = best_by_distance(state, frontier) else {
                break;
            };
            if !self.play(state, Action::Train { level: 1, at }) {
                break;
            }
        }
    }

    /// True when a level-`level` unit can be paid now and its upkeep keeps income positive.
    fn affordable(&self, state: &GameState, level: u8) -> bool {
        let me = state.player();
        let upkeep = crate::rules::UNIT_UPKEEP[level as usize];
        state.gold(me) >= UNIT_COST[level as usize] && state.income(me) + 1 - upkeep > 0
    }
}

/// How attractive entering `cell` is for `me`: the enemy HQ first, then units, mines, enemy
/// cells and neutral cells; 0 for own cells.
fn capture_value(state: &GameState, me: PlayerId, cell: Cell) -> i32 {
    match state.owner(cell) {
        Some(o) if o == me => 0,
        None => 1,
        Some(_) => {
            if cell == HQ[1 - me] {
                100
            } else if state.unit_at(cell).is_some() {
                4
            } else if state.building_at(cell).is_some() {
                3
            } else {
                2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::League;

    /// The rollouts' silent plan plays exactly what the answer's plan plays, phase after phase
    /// of greedy against itself in every league.
    #[test]
    fn the_silent_plan_plays_the_answer_plan() {
        for league in 1..=4 {
            let mut state = GameState::new(11 + i64::from(league), League::new(league).unwrap());
            for _ in 0..60 {
                let (mut answered, mut played) = (state.clone(), state.clone());
                let line = greedy_answer(&mut answered);
                greedy_play(&mut played);
                assert_eq!(format!("{answered:?}"), format!("{played:?}"), "`{line}`");
                state = answered;
                state.end_phase();
                if state.ending().is_some() {
                    break;
                }
            }
        }
    }
}
