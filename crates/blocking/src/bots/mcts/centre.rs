//! Blokus Classic's opening: each colour starts in a corner, far from the centre, and how
//! soon it gets there decides how much room it will have. Pentobi's search considers only
//! the placements that come nearest the centre in the game's first rounds (read in its
//! source, not copied); realm's Classic bot went along its edge instead. On Classic's board
//! (`CLASSIC_SIDE`), while the game has at most `PLACEMENTS` placements, the tree keeps the
//! placements whose square nearest the centre is within `SLACK` of the nearest any reaches.

use super::CLASSIC_SIDE;
use crate::rules::{Placement, Position};

/// The placements of the game the rule covers: three rounds of four colours.
const PLACEMENTS: usize = 12;

/// How much farther from the centre than the nearest a kept placement may reach, in cells.
const SLACK: f32 = 0.3;

/// Squares this close to the centre count as at it (all four central squares and their
/// neighbours are alike).
const AT_CENTRE: f32 = 2.0;

/// The distance from the board's centre of the square of `mv` nearest it, in cells (at least
/// `AT_CENTRE`).
fn centre_distance(n: usize, mv: &Placement) -> f32 {
    let c = n as f32 / 2.0 - 0.5;
    mv.cells()
        .map(|(x, y)| {
            let (dx, dy) = (x as f32 - c, y as f32 - c);
            (dx * dx + dy * dy).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
        .max(AT_CENTRE)
}

/// Keeps the placements of `actions` that reach nearest the centre (see the module comment),
/// while the rule applies; otherwise leaves them all.
pub fn keep_nearest_centre(state: &Position, actions: &mut Vec<Placement>) {
    let n = state.size();
    // (Duo's start cells are central already.)
    if n < CLASSIC_SIDE || state.n_placements() > PLACEMENTS {
        return;
    }
    let nearest = actions
        .iter()
        .map(|m| centre_distance(n, m))
        .fold(f32::INFINITY, f32::min);
    actions.retain(|m| centre_distance(n, m) <= nearest + SLACK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Variant};
    use realm_core::State;

    /// In Classic's first rounds the kept placements are those that come nearest the centre
    /// (checked square by square); later, and in Duo, all are kept.
    #[test]
    fn the_first_rounds_keep_the_placements_nearest_the_centre() {
        let mut pos = Position::new(&Config::new(Variant::Classic, 4, 1));
        let mut rng = realm_core::chacha_rng(3, 0);
        let (mut buf, mut kept) = (Vec::new(), Vec::new());
        for placed in 0..20 {
            pos.legal_actions(&mut buf);
            kept.clone_from(&buf);
            keep_nearest_centre(&pos, &mut kept);
            let reach = |m: &Placement| {
                m.cells()
                    .map(|(x, y)| (x as f32 - 9.5).hypot(y as f32 - 9.5).max(2.0))
                    .fold(f32::INFINITY, f32::min)
            };
            let nearest = buf.iter().map(reach).fold(f32::INFINITY, f32::min);
            let expected: Vec<_> = if placed <= 12 {
                buf.iter()
                    .filter(|m| reach(m) <= nearest + 0.3)
                    .copied()
                    .collect()
            } else {
                buf.clone()
            };
            assert_eq!(kept, expected, "after {placed} placements");
            if placed <= 12 {
                assert!(kept.len() < buf.len(), "after {placed} placements");
            }
            let mv = kept[(rand_core::RngCore::next_u64(&mut rng) % kept.len() as u64) as usize];
            pos.apply(&mv);
        }
        let duo = Position::new(&Config::new(Variant::Duo, 2, 1));
        duo.legal_actions(&mut buf);
        kept.clone_from(&buf);
        keep_nearest_centre(&duo, &mut kept);
        assert_eq!(kept, buf);
    }
}
