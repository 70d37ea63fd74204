//! The value of a position for the player who has just played its phase: the phase is
//! ended on a copy (so the opponent's income arrives and the units it had cut off die, R12),
//! and both sides are weighed in gold: gold, income over a short horizon, units at a share of
//! their cost, active cells, and how far each side is from a winning TRAIN chain. A chain the
//! opponent can pay on its coming phase is close to a loss.

use realm_core::PlayerId;

use crate::bots::paths::{chain_cost, chain_cost_with_steps, step_targets, NO_CHAIN};
use crate::geom::Bits;
use crate::rules::{Ending, GameState, HQ, MAX_TURNS, MINE_INCOME, UNIT_COST, UNIT_UPKEEP};

/// The weights of the evaluation; `strong:KEY=VALUE` sets them (see `Weights::set`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Turns of income counted (fewer when the game ends sooner).
    pub horizon: f32,
    /// Share of a unit's training cost it is worth on the board.
    pub unit: f32,
    /// Gold per active cell, on top of the cell's income.
    pub cell: f32,
    /// Gold per 10 gold of the opponent's chain cost above its gold (up to `reach`).
    pub threat: f32,
    /// Gold per 10 gold of our chain cost below `reach` above our next gold.
    pub attack: f32,
    /// How far (in gold above the means) a chain still counts.
    pub reach: f32,
    /// What an opponent's affordable chain costs us.
    pub lethal: f32,
    /// Share of the opponent's best single-cell cut (net of its price) counted against us.
    pub exposure: f32,
    /// Gold per active cell that a tower guards against units below level 3.
    pub guard: f32,
    /// Gold per free mine spot inside the active territory (a mine it may still build).
    pub spot: f32,
    /// Gold per turn of difference between the turns each side needs to afford its chain
    /// (its cost above its gold, over its income; at most `MAX_TEMPO`).
    pub tempo: f32,
    /// Gold per 10 gold of difference between the two sides' chain costs: the progress of
    /// each side towards the other's HQ.
    pub progress: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            horizon: 12.0,
            unit: 1.0,
            cell: 20.0,
            threat: 12.0,
            attack: 4.0,
            reach: 60.0,
            lethal: 2000.0,
            progress: 1.0,
            exposure: 0.8,
            guard: 0.5,
            spot: 2.0,
            tempo: 2.0,
        }
    }
}

impl Weights {
    /// Sets one weight by its key; `false` for an unknown key.
    pub fn set(&mut self, key: &str, value: f32) -> bool {
        let slot = match key {
            "horizon" => &mut self.horizon,
            "unit" => &mut self.unit,
            "cell" => &mut self.cell,
            "threat" => &mut self.threat,
            "attack" => &mut self.attack,
            "reach" => &mut self.reach,
            "lethal" => &mut self.lethal,
            "progress" => &mut self.progress,
            "exposure" => &mut self.exposure,
            "guard" => &mut self.guard,
            "spot" => &mut self.spot,
            "tempo" => &mut self.tempo,
            _ => return false,
        };
        *slot = value;
        true
    }
}

/// What a won (or lost) position is worth: above anything the weights can add up to.
const DECIDED: f32 = 1.0e7;
/// The most turns `tempo` counts for one side.
const MAX_TEMPO: f32 = 10.0;
/// The chain cost beyond which progress no longer counts.
const MAX_PROGRESS: i32 = 400;

