//! `random`: a uniformly random line of the valid-move list.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::Reader;

pub struct RandomBot {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0),
        }
    }
}

impl Bot for RandomBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read_turn(input)?;
        let pick = (self.rng.next_u64() % obs.valid.len() as u64) as usize;
        Ok(vec![obs.valid[pick].0.to_string()])
    }
}
