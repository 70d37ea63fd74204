//! `random`: a uniformly random legal placement, then no man or a random acceptable man,
//! all choices equally likely.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::Reader;
use crate::protocol::answer_line;

pub struct Random {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl Random {
    pub fn new(seed: u64) -> Self {
        Random {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0xca2c),
        }
    }
}

impl Bot for Random {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read(input)?;
        let placements = obs.board.sorted_placements(obs.tile);
        if placements.is_empty() {
            return Err(BotError::BadInput(
                "the tile to place fits nowhere".to_string(),
            ));
        }
        let at = placements[(self.rng.next_u64() % placements.len() as u64) as usize];
        let mut board = obs.board.clone();
        let slot = board.place(obs.tile, at);
        let mut tokens = Vec::new();
        board.man_options(obs.me, slot, &mut tokens);
        let pick = (self.rng.next_u64() % (tokens.len() as u64 + 1)) as usize;
        Ok(vec![answer_line(at, tokens.get(pick).copied())])
    }
}