/// The value for `me` of `state`, where `me` is still in (or has just finished) its phase.
pub fn evaluate(state: &GameState, me: PlayerId, w: &Weights) -> f32 {
    let opp = 1 - me;
    let mut next = state.clone();
    next.end_phase();
    match next.ending() {
        Some(Ending::HqCaptured { loser }) => {
            return if loser == opp { DECIDED } else { -DECIDED };
        }
        Some(Ending::TurnLimit) => {
            let diff = next.military_power(me) - next.military_power(opp);
            return DECIDED * (diff.signum() as f32) + diff as f32;
        }
        None => {}
    }
    // `next` is at the start of the opponent's phase: its gold already holds its income.
    let opp_gold = next.gold(opp);
    let my_next_gold = next.gold(me) + next.income(me);
    let turns_left = (MAX_TURNS + 1).saturating_sub(next.turn()) as f32;
    let horizon = w.horizon.min(turns_left);
    let side = |p: PlayerId, gold: i32| {
        // R32's military power is gold plus the training cost of the units on the board.
        let units = next.military_power(p) - i64::from(next.gold(p));
        gold as f32
            + horizon * next.income(p) as f32
            + w.unit * units as f32
            + w.cell * next.active(p).count() as f32
            + w.guard * next.guarded(p).and(next.active(p)).count() as f32
            + w.spot * free_spots(&next, p) as f32
    };
    let mut value = side(me, next.gold(me)) - side(opp, opp_gold - next.income(opp));

    value -= w.exposure * best_cut(&next, opp, horizon, w).max(0.0);

    let opp_cost = chain_cost_with_steps(&next, opp);
    let my_cost = chain_cost(&next, me);
    // Costs above a whole board of level-1 trains mean no chain.
    let capped = |cost: i32| cost.min(MAX_PROGRESS) as f32;
    value += w.progress * (capped(opp_cost) - capped(my_cost)) / 10.0;
    if opp_cost != NO_CHAIN {
        let margin = (opp_cost - opp_gold) as f32;
        if margin <= 0.0 {
            value -= w.lethal + 10.0 * margin.min(0.0).abs().min(100.0);
        } else {
            value -= w.threat * (w.reach - margin).max(0.0) / 10.0;
        }
    }
    if my_cost != NO_CHAIN {
        let margin = (my_cost - my_next_gold) as f32;
        value += w.attack * (w.reach - margin.max(0.0)).max(0.0) / 10.0;
    }
    value += w.tempo
        * (turns_to_afford(opp_cost, opp_gold, next.income(opp))
            - turns_to_afford(my_cost, my_next_gold, next.income(me)));
    value
}

/// The turns of income a side needs before it can pay `cost` with `gold` now, at most
/// `MAX_TEMPO` (also for no chain or no income).
fn turns_to_afford(cost: i32, gold: i32, income: i32) -> f32 {
    if cost == NO_CHAIN {
        return MAX_TEMPO;
    }
    let missing = (cost - gold).max(0) as f32;
    if missing == 0.0 {
        0.0
    } else if income <= 0 {
        MAX_TEMPO
    } else {
        (missing / income as f32).ceil().min(MAX_TEMPO)
    }
}

/// Mine spots in the active territory of `p` with nothing on them.
fn free_spots(state: &GameState, p: PlayerId) -> u32 {
    state
        .map()
        .spots()
        .and(state.active(p))
        .minus(state.occupied())
        .count()
}

/// What `p` gains, in gold net of the price, with the best capture of a single cell of the
/// other side's active territory in its phase of `state`: a unit stepping in (free) or the
/// cheapest train it can pay. Losing the cell also loses everything it linked to the HQ.
fn best_cut(state: &GameState, p: PlayerId, horizon: f32, w: &Weights) -> f32 {
    let q = 1 - p;
    let target = state.active(q).minus(Bits::single(HQ[q]));
    let masks = state.capture_masks(p);
    let stepped = step_targets(state, p, &masks);
    let playable = state.playable_mask(p);
    let gold = state.gold(p);
    let mut best = f32::MIN;
    for cell in target.and(playable.or(stepped)).iter() {
        let price = if stepped.has(cell) {
            0
        } else {
            match (1..=state.league().top_level())
                .find(|&l| masks.mask(l).has(cell) && gold >= UNIT_COST[l as usize])
            {
                Some(l) => UNIT_COST[l as usize],
                None => continue,
            }
        };
        let kept = Bits::single(HQ[q]).flood(state.owned(q).minus(Bits::single(cell)));
        let lost = state.active(q).minus(kept);
        let gain = region_value(state, q, lost, horizon, w) - price as f32;
        best = best.max(gain);
    }
    best
}

/// What the active cells `region` of `q` are worth to `q`: cells, their income over the
/// horizon, and the units on them.
fn region_value(state: &GameState, q: PlayerId, region: Bits, horizon: f32, w: &Weights) -> f32 {
    let mut income =
        region.count() as i32 + MINE_INCOME * state.mines(q).and(region).count() as i32;
    let mut units = 0;
    for level in 1..=3u8 {
        let n = state.units_of_level(q, level).and(region).count() as i32;
        income -= n * UNIT_UPKEEP[level as usize];
        units += n * UNIT_COST[level as usize];
    }
    w.cell * region.count() as f32 + horizon * income as f32 + w.unit * units as f32
}
