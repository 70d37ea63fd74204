//! Order-independent batch ratings: the maximum-likelihood Bradley-Terry fit of pairwise results
//! and its generalisation to rankings, the Plackett-Luce model, on one engine.
//!
//! Model: bot `i` has strength `γᵢ = e^{θᵢ}`. Out of a set `S` of bots still unplaced, bot `c`
//! takes the best remaining place with probability `γ_c / Σ_{k∈S} γ_k`. A two-player game is one
//! such choice (Bradley-Terry); a ranking of `m` bots is `m − 1` successive choices
//! (Plackett-Luce). The likelihood therefore only needs, per bot, the weight of choices it won
//! (`wᵢ`), and per choice set `S`, the total weight `W_S` of choices made from it: that is
//! [`ChoiceData`]. Ties are weighted choices: a draw is half a win each way (see
//! [`crate::plackett_luce`] for tied ranks).
//!
//! Prior: every bot also plays `prior` virtual wins and `prior` virtual losses against a
//! reference of strength 1 (Elo 0), the device BayesElo and Hunter (2004, section 6) use so
//! that an undefeated or winless bot gets a finite rating. One virtual win and loss (the
//! default) is negligible after a few dozen games.
//!
//! Fit: Hunter's MM algorithm (Hunter, *MM algorithms for generalized Bradley-Terry models*,
//! Ann. Statist. 32, 2004), which increases the likelihood at every step:
//! `γᵢ ← (wᵢ + prior) / (2·prior/(γᵢ + 1) + Σ_{S∋i} W_S / Σ_{k∈S} γ_k)`, all bots at once, until
//! no `ln γᵢ` moves by more than `tolerance`. After each step all strengths are multiplied by
//! the factor that best fits the prior, because the data fix only ratios and MM alone would
//! crawl along the common scale when the prior is weak.
//!
//! Report: Elo `400/ln 10 · (θᵢ − mean θ)`, so the mean rating is 0. The covariance of θ is the
//! inverse of the observed information `H = Σ_S W_S (diag p_S − p_S p_Sᵀ) + prior terms`,
//! with `p_S` the choice probabilities in `S`; centering maps it to `A H⁻¹ A`, `A = I − 11ᵀ/n`.
//! The 95% interval is `elo ± 1.96 · se`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::elo::Wdl;
use crate::linalg::spd_inverse;
use crate::math::{bisect_decreasing, ELO_PER_NAT, Z95};
use crate::table::Tally;
use crate::StatsError;

/// Settings of the batch fit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BatchConfig {
    /// Virtual wins and (as many) losses of every bot against an Elo-0 reference; must be > 0.
    pub prior: f64,
    /// Iteration cap of the MM algorithm.
    pub max_iterations: usize,
    /// Convergence threshold on the largest change of `ln γ` in one iteration.
    pub tolerance: f64,
}

impl Default for BatchConfig {
    fn default() -> BatchConfig {
        BatchConfig {
            prior: 1.0,
            max_iterations: 100_000,
            tolerance: 1e-10,
        }
    }
}

/// One bot's batch rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BatchRating {
    /// Index of the bot.
    pub bot: usize,
    /// Elo relative to the mean of all bots.
    pub elo: f64,
    /// Standard error of `elo`.
    pub std_error: f64,
    /// Lower end of the approximate 95% interval.
    pub lower: f64,
    /// Upper end of the approximate 95% interval.
    pub upper: f64,
}

/// The result of a batch fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchFit {
    /// Ratings in bot order.
    pub ratings: Vec<BatchRating>,
    /// MM iterations used.
    pub iterations: usize,
    /// Whether the tolerance was reached before the iteration cap.
    pub converged: bool,
}

/// Sufficient statistics of pairwise results and rankings for the batch fit.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceData {
    n_bots: usize,
    /// Weight of the choices each bot won.
    wins: Vec<f64>,
    /// Total weight of the choices made from each set (sorted bot indices).
    sets: BTreeMap<Vec<usize>, f64>,
}

