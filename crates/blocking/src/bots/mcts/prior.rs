//! A learned move prior: each placement's features (its shape, the opponents' anchors it
//! takes, the own anchors it opens and what they are worth, the cells it gives up) weighted
//! by a log-linear model fitted to strong play (`examples/prior_data.rs` writes the features,
//! `tools/fit_blocking_prior.py` fits the weights). The search orders new children by it.

use super::CLASSIC_SIDE;
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

/// Fitted by `tools/fit_blocking_prior.py` on Blokus Duo games (see the module comment).
#[rustfmt::skip]
pub const WEIGHTS: [f32; N_FEATURES] = [
    -2.6123, -2.3953, -1.9190, -2.3921, -0.6137, -1.1997, -1.4075, -0.8957, -1.1670, 2.1731, 1.5906,
    1.2623, -0.0240, 1.0215, 0.6619, 1.6342, 1.0630, 0.9822, 1.5738, 0.5206, 2.1430, 1.5829, 1.1140,
    0.3273, 0.0165, 0.1315, 0.1907, -1.7124, -0.8633, 0.0326, 0.1892, -0.1271, -0.1011, 0.8728,
    1.0738, 0.0345, 2.8553, 0.3501,
];

/// Fitted by `tools/fit_blocking_prior.py` on Blokus Classic games (see `STRENGTH.md`).
#[rustfmt::skip]
pub const CLASSIC_WEIGHTS: [f32; N_FEATURES] = [
    1.3354, 0.0169, -0.8990, -1.0893, -0.3904, -1.3378, -0.8430, -0.4954, -0.6882, 1.4740, 0.5998,
    0.1967, -1.4190, -0.3160, -0.7922, 2.2927, 0.0074, 0.5821, 2.6532, -1.2201, 0.3320, 0.8253,
    0.9457, 0.4224, 1.3581, 0.3790, 0.3781, -1.2020, -0.1820, -0.3099, -0.3093, -0.4498, -0.4325,
    0.4981, 1.0050, -0.2555, 2.5222, 0.8450,
];

/// The weights of a board of side `n`: Classic's on the 20 × 20 board, Duo's otherwise (the
/// 13 × 13 Blocking board's games are as short and as close).
fn weights_for(n: usize) -> &'static [f32; N_FEATURES] {
    if n >= CLASSIC_SIDE {
        &CLASSIC_WEIGHTS
    } else {
        &WEIGHTS
    }
}

/// What every placement of one position is measured against, computed once per position.
pub struct PriorContext {
    /// The board's weights: `WEIGHTS`, or `CLASSIC_WEIGHTS` on the 20 × 20 board.
    weights: &'static [f32; N_FEATURES],
    col: u32,
    own_free: Rows,
    own_anchor: Rows,
    opp_anchor: Rows,
    opp_anchor_near: Rows,
    opp_free: Rows,
    opp_colour: Rows,
    center: Rows,
    early: bool,
    /// The weights per board cell that `score` sums (see `Grids`), built on its first call.
    grids: std::cell::OnceCell<Box<Grids>>,
}

/// Width of a `Grids` row (and their number): a board row with room for a placement's halo
/// and the halo's neighbours on both sides, on the widest board.
const GRID: usize = 32;

/// Per cell (index `(i + 1) * GRID + x + 2` for the planes' row `i` and board column `x`),
/// what the features weigh there: for a square of the placement (`cell`), an edge neighbour
/// (`edge`) and a diagonal-only neighbour (`diag`), whether a diagonal neighbour there becomes
/// a new anchor (`new`) and whether the cell is free for the player to move (`free`). A score
/// is then a sum of lookups along the orientation's `Footprint`.
struct Grids {
    cell: [f32; GRID * GRID],
    edge: [f32; GRID * GRID],
    diag: [f32; GRID * GRID],
    new: [bool; GRID * GRID],
    free: [bool; GRID * GRID],
}

/// An orientation's cells, edge and diagonal-only neighbours as offsets from the grid index
/// of its halo's top-left cell, and for each diagonal neighbour the offsets of its own
/// neighbours outside the placement and its edge neighbours (those that may stay open).
struct Footprint {
    cells: Vec<u16>,
    edges: Vec<u16>,
    diags: Vec<(u16, Vec<u16>)>,
}

