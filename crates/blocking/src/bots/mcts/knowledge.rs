//! What the search knows of Blokus: which placements to try first, how playouts choose, and
//! how a finished game is rewarded.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::State;
use realm_search::{margin_rewards_of, Knowledge, Rewards};

use super::centre;
use super::local::{self, local_cells, local_value};
use super::prior::PriorContext;
use crate::rules::{Placement, Position, OFF, ROWS};
use crate::shapes::tables;

/// The widest board's side (Classic): a placement's RAVE key is its orientation and origin.
const RAVE_SIDE: usize = 20;

/// How a playout picks its next placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniform over every legal placement.
    Uniform,
    /// Uniform over the placements of the largest size that still fits: big shapes are hard
    /// to place late, so real players place them first, and a playout that wastes them
    /// misjudges territory.
    LargestShape,
    /// Among `samples` random placements of the largest size that fits, the one with the best
    /// contact value (own anchors won, opponents' anchors taken): closer to real play for a
    /// few more bit operations per step.
    LargestShapeBestOf { samples: u8 },
    /// Among `samples` random placements of the largest size that fits, the one the learned
    /// prior likes best.
    LargestShapeLearnedBestOf { samples: u8 },
    /// As `LargestShapeLearnedBestOf`, but among the placements that take a cell around the
    /// opponents' latest placements (their new anchors and the cells next to them) when there
    /// are any: the playout answers where the opponent just played.
    LocalThenLearned { samples: u8 },
    /// The placements of highest local value around the opponents' last two placements
    /// first, whatever their size, then a draw weighted towards large shapes (`samples` 0) or
    /// the learned prior's favourite of `samples` (`local.rs`).
    LocalValue { samples: u8 },
}

/// How freshly expanded children are ordered (the prior of progressive widening).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Largest shape first, random among equal sizes.
    Size,
    /// Largest shape first, then by contact value: moves that open own corners and cover
    /// opponents' anchors come before the rest of their size.
    SizeThenContact,
    /// By the learned prior (`prior.rs`), fitted to strong play.
    Learned,
}

/// Blokus knowledge for the search (see the module comment).
#[derive(Clone, Debug)]
pub struct BlokusKnowledge {
    pub playout: Playout,
    pub order: Order,
    /// `margin_rewards` scale (points) and weight of the margin against the rank.
    pub margin_scale: f32,
    pub margin_weight: f32,
    /// The tree, like the playouts, searches only the opening's large shapes
    /// (`local::considered_letters`), as Pentobi does: the rest are pruned, and the prior
    /// no longer scores them.
    pub prune_opening: bool,
    keyed: Vec<(i32, Placement)>,
    scored: Vec<(f32, Placement)>,
    weights: Vec<f32>,
}

impl Default for BlokusKnowledge {
    fn default() -> Self {
        BlokusKnowledge::new(Playout::LocalValue { samples: 0 }, Order::Learned)
    }
}

