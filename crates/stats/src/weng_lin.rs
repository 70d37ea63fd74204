//! Match-by-match Weng-Lin ratings (R. C. Weng and C.-J. Lin, *A Bayesian approximation method
//! for online ranking*, JMLR 12, 2011; the method OpenSkill implements), through `skillratings::weng_lin`, for 2- to 4-player matches with shared ranks.
//!
//! Each bot starts at μ = 25, σ = 25/3 and every match updates the participants with
//! `weng_lin_multi_team`, every bot a one-player team, using the Bradley-Terry "full pairing"
//! update: each bot's μ moves by `σ²/c · Σ_q (s_q − p_q)` and its σ shrinks, over all opponents
//! `q` with `c = √(σᵢ² + σ_q² + 2β²)`, `p_q` the modelled win probability and `s_q` 1, ½ or 0
//! by rank. The result depends on match order; [`crate::bradley_terry`] gives the
//! order-independent fit. The conservative rating `μ − 3σ` is what psyleague and cgarena sort by.

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use crate::table::{validate_match, Placing};
use crate::StatsError;

/// The Weng-Lin rating of one bot.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WengLinEntry {
    /// Index of the bot.
    pub bot: usize,
    /// Mean skill μ.
    pub rating: f64,
    /// Skill uncertainty σ.
    pub uncertainty: f64,
    /// `μ − 3σ`, a lower bound on the skill with about 99.7% confidence.
    pub conservative: f64,
    /// Matches the bot took part in.
    pub matches: u64,
}

/// Weng-Lin ratings of a run, updated one match at a time.
#[derive(Debug, Clone)]
pub struct WengLinTable {
    ratings: Vec<WengLinRating>,
    matches: Vec<u64>,
    config: WengLinConfig,
}

impl WengLinTable {
    /// `n_bots` bots at the default rating with skillratings' default β = 25/6.
    pub fn new(n_bots: usize) -> WengLinTable {
        WengLinTable {
            ratings: vec![WengLinRating::new(); n_bots],
            matches: vec![0; n_bots],
            config: WengLinConfig::new(),
        }
    }

    /// Updates the participants of one match; on error nothing changes.
    pub fn update(&mut self, placings: &[Placing]) -> Result<(), StatsError> {
        validate_match(self.ratings.len(), placings)?;
        let teams: Vec<[WengLinRating; 1]> =
            placings.iter().map(|p| [self.ratings[p.bot]]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(placings)
            .map(|(team, p)| (&team[..], MultiTeamOutcome::new(p.rank as usize)))
            .collect();
        let updated = weng_lin_multi_team(&input, &self.config);
        for (p, team) in placings.iter().zip(updated) {
            self.ratings[p.bot] = team[0];
            self.matches[p.bot] += 1;
        }
        Ok(())
    }

    /// Current ratings, in bot order.
    pub fn entries(&self) -> Vec<WengLinEntry> {
        self.ratings
            .iter()
            .zip(&self.matches)
            .enumerate()
            .map(|(bot, (r, &matches))| WengLinEntry {
                bot,
                rating: r.rating,
                uncertainty: r.uncertainty,
                conservative: r.rating - 3.0 * r.uncertainty,
                matches,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placing(bot: usize, rank: u32) -> Placing {
        Placing {
            bot,
            rank,
            score: 0.0,
        }
    }

    #[test]
    fn one_two_player_win_matches_the_closed_form() {
        // Two fresh players: c² = 2σ² + 2β², p = 1/(1 + e^0) = ½, so the winner gains
        // σ²/c · ½ and the loser loses as much.
        // python3: s=25/3; b=25/6; c=(2*s*s+2*b*b)**.5; 25 + s*s/c*0.5 = 27.63523138347365
        let mut t = WengLinTable::new(2);
        t.update(&[placing(0, 1), placing(1, 2)]).unwrap();
        let e = t.entries();
        assert!(
            (e[0].rating - 27.63523138347365).abs() < 1e-9,
            "{}",
            e[0].rating
        );
        assert!((e[1].rating - (50.0 - 27.63523138347365)).abs() < 1e-9);
        assert!(e[0].uncertainty < 25.0 / 3.0);
        assert_eq!((e[0].matches, e[1].matches), (1, 1));
    }

    #[test]
    fn four_player_ranks_with_a_tie_order_the_ratings() {
        let mut t = WengLinTable::new(4);
        for _ in 0..20 {
            t.update(&[placing(3, 4), placing(1, 2), placing(0, 1), placing(2, 2)])
                .unwrap();
        }
        let e = t.entries();
        assert!(e[0].rating > e[1].rating);
        assert!((e[1].rating - e[2].rating).abs() < 1e-9);
        assert!(e[2].rating > e[3].rating);
        assert!(e
            .iter()
            .all(|x| x.uncertainty < 25.0 / 3.0 && x.matches == 20));
    }

    #[test]
    fn invalid_match_changes_nothing() {
        let mut t = WengLinTable::new(2);
        assert!(t.update(&[placing(0, 1), placing(5, 2)]).is_err());
        assert_eq!(t.entries()[0].rating, 25.0);
    }
}
