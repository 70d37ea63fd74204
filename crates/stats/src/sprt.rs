//! The sequential probability ratio test as fastchess runs it (`sprt.cpp`): the generalized
//! SPRT of Michel Van den Bergh, which needs no draw model.
//!
//! - Bounds (Wald): `lower = ln(β/(1−α))`, `upper = ln((1−β)/α)`; α = β = 0.05 gives ±2.944.
//! - Observations are games (trinomial, scores 0, ½, 1) or pairs (pentanomial, per-game scores
//!   0, ¼, ½, ¾, 1), with empirical frequencies `p̂ₖ` over `N` observations. Empty buckets count
//!   as 0.001 observations (fastchess's `regularize`) so that no logarithm is of zero.
//! - `LLR = N Σ p̂ₖ ln(p₁ₖ/p₀ₖ)` where `p₀`, `p₁` are the maximum-likelihood distributions on
//!   the same support that satisfy H0 and H1 (the GSPRT). How a hypothesis constrains the
//!   distribution depends on the model:
//!   - [`SprtModel::Logistic`]: mean score `sᵢ = 1/(1 + 10^(−eloᵢ/400))`. Proposition 1.1 of
//!     Van den Bergh, *Comments on normalized Elo*: `pₖ = p̂ₖ/(1 + θ(aₖ − s))`, with θ the root
//!     of `Σ p̂ₖ (aₖ − s)/(1 + θ(aₖ − s)) = 0` in `(−1/(a_max − s), −1/(a_min − s))`.
//!   - [`SprtModel::Normalized`] (fastchess's default): `(μ − ½)/σ = tᵢ` with
//!     `tᵢ = eloᵢ/(800/ln 10)` for games and `√2·eloᵢ/(800/ln 10)` for pairs (section 4.1 of the
//!     same paper): iterate `φₖ = aₖ − ½ − ½ t σ (1 + ((aₖ − μ)/σ)²)` from the current `p`,
//!     solve `Σ p̂ₖ φₖ/(1 + θφₖ) = 0`, set `pₖ = p̂ₖ/(1 + θφₖ)`, until `p` stops moving.
//! - Decision: `LLR ≥ upper` accepts H1, `LLR ≤ lower` accepts H0, otherwise continue.
//!
//! Roots are found by bisection to full precision, where fastchess stops its ITP search at
//! a θ tolerance of 10⁻³ (logistic) or 10⁻⁷ (normalized); LLRs agree to the printed two decimals.

use serde::{Deserialize, Serialize};

use crate::elo::{elo_to_score, Wdl};
use crate::math::bisect_decreasing;
use crate::pentanomial::{Pentanomial, BUCKET_SCORES};
use crate::StatsError;

/// How the Elo hypotheses constrain the result distribution.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtModel {
    /// Normalized Elo (fastchess's default and fishtest's): hypotheses on `(μ − ½)/σ`.
    #[default]
    Normalized,
    /// Logistic Elo: hypotheses on the mean score.
    Logistic,
}

/// The parameters of one test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis; greater than `elo0`.
    pub elo1: f64,
    /// How the Elo values are interpreted.
    pub model: SprtModel,
}

/// What the test says after the games so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// Neither bound is reached: play more games.
    Continue,
    /// The LLR reached the lower bound: the difference is `elo0` or less.
    AcceptH0,
    /// The LLR reached the upper bound: the difference is `elo1` or more.
    AcceptH1,
}

/// A validated test: its bounds and LLR computations. Serializable for reports but built
/// only through [`Sprt::new`], so it always holds a valid configuration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sprt {
    config: SprtConfig,
    lower: f64,
    upper: f64,
}

/// The state of a test, for progress lines and reports.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// Lower (H0) bound.
    pub lower: f64,
    /// Upper (H1) bound.
    pub upper: f64,
    /// The decision the LLR implies.
    pub decision: SprtDecision,
    /// The test parameters.
    pub config: SprtConfig,
}

/// Wald's bounds `(ln(β/(1−α)), ln((1−β)/α))`.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