impl BlokusKnowledge {
    pub fn new(playout: Playout, order: Order) -> Self {
        BlokusKnowledge {
            playout,
            order,
            margin_scale: 10.0,
            margin_weight: 0.3,
            prune_opening: true,
            keyed: Vec::new(),
            scored: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// The legal placements of the largest size the player to move can still place, in `buf`.
    fn largest_fitting(&self, state: &Position, buf: &mut Vec<Placement>) {
        buf.clear();
        let Some(p) = state.current() else {
            return;
        };
        let remaining = state.remaining(p);
        let by_size = &tables().by_size;
        for size in (1..=5).rev() {
            let letters = remaining & by_size[size];
            if letters == 0 {
                continue;
            }
            state.generate_letters(p, letters, buf);
            if !buf.is_empty() {
                return;
            }
        }
    }
}

/// Drops the placements of letters the opening does not consider yet
/// (`local::considered_letters`), unless that would drop them all; then, in Classic's
/// opening, those that do not come nearest the centre (`centre`).
fn keep_considered(state: &Position, actions: &mut Vec<Placement>) {
    let Some(p) = state.current() else {
        return;
    };
    let letters = local::considered_letters(state, p);
    if letters != state.remaining(p) {
        let considered = |m: &Placement| letters >> m.shape().letter & 1 == 1;
        if actions.iter().any(considered) {
            actions.retain(considered);
        }
    }
    centre::keep_nearest_centre(state, actions);
}

/// How much a placement by the player to move changes the anchor balance: own anchor cells
/// gained (new diagonal contacts minus the anchors it covers or blocks along an edge) plus
/// opponents' anchor cells it covers.
pub fn contact_value(state: &Position, mv: Placement) -> i32 {
    let Some(p) = state.current() else {
        return 0;
    };
    let o = mv.shape();
    let x = mv.x as u32;
    let y = mv.y as usize;
    let col = (1u32 << state.size()) - 1;
    let mine = state.anchors(p);
    let free = state.free_plane(p);
    let mut value = 0i32;
    for r in 0..o.h as usize {
        let cells = o.rows[r] << x;
        let i = y + r + OFF;
        for q in (0..state.player_count()).filter(|&q| q != p) {
            value += (cells & state.anchors(q)[i]).count_ones() as i32;
        }
        value -= (cells & mine[i]).count_ones() as i32;
    }
    // Halo rows run from y - 1 to y + h: array indices y .. y + h + 2 (as in `Position::place`).
    for r in 0..o.h as usize + 2 {
        let i = y + r;
        let edge = ((o.edge[r] as u64) << x >> 1) as u32 & col;
        let diag = ((o.diag[r] as u64) << x >> 1) as u32 & col;
        value -= (edge & mine[i]).count_ones() as i32;
        value += (diag & free[i] & !edge & !mine[i]).count_ones() as i32;
    }
    value
}

/// The best of `samples` placements drawn from `buf` (not empty) by `value`; the first drawn
/// wins ties.
pub(super) fn best_of<V: PartialOrd>(
    buf: &[Placement],
    samples: u8,
    rng: &mut ChaCha8Rng,
    value: impl Fn(Placement) -> V,
) -> Placement {
    let mut pick = || buf[(rng.next_u64() % buf.len() as u64) as usize];
    let mut best = pick();
    let mut best_value = value(best);
    for _ in 1..samples {
        let mv = pick();
        let v = value(mv);
        if v > best_value {
            best = mv;
            best_value = v;
        }
    }
    best
}

impl Knowledge<Position> for BlokusKnowledge {
    fn playout_action(
        &mut self,
        state: &Position,
        rng: &mut ChaCha8Rng,
        buf: &mut Vec<Placement>,
    ) -> Option<Placement> {
        let pick = |rng: &mut ChaCha8Rng, n: usize| (rng.next_u64() % n as u64) as usize;
        match self.playout {
            Playout::Uniform => state.random_action(rng, buf),
            Playout::LargestShape => {
                self.largest_fitting(state, buf);
                (!buf.is_empty()).then(|| buf[pick(rng, buf.len())])
            }
            Playout::LargestShapeBestOf { samples } => {
                self.largest_fitting(state, buf);
                if buf.is_empty() {
                    return None;
                }
                Some(best_of(buf, samples, rng, |m| contact_value(state, m)))
            }
            Playout::LocalThenLearned { samples } => {
                self.largest_fitting(state, buf);
                if buf.is_empty() {
                    return None;
                }
                let local = local_cells(state, false);
                let no_anchors = [0u32; ROWS];
                let touches = |m: &Placement| local_value(m, &local, &no_anchors) > 0;
                let n = buf.len();
                let mut k = 0;
                for i in 0..n {
                    if touches(&buf[i]) {
                        buf.swap(i, k);
                        k += 1;
                    }
                }
                if k > 0 {
                    buf.truncate(k);
                }
                let ctx = PriorContext::new(state)?;
                Some(best_of(buf, samples, rng, |m| ctx.score(m)))
            }
            Playout::LocalValue { samples } => {
                local::choose(state, rng, buf, &mut self.weights, samples)
            }
            Playout::LargestShapeLearnedBestOf { samples } => {
                self.largest_fitting(state, buf);
                if buf.is_empty() {
                    return None;
                }
                let ctx = PriorContext::new(state)?;
                Some(best_of(buf, samples, rng, |m| ctx.score(m)))
            }
        }
    }

    fn rave_keys(&self) -> usize {
        tables().orients.len() * RAVE_SIDE * RAVE_SIDE
    }

    fn rave_key(&self, m: &Placement) -> usize {
        (m.orient as usize * RAVE_SIDE + m.y as usize) * RAVE_SIDE + m.x as usize
    }

    fn order(&mut self, state: &Position, actions: &mut Vec<Placement>) {
        self.order_prefix(state, actions, usize::MAX);
    }

    fn order_prefix(&mut self, state: &Position, actions: &mut Vec<Placement>, k: usize) {
        if self.prune_opening {
            keep_considered(state, actions);
        }
        // Both sorts are stable: the search shuffled the list, so ties stay in random order.
        match self.order {
            Order::Size => actions.sort_by_key(|m| std::cmp::Reverse(m.shape().n)),
            Order::SizeThenContact => {
                self.keyed.clear();
                self.keyed.extend(
                    actions
                        .iter()
                        .map(|&m| (m.shape().n as i32 * 1000 + contact_value(state, m), m)),
                );
                self.keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
                actions.clear();
                actions.extend(self.keyed.iter().map(|&(_, m)| m));
            }
            Order::Learned => {
                let Some(ctx) = PriorContext::new(state) else {
                    return;
                };
                self.scored.clear();
                // Building `score`'s per-cell weights costs about as much as scoring a few
                // dozen placements row by row.
                if actions.len() < 32 {
                    self.scored
                        .extend(actions.iter().map(|&m| (ctx.score_rows(m), m)));
                } else {
                    self.scored
                        .extend(actions.iter().map(|&m| (ctx.score(m), m)));
                }
                let best_first = |a: &(f32, Placement), b: &(f32, Placement)| b.0.total_cmp(&a.0);
                if k < self.scored.len() {
                    // Only the prefix the search creates children for is sorted; the rest
                    // stays behind it unordered.
                    self.scored.select_nth_unstable_by(k, best_first);
                    self.scored[..k].sort_by(best_first);
                } else {
                    self.scored.sort_by(best_first);
                }
                actions.clear();
                actions.extend(self.scored.iter().map(|&(_, m)| m));
            }
        }
    }

    fn priors(&mut self, _state: &Position, actions: &[Placement], out: &mut Vec<f32>) {
        // `order` just scored these actions, or a prefix of them (learned order only): prior
        // exp((s - max) / 2), the square root of the move's probability relative to the
        // likeliest.
        if self.order != Order::Learned || self.scored.len() < actions.len() {
            return;
        }
        let Some(&(max, _)) = self.scored.first() else {
            return;
        };
        out.extend(
            self.scored[..actions.len()]
                .iter()
                .map(|&(s, _)| ((s - max) * 0.5).exp()),
        );
    }

    fn terminal_rewards(&mut self, state: &Position) -> Rewards {
        let standing = state.standing();
        margin_rewards_of(
            standing.ranks(),
            standing.scores(),
            self.margin_scale,
            self.margin_weight,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Variant};

    /// `contact_value` agrees with the engine: the anchors actually gained and taken after
    /// playing the move.
    #[test]
    fn contact_value_counts_the_anchors_a_move_changes() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut rng = realm_core::chacha_rng(4, 0);
        let mut buf = Vec::new();
        for _ in 0..12 {
            let p = pos.current().unwrap();
            pos.legal_actions(&mut buf);
            for &mv in &buf {
                let mut after = pos.clone();
                after.play(mv);
                let own = after.n_anchors(p) as i32 - pos.n_anchors(p) as i32;
                let taken: i32 = (0..2)
                    .filter(|&q| q != p)
                    .map(|q| pos.n_anchors(q) as i32 - after.n_anchors(q) as i32)
                    .sum();
                assert_eq!(contact_value(&pos, mv), own + taken, "{mv:?}");
            }
            let mv = pos.random_action(&mut rng, &mut buf).unwrap();
            pos.play(mv);
        }
    }

    /// The tree's children in the opening are the large shapes only, as the playouts'
    /// considered letters say; from each player's sixth placement on, nothing is pruned.
    #[test]
    fn the_opening_tree_searches_only_the_considered_shapes() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut k = BlokusKnowledge::default();
        let mut rng = realm_core::chacha_rng(8, 0);
        let (mut all, mut kept) = (Vec::new(), Vec::new());
        for placed in 0..14 {
            let p = pos.current().unwrap();
            pos.legal_actions(&mut all);
            kept.clone_from(&all);
            k.order(&pos, &mut kept);
            let min_size = match placed {
                0..=3 => 5,
                4..=5 => 4,
                6..=9 => 3,
                _ => 1,
            };
            let mut expected: Vec<_> = all
                .iter()
                .filter(|m| m.shape().n >= min_size)
                .copied()
                .collect();
            assert!(!expected.is_empty(), "placement {placed} of player {p}");
            expected.sort();
            kept.sort();
            assert_eq!(kept, expected, "placement {placed}");
            // The prior's order of what is kept is the one the priors are read in.
            let mut priors = Vec::new();
            k.order(&pos, &mut all);
            k.priors(&pos, &all, &mut priors);
            assert_eq!(priors.len(), all.len());
            let mv = pos.random_action(&mut rng, &mut all).unwrap();
            pos.play(mv);
        }
    }

    /// RAVE keys name placements one to one: every placement the first players of a Classic
    /// game may make, on the largest board, has its own key below `rave_keys()`.
    #[test]
    fn rave_keys_are_distinct_and_in_range() {
        let k = BlokusKnowledge::default();
        let mut pos = Position::new(&Config::new(Variant::Classic, 4, 2));
        let mut rng = realm_core::chacha_rng(6, 0);
        let mut buf = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for _ in 0..24 {
            let Some(p) = pos.current() else { break };
            pos.legal_actions(&mut buf);
            for &mv in &buf {
                let key = k.rave_key(&mv);
                assert!(key < k.rave_keys(), "{mv:?}");
                // The same placement may be listed again later (by another player, or the
                // same one before it was taken); a key never stands for two placements.
                assert_eq!(*seen.entry(key).or_insert(mv), mv, "player {p}");
            }
            let mv = pos.random_action(&mut rng, &mut buf).unwrap();
            pos.play(mv);
        }
        assert!(seen.len() > 1000, "{}", seen.len());
    }

    /// The local playout answers the opponent's latest placement whenever a placement of the
    /// largest fitting size takes a cell around it.
    #[test]
    fn local_playouts_answer_the_latest_placement() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut k = BlokusKnowledge::new(Playout::LocalThenLearned { samples: 4 }, Order::Learned);
        let mut rng = realm_core::chacha_rng(3, 0);
        let (mut buf, mut all) = (Vec::new(), Vec::new());
        let mut answered = 0;
        while pos.current().is_some() {
            let local = local_cells(&pos, false);
            pos.legal_actions(&mut all);
            let largest = all.iter().map(|m| m.shape().n).max().unwrap();
            let touches = |m: &Placement| m.cells().any(|(x, y)| local[y + OFF] >> x & 1 == 1);
            let can_answer = all.iter().any(|m| m.shape().n == largest && touches(m));
            let mv = k.playout_action(&pos, &mut rng, &mut buf).unwrap();
            assert!(all.contains(&mv) && mv.shape().n == largest);
            assert_eq!(touches(&mv), can_answer, "{mv:?}");
            answered += can_answer as u32;
            pos.play(mv);
        }
        assert!(answered > 5, "{answered}");
    }

