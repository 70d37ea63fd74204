//! Accumulates finished matches into the counts a report prints: per bot wins, draws, losses,
//! mean score and mean rank; per bot and seat the same; and the pairwise matrix.
//!
//! A match is a slice of [`Placing`]s in seat order (element `k` is seat `k`). With two or more
//! players "win", "draw" and "loss" are defined against the whole field: a bot wins when it is
//! alone in first place, draws when it shares first place, and loses otherwise. The pairwise
//! matrix compares ranks two by two, so in a 4-player match each bot gets three pairwise
//! results. Faults and their reasons are not counted here; the arena knows them.

use serde::{Deserialize, Serialize};

use crate::elo::{GameResult, Wdl};
use crate::StatsError;

/// One bot's result in one match.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Placing {
    /// Index of the bot in the run (its `BotId`).
    pub bot: usize,
    /// 1-based rank; tied bots share a rank.
    pub rank: u32,
    /// The game's final score for this bot.
    pub score: f64,
}

/// Counts for one bot, or one bot in one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BotTally {
    /// Matches played.
    pub games: u64,
    /// Alone in first place.
    pub wins: u64,
    /// First place shared.
    pub draws: u64,
    /// Not in first place.
    pub losses: u64,
    /// Sum of game scores.
    pub score_sum: f64,
    /// Sum of ranks.
    pub rank_sum: u64,
}

/// The per-seat counts of one bot (same fields as [`BotTally`]).
pub type SeatTally = BotTally;

/// How the row bot did against the column bot in the matches where both played.
pub type PairCell = Wdl;

/// The accumulated results of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    n_bots: usize,
    bots: Vec<BotTally>,
    /// `seats[bot][seat]`, grown as seats appear.
    seats: Vec<Vec<SeatTally>>,
    /// Row-major `n_bots × n_bots`.
    pairs: Vec<PairCell>,
    matches: u64,
}

impl BotTally {
    /// Mean game score; `None` before the first match.
    pub fn mean_score(&self) -> Option<f64> {
        (self.games > 0).then(|| self.score_sum / self.games as f64)
    }

    /// Mean rank; `None` before the first match.
    pub fn mean_rank(&self) -> Option<f64> {
        (self.games > 0).then(|| self.rank_sum as f64 / self.games as f64)
    }

    /// Win/draw/loss counts against the field.
    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }

    fn add(&mut self, result: GameResult, placing: &Placing) {
        self.games += 1;
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
        self.score_sum += placing.score;
        self.rank_sum += u64::from(placing.rank);
    }
}

impl Tally {
    /// An empty tally for `n_bots` bots.
    pub fn new(n_bots: usize) -> Tally {
        Tally {
            n_bots,
            bots: vec![BotTally::default(); n_bots],
            seats: vec![Vec::new(); n_bots],
            pairs: vec![PairCell::default(); n_bots * n_bots],
            matches: 0,
        }
    }

    /// Adds one match; on error nothing is counted.
    pub fn add_match(&mut self, placings: &[Placing]) -> Result<(), StatsError> {
        validate_match(self.n_bots, placings)?;
        let best = placings.iter().map(|p| p.rank).min().unwrap_or(1);
        let n_best = placings.iter().filter(|p| p.rank == best).count();
        for (seat, placing) in placings.iter().enumerate() {
            let result = if placing.rank != best {
                GameResult::Loss
            } else if n_best == 1 {
                GameResult::Win
            } else {
                GameResult::Draw
            };
            self.bots[placing.bot].add(result, placing);
            let seats = &mut self.seats[placing.bot];
            if seats.len() <= seat {
                seats.resize(seat + 1, SeatTally::default());
            }
            seats[seat].add(result, placing);
            for other in placings {
                if other.bot != placing.bot {
                    let cell = &mut self.pairs[placing.bot * self.n_bots + other.bot];
                    cell.add(pairwise_result(placing.rank, other.rank));
                }
            }
        }
        self.matches += 1;
        Ok(())
    }

    /// Number of bots.
    pub fn n_bots(&self) -> usize {
        self.n_bots
    }

    /// Matches added.
    pub fn matches(&self) -> u64 {
        self.matches
    }

    /// Counts of one bot.
    pub fn bot(&self, bot: usize) -> &BotTally {
        &self.bots[bot]
    }

    /// Counts of one bot per seat, indexed by seat; seats it never took are zero.
    pub fn seats(&self, bot: usize) -> &[SeatTally] {
        &self.seats[bot]
    }

    /// How `row` did against `col` (rank comparison in every match both played).
    pub fn pair(&self, row: usize, col: usize) -> PairCell {
        self.pairs[row * self.n_bots + col]
    }

    /// `row`'s points fraction against `col` (wins + draws/2 over games); `None` if they never met.
    pub fn pair_score(&self, row: usize, col: usize) -> Option<f64> {
        let cell = self.pair(row, col);
        (cell.games() > 0).then(|| cell.points() / cell.games() as f64)
    }
}

