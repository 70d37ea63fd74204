//! `random`: a uniformly random legal placement (all legal triples) and a uniformly random free
//! tile, independently, which is uniform over the legal (PUT, PICK) pairs of its slot.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::{candidate_placements, pick_line, put_line, Observation, Strategy};
use crate::bits::Bits;

pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    pub fn new(seed: u64) -> Self {
        Random {
            rng: realm_core::chacha_rng(seed, RANDOM_STREAM),
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
                let options = candidate_placements(&obs.kingdoms[0], t);
                self.choose(&options)
            }
            None => None,
        };
        let pick = self.choose(&obs.free_picks());
        [put_line(placement), pick_line(pick)]
    }
}