impl ChoiceData {
    /// No results yet for `n_bots` bots.
    pub fn new(n_bots: usize) -> ChoiceData {
        ChoiceData {
            n_bots,
            wins: vec![0.0; n_bots],
            sets: BTreeMap::new(),
        }
    }

    /// Bradley-Terry data from the pairwise matrix of a [`Tally`]. In a multi-player match
    /// every pair of bots counts as one game decided by their ranks, which overstates the
    /// evidence (the pairs of one match are not independent); [`ChoiceData::add_ranking`] is
    /// the exact model for rankings.
    pub fn from_tally(tally: &Tally) -> ChoiceData {
        let mut data = ChoiceData::new(tally.n_bots());
        for a in 0..tally.n_bots() {
            for b in a + 1..tally.n_bots() {
                data.add_pairwise(a, b, tally.pair(a, b))
                    .expect("tally indices are in range");
            }
        }
        data
    }

    /// Number of bots.
    pub fn n_bots(&self) -> usize {
        self.n_bots
    }

    /// Adds games between `a` and `b` from `a`'s point of view; a draw counts as half a win
    /// for each.
    pub fn add_pairwise(&mut self, a: usize, b: usize, wdl: Wdl) -> Result<(), StatsError> {
        if a >= self.n_bots || b >= self.n_bots || a == b {
            return Err(StatsError::InvalidMatch(format!(
                "pair ({a}, {b}) with n_bots = {}",
                self.n_bots
            )));
        }
        let games = wdl.games() as f64;
        if games == 0.0 {
            return Ok(());
        }
        let draws = 0.5 * wdl.draws as f64;
        self.wins[a] += wdl.wins as f64 + draws;
        self.wins[b] += wdl.losses as f64 + draws;
        *self.sets.entry(vec![a.min(b), a.max(b)]).or_insert(0.0) += games;
        Ok(())
    }

    /// Records that `chosen` took the best place among `set` (sorted, containing `chosen`)
    /// with weight `weight`.
    pub(crate) fn add_choice(&mut self, set: Vec<usize>, chosen: usize, weight: f64) {
        self.wins[chosen] += weight;
        *self.sets.entry(set).or_insert(0.0) += weight;
    }

    /// Maximum-likelihood ratings with intervals (module docs).
    pub fn fit(&self, config: &BatchConfig) -> Result<BatchFit, StatsError> {
        if !(config.prior > 0.0 && config.prior.is_finite()) {
            return Err(StatsError::InvalidConfig(
                "the prior must be positive so that every rating is finite".to_string(),
            ));
        }
        if config.tolerance.is_nan() || config.tolerance <= 0.0 {
            return Err(StatsError::InvalidConfig(
                "the tolerance must be positive".to_string(),
            ));
        }
        let n = self.n_bots;
        let prior = config.prior;
        let mut gamma = vec![1.0; n];
        let mut denom = vec![0.0; n];
        let mut iterations = 0;
        let mut converged = n == 0;
        while !converged && iterations < config.max_iterations {
            iterations += 1;
            for (d, g) in denom.iter_mut().zip(&gamma) {
                *d = 2.0 * prior / (g + 1.0);
            }
            for (set, weight) in &self.sets {
                let total: f64 = set.iter().map(|&k| gamma[k]).sum();
                for &k in set {
                    denom[k] += weight / total;
                }
            }
            let mut next: Vec<f64> = (0..n).map(|i| (self.wins[i] + prior) / denom[i]).collect();
            rescale_for_prior(&mut next);
            let max_step = next
                .iter()
                .zip(&gamma)
                .map(|(a, b)| (a.ln() - b.ln()).abs())
                .fold(0.0, f64::max);
            gamma = next;
            converged = max_step < config.tolerance;
        }
        let ratings = self.ratings(&gamma, prior)?;
        Ok(BatchFit {
            ratings,
            iterations,
            converged,
        })
    }