/// The result of a bot ranked `rank` against one ranked `other` (lower rank is better).
pub(crate) fn pairwise_result(rank: u32, other: u32) -> GameResult {
    match rank.cmp(&other) {
        std::cmp::Ordering::Less => GameResult::Win,
        std::cmp::Ordering::Equal => GameResult::Draw,
        std::cmp::Ordering::Greater => GameResult::Loss,
    }
}

/// Checks a match: at least two placings, bot indices below `n_bots` and distinct, ranks ≥ 1,
/// finite scores.
pub(crate) fn validate_match(n_bots: usize, placings: &[Placing]) -> Result<(), StatsError> {
    let invalid = |why: String| Err(StatsError::InvalidMatch(why));
    if placings.len() < 2 {
        return invalid(format!("{} placings, need at least 2", placings.len()));
    }
    for (k, p) in placings.iter().enumerate() {
        if p.bot >= n_bots {
            return invalid(format!("bot {} out of range (n_bots = {n_bots})", p.bot));
        }
        if p.rank == 0 {
            return invalid(format!("bot {} has rank 0, ranks start at 1", p.bot));
        }
        if !p.score.is_finite() {
            return invalid(format!("bot {} has a non-finite score", p.bot));
        }
        if placings[..k].iter().any(|q| q.bot == p.bot) {
            return invalid(format!("bot {} appears twice", p.bot));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placing(bot: usize, rank: u32, score: f64) -> Placing {
        Placing { bot, rank, score }
    }

    #[test]
    fn two_player_matches_count_wins_draws_losses_and_seats() {
        let mut t = Tally::new(2);
        t.add_match(&[placing(0, 1, 10.0), placing(1, 2, 4.0)])
            .unwrap();
        t.add_match(&[placing(1, 1, 7.0), placing(0, 1, 7.0)])
            .unwrap();
        t.add_match(&[placing(1, 1, 9.0), placing(0, 2, 1.0)])
            .unwrap();
        assert_eq!(t.matches(), 3);
        assert_eq!(t.bot(0).wdl(), Wdl::new(1, 1, 1));
        assert_eq!(t.bot(0).mean_score(), Some(6.0));
        assert_eq!(t.bot(0).mean_rank(), Some(4.0 / 3.0));
        // Bot 0 sat in seat 0 once (won) and seat 1 twice (drew, lost).
        assert_eq!(t.seats(0)[0].wdl(), Wdl::new(1, 0, 0));
        assert_eq!(t.seats(0)[1].wdl(), Wdl::new(0, 1, 1));
        assert_eq!(t.pair(0, 1), Wdl::new(1, 1, 1));
        assert_eq!(t.pair(1, 0), Wdl::new(1, 1, 1));
        assert_eq!(t.pair_score(0, 1), Some(0.5));
        assert_eq!(t.pair_score(0, 0), None);
    }

    #[test]
    fn multiplayer_match_fills_the_pairwise_matrix() {
        let mut t = Tally::new(4);
        // Ranks 1, 2, 2, 4.
        let m = [
            placing(2, 2, 5.0),
            placing(0, 1, 9.0),
            placing(3, 4, 0.0),
            placing(1, 2, 5.0),
        ];
        t.add_match(&m).unwrap();
        assert_eq!(t.bot(0).wdl(), Wdl::new(1, 0, 0));
        assert_eq!(t.bot(1).wdl(), Wdl::new(0, 0, 1));
        assert_eq!(t.pair(0, 3), Wdl::new(1, 0, 0));
        assert_eq!(t.pair(1, 2), Wdl::new(0, 1, 0));
        assert_eq!(t.pair(2, 0), Wdl::new(0, 0, 1));
        assert_eq!(t.pair(3, 1), Wdl::new(0, 0, 1));
        assert_eq!(t.seats(3).len(), 3);
        assert_eq!(t.seats(3)[2].games, 1);
        assert_eq!(t.seats(3)[0].games, 0);
    }

    #[test]
    fn shared_first_place_is_a_draw() {
        let mut t = Tally::new(3);
        t.add_match(&[placing(0, 1, 3.0), placing(1, 1, 3.0), placing(2, 3, 0.0)])
            .unwrap();
        assert_eq!(t.bot(0).wdl(), Wdl::new(0, 1, 0));
        assert_eq!(t.bot(2).wdl(), Wdl::new(0, 0, 1));
    }

    #[test]
    fn invalid_matches_are_rejected_without_counting() {
        let mut t = Tally::new(2);
        let bad: [&[Placing]; 4] = [
            &[placing(0, 1, 0.0)],
            &[placing(0, 1, 0.0), placing(2, 2, 0.0)],
            &[placing(0, 1, 0.0), placing(0, 2, 0.0)],
            &[placing(0, 0, 0.0), placing(1, 2, 0.0)],
        ];
        for m in bad {
            assert!(matches!(t.add_match(m), Err(StatsError::InvalidMatch(_))));
        }
        assert_eq!(t.matches(), 0);
        assert_eq!(t.bot(0).games, 0);
    }
}
