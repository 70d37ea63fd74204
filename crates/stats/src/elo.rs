//! Elo difference, 95% interval and likelihood of superiority from win/draw/loss counts (the
//! trinomial model), computed as fastchess (`elo_wdl.cpp`) and cutechess (`elo.cpp`) do.
//!
//! With `n` games, `W`, `D`, `L` the fractions of wins, draws and losses:
//! - score `s = W + D/2`, per-game variance `σ² = W(1−s)² + D(½−s)² + L s²`;
//! - Elo difference `elo(s) = −400 log₁₀(1/s − 1)` (the logistic model);
//! - interval: `elo(s ± 1.95996 σ/√n)`; the `±` margin printed by both tools is half the width
//!   `(elo(s⁺) − elo(s⁻))/2`;
//! - LOS (fastchess): `Φ((s − ½)/(σ/√n))`; cutechess instead uses
//!   `½ + ½ erf((wins − losses)/√(2(wins + losses)))`, see [`Wdl::los_cutechess`];
//! - normalized Elo (fastchess `nElo`): `(s − ½)/σ · 800/ln 10`.
//!
//! The same formulas serve the pentanomial model with pairs in place of games; see
//! [`crate::pentanomial`]. This module does not decide anything; [`crate::sprt`] does.

use serde::{Deserialize, Serialize};

use crate::math::{erf, normal_cdf, Z95};
use crate::StatsError;

/// The result of one game from the point of view of the bot being measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// The bot won.
    Win,
    /// Neither bot won.
    Draw,
    /// The bot lost.
    Loss,
}

impl GameResult {
    /// The points this result is worth: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The same game seen from the opponent.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// Win/draw/loss counts of one bot against another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// An Elo difference with its 95% interval, as printed by fastchess.
///
/// `n` counts games for the trinomial model and game pairs for the pentanomial one. Bounds are
/// infinite when the score interval reaches 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Games (trinomial) or game pairs (pentanomial) the estimate is based on.
    pub n: u64,
    /// Mean score per game, in [0, 1].
    pub score: f64,
    /// Lower end of the 95% interval of the score.
    pub score_lower: f64,
    /// Upper end of the 95% interval of the score.
    pub score_upper: f64,
    /// Logistic Elo difference `−400 log₁₀(1/s − 1)`.
    pub elo: f64,
    /// Elo of `score_lower`.
    pub elo_lower: f64,
    /// Elo of `score_upper`.
    pub elo_upper: f64,
    /// The `±` margin fastchess and cutechess print: `(elo_upper − elo_lower)/2`.
    pub elo_error: f64,
    /// Normalized Elo (fastchess `nElo`).
    pub nelo: f64,
    /// The `±` margin of the normalized Elo.
    pub nelo_error: f64,
    /// Likelihood of superiority `Φ((s − ½)/(σ/√n))`, in [0, 1].
    pub los: f64,
}

impl Wdl {
    /// Counts from the three numbers.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The same games seen from the opponent.
    pub fn reversed(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Elo difference, interval, normalized Elo and LOS of the trinomial model (module docs).
    pub fn elo(&self) -> Result<EloEstimate, StatsError> {
        let n = self.games();
        if n == 0 {
            return Err(StatsError::NoGames);
        }
        let total = n as f64;
        let (w, d, l) = (
            self.wins as f64 / total,
            self.draws as f64 / total,
            self.losses as f64 / total,
        );
        let score = w + 0.5 * d;
        let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score * score;
        EloEstimate::from_moments(n, score, variance, 1.0)
    }

    /// LOS as cutechess prints it: `½ + ½ erf((wins − losses)/√(2(wins + losses)))`, which
    /// ignores draws. `None` when there are no decisive games.
    pub fn los_cutechess(&self) -> Option<f64> {
        let decisive = self.wins + self.losses;
        if decisive == 0 {
            return None;
        }
        let diff = self.wins as f64 - self.losses as f64;
        Some(0.5 + 0.5 * erf(diff / (2.0 * decisive as f64).sqrt()))
    }
}

impl EloEstimate {
    /// Builds the estimate from `n` observations (games or pairs) with mean per-game score
    /// `score` and per-observation variance `variance`. `nelo_factor` is 1 for games and 2 for
    /// pairs: fastchess divides by `√(nelo_factor · σ²)` for the normalized Elo, because a pair's
    /// mean score has half the variance of a game's.
    pub(crate) fn from_moments(
        n: u64,
        score: f64,
        variance: f64,
        nelo_factor: f64,
    ) -> Result<EloEstimate, StatsError> {
        if score <= 0.0 || score >= 1.0 {
            return Err(StatsError::Saturated { score });
        }
        let sd_mean = (variance / n as f64).sqrt();
        let score_lower = score - Z95 * sd_mean;
        let score_upper = score + Z95 * sd_mean;
        let elo_lower = score_to_elo(score_lower);
        let elo_upper = score_to_elo(score_upper);
        let nelo_scale = 800.0 / std::f64::consts::LN_10 / (nelo_factor * variance).sqrt();
        let excess = score - 0.5;
        // With zero variance every observation had the same score: the direction is certain.
        let (nelo, nelo_error, los) = if variance > 0.0 {
            (
                excess * nelo_scale,
                Z95 * sd_mean * nelo_scale,
                normal_cdf(excess / sd_mean),
            )
        } else if excess > 0.0 {
            (f64::INFINITY, 0.0, 1.0)
        } else if excess < 0.0 {
            (f64::NEG_INFINITY, 0.0, 0.0)
        } else {
            (0.0, 0.0, 0.5)
        };
        Ok(EloEstimate {
            n,
            score,
            score_lower,
            score_upper,
            elo: score_to_elo(score),
            elo_lower,
            elo_upper,
            elo_error: (elo_upper - elo_lower) / 2.0,
            nelo,
            nelo_error,
            los,
        })
    }
}

/// Logistic Elo difference of a mean score: `−400 log₁₀(1/s − 1)`; `±∞` at or beyond 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of an Elo difference: `1/(1 + 10^(−elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cutechess output published in archishou/MidnightChessEngine's changelog.md, "Score of A vs
    /// B: W - L - D": (wins, losses, draws, Elo, ±, LOS %). Cutechess's `phiInv` is an
    /// approximation (372-322-306 prints 17.9 where the exact quantile gives 17.97), so margins
    /// agree to 0.07.
    const CUTECHESS: [(u64, u64, u64, f64, f64, f64); 4] = [
        (449, 276, 275, 60.7, 18.5, 100.0),
        (382, 320, 298, 21.6, 18.1, 99.0),
        (372, 322, 306, 17.4, 17.9, 97.1),
        (382, 304, 314, 27.2, 17.9, 99.9),
    ];

