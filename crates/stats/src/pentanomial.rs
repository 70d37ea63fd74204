//! The pentanomial model for paired games, as fastchess (`elo_pentanomial.cpp`) defines it.
//!
//! Each seed is played twice with the seats swapped, and the pair, not the game, is the unit of
//! observation: the two games share an opening, so they are correlated, and treating them as
//! independent (the trinomial model) misstates the variance. A pair scores 0, ½, 1, 1½ or 2
//! points for the measured bot, giving five buckets in fastchess's `Ptnml(0-2)` order:
//! `[LL, LD+DL, WL+LW+DD, WD+DW, WW]`. WL and DD are kept apart only for the `WL/DD` ratio.
//!
//! With `n` pairs and `p₀..p₄` the bucket fractions, on the per-game scale `aₖ = k/4`:
//! - score `s = Σ pₖ aₖ = WW + ¾·WD + ½·(WL+DD) + ¼·LD`;
//! - per-pair variance `σ² = Σ pₖ (aₖ − s)²`;
//! - Elo, interval, LOS and the `±` margin exactly as in [`crate::elo`] with `σ/√n`;
//! - normalized Elo `(s − ½)/√(2σ²) · 800/ln 10` (the `2` converts the pair variance to the
//!   per-game variance the normalized Elo is defined on).

use serde::{Deserialize, Serialize};

use crate::elo::{EloEstimate, GameResult, Wdl};
use crate::StatsError;

/// Pair counts in the five fastchess buckets, with WL and DD kept apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs lost twice (0 points).
    pub ll: u64,
    /// Pairs with a loss and a draw, in either order (½ point).
    pub ld: u64,
    /// Pairs with a win and a loss, in either order (1 point).
    pub wl: u64,
    /// Pairs drawn twice (1 point).
    pub dd: u64,
    /// Pairs with a win and a draw, in either order (1½ points).
    pub wd: u64,
    /// Pairs won twice (2 points).
    pub ww: u64,
}

