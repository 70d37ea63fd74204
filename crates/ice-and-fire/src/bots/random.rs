//! `random`: each phase plays 1 to 4 single actions drawn uniformly from those legal in its
//! league on its model (stopping early when none is left), then ends the line. It never writes
//! a fatal piece.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::Tracker;
use crate::rules::Action;

pub struct RandomBot {
    rng: ChaCha8Rng,
    pub(super) tracker: Tracker,
    buf: Vec<Action>,
}

impl RandomBot {
    /// A random bot drawing from the ChaCha stream of `seed`, playing in `league` (`None`:
    /// league 4).
    pub fn new(seed: u64, league: Option<u32>) -> RandomBot {
        RandomBot {
            rng: chacha_rng(seed, 0x1ce),
            tracker: Tracker::new(league),
            buf: Vec::new(),
        }
    }
}

impl Bot for RandomBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let (mut state, _) = self.tracker.read(input)?;
        let mut pieces = Vec::new();
        let n = 1 + self.rng.next_u32() % 4;
        for _ in 0..n {
            state.single_actions(&mut self.buf);
            if self.buf.is_empty() {
                break;
            }
            let action = self.buf[(self.rng.next_u64() % self.buf.len() as u64) as usize];
            pieces.push(state.command(&action));
            let _ = state.play(&action);
        }
        if pieces.is_empty() {
            pieces.push("WAIT".to_string());
        }
        Ok(vec![pieces.join(";")])
    }
}