    #[test]
    fn trinomial_matches_published_cutechess_output() {
        for (w, l, d, elo, err, los) in CUTECHESS {
            let wdl = Wdl::new(w, d, l);
            let est = wdl.elo().expect("finite");
            assert!((est.elo - elo).abs() < 0.05, "{w}-{l}-{d}: elo {}", est.elo);
            assert!(
                (est.elo_error - err).abs() < 0.07,
                "{w}-{l}-{d}: ± {}",
                est.elo_error
            );
            let cc = wdl.los_cutechess().expect("decisive games") * 100.0;
            assert!((cc - los).abs() < 0.05, "{w}-{l}-{d}: LOS {cc}");
        }
    }

    #[test]
    fn trinomial_matches_independent_computation() {
        // python3: s=(382+298/2)/1000; var=(382*(1-s)**2+298*(.5-s)**2+320*s*s)/1000;
        // z=1.959963984540054; elo(s±z*sqrt(var/1000)); Φ via math.erf; nElo=(s-.5)/sqrt(var)*800/ln10.
        let est = Wdl::new(382, 298, 320).elo().expect("finite");
        assert!((est.score - 0.531).abs() < 1e-12);
        assert!((est.elo - 21.568671346554343).abs() < 1e-9);
        assert!((est.elo_lower - 3.548334880900373).abs() < 1e-9);
        assert!((est.elo_upper - 39.705761287500394).abs() < 1e-9);
        assert!((est.elo_error - 18.078713203300012).abs() < 1e-9);
        assert!((est.los - 0.9905239653625288).abs() < 1e-12);
        assert!((est.nelo - 25.78040587620602).abs() < 1e-9);
        assert!((est.nelo_error - 21.533884995273503).abs() < 1e-9);
    }

    #[test]
    fn even_score_is_zero_elo_and_even_los() {
        let est = Wdl::new(10, 5, 10).elo().expect("finite");
        assert_eq!(est.elo, 0.0);
        assert!((est.los - 0.5).abs() < 1e-15);
        assert!((est.elo_lower + est.elo_upper).abs() < 1e-9);
    }

    #[test]
    fn all_draws_have_a_zero_width_interval() {
        let est = Wdl::new(0, 7, 0).elo().expect("finite");
        assert_eq!(
            (est.elo, est.elo_error, est.nelo, est.los),
            (0.0, 0.0, 0.0, 0.5)
        );
    }

    #[test]
    fn degenerate_counts_are_errors() {
        assert_eq!(Wdl::default().elo(), Err(StatsError::NoGames));
        assert_eq!(
            Wdl::new(3, 0, 0).elo(),
            Err(StatsError::Saturated { score: 1.0 })
        );
        assert_eq!(Wdl::new(0, 4, 0).los_cutechess(), None);
    }

    #[test]
    fn small_samples_have_infinite_bounds() {
        // 2 wins, 1 loss: the upper score bound passes 1.
        let est = Wdl::new(2, 0, 1).elo().expect("finite");
        assert_eq!(est.elo_upper, f64::INFINITY);
        assert!(est.elo_lower < est.elo);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 10.0, 800.0] {
            assert!((score_to_elo(elo_to_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((elo_to_score(400.0) - 10.0 / 11.0).abs() < 1e-15);
    }
}