/// The per-game score of each bucket of [`Pentanomial::counts`].
pub(crate) const BUCKET_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Counts from the five `Ptnml(0-2)` numbers fastchess prints. The middle bucket is
    /// recorded as DD because the WL/DD split is not known; only [`Pentanomial::wl_dd_ratio`]
    /// depends on it.
    pub fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll: counts[0],
            ld: counts[1],
            wl: 0,
            dd: counts[2],
            wd: counts[3],
            ww: counts[4],
        }
    }

    /// Counts one pair: the results of the measured bot in the two games of a seed.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        use GameResult::{Draw, Loss, Win};
        match (first, second) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// The five buckets in `Ptnml(0-2)` order: pair score 0, ½, 1, 1½, 2.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }

    /// The game-level counts of the same pairs (two games each).
    pub fn wdl(&self) -> Wdl {
        Wdl {
            wins: 2 * self.ww + self.wd + self.wl,
            draws: self.ld + 2 * self.dd + self.wd,
            losses: 2 * self.ll + self.ld + self.wl,
        }
    }

    /// The same pairs seen from the opponent.
    pub fn reversed(&self) -> Pentanomial {
        Pentanomial {
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    /// fastchess's `PairsRatio`: pairs won over pairs lost, `(WW + WD)/(LL + LD)`; `None`
    /// when no pair was lost.
    pub fn pairs_ratio(&self) -> Option<f64> {
        let lost = self.ll + self.ld;
        (lost > 0).then(|| (self.ww + self.wd) as f64 / lost as f64)
    }

    /// fastchess's `WL/DD Ratio`; `None` when no pair was drawn twice.
    pub fn wl_dd_ratio(&self) -> Option<f64> {
        (self.dd > 0).then(|| self.wl as f64 / self.dd as f64)
    }

    /// Elo difference, interval, normalized Elo and LOS of the pentanomial model (module docs).
    pub fn elo(&self) -> Result<EloEstimate, StatsError> {
        let n = self.pairs();
        if n == 0 {
            return Err(StatsError::NoGames);
        }
        let probs = self.counts().map(|c| c as f64 / n as f64);
        let score: f64 = probs.iter().zip(BUCKET_SCORES).map(|(p, a)| p * a).sum();
        let variance: f64 = probs
            .iter()
            .zip(BUCKET_SCORES)
            .map(|(p, a)| p * (a - score).powi(2))
            .sum();
        EloEstimate::from_moments(n, score, variance, 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fastchess output found in public repositories: `Ptnml(0-2)` counts, then the printed
    /// `Elo: x +/- e, nElo: y +/- f` and `LOS: z %`.
    const FASTCHESS: [([u64; 5], f64, f64, f64, f64, f64); 5] = [
        ([73, 79, 296, 91, 118], 27.02, 15.81, 32.26, 18.79, 99.96),
        ([40, 67, 295, 123, 54], 25.25, 13.92, 36.44, 20.01, 99.98),
        (
            [578, 1352, 1985, 1283, 564],
            -2.92,
            5.02,
            -3.70,
            6.34,
            12.65,
        ),
        ([19, 23, 269, 81, 108], 83.57, 16.15, 115.89, 21.53, 100.00),
        ([66, 79, 5, 0, 0], -303.61, 30.73, -622.74, 39.32, 0.00),
    ];

    #[test]
    fn pentanomial_matches_published_fastchess_output() {
        for (counts, elo, err, nelo, nerr, los) in FASTCHESS {
            let est = Pentanomial::from_counts(counts).elo().expect("finite");
            let close = |got: f64, want: f64| (got - want).abs() <= 0.005 + 1e-9;
            assert!(close(est.elo, elo), "{counts:?}: elo {}", est.elo);
            assert!(close(est.elo_error, err), "{counts:?}: ± {}", est.elo_error);
            assert!(close(est.nelo, nelo), "{counts:?}: nElo {}", est.nelo);
            assert!(
                close(est.nelo_error, nerr),
                "{counts:?}: nElo ± {}",
                est.nelo_error
            );
            assert!(close(est.los * 100.0, los), "{counts:?}: LOS {}", est.los);
        }
    }

    #[test]
    fn pairs_are_classified_into_fastchess_buckets() {
        use GameResult::{Draw, Loss, Win};
        let mut p = Pentanomial::default();
        let all = [Win, Draw, Loss];
        for a in all {
            for b in all {
                p.add_pair(a, b);
            }
        }
        // 9 ordered pairs: LL, LD×2, WL×2 + DD, WD×2, WW.
        assert_eq!(p.counts(), [1, 2, 3, 2, 1]);
        assert_eq!((p.wl, p.dd), (2, 1));
        assert_eq!(p.wdl(), Wdl::new(6, 6, 6));
        assert_eq!(p.wl_dd_ratio(), Some(2.0));
        assert_eq!(p.pairs_ratio(), Some(1.0));
    }

    #[test]
    fn reversing_negates_elo() {
        let p = Pentanomial::from_counts([73, 79, 296, 91, 118]);
        let a = p.elo().expect("finite");
        let b = p.reversed().elo().expect("finite");
        assert!((a.elo + b.elo).abs() < 1e-9);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
        assert_eq!(p.reversed().reversed(), p);
    }

    #[test]
    fn pairing_shrinks_the_interval_when_games_are_correlated() {
        // Every pair is a win and a loss: the trinomial model sees 50% decisive games, the
        // pentanomial model sees no variance at all.
        let p = Pentanomial {
            wl: 100,
            ..Pentanomial::default()
        };
        let paired = p.elo().expect("finite");
        let unpaired = p.wdl().elo().expect("finite");
        assert_eq!(paired.elo_error, 0.0);
        assert!(unpaired.elo_error > 10.0);
    }

    #[test]
    fn no_pairs_is_an_error() {
        assert_eq!(Pentanomial::default().elo(), Err(StatsError::NoGames));
    }
}
