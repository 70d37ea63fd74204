//! `greedy`: tries every legal placement with every acceptable man (or none) and keeps the one
//! with the best immediate change of "my end-now score minus the best opponent's", where end-now
//! is the score plus final scoring of the open features (so a man is worth what its feature
//! would pay today). A man that stays on the board costs a fee that grows as the supply shrinks,
//! and the last man is kept for fast points only. Ties are broken at random.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::{Observation, Reader};
use crate::board::{Board, MEN_PER_PLAYER};
use crate::protocol::answer_line;

pub struct Greedy {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0x9eed),
        }
    }
}

/// My end-now score minus the best opponent's, in half points (the man fee is fractional).
fn evaluate(board: &Board, me: usize) -> i64 {
    let end_now = board.end_now();
    let best_other = end_now
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .map(|(_, &s)| s)
        .max();
    2 * (end_now[me] - best_other.unwrap_or(0))
}

/// The fee, in half points, for a man that stays on the board when `left` men remain after it.
fn man_fee(left: u8) -> Option<i64> {
    match left {
        0 => None,
        1 => Some(8),
        2 => Some(4),
        _ => Some(1 + i64::from(MEN_PER_PLAYER - left) / 2),
    }
}

impl Greedy {
    fn choose(&mut self, obs: &Observation) -> Option<String> {
        let me = obs.me;
        let placements = obs.board.sorted_placements(obs.tile);
        let mut best: Option<(i64, String)> = None;
        let mut n_best = 0u64;
        let mut tokens = Vec::new();
        for at in placements {
            let mut placed = obs.board.clone();
            let slot = placed.place(obs.tile, at);
            placed.man_options(me, slot, &mut tokens);
            let mut candidates: Vec<(Option<u8>, Board)> = vec![(None, placed.clone())];
            for &token in &tokens {
                let mut with_man = placed.clone();
                if with_man.put_man(me, slot, token).is_ok() {
                    candidates.push((Some(token), with_man));
                }
            }
            // Men of mine on the board after this placement without a man: a man that is still
            // there on top of these did not come back with fast points.
            let mut base_men = 0;
            for (token, mut board) in candidates {
                board.score_closed(slot);
                let mut value = evaluate(&board, me);
                if token.is_none() {
                    base_men = board.men_on_board(me);
                } else if board.men_on_board(me) > base_men {
                    match man_fee(board.men_left(me)) {
                        Some(fee) => value -= fee,
                        None => continue,
                    }
                }
                let better = best.as_ref().is_none_or(|(v, _)| value > *v);
                if better {
                    best = Some((value, answer_line(at, token)));
                    n_best = 1;
                } else if best.as_ref().is_some_and(|(v, _)| value == *v) {
                    n_best += 1;
                    if self.rng.next_u64() % n_best == 0 {
                        best = Some((value, answer_line(at, token)));
                    }
                }
            }
        }
        best.map(|(_, line)| line)
    }
}

impl Bot for Greedy {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read(input)?;
        let line = self
            .choose(&obs)
            .ok_or_else(|| BotError::BadInput("the tile to place fits nowhere".to_string()))?;
        Ok(vec![line])
    }
}