    /// The largest-shape playout only ever picks among the legal placements of the largest
    /// size that fits.
    #[test]
    fn playouts_place_the_largest_fitting_size() {
        let mut pos = Position::new(&Config::new(Variant::Blocking, 3, 9));
        let mut k = BlokusKnowledge::new(Playout::LargestShape, Order::Size);
        let mut rng = realm_core::chacha_rng(2, 0);
        let (mut buf, mut all) = (Vec::new(), Vec::new());
        while pos.current().is_some() {
            pos.legal_actions(&mut all);
            let largest = all.iter().map(|m| m.shape().n).max().unwrap();
            let mv = k.playout_action(&pos, &mut rng, &mut buf).unwrap();
            assert!(all.contains(&mv) && mv.shape().n == largest);
            pos.play(mv);
        }
    }

    /// The prefix `order_prefix` sorts is the best-scored part of what `order` sorts, in the
    /// same order of scores, and its priors are those of the full order's prefix.
    #[test]
    fn a_sorted_prefix_is_the_full_orders_best() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut rng = realm_core::chacha_rng(11, 0);
        let mut knowledge = BlokusKnowledge::default();
        let (mut buf, mut full, mut prefix) = (Vec::new(), Vec::new(), Vec::new());
        let mut compared = 0;
        for _ in 0..14 {
            pos.legal_actions(&mut buf);
            for k in [1, 8, 40] {
                full.clone_from(&buf);
                knowledge.order(&pos, &mut full);
                let scores =
                    |k: &BlokusKnowledge| -> Vec<f32> { k.scored.iter().map(|s| s.0).collect() };
                let full_scores = scores(&knowledge);
                let (mut full_priors, mut priors) = (Vec::new(), Vec::new());
                knowledge.priors(&pos, &full, &mut full_priors);
                prefix.clone_from(&buf);
                knowledge.order_prefix(&pos, &mut prefix, k);
                assert_eq!(prefix.len(), full.len());
                let k = k.min(full.len());
                assert_eq!(scores(&knowledge)[..k], full_scores[..k]);
                knowledge.priors(&pos, &prefix[..k], &mut priors);
                assert_eq!(priors, full_priors[..k]);
                let mut rest: Vec<_> = prefix.clone();
                rest.sort();
                let mut all = full.clone();
                all.sort();
                assert_eq!(rest, all);
                compared += 1;
            }
            let mv = buf[(rng.next_u64() % buf.len() as u64) as usize];
            pos.apply(&mv);
        }
        assert_eq!(compared, 42);
    }
}