impl Sprt {
    /// Validates the parameters as fastchess does: `elo0 < elo1`, α and β in (0, 1), α + β < 1.
    pub fn new(config: SprtConfig) -> Result<Sprt, StatsError> {
        let SprtConfig {
            alpha,
            beta,
            elo0,
            elo1,
            ..
        } = config;
        let invalid = |why: &str| Err(StatsError::InvalidSprt(why.to_string()));
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return invalid("elo0 must be less than elo1");
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return invalid("alpha must be between 0 and 1");
        }
        if !(beta > 0.0 && beta < 1.0) {
            return invalid("beta must be between 0 and 1");
        }
        if alpha + beta >= 1.0 {
            return invalid("alpha + beta must be less than 1");
        }
        let (lower, upper) = bounds(alpha, beta);
        Ok(Sprt {
            config,
            lower,
            upper,
        })
    }

    /// The parameters.
    pub fn config(&self) -> SprtConfig {
        self.config
    }

    /// The lower (accept H0) bound.
    pub fn lower(&self) -> f64 {
        self.lower
    }

    /// The upper (accept H1) bound.
    pub fn upper(&self) -> f64 {
        self.upper
    }

    /// LLR from unpaired games. Zero when there are no games.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> Result<f64, StatsError> {
        let counts = [wdl.losses, wdl.draws, wdl.wins];
        self.llr(&counts, &[0.0, 0.5, 1.0], 1.0)
    }

    /// LLR from paired games (fastchess with `-report penta`, the default). Zero when there are
    /// no pairs.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> Result<f64, StatsError> {
        self.llr(&penta.counts(), &BUCKET_SCORES, std::f64::consts::SQRT_2)
    }

    /// The decision an LLR implies.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper {
            SprtDecision::AcceptH1
        } else if llr <= self.lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// LLR and decision from paired games.
    pub fn status_pentanomial(&self, penta: &Pentanomial) -> Result<SprtStatus, StatsError> {
        self.llr_pentanomial(penta).map(|llr| self.status(llr))
    }

    /// LLR and decision from unpaired games.
    pub fn status_trinomial(&self, wdl: &Wdl) -> Result<SprtStatus, StatsError> {
        self.llr_trinomial(wdl).map(|llr| self.status(llr))
    }

    fn status(&self, llr: f64) -> SprtStatus {
        SprtStatus {
            llr,
            lower: self.lower,
            upper: self.upper,
            decision: self.decide(llr),
            config: self.config,
        }
    }

    /// The GSPRT LLR for `counts` on the per-game `scores`; `t_factor` converts normalized Elo
    /// to `t` for this kind of observation (1 for games, √2 for pairs).
    fn llr(&self, counts: &[u64], scores: &[f64], t_factor: f64) -> Result<f64, StatsError> {
        if counts.iter().all(|&c| c == 0) {
            return Ok(0.0);
        }
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let probs: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.config.model {
            SprtModel::Logistic => (
                mle_mean(scores, &probs, elo_to_score(self.config.elo0)),
                mle_mean(scores, &probs, elo_to_score(self.config.elo1)),
            ),
            SprtModel::Normalized => {
                let to_t = |elo: f64| t_factor * elo / (800.0 / std::f64::consts::LN_10);
                (
                    mle_normalized(scores, &probs, to_t(self.config.elo0))?,
                    mle_normalized(scores, &probs, to_t(self.config.elo1))?,
                )
            }
        };
        let mean_log_ratio: f64 = probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum();
        Ok(total * mean_log_ratio)
    }
}

