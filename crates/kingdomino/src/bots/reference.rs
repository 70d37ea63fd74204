//! `reference`: the deterministic reference bot of §7 K10. Turn 1 `PUT 0 0 0`; otherwise the
//! league-3-legal placement with the smallest (y, x, r), else `PUT 0 0 0`; PICK the lowest free
//! ID of NEXT, else `PICK 0`. It exists so the spec's reference games can be replayed through
//! the same text path as any bot.

use super::{pick_line, put_line, Observation, Strategy};
use crate::bits::Bits;
use crate::kingdom::PlacementRules;

#[derive(Default)]
pub struct Reference;

impl Strategy for Reference {
    fn decide<B: Bits>(&mut self, obs: &Observation<B>) -> [String; 2] {
        let placement = obs.my_tile().and_then(|t| {
            obs.kingdoms[0]
                .legal_placements(t, PlacementRules::FULL)
                .into_iter()
                .min_by_key(|p| (p.y, p.x, p.r))
        });
        let pick = obs.free_picks().into_iter().min();
        [put_line(placement), pick_line(pick)]
    }
}