fn footprints() -> &'static [Footprint] {
    static FOOTPRINTS: std::sync::OnceLock<Vec<Footprint>> = std::sync::OnceLock::new();
    FOOTPRINTS.get_or_init(|| {
        crate::shapes::tables()
            .orients
            .iter()
            .map(|o| {
                // Halo coordinates (c, r): the shape's square (dx, dy) is (dx + 1, dy + 1).
                // Offsets are from the grid cell up and left of the halo's top-left one, so
                // that the neighbours of the halo's cells have offsets too.
                let at = |c: isize, r: isize| ((r + 1) * GRID as isize + c + 1) as u16;
                let bits = |rows: &[u32], shift: isize| {
                    let mut out = Vec::new();
                    for (r, &row) in rows.iter().enumerate() {
                        for c in 0..GRID as isize - 1 {
                            if row >> c & 1 == 1 {
                                out.push((c + shift, r as isize + shift));
                            }
                        }
                    }
                    out
                };
                let cells = bits(&o.rows[..o.h as usize], 1);
                let edges = bits(&o.edge, 0);
                let window =
                    |c: isize, r: isize| cells.contains(&(c, r)) || edges.contains(&(c, r));
                let diags = bits(&o.diag, 0)
                    .into_iter()
                    .map(|(c, r)| {
                        let around = [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)];
                        let open = around
                            .into_iter()
                            .filter(|&(c, r)| !window(c, r))
                            .map(|(c, r)| at(c, r))
                            .collect();
                        (at(c, r), open)
                    })
                    .collect();
                Footprint {
                    cells: cells.iter().map(|&(c, r)| at(c, r)).collect(),
                    edges: edges.iter().map(|&(c, r)| at(c, r)).collect(),
                    diags,
                }
            })
            .collect()
    })
}