/// The distribution on `scores` of mean `s` closest to `probs` in likelihood (logistic model).
fn mle_mean(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let (a_min, a_max) = (scores[0], scores[scores.len() - 1]);
    // g(θ) = Σ p̂ₖ (aₖ − s)/(1 + θ(aₖ − s)) decreases in θ from +∞ to −∞ on this interval.
    let g = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let theta = bisect_decreasing(g, -1.0 / (a_max - s), -1.0 / (a_min - s));
    scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The distribution on `scores` with `(μ − ½)/σ = t` closest to `probs` in likelihood
/// (normalized model), by the fixed-point iteration of Van den Bergh's section 4.1.
///
/// The paper and fastchess start from the uniform distribution. For large `|t|` (beyond about
/// 230 nElo for pairs) that start has no bracketed root; then the solution is reached by
/// continuation, solving for `t/16, 2t/16, …, t` each from the previous solution.
fn mle_normalized(scores: &[f64], probs: &[f64], t: f64) -> Result<Vec<f64>, StatsError> {
    let uniform = vec![1.0 / scores.len() as f64; scores.len()];
    normalized_fixed_point(scores, probs, t, uniform.clone()).or_else(|_| {
        const STEPS: u32 = 16;
        (1..=STEPS).try_fold(uniform, |p, k| {
            normalized_fixed_point(scores, probs, t * f64::from(k) / f64::from(STEPS), p)
        })
    })
}

fn normalized_fixed_point(
    scores: &[f64],
    probs: &[f64],
    t: f64,
    mut p: Vec<f64>,
) -> Result<Vec<f64>, StatsError> {
    // The bisection for θ is exact to an ulp, but when an empty (regularized) bucket makes some
    // p̂ₖ tiny, `p̂ₖ/(1 + θφₖ)` amplifies that ulp and the iterates can stall about 1e-11 apart;
    // 1e-10 is far below the 1e-4 fastchess accepts, and 1e-7 is still accepted at the cap.
    let mut max_diff = f64::INFINITY;
    for _ in 0..1_000 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // The root is bracketed only if φ takes both signs.
        if !(u < 0.0 && v > 0.0 && sigma.is_finite()) {
            return Err(StatsError::NoConvergence);
        }
        let g = |theta: f64| -> f64 {
            phi.iter()
                .zip(probs)
                .map(|(f, q)| q * f / (1.0 + theta * f))
                .sum()
        };
        let theta = bisect_decreasing(g, -1.0 / v, -1.0 / u);
        max_diff = 0.0;
        for ((q, f), p_hat) in p.iter_mut().zip(&phi).zip(probs) {
            let next = p_hat / (1.0 + theta * f);
            max_diff = max_diff.max((next - *q).abs());
            *q = next;
        }
        if max_diff < 1e-10 {
            return Ok(p);
        }
    }
    if max_diff < 1e-7 {
        Ok(p)
    } else {
        Err(StatsError::NoConvergence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(SprtConfig {
            alpha: 0.05,
            beta: 0.05,
            elo0,
            elo1,
            model,
        })
        .expect("valid")
    }

    #[test]
    fn bounds_for_five_percent_errors_are_2_944() {
        let (lower, upper) = bounds(0.05, 0.05);
        // ln(19) = 2.9444389791664403.
        assert!((upper - 19f64.ln()).abs() < 1e-15);
        assert!((lower + 19f64.ln()).abs() < 1e-15);
        assert_eq!(format!("({lower:.2}, {upper:.2})"), "(-2.94, 2.94)");
        let (lower, upper) = bounds(0.01, 0.1);
        assert!((lower - (0.1f64 / 0.99).ln()).abs() < 1e-15);
        assert!((upper - 90f64.ln()).abs() < 1e-15);
    }

    /// fastchess output found in public repositories: `Ptnml(0-2)`, the `[elo0, elo1]` and the
    /// printed `LLR` (default normalized model, α = β = 0.05). The third run's bounds are not in
    /// the excerpt; `[0, 5]`, the bounds its author used for the same project, reproduces it.
    const FASTCHESS: [([u64; 5], f64, f64, f64); 4] = [
        ([73, 79, 296, 91, 118], 0.0, 10.0, 2.95),
        ([40, 67, 295, 123, 54], 0.0, 10.0, 2.95),
        ([578, 1352, 1985, 1283, 564], 0.0, 5.0, -2.96),
        ([598, 1553, 2651, 1569, 648], 0.0, 5.0, 0.74),
    ];

    #[test]
    fn pentanomial_llr_matches_published_fastchess_output() {
        for (counts, elo0, elo1, want) in FASTCHESS {
            let test = sprt(elo0, elo1, SprtModel::Normalized);
            let llr = test
                .llr_pentanomial(&Pentanomial::from_counts(counts))
                .expect("converges");
            assert!((llr - want).abs() <= 0.005, "{counts:?}: LLR {llr}");
        }
    }

    #[test]
    fn llr_matches_independent_computation() {
        // A separate Python implementation of the same equations (bisection for θ, fixed point
        // to 1e-10) gave these values.
        let penta = Pentanomial::from_counts([73, 79, 296, 91, 118]);
        let normalized = sprt(0.0, 10.0, SprtModel::Normalized);
        let logistic = sprt(0.0, 10.0, SprtModel::Logistic);
        let close = |got: f64, want: f64| (got - want).abs() < 1e-8;
        assert!(close(
            normalized.llr_pentanomial(&penta).unwrap(),
            2.945080691267317
        ));
        assert!(close(
            logistic.llr_pentanomial(&penta).unwrap(),
            3.383633284016428
        ));
        let wdl = Wdl::new(449, 275, 276);
        assert!(close(
            logistic.llr_trinomial(&wdl).unwrap(),
            6.3045815575567365
        ));
        let wdl = Wdl::new(382, 298, 320);
        let logistic5 = sprt(0.0, 5.0, SprtModel::Logistic);
        assert!(close(
            logistic5.llr_trinomial(&wdl).unwrap(),
            1.1237851271514139
        ));
        let normalized5 = sprt(0.0, 5.0, SprtModel::Normalized);
        assert!(close(
            normalized5.llr_trinomial(&wdl).unwrap(),
            0.9614115558094936
        ));
        let symmetric = sprt(-3.0, 3.0, SprtModel::Normalized);
        let wdl = Wdl::new(449, 275, 276);
        assert!(close(
            symmetric.llr_trinomial(&wdl).unwrap(),
            3.5087280593995738
        ));
        // Three wins and nothing else: empty buckets count as 0.001 games.
        let wdl = Wdl::new(3, 0, 0);
        assert!(close(
            logistic5.llr_trinomial(&wdl).unwrap(),
            0.04286260629528427
        ));
    }

    #[test]
    fn decisions_follow_the_bounds() {
        let test = sprt(0.0, 5.0, SprtModel::Normalized);
        assert_eq!(test.decide(0.0), SprtDecision::Continue);
        assert_eq!(test.decide(2.95), SprtDecision::AcceptH1);
        assert_eq!(test.decide(-2.95), SprtDecision::AcceptH0);
        let status = test
            .status_pentanomial(&Pentanomial::from_counts([578, 1352, 1985, 1283, 564]))
            .unwrap();
        assert_eq!(status.decision, SprtDecision::AcceptH0);
        let status = test
            .status_pentanomial(&Pentanomial::from_counts([598, 1553, 2651, 1569, 648]))
            .unwrap();
        assert_eq!(status.decision, SprtDecision::Continue);
    }

    #[test]
    fn no_games_give_zero_llr() {
        let test = sprt(0.0, 5.0, SprtModel::Normalized);
        assert_eq!(test.llr_pentanomial(&Pentanomial::default()), Ok(0.0));
        assert_eq!(test.llr_trinomial(&Wdl::default()), Ok(0.0));
    }

    #[test]
    fn invalid_configurations_are_rejected() {
        let base = SprtConfig {
            alpha: 0.05,
            beta: 0.05,
            elo0: 0.0,
            elo1: 5.0,
            model: SprtModel::Logistic,
        };
        let bad = [
            SprtConfig { elo1: 0.0, ..base },
            SprtConfig { alpha: 0.0, ..base },
            SprtConfig { beta: 1.0, ..base },
            SprtConfig {
                alpha: 0.5,
                beta: 0.5,
                ..base
            },
            SprtConfig {
                elo0: f64::NAN,
                ..base
            },
        ];
        for config in bad {
            assert!(
                matches!(Sprt::new(config), Err(StatsError::InvalidSprt(_))),
                "{config:?}"
            );
        }
    }

    #[test]
    fn extreme_normalized_hypotheses_are_reached_by_continuation() {
        // The uniform start fails beyond about 230 nElo for pairs; the values come from the
        // same Python reference, which succeeds up to 200 from the uniform start.
        let penta = Pentanomial::from_counts([73, 79, 296, 91, 118]);
        let llr = sprt(0.0, 200.0, SprtModel::Normalized)
            .llr_pentanomial(&penta)
            .unwrap();
        assert!((llr - -130.29028794083686).abs() < 1e-6, "{llr}");
        let all_won = Pentanomial::from_counts([0, 0, 0, 0, 50]);
        let llr = sprt(0.0, 200.0, SprtModel::Normalized)
            .llr_pentanomial(&all_won)
            .unwrap();
        assert!((llr - 24.469552618266082).abs() < 1e-6, "{llr}");
        for elo1 in [300.0, 500.0, 1000.0] {
            let test = sprt(-elo1, elo1, SprtModel::Normalized);
            let llr = test.llr_pentanomial(&penta).unwrap();
            assert!(llr.is_finite(), "elo1 {elo1}: {llr}");
            let better = test
                .llr_pentanomial(&Pentanomial { ww: 500, ..penta })
                .unwrap();
            assert!(better > llr, "elo1 {elo1}: {llr} -> {better}");
        }
    }
}
