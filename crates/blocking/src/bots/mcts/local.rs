//! Playouts that answer the opponent, in the shape of Pentobi's (read in its documentation and
//! source, not copied): the placements worth most around the opponents' last two placements
//! come first, whatever their size, and among those the draw favours large shapes with many
//! corners. Before this playout the search placed the largest size first and answered only
//! where it could; at 5,000 iterations a move it went from 44% to 64–67% against Pentobi level
//! 5 (STRENGTH.md).

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::knowledge::best_of;
use super::prior::PriorContext;
use super::CLASSIC_SIDE;
use crate::rules::{Placement, Position, Rows, Step, OFF, ROWS};
use crate::shapes::tables;

/// The cells around the opponents' latest placements (with `two_back`, their last two): the
/// anchors each one opened and the cells next to those anchors that the opponent may still
/// cover.
pub fn local_cells(state: &Position, two_back: bool) -> Rows {
    let mut local = [0u32; ROWS];
    let Some(p) = state.current() else {
        return local;
    };
    let col = (1u32 << state.size()) - 1;
    let opponents = (0..state.player_count()).filter(|&q| q != p);
    let latest = opponents.clone().map(|q| (q, state.last_placement(q)));
    let before = opponents.map(|q| (q, state.previous_placement(q).filter(|_| two_back)));
    for (q, mv) in latest.chain(before) {
        let Some(mv) = mv else {
            continue;
        };
        let (o, x, y) = (mv.shape(), mv.x as u32, mv.y as usize);
        let (anchors, free) = (state.anchors(q), state.free_plane(q));
        for r in 0..o.h as usize + 2 {
            let i = y + r;
            let opened = ((o.diag[r] as u64) << x >> 1) as u32 & col & anchors[i];
            if opened == 0 {
                // (Always so in the off-board row 0, so `i - 1` below stays on the planes.)
                continue;
            }
            local[i] |= opened;
            local[i] |= (opened << 1 | opened >> 1) & col & free[i];
            local[i - 1] |= opened & free[i - 1];
            local[i + 1] |= opened & free[i + 1];
        }
    }
    local
}

/// How much of the answer a placement is: its cells on `local`, those that are also the
/// mover's own anchors (`mine`) counting twice.
#[inline]
pub fn local_value(mv: &Placement, local: &Rows, mine: &Rows) -> u32 {
    let o = mv.shape();
    // All five rows, unrolled: the rows past the shape's height are empty, and the planes
    // reach five rows below any placement's top row.
    let y = mv.y as usize + OFF;
    let mut value = 0;
    for r in 0..5 {
        let cells = o.rows[r] << mv.x & local[y + r];
        value += cells.count_ones() + (cells & mine[y + r]).count_ones();
    }
    value
}

/// The playout's placement for the player to move: among the placements of the letters the
/// opening allows (all letters when none of those fits), the ones of highest `local_value`
/// against the opponents' last two placements; among those a draw weighted by
/// `piece_gammas`, or with `samples` > 0 the learned prior's favourite of that many.
/// `weights` is scratch space.
pub fn choose(
    state: &Position,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<Placement>,
    weights: &mut Vec<f32>,
    samples: u8,
) -> Option<Placement> {
    let p = state.current()?;
    let letters = considered_letters(state, p);
    // Pentobi answers the game's last three placements but the mover's own: the opponent's
    // last two in Duo, each opponent's last with four players.
    let local = local_cells(state, state.player_count() == 2);
    let mine = state.anchors(p);
    let value = |m: &Placement| local_value(m, &local, mine);
    let has_local = local.iter().any(|&r| r != 0);
    let gammas = piece_gammas(state.size());
    let draw = |rng: &mut ChaCha8Rng| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    buf.clear();
    if samples == 0 {
        let step = if has_local {
            state.answer_or_draw(p, letters, &local, |m| value(&m), gammas, || draw(rng), buf)
        } else {
            // Nothing to answer: every placement is worth 0.
            let u = draw(rng);
            state
                .draw_letters(p, letters, gammas, u)
                .map_or(Step::Nothing, Step::Drawn)
        };
        match step {
            Step::Drawn(mv) => return Some(mv),
            // The answers are in `buf`; with no placement of these letters, all letters below.
            Step::Answers(_) | Step::Nothing => {}
        }
    } else {
        let answered = has_local
            && matches!(
                state.answer_or_draw(p, letters, &local, |m| value(&m), gammas, || 0.0, buf),
                Step::Answers(_)
            );
        if !answered {
            state.generate_letters(p, letters, buf);
        }
    }
    if buf.is_empty() {
        state.generate(p, buf);
        if has_local {
            keep_highest(buf, value);
        }
    }
    if buf.is_empty() {
        return None;
    }
    if samples > 0 {
        let ctx = PriorContext::new(state)?;
        return Some(best_of(buf, samples, rng, |m| ctx.score(m)));
    }
    weights.clear();
    let mut total = 0.0f32;
    for m in buf.iter() {
        total += gammas[m.orient as usize];
        weights.push(total);
    }
    let r = draw(rng) * total;
    let at = weights.partition_point(|&w| w <= r).min(buf.len() - 1);
    Some(buf[at])
}

