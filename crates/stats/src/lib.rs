//! Statistics that decide: what realm's arena computes from finished matches.
//!
//! Two-bot comparisons follow fastchess and cutechess exactly: Elo with a 95% interval and the
//! likelihood of superiority from win/draw/loss counts ([`elo`]) or from paired games
//! ([`pentanomial`]), and the sequential probability ratio test ([`sprt`]). Several bots get
//! two kinds of ratings: match-by-match Weng-Lin (OpenSkill) ratings ([`weng_lin`]) and an
//! order-independent maximum-likelihood fit, Bradley-Terry for pairs and Plackett-Luce for
//! rankings ([`bradley_terry`], [`plackett_luce`]). [`table`] accumulates the per-bot,
//! per-seat and pairwise counts of a run, and [`timing`] summarises response times.
//!
//! This crate is pure computation: no I/O, no clocks, no printing, no randomness. Every result
//! type derives `serde::Serialize` so reports can print it as JSON; infinite values (an Elo
//! interval that reaches a score of 0 or 1) serialize as `null` with `serde_json`.

pub mod bradley_terry;
pub mod elo;
mod linalg;
mod math;
pub mod pentanomial;
pub mod plackett_luce;
pub mod sprt;
pub mod table;
pub mod timing;
pub mod weng_lin;

pub use bradley_terry::{BatchConfig, BatchFit, BatchRating, ChoiceData};
pub use elo::{elo_to_score, score_to_elo, EloEstimate, GameResult, Wdl};
pub use math::normal_cdf;
pub use pentanomial::Pentanomial;
pub use sprt::{Sprt, SprtConfig, SprtDecision, SprtModel, SprtStatus};
pub use table::{BotTally, PairCell, Placing, SeatTally, Tally};
pub use timing::{percentiles, Percentiles};
pub use weng_lin::{WengLinEntry, WengLinTable};

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// There are no games (or pairs) to compute from.
    #[error("no games played")]
    NoGames,
    /// Every game was won (or every game lost), so the Elo difference is infinite.
    #[error("score {score} is 0 or 1, the Elo difference is infinite")]
    Saturated {
        /// The observed mean score.
        score: f64,
    },
    /// SPRT parameters that fastchess would also reject.
    #[error("invalid SPRT configuration: {0}")]
    InvalidSprt(String),
    /// The normalized-Elo maximum-likelihood iteration did not converge.
    #[error("the maximum-likelihood estimate for the SPRT did not converge")]
    NoConvergence,
    /// Batch-fit settings out of range.
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    /// A match result that cannot be used (bad bot index, repeated bot, rank 0, fewer than two placings).
    #[error("invalid match: {0}")]
    InvalidMatch(String),
}
