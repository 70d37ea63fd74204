//! `random`: a uniformly random legal placement (all triples legal in its league) and a
//! uniformly random free tile, independently, which is uniform over the legal (PUT, PICK) pairs
//! of its slot. Symmetric tiles 1–12 have exactly two triples per kingdom, the others one, so
//! this is also uniform over the distinct resulting kingdoms (R18).

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::{pick_line, put_line, Observation, Strategy};
use crate::bits::Bits;
use crate::kingdom::PlacementRules;

pub struct Random {
    rng: ChaCha8Rng,
    rules: PlacementRules,
}

impl Random {
    /// A bot drawing from the ChaCha stream of `seed`, placing under `rules`.
    pub fn new(seed: u64, rules: PlacementRules) -> Self {
        Random {
            rng: realm_core::chacha_rng(seed, RANDOM_STREAM),
            rules,
        }
    }

    fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        Some(items[(self.rng.next_u64() % items.len() as u64) as usize])
    }
}

/// ChaCha stream of the random bot's choices.
const RANDOM_STREAM: u64 = 0x6b64_7261_6e64;

impl Strategy for Random {
    fn decide<B: Bits>(&mut self, obs: &Observation<B>) -> [String; 2] {
        let placement = match obs.my_tile() {
            Some(t) => {
                let options = obs.kingdoms[0].legal_placements(t, self.rules);
                self.choose(&options)
            }
            None => None,
        };
        let pick = self.choose(&obs.free_picks());
        [put_line(placement), pick_line(pick)]
    }
}