    /// Centered Elo ratings and standard errors at the strengths `gamma`.
    fn ratings(&self, gamma: &[f64], prior: f64) -> Result<Vec<BatchRating>, StatsError> {
        let n = self.n_bots;
        let mut info = vec![0.0; n * n];
        for (i, g) in gamma.iter().enumerate() {
            let q = g / (g + 1.0);
            info[i * n + i] += 2.0 * prior * q * (1.0 - q);
        }
        for (set, weight) in &self.sets {
            let total: f64 = set.iter().map(|&k| gamma[k]).sum();
            for &k in set {
                let pk = gamma[k] / total;
                info[k * n + k] += weight * pk;
                for &l in set {
                    info[k * n + l] -= weight * pk * gamma[l] / total;
                }
            }
        }
        let cov = spd_inverse(&info, n).ok_or_else(|| {
            StatsError::InvalidConfig("the information matrix is singular".to_string())
        })?;
        let nf = n as f64;
        let row_means: Vec<f64> = (0..n)
            .map(|i| cov[i * n..(i + 1) * n].iter().sum::<f64>() / nf)
            .collect();
        let grand_mean = row_means.iter().sum::<f64>() / nf;
        let thetas: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
        let mean_theta = thetas.iter().sum::<f64>() / nf;
        Ok(thetas
            .iter()
            .enumerate()
            .map(|(bot, theta)| {
                // Var(θᵢ − mean θ) = Σᵢᵢ − 2·mean of row i + mean of Σ (Σ is symmetric).
                let var = (cov[bot * n + bot] - 2.0 * row_means[bot] + grand_mean).max(0.0);
                let elo = (theta - mean_theta) * ELO_PER_NAT;
                let std_error = var.sqrt() * ELO_PER_NAT;
                BatchRating {
                    bot,
                    elo,
                    std_error,
                    lower: elo - Z95 * std_error,
                    upper: elo + Z95 * std_error,
                }
            })
            .collect())
    }
}

