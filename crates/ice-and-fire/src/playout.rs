//! The random player of the benchmark. In each phase it makes `ATTEMPTS_PER_PHASE` attempts,
//! then ends the phase. An attempt picks uniformly one kind of action among those it may have
//! (TRAIN with gold ≥ 10; BUILD in leagues 3–4 with gold ≥ 15; MOVE with an unmoved unit),
//! then uniformly a level it can pay (TRAIN) or a building type of the league (BUILD), then a
//! cell where that action is legal, or one of its unmoved units (MOVE) and uniformly one of the
//! neighbours it may enter. Cells and units are picked as the first candidate at or after a
//! uniformly random bit position (wrapping around), which is cheaper than an exact uniform pick
//! and favours candidates after gaps. An attempt whose last choice has no candidate
//! does nothing. Every action played is legal, and map generation is part of each game.
//! It uses the same R15/R16 masks as `GameState::single_actions`, without listing actions.

use rand_core::RngCore;

use crate::geom::{Bits, Cell, N_SLOTS};
use crate::rules::{Action, BuildingKind, GameState, BUILD_COST, UNIT_COST};
use crate::setup::League;

/// Attempts per phase.
pub const ATTEMPTS_PER_PHASE: usize = 3;

/// Plays one whole random game from `seed` and returns the final state.
pub fn random_game(seed: i64, league: League, rng: &mut impl RngCore) -> GameState {
    let mut state = GameState::new(seed, league);
    while state.ending().is_none() {
        for _ in 0..ATTEMPTS_PER_PHASE {
            if let Some(action) = attempt(&state, rng.next_u64()) {
                state.apply_unchecked(&action);
                if state.ending().is_some() {
                    return state;
                }
            }
        }
        state.end_phase();
    }
    state
}

/// A number below `n` (≤ 2^16) from the low 16 bits of `r`, by multiply and shift rather
/// than a division.
#[inline]
fn below(r: u64, n: u64) -> u64 {
    ((r & 0xFFFF) * n) >> 16
}

/// One attempt of the random player, drawing its choices from the bits of `r`.
pub fn random_attempt(state: &GameState, r: u64) -> Option<Action> {
    if state.ending().is_some() {
        return None;
    }
    attempt(state, r)
}

/// Computes only the masks its choices need, which the state keeps cheap to get.
/// Inlined into `random_game` so that applying the action continues straight from the
/// branch that chose it instead of dispatching on the action again.
#[inline(always)]
fn attempt(state: &GameState, r: u64) -> Option<Action> {
    let p = state.player();
    let gold = state.gold(p);
    let league = state.league();
    let movable = state.all_units(p).minus(state.moved_units());
    // Bit k set: kind k (TRAIN, BUILD, MOVE) is possible. Choices go through small tables
    // rather than branches: the random choices are what branch prediction cannot learn.
    let kinds = (gold >= UNIT_COST[1]) as usize
        | ((league.has_mines() && gold >= BUILD_COST) as usize) << 1
        | (!movable.is_empty() as usize) << 2;
    let n = POP4[kinds];
    if n == 0 {
        return None;
    }
    let pick = |cells: Bits, r: u64| cells.first_from(below(r, N_SLOTS as u64) as usize);
    match NTH_BIT[kinds][below(r, n as u64) as usize] {
        0 => {
            let max_level = (league.top_level() as i32).min(gold / UNIT_COST[1]) as u64;
            let level = 1 + below(r >> 16, max_level) as u8;
            let cells = state.playable_mask(p).and(state.capture_mask(p, level));
            pick(cells, r >> 32).map(|at| Action::Train { level, at })
        }
        1 => {
            let kind = if league.has_towers() && (r >> 16) & 1 == 1 {
                BuildingKind::Tower
            } else {
                BuildingKind::Mine
            };
            let free = state
                .playable_mask(p)
                .and(state.owned(p))
                .minus(state.occupied());
            let spots = state.map().spots();
            let cells = if kind == BuildingKind::Mine {
                free.and(spots)
            } else {
                free.minus(spots)
            };
            pick(cells, r >> 32).map(|at| Action::Build { kind, at })
        }
        _ => {
            let from = pick(movable, r >> 16)?;
            let mask = state.capture_mask(p, state.unit_level(p, from));
            // The enterable neighbours as bits 0–3 in the order up, left, right, down.
            // Indices off the grid are clamped to the last slot, a padding bit the mask
            // never holds, as are the padding bits a step off the grid's side lands on.
            let i = from.idx();
            let mut targets = 0;
            for (k, step) in STEPS.iter().enumerate() {
                let to = i.wrapping_add_signed(*step).min(N_SLOTS - 1);
                targets |= (mask.has(Cell::from_idx(to)) as usize) << k;
            }
            let k = POP4[targets];
            (k > 0).then(|| {
                let dir = NTH_BIT[targets][below(r >> 48, k as u64) as usize];
                let to = i.wrapping_add_signed(STEPS[dir as usize]);
                Action::Move {
                    from,
                    to: Cell::from_idx(to),
                }
            })
        }
    }
}

/// Bit index steps to the neighbours up, left, right and down.
const STEPS: [isize; 4] = [-16, -1, 1, 16];

/// The number of set bits of a 4-bit mask.
const POP4: [u8; 16] = {
    let mut t = [0; 16];
    let mut m = 0;
    while m < 16 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// `NTH_BIT[m][j]`: the position of the `j`-th lowest set bit of the 4-bit mask `m`.
const NTH_BIT: [[u8; 4]; 16] = {
    let mut t = [[0; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut bit, mut j) = (0, 0);
        while bit < 4 {
            if m >> bit & 1 == 1 {
                t[m][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        m += 1;
    }
    t
};
