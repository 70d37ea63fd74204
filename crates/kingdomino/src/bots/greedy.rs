//! `greedy`: places its tile where the kingdom's score gains most right now, and picks the free
//! tile whose best placement (on the kingdom after this call's placement) would gain most.
//!
//! Placement ties go to the placement whose squares touch more squares of their own terrain
//! (zones that can still grow), then to the smaller bounding box (room for later tiles), then
//! to the smallest (y, x, r). Pick ties go to more crowns, then the lower ID, which also acts
//! earlier next turn.

use super::{pick_line, put_line, Observation, Strategy};
use crate::bits::Bits;
use crate::kingdom::{Kingdom, Placement, PlacementRules};
use crate::tiles::{tile, Tile};

pub struct Greedy {
    rules: PlacementRules,
}

impl Greedy {
    /// A greedy bot placing under `rules` (those of its league).
    pub fn new(rules: PlacementRules) -> Self {
        Greedy { rules }
    }
}

impl Strategy for Greedy {
    fn decide<B: Bits>(&mut self, obs: &Observation<B>) -> [String; 2] {
        let rules = self.rules;
        let mut kingdom = obs.kingdoms[0];
        let placement = obs.my_tile().and_then(|t| {
            let best = best_placement(&kingdom, t, rules);
            if let Some((p, _)) = best {
                kingdom.place(t, p);
            }
            best.map(|(p, _)| p)
        });
        let base = kingdom.zone_score() as i64;
        let pick = obs
            .free_picks()
            .into_iter()
            .filter_map(|id| tile(id))
            .max_by_key(|t| {
                let gain =
                    best_placement(&kingdom, t, rules).map_or(-1, |(_, score)| score as i64 - base);
                (gain, t.crowns(), std::cmp::Reverse(t.id))
            })
            .map(|t| t.id);
        [put_line(placement), pick_line(pick)]
    }
}

/// The best placement of `tile` and the zone score it leads to.
fn best_placement<B: Bits>(
    kingdom: &Kingdom<B>,
    tile: &Tile,
    rules: PlacementRules,
) -> Option<(Placement, u32)> {
    kingdom
        .legal_placements(tile, rules)
        .into_iter()
        .map(|p| {
            let mut after = *kingdom;
            after.place(tile, p);
            let (min_x, max_x, min_y, max_y) = after.bounds();
            let area = (max_x - min_x + 1) * (max_y - min_y + 1);
            let key = (
                after.zone_score(),
                contacts(kingdom, tile, p),
                std::cmp::Reverse(area),
                std::cmp::Reverse((p.y, p.x, p.r)),
            );
            (key, p)
        })
        .max_by_key(|(key, _)| *key)
        .map(|(key, p)| (p, key.0))
}

/// Squares next to the placed tile that share the terrain of the tile square they touch.
pub(crate) fn contacts<B: Bits>(kingdom: &Kingdom<B>, tile: &Tile, p: Placement) -> u32 {
    let (bx, by) = p.second();
    kingdom.touching(p.x as usize, p.y as usize, tile.a.terrain)
        + kingdom.touching(bx, by, tile.b.terrain)
}
