//! `greedy`: one-ply evaluation of every listed move. Bigger shapes first (10 points per
//! square), then the change in the bot's own anchor count plus the number of opponents'
//! anchor cells the shape covers; ties are broken at random. Opponents' anchors are rebuilt
//! from the board (their start cells before their first placement).

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, Bot, BotError, Input};

use super::{Observation, Reader};

pub struct Greedy {
    reader: Reader,
    rng: ChaCha8Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy {
            reader: Reader::default(),
            rng: chacha_rng(seed, 0),
        }
    }
}

/// Row-mask planes of one board size.
struct Planes {
    n: usize,
    mask: u32,
}

impl Planes {
    fn edge(&self, p: &[u32]) -> Vec<u32> {
        (0..self.n)
            .map(|y| {
                let up = if y > 0 { p[y - 1] } else { 0 };
                let down = p.get(y + 1).copied().unwrap_or(0);
                (p[y] << 1 | p[y] >> 1 | up | down) & self.mask
            })
            .collect()
    }

    fn diag(&self, p: &[u32]) -> Vec<u32> {
        (0..self.n)
            .map(|y| {
                let up = if y > 0 { p[y - 1] } else { 0 };
                let down = p.get(y + 1).copied().unwrap_or(0);
                let both = up | down;
                (both << 1 | both >> 1) & self.mask
            })
            .collect()
    }

    /// Anchor cells of a colour (R9 after the first placement).
    fn anchors(&self, own: &[u32], occupied: &[u32]) -> Vec<u32> {
        let edge = self.edge(own);
        let diag = self.diag(own);
        (0..self.n)
            .map(|y| diag[y] & !edge[y] & !occupied[y] & self.mask)
            .collect()
    }
}

/// Start cells as the board size tells them (R5, V1, V3).
fn starts(n: usize, n_players: usize, player: usize) -> Vec<(usize, usize)> {
    let m = n - 1;
    match n {
        14 if n_players == 2 => vec![(4, 4), (9, 9)],
        20 if n_players == 4 => vec![[(0, 0), (m, 0), (m, m), (0, m)][player]],
        _ => vec![[(0, 0), (m, m), (0, m), (m, 0)][player]],
    }
}

fn count(p: &[u32]) -> i64 {
    p.iter().map(|r| r.count_ones() as i64).sum()
}

/// Scores every valid move; higher is better.
pub(super) fn evaluate(obs: &Observation) -> Vec<i64> {
    let n = obs.size;
    let planes = Planes {
        n,
        mask: if n >= 32 { u32::MAX } else { (1u32 << n) - 1 },
    };
    let occupied: Vec<u32> = (0..n)
        .map(|y| obs.own.iter().fold(0, |acc, p| acc | p[y]))
        .collect();
    let opponent_anchors: Vec<Vec<u32>> = (0..obs.n_players)
        .filter(|&q| q != obs.my_id)
        .map(|q| {
            if count(&obs.own[q]) == 0 {
                let mut a = vec![0u32; n];
                for (x, y) in starts(n, obs.n_players, q) {
                    if occupied[y] >> x & 1 == 0 {
                        a[y] |= 1 << x;
                    }
                }
                a
            } else {
                planes.anchors(&obs.own[q], &occupied)
            }
        })
        .collect();
    let before = count(&obs.anchors);
    let mine = &obs.own[obs.my_id];
    obs.valid
        .iter()
        .map(|(_, cells)| {
            let mut shape = vec![0u32; n];
            for &(x, y) in cells {
                shape[y] |= 1 << x;
            }
            let own_after: Vec<u32> = (0..n).map(|y| mine[y] | shape[y]).collect();
            let occ_after: Vec<u32> = (0..n).map(|y| occupied[y] | shape[y]).collect();
            let gain = count(&planes.anchors(&own_after, &occ_after)) - before;
            let taken: i64 = opponent_anchors
                .iter()
                .map(|a| {
                    (0..n)
                        .map(|y| (a[y] & shape[y]).count_ones() as i64)
                        .sum::<i64>()
                })
                .sum();
            10 * cells.len() as i64 + gain + taken
        })
        .collect()
}

/// The index of greedy's choice among `obs.valid` (ties broken with `rng`).
pub(super) fn choose(obs: &Observation, rng: &mut ChaCha8Rng) -> usize {
    let values = evaluate(obs);
    let best = values.iter().copied().max().unwrap_or(0);
    let ties: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
    ties[(rng.next_u64() % ties.len() as u64) as usize]
}

impl Bot for Greedy {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let obs = self.reader.read_turn(input)?;
        let pick = choose(&obs, &mut self.rng);
        Ok(vec![obs.valid[pick].0.to_string()])
    }
}
