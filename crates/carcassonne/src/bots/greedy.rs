//! `greedy`: tries every legal placement with every acceptable man (or none) and keeps the one
//! with the best immediate change of "my end-now score minus the best opponent's", where end-now
//! is the score plus final scoring of the open features (so a man is worth what its feature
//! would pay today). A man that stays on the board costs a fee that grows as the supply shrinks,
//! and the last man is kept for fast points only. Ties are broken at random.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::{Observation, Reader};
use crate::board::{Board, Placement, MEN_PER_PLAYER};
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

/// The best answer found so far: its value, placement and man, and how many tied with it.
struct Best {
    value: i64,
    at: Placement,
    token: Option<u8>,
    n_tied: u64,
}

impl Greedy {
    fn choose(&mut self, obs: &Observation) -> Option<String> {
        let mut best = None;
        for at in obs.board.sorted_placements(obs.tile) {
            self.consider(obs, at, &mut best);
        }
        best.map(|b| answer_line(b.at, b.token))
    }

    /// Greedy's answer line (an error when the tile fits nowhere).
    pub fn answer(&mut self, obs: &Observation) -> Result<Vec<String>, BotError> {
        let line = self
            .choose(obs)
            .ok_or_else(|| BotError::BadInput("the tile to place fits nowhere".to_string()))?;
        Ok(vec![line])
    }

    /// Greedy's man (or none) for the tile placed at `at`.
    pub fn man_for(&mut self, obs: &Observation, at: Placement) -> Option<u8> {
        let mut best = None;
        self.consider(obs, at, &mut best);
        best.and_then(|b| b.token)
    }

    /// Values the placement `at` with every acceptable man (or none) and keeps the best.
    fn consider(&mut self, obs: &Observation, at: Placement, best: &mut Option<Best>) {
        let me = obs.me;
        let mut tokens = Vec::new();
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
            match best {
                Some(b) if value < b.value => {}
                Some(b) if value == b.value => {
                    b.n_tied += 1;
                    if self.rng.next_u64() % b.n_tied == 0 {
                        b.at = at;
                        b.token = token;
                    }
                }
                _ => {
                    *best = Some(Best {
                        value,
                        at,
                        token,
                        n_tied: 1,
                    })
                }
            }
        }
    }
}

impl Bot for Greedy {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read(input)?;
        self.answer(&obs)
    }
}
