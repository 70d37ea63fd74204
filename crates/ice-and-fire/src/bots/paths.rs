//! The cheapest TRAIN chain from a player's active territory to the enemy HQ. Entering an
//! owned cell costs nothing; any other cell costs the cheapest unit level that may enter it
//! now (R15). `chain_cost` computes the cost alone on bitboards (Dial's algorithm with one
//! set of cells per cost in tens of gold): every bot asks it several times per position
//! (greedy before training, the search bots' valuations for both sides), so it must be
//! cheap. `cheapest_chain` also finds the cells, cell by cell, for the one phase that plays
//! the chain.

use realm_core::PlayerId;

use crate::geom::{Bits, Cell, ALL, N_SLOTS};
use crate::rules::{CaptureMasks, GameState, HQ, UNIT_COST};

/// No chain exists (the HQ is walled off by cells no affordable level may enter). It is above
/// any gold a player can hold, so `chain_cost(..) <= gold` alone asks "affordable?".
pub const NO_CHAIN: i32 = i32::MAX;

/// The cells `p` enters for 0, 10, 20 and 30 gold, where `free` (owned cells, say) costs
/// nothing.
fn step_sets(state: &GameState, p: PlayerId, free: Bits) -> [Bits; 4] {
    let masks = state.capture_masks(p);
    let own = free;
    let top = state.league().top_level();
    let one = masks.mask(1).minus(own);
    let mut sets = [own, one, Bits::EMPTY, Bits::EMPTY];
    if top >= 2 {
        let two = masks.mask(2).minus(own);
        sets[2] = two.minus(one);
        if top >= 3 {
            sets[3] = masks.mask(3).minus(own).minus(two);
        }
    }
    sets
}

/// The gold the cheapest TRAIN chain of `p` to the enemy HQ costs now, or `NO_CHAIN`.
pub fn chain_cost(state: &GameState, p: PlayerId) -> i32 {
    chain_cost_over(state, p, state.owned(p))
}

/// `chain_cost` where every cell a unit of `p` that may still move could step into is free
/// too. Each unit moves once, so this is a bound from below: what the opponent may need.
pub fn chain_cost_with_steps(state: &GameState, p: PlayerId) -> i32 {
    let stepped = step_targets(state, p, &state.capture_masks(p));
    chain_cost_over(state, p, state.owned(p).or(stepped))
}

/// The cells a unit of `p` that may still move this phase could step into (`masks` are
/// `p`'s capture masks).
pub fn step_targets(state: &GameState, p: PlayerId, masks: &CaptureMasks) -> Bits {
    let mut stepped = Bits::EMPTY;
    for level in 1..=3u8 {
        let units = state.units_of_level(p, level).minus(state.moved_units());
        stepped = stepped.or(units.grow(ALL).and(masks.mask(level)));
    }
    stepped
}

/// `chain_cost` with the cells of `free` entered for nothing.
fn chain_cost_over(state: &GameState, p: PlayerId, free: Bits) -> i32 {
    let sets = step_sets(state, p, free);
    let target = Bits::single(HQ[1 - p]);
    let playable = state.map().playable();
    let mut pending = [state.active(p), Bits::EMPTY, Bits::EMPTY, Bits::EMPTY];
    let mut done = Bits::EMPTY;
    let mut cost = 0;
    // Every ring slot empty means nothing is left to settle.
    while pending.iter().any(|b| !b.is_empty()) {
        let slot = cost % 4;
        let layer = pending[slot].minus(done);
        pending[slot] = Bits::EMPTY;
        if !layer.is_empty() {
            // Owned cells next to the layer cost nothing more.
            let layer = layer.flood(layer.or(sets[0].minus(done)));
            if !layer.and(target).is_empty() {
                return cost as i32 * 10;
            }
            done = done.or(layer);
            let next = layer.grow(playable).minus(done);
            for (step, set) in sets.iter().enumerate().skip(1) {
                let entered = next.and(*set);
                pending[(cost + step) % 4] = pending[(cost + step) % 4].or(entered);
            }
        }
        cost += 1;
    }
    NO_CHAIN
}

/// The cheapest chain of TRAINs from `me`'s active territory to the enemy HQ: (total cost,
/// the trains in playing order). Own cells cost nothing; other cells cost the cheapest level
/// that may enter them now (R15).
pub fn cheapest_chain(state: &GameState, me: PlayerId) -> Option<(i32, Vec<(u8, Cell)>)> {
    let top = state.league().top_level();
    let masks: Vec<Bits> = (1..=top).map(|l| state.capture_mask(me, l)).collect();
    let own = state.owned(me);
    let mut cost = [i32::MAX; N_SLOTS];
    let mut level = [0u8; N_SLOTS];
    let mut prev: [Option<Cell>; N_SLOTS] = [None; N_SLOTS];
    let mut done = Bits::EMPTY;
    for c in state.active(me).iter() {
        cost[c.idx()] = 0;
    }
    let target = HQ[1 - me];
    loop {
        // Dijkstra with a linear scan: 144 cells at most.
        let next = state
            .map()
            .playable()
            .minus(done)
            .iter()
            .filter(|c| cost[c.idx()] != i32::MAX)
            .min_by_key(|c| cost[c.idx()]);
        let cur = next?;
        if cur == target {
            break;
        }
        done.insert(cur);
        for n in state.map().neighbours(cur) {
            let step = if own.has(n) {
                Some((0, 0))
            } else {
                (1..=top)
                    .find(|&l| masks[l as usize - 1].has(n))
                    .map(|l| (UNIT_COST[l as usize], l))
            };
            if let Some((c, l)) = step {
                let total = cost[cur.idx()] + c;
                if total < cost[n.idx()] {
                    cost[n.idx()] = total;
                    level[n.idx()] = l;
                    prev[n.idx()] = Some(cur);
                }
            }
        }
    }
    let mut chain = Vec::new();
    let mut at = Some(target);
    while let Some(c) = at {
        if level[c.idx()] > 0 {
            chain.push((level[c.idx()], c));
        }
        at = prev[c.idx()];
    }
    chain.reverse();
    Some((cost[target.idx()], chain))
}

#[cfg(test)]
mod tests {
    use rand_core::RngCore;

    use super::*;
    use crate::playout::random_attempt;
    use crate::setup::League;

    /// The bitboard search agrees with greedy's cell-by-cell Dijkstra on positions of random
    /// games in every league, for both players.
    #[test]
    fn chain_cost_matches_the_cell_by_cell_dijkstra() {
        let mut rng = realm_core::chacha_rng(11, 0);
        let mut compared = 0;
        for league in 1..=4 {
            for seed in 0..6i64 {
                let mut state = GameState::new(seed * 7 + 1, League::new(league).unwrap());
                while state.ending().is_none() && state.turn() < 60 {
                    for _ in 0..4 {
                        if let Some(a) = random_attempt(&state, rng.next_u64()) {
                            state.apply_unchecked(&a);
                        }
                    }
                    if state.ending().is_some() {
                        break;
                    }
                    for p in 0..2 {
                        let slow = cheapest_chain(&state, p).map_or(NO_CHAIN, |(c, _)| c);
                        assert_eq!(chain_cost(&state, p), slow, "league {league} seed {seed}");
                        compared += 1;
                    }
                    state.end_phase();
                }
            }
        }
        assert!(compared > 500);
    }
}