/// Multiplies all strengths by the factor that maximises the prior's likelihood.
///
/// The data only determine ratios of strengths; the overall scale is pinned by the prior
/// alone, and with a weak prior MM moves along that direction by tiny steps. The best scale
/// `c` solves `Σᵢ (1 − cγᵢ)/(1 + cγᵢ) = 0` (derivative of `Σᵢ ln cγᵢ − 2 ln(1 + cγᵢ)`), so this
/// step is an exact coordinate ascent and keeps the likelihood increasing.
fn rescale_for_prior(gamma: &mut [f64]) {
    if gamma.is_empty() {
        return;
    }
    let ln_min = gamma.iter().map(|g| g.ln()).fold(f64::INFINITY, f64::min);
    let ln_max = gamma
        .iter()
        .map(|g| g.ln())
        .fold(f64::NEG_INFINITY, f64::max);
    let slope = |ln_c: f64| -> f64 {
        gamma
            .iter()
            .map(|g| {
                let x = ln_c.exp() * g;
                (1.0 - x) / (1.0 + x)
            })
            .sum()
    };
    let ln_c = bisect_decreasing(slope, -ln_max - 1.0, -ln_min + 1.0);
    let c = ln_c.exp();
    for g in gamma.iter_mut() {
        *g *= c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_prior() -> BatchConfig {
        BatchConfig {
            prior: 1e-7,
            ..BatchConfig::default()
        }
    }

    #[test]
    fn hand_checked_table_recovers_strengths_9_3_1() {
        // A beats B 3-1, B beats C 3-1, A beats C 9-1. With γ = (9, 3, 1) the model predicts
        // exactly these fractions (9/12, 3/4, 9/10), so the score equations hold and this is
        // the MLE. Centered: θ = (ln 3, 0, −ln 3), Elo = ±400·log₁₀ 3 = ±190.848501887865.
        let mut data = ChoiceData::new(3);
        data.add_pairwise(0, 1, Wdl::new(3, 0, 1)).unwrap();
        data.add_pairwise(1, 2, Wdl::new(3, 0, 1)).unwrap();
        data.add_pairwise(2, 0, Wdl::new(1, 0, 9)).unwrap();
        let fit = data.fit(&tiny_prior()).unwrap();
        assert!(fit.converged);
        let want = [190.848501887865, 0.0, -190.848501887865];
        for (r, w) in fit.ratings.iter().zip(want) {
            assert!((r.elo - w).abs() < 1e-3, "bot {}: {}", r.bot, r.elo);
        }
    }

    #[test]
    fn cyclic_results_give_equal_ratings() {
        let mut data = ChoiceData::new(3);
        data.add_pairwise(0, 1, Wdl::new(2, 0, 1)).unwrap();
        data.add_pairwise(1, 2, Wdl::new(2, 0, 1)).unwrap();
        data.add_pairwise(2, 0, Wdl::new(2, 0, 1)).unwrap();
        let fit = data.fit(&BatchConfig::default()).unwrap();
        for r in &fit.ratings {
            assert!(r.elo.abs() < 1e-6);
        }
    }

    #[test]
    fn two_bot_standard_error_matches_fisher_information() {
        // n games at p = ¾: Var(θa − θb) = 1/(n p (1 − p)), and each centered rating is half
        // the difference: se = 400/ln 10 · ½ / √(n p (1 − p)) = 57.905930920433576 for n = 12.
        let mut data = ChoiceData::new(2);
        data.add_pairwise(0, 1, Wdl::new(9, 0, 3)).unwrap();
        let fit = data.fit(&tiny_prior()).unwrap();
        let a = fit.ratings[0];
        assert!((a.elo - 95.4242509439325).abs() < 1e-3, "{}", a.elo);
        assert!(
            (a.std_error - 57.905930920433576).abs() < 1e-3,
            "{}",
            a.std_error
        );
        assert!((a.upper - a.elo - Z95 * a.std_error).abs() < 1e-9);
    }

    #[test]
    fn draws_count_as_half_wins() {
        let mut with_draws = ChoiceData::new(2);
        with_draws.add_pairwise(0, 1, Wdl::new(1, 2, 0)).unwrap();
        let mut halves = ChoiceData::new(2);
        halves.add_pairwise(0, 1, Wdl::new(2, 0, 1)).unwrap();
        let a = with_draws.fit(&BatchConfig::default()).unwrap();
        let b = halves.fit(&BatchConfig::default()).unwrap();
        assert!((a.ratings[0].elo - b.ratings[0].elo).abs() < 1e-9);
    }

    #[test]
    fn undefeated_bot_stays_finite() {
        let mut data = ChoiceData::new(3);
        data.add_pairwise(0, 1, Wdl::new(10, 0, 0)).unwrap();
        data.add_pairwise(0, 2, Wdl::new(10, 0, 0)).unwrap();
        data.add_pairwise(1, 2, Wdl::new(5, 0, 5)).unwrap();
        let fit = data.fit(&BatchConfig::default()).unwrap();
        assert!(fit.converged);
        let top = fit.ratings[0];
        assert!(top.elo.is_finite() && top.elo > 200.0, "{}", top.elo);
        assert!(top.std_error.is_finite());
        let sum: f64 = fit.ratings.iter().map(|r| r.elo).sum();
        assert!(sum.abs() < 1e-9);
    }

    #[test]
    fn bot_without_games_sits_at_the_reference() {
        let mut data = ChoiceData::new(3);
        data.add_pairwise(0, 1, Wdl::new(3, 0, 3)).unwrap();
        let fit = data.fit(&BatchConfig::default()).unwrap();
        for r in &fit.ratings {
            assert!(r.elo.abs() < 1e-6);
        }
        // Only the prior informs bot 2, so it is the least certain.
        assert!(fit.ratings[2].std_error > fit.ratings[0].std_error);
    }

    #[test]
    fn bad_inputs_are_rejected() {
        let mut data = ChoiceData::new(2);
        assert!(data.add_pairwise(0, 0, Wdl::new(1, 0, 0)).is_err());
        assert!(data.add_pairwise(0, 2, Wdl::new(1, 0, 0)).is_err());
        let zero_prior = BatchConfig {
            prior: 0.0,
            ..BatchConfig::default()
        };
        assert!(matches!(
            data.fit(&zero_prior),
            Err(StatsError::InvalidConfig(_))
        ));
    }
}
