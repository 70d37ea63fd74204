//! `greedy`: one ply, decision by decision: each settlement of the build and each tile use is
//! the action that leaves the best gold difference (own gold minus the best other seat's in
//! the game); once the build is done, a tile is used only if it strictly improves that
//! difference. Ties are broken at random.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input, State as _};

use super::{play_turn, Observation, Reader};
use crate::game::{Action, GameState};

/// Own gold minus the best other seat's still in the game.
pub fn gold_difference(state: &GameState, seat: usize) -> i64 {
    let gold = state.gold();
    let best_other = (0..gold.len())
        .filter(|&p| p != seat && !state.is_eliminated(p))
        .map(|p| i64::from(gold[p]))
        .max()
        .unwrap_or(0);
    i64::from(gold[seat]) - best_other
}

/// The greedy choice among `legal` in `state`.
pub fn greedy_action(state: &GameState, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let me = state.mover();
    let mut best: Option<(i64, Vec<Action>)> = None;
    if legal.contains(&Action::EndTurn) {
        best = Some((gold_difference(state, me), vec![Action::EndTurn]));
    }
    for &action in legal.iter().filter(|&&a| a != Action::EndTurn) {
        let mut next = state.clone();
        next.apply(&action);
        let value = gold_difference(&next, me);
        match &mut best {
            Some((v, _)) if value < *v => {}
            // Ending the turn wins ties: a tile is used only for a strict gain.
            Some((v, list)) if value == *v => {
                if list.first() != Some(&Action::EndTurn) {
                    list.push(action);
                }
            }
            _ => best = Some((value, vec![action])),
        }
    }
    let (_, list) = best.unwrap_or((0, vec![Action::EndTurn]));
    list[(rng.next_u64() % list.len() as u64) as usize]
}

pub struct Greedy {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0x6772),
        }
    }

    /// The answer line for a rebuilt position.
    pub fn answer(&mut self, obs: &Observation) -> String {
        let rng = &mut self.rng;
        play_turn(&obs.state, |state, legal| greedy_action(state, legal, rng))
    }
}

impl Bot for Greedy {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read(input)?;
        Ok(vec![self.answer(&obs)])
    }
}
