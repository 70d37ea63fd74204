//! `random`: every decision of the turn uniformly among the legal actions (builds, tile uses,
//! and ending the turn once the build is done).

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::{play_turn, Observation, Reader};

pub struct Random {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl Random {
    pub fn new(seed: u64) -> Self {
        Random {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0x6b62),
        }
    }

    /// The answer line for a rebuilt position.
    pub fn answer(&mut self, obs: &Observation) -> String {
        let rng = &mut self.rng;
        play_turn(&obs.state, |_, legal| {
            legal[(rng.next_u64() % legal.len() as u64) as usize]
        })
    }
}

impl Bot for Random {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read(input)?;
        Ok(vec![self.answer(&obs)])
    }
}