impl PriorContext {
    /// The context of the player to move (`None` at the end of the game).
    pub fn new(state: &Position) -> Option<PriorContext> {
        let p = state.current()?;
        let n = state.size();
        let col = (1u32 << n) - 1;
        let mut ctx = PriorContext {
            weights: weights_for(n),
            col,
            own_free: *state.free_plane(p),
            own_anchor: *state.anchors(p),
            opp_anchor: [0; ROWS],
            opp_anchor_near: [0; ROWS],
            opp_free: [0; ROWS],
            opp_colour: [0; ROWS],
            center: [0; ROWS],
            early: state.n_placements() < 4 * state.player_count(),
            grids: std::cell::OnceCell::new(),
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

    /// The prior's log-weight of `mv`: higher is likelier to be the best move. The same sum
    /// as the features' weighted by `WEIGHTS` (up to rounding), as lookups in per-cell weights.
    pub fn score(&self, mv: Placement) -> f32 {
        let g = self.grids.get_or_init(|| self.grids());
        let o = mv.shape();
        let f = &footprints()[mv.orient as usize];
        // The cell up and left of the halo's top-left one (planes' row y - 1, board column
        // x - 2), where the footprint's offsets start.
        let base = mv.y as usize * GRID + mv.x as usize;
        let mut score = self.weights[o.letter as usize];
        for &k in &f.cells {
            score += g.cell[base + k as usize];
        }
        for &k in &f.edges {
            score += g.edge[base + k as usize];
        }
        let new_anchor = &self.weights[N_LETTERS + 11..N_LETTERS + 14];
        for (k, around) in &f.diags {
            let at = base + *k as usize;
            score += g.diag[at];
            if g.new[at] {
                let open = around
                    .iter()
                    .filter(|&&n| g.free[base + n as usize])
                    .count();
                score += new_anchor[open.min(2)];
            }
        }
        score
    }

    /// `score` without the per-cell weights, row by row as `features` counts: cheaper than
    /// building the weights when only a few placements are scored in this position.
    pub fn score_rows(&self, mv: Placement) -> f32 {
        // The letter apart, every feature index is a constant once `visit` is inlined, so the
        // counts stay in registers.
        let mut letter = 0;
        let mut counts = [0u32; COUNT_NAMES.len()];
        self.visit(mv, |k, n| match k.checked_sub(N_LETTERS) {
            None => letter = k,
            Some(c) => counts[c] += n,
        });
        let weights = &self.weights[N_LETTERS..];
        self.weights[letter]
            + counts
                .iter()
                .zip(weights)
                .map(|(&n, &w)| n as f32 * w)
                .sum::<f32>()
    }

    /// The per-cell weights of `score`, from the same planes and formulas as `visit`.
    fn grids(&self) -> Box<Grids> {
        let mut g = Box::new(Grids {
            cell: [0.0; GRID * GRID],
            edge: [0.0; GRID * GRID],
            diag: [0.0; GRID * GRID],
            new: [false; GRID * GRID],
            free: [false; GRID * GRID],
        });
        let w = |k: usize| self.weights[N_LETTERS + k];
        let on = |plane: &Rows, i: usize, x: usize| plane[i] >> x & 1 == 1;
        let n = self.col.count_ones() as usize;
        // Every row a halo reaches (the planes' rows 0..n + 2), the board's columns only: the
        // features count a halo row off the board but never a column off it.
        for i in 0..n + 2 {
            for x in 0..n {
                let at = (i + 1) * GRID + x + 2;
                let own_free = on(&self.own_free, i, x);
                let own_anchor = on(&self.own_anchor, i, x);
                let opp_anchor = on(&self.opp_anchor, i, x);
                let opp_free = on(&self.opp_free, i, x);
                let opp_colour = on(&self.opp_colour, i, x);
                let b = |v: bool| v as u32 as f32;
                let mut cell = w(0) * b(opp_anchor)
                    + w(1) * b(on(&self.opp_anchor_near, i, x))
                    + w(2) * b(own_anchor)
                    + w(3) * b(opp_free);
                if self.early {
                    cell += w(15) + w(16) * b(on(&self.center, i, x));
                }
                g.cell[at] = cell;
                g.edge[at] = w(4) * b(opp_colour)
                    + w(5) * b(!own_free && !opp_colour)
                    + w(6) * b(own_anchor)
                    + w(7) * b(own_free && !own_anchor)
                    + w(8) * b(own_free && opp_free);
                let new = own_free && !own_anchor;
                g.diag[at] =
                    w(9) * b(own_anchor) + w(10) * b(!own_free) + w(14) * b(new && opp_anchor);
                g.new[at] = new;
                g.free[at] = own_free;
            }
        }
        g
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
                // Three constant indices rather than one computed (see `score`).
                c(11, (neighbours == 0) as u32);
                c(12, (neighbours == 1) as u32);
                c(13, (neighbours >= 2) as u32);
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

    /// `score` (lookups in per-cell weights) and `score_rows` are the features' weighted sum, for every legal
    /// placement through whole games on the three boards, the opening included.
    #[test]
    fn score_is_the_weighted_sum_of_the_features() {
        for (variant, players, seed) in [
            (Variant::Duo, 2, 1),
            (Variant::Classic, 4, 2),
            (Variant::Blocking, 3, 3),
        ] {
            let mut pos = Position::new(&Config::new(variant, players, seed));
            let mut rng = realm_core::chacha_rng(seed, 0);
            let (mut buf, mut f) = (Vec::new(), [0u8; N_FEATURES]);
            let mut checked = 0;
            while pos.current().is_some() {
                let ctx = PriorContext::new(&pos).unwrap();
                pos.legal_actions(&mut buf);
                for &mv in &buf {
                    ctx.features(mv, &mut f);
                    let weights = weights_for(pos.size());
                    let sum: f32 = f.iter().zip(weights).map(|(&n, w)| n as f32 * w).sum();
                    for score in [ctx.score(mv), ctx.score_rows(mv)] {
                        assert!(
                            (score - sum).abs() < 1e-3,
                            "{variant:?} {mv:?}: {score} {sum}"
                        );
                    }
                    checked += 1;
                }
                let mv = pos.random_action(&mut rng, &mut buf).unwrap();
                pos.play(mv);
            }
            assert!(checked > 1000, "{variant:?}: {checked}");
        }
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