/// Keeps only the placements of highest `value` in `buf` (its order otherwise arbitrary) and
/// returns that value.
fn keep_highest(buf: &mut Vec<Placement>, value: impl Fn(&Placement) -> u32) -> u32 {
    let (mut best, mut k) = (0, 0);
    for i in 0..buf.len() {
        let v = value(&buf[i]);
        if v > best {
            best = v;
            k = 0;
        }
        if v == best {
            buf.swap(i, k);
            k += 1;
        }
    }
    buf.truncate(k);
    best
}

/// The letters a playout considers in the opening, as Pentobi does: only five-square shapes
/// until each player has placed two, then four or more until each has placed three, three or
/// more until each has placed five.
pub fn considered_letters(state: &Position, p: usize) -> u32 {
    let by_size = &tables().by_size;
    let placed = state.n_placements();
    let np = state.player_count();
    let min_size = match placed {
        _ if placed < 2 * np => 5,
        _ if placed < 3 * np => 4,
        _ if placed < 5 * np => 3,
        _ => 1,
    };
    let allowed = by_size[min_size..].iter().fold(0, |a, &b| a | b);
    state.remaining(p) & allowed
}

/// The playout weight of each orientation's shape, Pentobi's values (indexed like
/// `shapes::tables().orients`): on boards up to Duo's, a factor 3 per square and 1.8 per
/// corner beyond the first; on Classic's 20 × 20, a factor 5 per square.
fn piece_gammas(size: usize) -> &'static [f32] {
    static SMALL: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    static LARGE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    let (cell, corner_factor, gammas) = if size >= CLASSIC_SIDE {
        (5f32, 1f32, &LARGE)
    } else {
        (3f32, 1.8f32, &SMALL)
    };
    gammas.get_or_init(|| {
        tables()
            .orients
            .iter()
            .map(|o| {
                let corners: u32 = o.diag.iter().map(|d| d.count_ones()).sum();
                cell.powi(o.n as i32) * corner_factor.powi(corners as i32 - 1)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Variant};
    use realm_core::State;

    fn touches(mv: &Placement, cells: &Rows) -> bool {
        mv.cells().any(|(x, y)| cells[y + OFF] >> x & 1 == 1)
    }

    /// `draw_letters` picks each placement exactly over its share of the weights, in
    /// `generate_letters`' order: the middle of each placement's interval draws it, on both
    /// layouts.
    #[test]
    fn weighted_draws_land_on_the_placement_of_their_interval() {
        for (variant, players) in [(Variant::Duo, 2), (Variant::Classic, 4)] {
            let mut pos = Position::new(&Config::new(variant, players, 5));
            let mut rng = realm_core::chacha_rng(17, 0);
            let gammas = piece_gammas(pos.size());
            let mut all = Vec::new();
            let mut checked = 0;
            while let Some(p) = pos.current() {
                let letters = considered_letters(&pos, p);
                all.clear();
                pos.generate_letters(p, letters, &mut all);
                let total: f64 = all.iter().map(|m| gammas[m.orient as usize] as f64).sum();
                let mut sum = 0.0f64;
                for &mv in &all {
                    let w = gammas[mv.orient as usize] as f64;
                    let u = ((sum + w / 2.0) / total) as f32;
                    sum += w;
                    assert_eq!(pos.draw_letters(p, letters, gammas, u), Some(mv));
                    checked += 1;
                }
                let mv = pos.random_action(&mut rng, &mut all).unwrap();
                pos.play(mv);
            }
            assert!(checked > 1000, "{variant:?}: {checked}");
        }
    }

    /// With a plane to cover, one scan lists exactly the placements that cover one of its
    /// cells, in `generate`'s order, and when none does it draws the placement `draw_letters`
    /// draws with the same number, in both layouts (16 wide and the packed 20 x 20).
    #[test]
    fn one_scan_answers_or_draws() {
        for (variant, players) in [(Variant::Duo, 2), (Variant::Classic, 4)] {
            let (mut answered, mut drawn) = (0, 0);
            for seed in 0..4 {
                let mut pos = Position::new(&Config::new(variant, players, 5));
                let mut rng = realm_core::chacha_rng(13, seed);
                let gammas = piece_gammas(pos.size());
                let (mut all, mut covering) = (Vec::new(), Vec::new());
                while let Some(p) = pos.current() {
                    let mut cells = [0u32; ROWS];
                    for _ in 0..rng.next_u32() % 4 {
                        let (x, y) = (
                            rng.next_u32() as usize % pos.size(),
                            rng.next_u32() as usize % pos.size(),
                        );
                        cells[y + OFF] |= 1 << x;
                    }
                    let letters = considered_letters(&pos, p);
                    all.clear();
                    pos.generate_letters(p, letters, &mut all);
                    let expected: Vec<_> =
                        all.iter().filter(|m| touches(m, &cells)).copied().collect();
                    let u = (rng.next_u32() >> 8) as f32 / (1 << 24) as f32;
                    // Every covering placement is worth 1: all of them are kept.
                    let step =
                        pos.answer_or_draw(p, letters, &cells, |_| 1, gammas, || u, &mut covering);
                    if expected.is_empty() {
                        let want = pos.draw_letters(p, letters, gammas, u);
                        assert_eq!(step, want.map_or(Step::Nothing, Step::Drawn), "{variant:?}");
                        assert!(covering.is_empty());
                        drawn += usize::from(want.is_some());
                    } else {
                        assert_eq!(step, Step::Answers(1), "{variant:?}");
                        assert_eq!(covering, expected, "{variant:?}");
                        answered += 1;
                    }
                    let mv = pos.random_action(&mut rng, &mut all).unwrap();
                    pos.play(mv);
                }
            }
            assert!(
                answered > 10 && drawn > 10,
                "{variant:?}: {answered}, {drawn}"
            );
        }
    }

    /// `answer_or_draw` lists exactly the placements of highest local value, in
    /// `generate`'s order, through a whole game, and draws only when none is worth anything.
    #[test]
    fn answers_keep_the_highest_valued_placements_in_order() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut rng = realm_core::chacha_rng(9, 0);
        let (mut all, mut best) = (Vec::new(), Vec::new());
        let mut answered = 0;
        while let Some(p) = pos.current() {
            let local = local_cells(&pos, true);
            let value = |m: Placement| local_value(&m, &local, pos.anchors(p));
            all.clear();
            pos.generate(p, &mut all);
            let top = all.iter().map(|&m| value(m)).max().unwrap_or(0);
            let expected: Vec<_> = all
                .iter()
                .copied()
                .filter(|&m| top > 0 && value(m) == top)
                .collect();
            let mut drew = false;
            let step = pos.answer_or_draw(
                p,
                u32::MAX,
                &local,
                value,
                &[1.0; 91],
                || {
                    drew = true;
                    0.5
                },
                &mut best,
            );
            assert_eq!(best, expected);
            if top > 0 {
                assert_eq!(step, Step::Answers(top));
                assert!(!drew, "no number is drawn for an answer");
                answered += 1;
            } else {
                assert!(matches!(step, Step::Drawn(_)) && drew, "{step:?}");
            }
            let mv = pos.random_action(&mut rng, &mut all).unwrap();
            pos.play(mv);
        }
        assert!(answered > 5, "{answered}");
    }

    /// The playout always answers with a placement of the highest local value among the
    /// placements it considers, and the answer is legal.
    #[test]
    fn playouts_take_the_highest_local_value() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let mut rng = realm_core::chacha_rng(5, 0);
        let (mut buf, mut all, mut weights) = (Vec::new(), Vec::new(), Vec::new());
        let mut answered = 0;
        while let Some(p) = pos.current() {
            pos.legal_actions(&mut all);
            let letters = considered_letters(&pos, p);
            let considered: Vec<_> = all
                .iter()
                .filter(|m| letters >> m.letter() & 1 == 1)
                .copied()
                .collect();
            let pool = if considered.is_empty() {
                &all
            } else {
                &considered
            };
            let local = local_cells(&pos, true);
            let value = |m: &Placement| local_value(m, &local, pos.anchors(p));
            let best = pool.iter().map(value).max().unwrap();
            let mv = choose(&pos, &mut rng, &mut buf, &mut weights, 0).unwrap();
            assert!(pool.contains(&mv), "{mv:?}");
            assert_eq!(value(&mv), best, "{mv:?}");
            answered += u32::from(best > 0);
            pos.play(mv);
        }
        assert!(answered > 5, "{answered}");
    }

    /// In the opening only five-square shapes are considered, then four and more.
    #[test]
    fn the_opening_considers_large_shapes_only() {
        let mut pos = Position::new(&Config::new(Variant::Duo, 2, 1));
        let by_size = &tables().by_size;
        assert_eq!(considered_letters(&pos, 0), by_size[5]);
        let mut rng = realm_core::chacha_rng(1, 0);
        let mut buf = Vec::new();
        for _ in 0..4 {
            let mv = pos.random_action(&mut rng, &mut buf).unwrap();
            pos.play(mv);
        }
        let p = pos.current().unwrap();
        assert_eq!(
            considered_letters(&pos, p),
            pos.remaining(p) & (by_size[4] | by_size[5])
        );
    }
}
