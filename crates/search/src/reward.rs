//! Per-player rewards in [0, 1] from a finished (or evaluated) game.

use realm_core::Outcome;

/// The most players any realm game seats.
pub const MAX_PLAYERS: usize = 4;

/// One reward per seat; seats beyond the game's player count stay 0.
pub type Rewards = [f32; MAX_PLAYERS];

/// The share of opponents each player beat, ties counting half: 1 for a sole winner, 0 for a
/// sole loser, 0.5 each in a two-player draw.
pub fn rank_rewards(ranks: &[u32]) -> Rewards {
    let mut out = [0.0; MAX_PLAYERS];
    let n = ranks.len().min(MAX_PLAYERS);
    if n < 2 {
        out[..n].fill(1.0);
        return out;
    }
    for (i, slot) in out.iter_mut().enumerate().take(n) {
        let mut beaten = 0.0;
        for j in 0..n {
            if j != i {
                if ranks[j] > ranks[i] {
                    beaten += 1.0;
                } else if ranks[j] == ranks[i] {
                    beaten += 0.5;
                }
            }
        }
        *slot = beaten / (n - 1) as f32;
    }
    out
}

/// Rank rewards blended with the score margin over the best other player, squashed into
/// [0, 1]: `(1 - weight) * rank + weight * sigmoid(margin / scale)`. A small weight keeps
/// winning first while still preferring bigger wins and smaller losses.
pub fn margin_rewards(outcome: &Outcome, scale: f32, weight: f32) -> Rewards {
    margin_rewards_of(&outcome.ranks, &outcome.scores, scale, weight)
}

/// `margin_rewards` from the ranks and scores alone (for games that can give them without
/// building an `Outcome`, at the end of every playout).
pub fn margin_rewards_of(ranks: &[u32], scores: &[i64], scale: f32, weight: f32) -> Rewards {
    let mut out = rank_rewards(ranks);
    let n = scores.len().min(MAX_PLAYERS);
    if n < 2 || scale <= 0.0 {
        return out;
    }
    for (i, slot) in out.iter_mut().enumerate().take(n) {
        let best_other = (0..n)
            .filter(|&j| j != i)
            .map(|j| scores[j])
            .max()
            .unwrap_or(0);
        let margin = (scores[i] - best_other) as f32 / scale;
        let squashed = 1.0 / (1.0 + (-margin).exp());
        *slot = (1.0 - weight) * *slot + weight * squashed;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_give_shares_of_opponents_beaten() {
        assert_eq!(rank_rewards(&[1, 2]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(rank_rewards(&[1, 1]), [0.5, 0.5, 0.0, 0.0]);
        let four = rank_rewards(&[2, 1, 4, 2]);
        assert_eq!(four, [0.5, 1.0, 0.0, 0.5]);
    }

    #[test]
    fn margins_order_wins_by_size() {
        let outcome = |scores: Vec<i64>, ranks: Vec<u32>| Outcome {
            scores,
            ranks,
            end: realm_core::EndReason::Finished,
            detail: String::new(),
            faults: vec![None, None],
            stats: Vec::new(),
        };
        let big = margin_rewards(&outcome(vec![30, 10], vec![1, 2]), 10.0, 0.2);
        let small = margin_rewards(&outcome(vec![11, 10], vec![1, 2]), 10.0, 0.2);
        assert!(big[0] > small[0] && small[0] > 0.8);
        assert!(big[1] < small[1] && small[1] < 0.2);
    }
}
