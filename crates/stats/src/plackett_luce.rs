//! Rankings of multi-player matches as Plackett-Luce choices for the batch fit of
//! [`crate::bradley_terry`].
//!
//! A strict ranking `b₁ < b₂ < … < b_m` is the choices "b₁ out of all", "b₂ out of the rest", …
//! Tied ranks are resolved as every order of the tied bots being equally likely, which keeps
//! draws half wins: for a tie group `G` of `k` bots above the set `R` of worse-ranked bots, the
//! remaining subset `T ⊆ G` after some of the group is placed is each `|T|`-subset with
//! probability `1/C(k, |T|)`, and each member of `T` is the next choice with probability
//! `1/|T|`. So the choice "c out of `T ∪ R`" gets weight `1/(C(k, |T|)·|T|)`. Two tied players
//! give half a win each, exactly the Bradley-Terry convention, so a 2-player ranking is a
//! Bradley-Terry game. Groups are enumerated by subset, so a tie of `k` bots costs `2^k` choices;
//! groups larger than [`MAX_TIE`] are rejected.

use crate::bradley_terry::ChoiceData;
use crate::table::{validate_match, Placing};
use crate::StatsError;

/// The largest tie group a ranking may contain.
pub const MAX_TIE: usize = 16;

impl ChoiceData {
    /// Adds one match ranking (Plackett-Luce, ties as equally likely orders).
    pub fn add_ranking(&mut self, placings: &[Placing]) -> Result<(), StatsError> {
        validate_match(self.n_bots(), placings)?;
        let mut by_rank: Vec<(u32, usize)> = placings.iter().map(|p| (p.rank, p.bot)).collect();
        by_rank.sort_unstable();
        let groups: Vec<Vec<usize>> = by_rank
            .chunk_by(|a, b| a.0 == b.0)
            .map(|g| g.iter().map(|&(_, bot)| bot).collect())
            .collect();
        if let Some(big) = groups.iter().find(|g| g.len() > MAX_TIE) {
            return Err(StatsError::InvalidMatch(format!(
                "{} bots tied, at most {MAX_TIE} supported",
                big.len()
            )));
        }
        let mut below: Vec<usize> = Vec::new();
        // Walk from the worst group up so `below` holds the bots ranked after the current group.
        for group in groups.iter().rev() {
            let k = group.len();
            for mask in 1u32..(1 << k) {
                let remaining: Vec<usize> = (0..k)
                    .filter(|&j| mask & (1 << j) != 0)
                    .map(|j| group[j])
                    .collect();
                let size = remaining.len();
                if size + below.len() < 2 {
                    continue;
                }
                let weight = 1.0 / (binomial(k, size) * size as f64);
                let mut set: Vec<usize> = remaining.iter().chain(&below).copied().collect();
                set.sort_unstable();
                for &chosen in &remaining {
                    self.add_choice(set.clone(), chosen, weight);
                }
            }
            below.extend_from_slice(group);
        }
        Ok(())
    }
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bradley_terry::BatchConfig;
    use crate::elo::Wdl;

    fn placing(bot: usize, rank: u32) -> Placing {
        Placing {
            bot,
            rank,
            score: 0.0,
        }
    }

    #[test]
    fn two_player_rankings_reduce_to_bradley_terry() {
        // Bot 0 vs 1: 5 wins, 2 draws, 3 losses; bot 1 vs 2: 4-0-1; bot 0 vs 2: 1-1-1.
        let mut pl = ChoiceData::new(3);
        let mut bt = ChoiceData::new(3);
        let games: [(usize, usize, Wdl); 3] = [
            (0, 1, Wdl::new(5, 2, 3)),
            (1, 2, Wdl::new(4, 0, 1)),
            (0, 2, Wdl::new(1, 1, 1)),
        ];
        for (a, b, wdl) in games {
            bt.add_pairwise(a, b, wdl).unwrap();
            for (n, ranks) in [
                (wdl.wins, (1, 2)),
                (wdl.draws, (1, 1)),
                (wdl.losses, (2, 1)),
            ] {
                for _ in 0..n {
                    pl.add_ranking(&[placing(b, ranks.1), placing(a, ranks.0)])
                        .unwrap();
                }
            }
        }
        let config = BatchConfig::default();
        let (x, y) = (pl.fit(&config).unwrap(), bt.fit(&config).unwrap());
        for (p, q) in x.ratings.iter().zip(&y.ratings) {
            assert!((p.elo - q.elo).abs() < 1e-9, "{p:?} vs {q:?}");
            assert!((p.std_error - q.std_error).abs() < 1e-9);
        }
    }

    #[test]
    fn strict_ranking_is_successive_choices() {
        let mut data = ChoiceData::new(3);
        data.add_ranking(&[placing(2, 3), placing(0, 1), placing(1, 2)])
            .unwrap();
        let mut want = ChoiceData::new(3);
        want.add_choice(vec![0, 1, 2], 0, 1.0);
        want.add_choice(vec![1, 2], 1, 1.0);
        assert_eq!(data, want);
    }

    #[test]
    fn tied_ranks_are_averaged_over_orders() {
        // Ranks 1, 1, 3: the orders (a b c) and (b a c) with weight ½ each.
        let mut data = ChoiceData::new(3);
        data.add_ranking(&[placing(0, 1), placing(1, 1), placing(2, 3)])
            .unwrap();
        let mut want = ChoiceData::new(3);
        want.add_choice(vec![0, 1, 2], 0, 0.5);
        want.add_choice(vec![0, 1, 2], 1, 0.5);
        want.add_choice(vec![1, 2], 1, 0.5);
        want.add_choice(vec![0, 2], 0, 0.5);
        assert_eq!(data, want);
    }

    #[test]
    fn four_player_fit_matches_direct_maximisation() {
        // Five times 0 > 1 > 2 > 3 and five times 3 > 0 > 2 > 1, default prior. Reference: a
        // separate Python script maximising the Plackett-Luce log-likelihood plus the prior
        // directly (Newton's method on a finite-difference Hessian, no MM), and taking the
        // standard errors from the inverse of that Hessian, centered.
        let mut data = ChoiceData::new(4);
        for _ in 0..5 {
            data.add_ranking(&[placing(0, 1), placing(1, 2), placing(2, 3), placing(3, 4)])
                .unwrap();
            data.add_ranking(&[placing(3, 1), placing(0, 2), placing(2, 3), placing(1, 4)])
                .unwrap();
        }
        let fit = data.fit(&BatchConfig::default()).unwrap();
        assert!(fit.converged);
        let elo = [
            198.20195157620873,
            -93.9588583876702,
            -35.54456387410061,
            -68.69852931443788,
        ];
        let se = [
            67.65519118063263,
            65.32268129397652,
            53.06570723856683,
            68.28788886112314,
        ];
        for (r, (e, s)) in fit.ratings.iter().zip(elo.iter().zip(se)) {
            assert!((r.elo - e).abs() < 1e-5, "{r:?}");
            assert!((r.std_error - s).abs() < 1e-4, "{r:?}");
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(4, 2), 6.0);
        assert_eq!(binomial(5, 0), 1.0);
        assert_eq!(binomial(16, 8), 12870.0);
    }
}
