//! A learned move prior: each placement's features (its shape, the opponents' anchors it
//! takes, the own anchors it opens and what they are worth, the cells it gives up) weighted
//! by a log-linear model fitted to strong play (`examples/prior_data.rs` writes the features,
//! `tools/fit_blocking_prior.py` fits the weights). The search orders new children by it.

use crate::rules::{Placement, Position, Rows, OFF, ROWS};
use crate::shapes::N_LETTERS;

/// Letters first (one-hot, 21), then the counts named in `COUNT_NAMES`: cells of the
/// placement on opponents' anchors and next to them, on own anchors, reachable by an
/// opponent; its edge neighbours by kind (opponent colour, already forbidden, own anchors
/// lost, cells newly forbidden, of them those an opponent can reach); its corner neighbours
/// by kind (own anchors already, dead), new own anchors by how many of their neighbours stay
/// open, new anchors an opponent also has; and, in the first four rounds, its cells and its
/// cells in the centre.
pub const N_FEATURES: usize = N_LETTERS + COUNT_NAMES.len();

/// The counts after the letters, in the order of the feature rows and of `WEIGHTS`.
pub const COUNT_NAMES: [&str; 17] = [
    "on_opp_anchor",
    "next_to_opp_anchor",
    "on_own_anchor",
    "opp_reachable",
    "edge_opp_colour",
    "edge_forbidden",
    "edge_own_anchor",
    "edge_newly_forbidden",
    "edge_opp_reachable",
    "diag_own_anchor",
    "diag_dead",
    "new_anchor_0",
    "new_anchor_1",
    "new_anchor_2",
    "new_anchor_contested",
    "early_cells",
    "early_center",
];

/// Fitted by `tools/fit_blocking_prior.py` (see the module comment).
#[rustfmt::skip]
pub const WEIGHTS: [f32; N_FEATURES] = [
    -2.6123, -2.3953, -1.9190, -2.3921, -0.6137, -1.1997, -1.4075, -0.8957, -1.1670, 2.1731, 1.5906,
    1.2623, -0.0240, 1.0215, 0.6619, 1.6342, 1.0630, 0.9822, 1.5738, 0.5206, 2.1430, 1.5829, 1.1140,
    0.3273, 0.0165, 0.1315, 0.1907, -1.7124, -0.8633, 0.0326, 0.1892, -0.1271, -0.1011, 0.8728,
    1.0738, 0.0345, 2.8553, 0.3501,
];

/// What every placement of one position is measured against, computed once per position.
pub struct PriorContext {
    col: u32,
    own_free: Rows,
    own_anchor: Rows,
    opp_anchor: Rows,
    opp_anchor_near: Rows,
    opp_free: Rows,
    opp_colour: Rows,
    center: Rows,
    early: bool,
}

impl PriorContext {
    /// The context of the player to move (`None` at the end of the game).
    pub fn new(state: &Position) -> Option<PriorContext> {
        let p = state.current()?;
        let n = state.size();
        let col = (1u32 << n) - 1;
        let mut ctx = PriorContext {
            col,
            own_free: *state.free_plane(p),
            own_anchor: *state.anchors(p),
            opp_anchor: [0; ROWS],
            opp_anchor_near: [0; ROWS],
            opp_free: [0; ROWS],
            opp_colour: [0; ROWS],
            center: [0; ROWS],
            early: state.n_placements() < 4 * state.player_count(),
        };
        for q in (0..state.player_count()).filter(|&q| q != p) {
            let (anchor, free, colour) = (state.anchors(q), state.free_plane(q), state.colour(q));
            for i in 0..ROWS {
                ctx.opp_anchor[i] |= anchor[i];
                ctx.opp_free[i] |= free[i];
                ctx.opp_colour[i] |= colour[i];
            }
            for i in OFF..OFF + n {
                let near = anchor[i] << 1 | anchor[i] >> 1 | anchor[i - 1] | anchor[i + 1];
                ctx.opp_anchor_near[i] |= near & col & free[i] & !anchor[i];
            }
        }
        // The central square of half the board's width.
        let (lo, hi) = (n / 4, n - 1 - n / 4);
        let centre_row = col & !((1u32 << lo) - 1) & ((1u32 << (hi + 1)) - 1);
        for row in ctx.center.iter_mut().skip(OFF + lo).take(hi - lo + 1) {
            *row = centre_row;
        }
        Some(ctx)
    }

    /// The features of `mv` (a legal placement of the player to move) into `out`.
    pub fn features(&self, mv: Placement, out: &mut [u8; N_FEATURES]) {
        out.fill(0);
        self.visit(mv, |k, n| out[k] += n as u8);
    }

    /// The prior's log-weight of `mv`: higher is likelier to be the best move.
    pub fn score(&self, mv: Placement) -> f32 {
        let mut counts = [0u32; N_FEATURES];
        self.visit(mv, |k, n| counts[k] += n);
        counts
            .iter()
            .zip(WEIGHTS.iter())
            .map(|(&n, &w)| n as f32 * w)
            .sum()
    }

