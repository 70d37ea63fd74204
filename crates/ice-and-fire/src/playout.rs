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
use crate::rules::{Action, BuildingKind, CaptureMasks, GameState, BUILD_COST, UNIT_COST};
use crate::setup::League;

/// Attempts per phase.
pub const ATTEMPTS_PER_PHASE: usize = 3;

/// Plays one whole random game from `seed` and returns the final state.
pub fn random_game(seed: i64, league: League, rng: &mut impl RngCore) -> GameState {
    let mut state = GameState::new(seed, league);
    while state.ending().is_none() {
        // The candidate masks stay valid until an action changes the position: almost half
        // of the attempts find nothing to do.
        let mut candidates = Candidates::new(&state);
        for i in 0..ATTEMPTS_PER_PHASE {
            if let Some(action) = attempt(&state, &candidates, rng.next_u64()) {
                state.apply_unchecked(&action);
                if state.ending().is_some() {
                    return state;
                }
                if i + 1 < ATTEMPTS_PER_PHASE {
                    candidates.refresh(&state);
                }
            }
        }
        state.end_phase();
    }
    state
}

/// What an attempt chooses from, for the player whose phase it is.
struct Candidates {
    masks: CaptureMasks,
    playable: Bits,
    movable: Bits,
}

impl Candidates {
    fn new(state: &GameState) -> Candidates {
        let p = state.player();
        Candidates {
            masks: state.capture_masks(p),
            playable: state.playable_mask(p),
            movable: state.all_units(p).minus(state.moved_units()),
        }
    }

    /// Recomputes in place (cheaper than moving a new value in).
    #[inline]
    fn refresh(&mut self, state: &GameState) {
        let p = state.player();
        self.masks = state.capture_masks(p);
        self.playable = state.playable_mask(p);
        self.movable = state.all_units(p).minus(state.moved_units());
    }
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
    attempt(state, &Candidates::new(state), r)
}

fn attempt(state: &GameState, candidates: &Candidates, r: u64) -> Option<Action> {
    let p = state.player();
    let gold = state.gold(p);
    let league = state.league();
    let movable = candidates.movable;
    let mut kinds = [0u8; 3];
    let mut n = 0;
    for (kind, possible) in [
        gold >= UNIT_COST[1],
        league.has_mines() && gold >= BUILD_COST,
        !movable.is_empty(),
    ]
    .into_iter()
    .enumerate()
    {
        if possible {
            kinds[n] = kind as u8;
            n += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let pick = |cells: Bits, r: u64| cells.first_from(below(r, N_SLOTS as u64) as usize);
    match kinds[below(r, n as u64) as usize] {
        0 => {
            let max_level = (league.top_level() as i32).min(gold / UNIT_COST[1]) as u64;
            let level = 1 + below(r >> 16, max_level) as u8;
            let cells = candidates.playable.and(candidates.masks.mask(level));
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
            let level = (1..=3).find(|&l| state.units_of_level(p, l).has(from))?;
            let mask = candidates.masks.mask(level);
            let mut targets = [from; 4];
            let mut k = 0;
            // Neighbours by index: the mask holds no padding or void bits, so the index of a
            // cell off the grid's side never tests true.
            let i = from.idx();
            for to in [i.wrapping_sub(16), i.wrapping_sub(1), i + 1, i + 16] {
                if to < N_SLOTS && mask.has(Cell::from_idx(to)) {
                    targets[k] = Cell::from_idx(to);
                    k += 1;
                }
            }
            (k > 0).then(|| Action::Move {
                from,
                to: targets[below(r >> 48, k as u64) as usize],
            })
        }
    }
}