    /// Calls `add(feature, count)` for each feature of `mv` (a feature may come several
    /// times; its value is the sum). One walk for both `features` and `score`, inlined into
    /// each.
    #[inline(always)]
    fn visit(&self, mv: Placement, mut add: impl FnMut(usize, u32)) {
        let o = mv.shape();
        add(o.letter as usize, 1);
        let mut c = |k: usize, n: u32| add(N_LETTERS + k, n);
        let x = mv.x as u32;
        let y = mv.y as usize;
        let count = |v: u32| v.count_ones();
        // Window rows: array indices y .. y + h + 2 (board rows y - 1 .. y + h), as the halo.
        let mut cells = [0u32; 7];
        let mut edges = [0u32; 7];
        for r in 0..o.h as usize + 2 {
            edges[r] = ((o.edge[r] as u64) << x >> 1) as u32 & self.col;
            if r >= 1 && r <= o.h as usize {
                cells[r] = o.rows[r - 1] << x;
            }
        }
        for r in 0..o.h as usize + 2 {
            let i = y + r;
            let m = cells[r];
            c(0, count(m & self.opp_anchor[i]));
            c(1, count(m & self.opp_anchor_near[i]));
            c(2, count(m & self.own_anchor[i]));
            c(3, count(m & self.opp_free[i]));
            let e = edges[r];
            c(4, count(e & self.opp_colour[i]));
            c(5, count(e & !self.own_free[i] & !self.opp_colour[i]));
            c(6, count(e & self.own_anchor[i]));
            c(7, count(e & self.own_free[i] & !self.own_anchor[i]));
            c(8, count(e & self.own_free[i] & self.opp_free[i]));
            let d = ((o.diag[r] as u64) << x >> 1) as u32 & self.col & !e;
            c(9, count(d & self.own_anchor[i]));
            c(10, count(d & !self.own_free[i]));
            let mut new = d & self.own_free[i] & !self.own_anchor[i];
            c(14, count(new & self.opp_anchor[i]));
            while new != 0 {
                let bit = new & new.wrapping_neg();
                new ^= bit;
                let open = |k: usize, row: u32| {
                    let window = if k >= y && k < y + o.h as usize + 2 {
                        cells[k - y] | edges[k - y]
                    } else {
                        0
                    };
                    row & self.own_free[k] & !window
                };
                let side = open(i, bit << 1 | bit >> 1);
                // Two of a corner cell's four neighbours touch the placement: 0..=2 stay open.
                let neighbours = count(side) + count(open(i - 1, bit)) + count(open(i + 1, bit));
                c(11 + neighbours.min(2) as usize, 1);
            }
            if self.early {
                c(15, count(m));
                c(16, count(m & self.center[i]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Variant};
    use realm_core::State;

    fn anchors_of(pos: &Position, p: usize) -> Vec<(usize, usize)> {
        let n = pos.size();
        (0..n)
            .flat_map(|y| (0..n).map(move |x| (x, y)))
            .filter(|&(x, y)| pos.is_anchor(p, x, y))
            .collect()
    }

    /// The features agree with the engine: the anchors a placement covers, loses and opens
    /// are the ones playing it covers, loses and opens.
    #[test]
    fn features_count_what_the_placement_does_on_the_board() {
        for (variant, players, seed) in [(Variant::Duo, 2, 1), (Variant::Blocking, 4, 3)] {
            let mut pos = Position::new(&Config::new(variant, players, seed));
            let mut rng = realm_core::chacha_rng(seed, 0);
            let (mut buf, mut f) = (Vec::new(), [0u8; N_FEATURES]);
            for _ in 0..10 {
                let p = pos.current().unwrap();
                let ctx = PriorContext::new(&pos).unwrap();
                let before = anchors_of(&pos, p);
                pos.legal_actions(&mut buf);
                for &mv in &buf {
                    ctx.features(mv, &mut f);
                    let c = &f[N_LETTERS..];
                    assert_eq!(f[..N_LETTERS].iter().map(|&v| v as usize).sum::<usize>(), 1);
                    assert_eq!(f[mv.letter()], 1);
                    let cells: Vec<_> = mv.cells().collect();
                    let opponents = || (0..players).filter(move |&q| q != p);
                    let on_opp = cells
                        .iter()
                        .filter(|&&(x, y)| opponents().any(|q| pos.is_anchor(q, x, y)))
                        .count();
                    assert_eq!(c[0] as usize, on_opp, "{mv:?}");
                    let on_own = cells.iter().filter(|c| before.contains(c)).count();
                    assert_eq!(c[2] as usize, on_own, "{mv:?}");
                    let mut after = pos.clone();
                    after.play(mv);
                    let now = anchors_of(&after, p);
                    let opened = now.iter().filter(|a| !before.contains(a)).count();
                    let lost = before.iter().filter(|a| !now.contains(a)).count();
                    assert_eq!(c[11..14].iter().map(|&v| v as usize).sum::<usize>(), opened);
                    assert_eq!(c[2] as usize + c[6] as usize, lost, "{mv:?}");
                }
                let mv = pos.random_action(&mut rng, &mut buf).unwrap();
                pos.play(mv);
            }
        }
    }
}
