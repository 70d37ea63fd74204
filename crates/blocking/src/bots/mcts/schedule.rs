//! How the bot spreads its thinking over a game with `spread=1`: long in the opening and the
//! early middle game, where Blokus games are decided, short at the end, where the search runs
//! ten times as many iterations a second and the moves are few. Pentobi level 7 spends its
//! time so (about 3 s a move through its fourth placement, under 0.5 s from its tenth), where
//! the bot's flat `ms` spent the same on every answer (STRENGTH.md).

use std::time::Instant;

use realm_search::Budget;

/// The share of the bot's thinking time (`ms`) an answer gets after `placed` of the bot's own
/// placements: about `PEAK` through the fifth, then falling to `FLOOR` by the twelfth. Over the
/// first 18 placements it adds up to 16 answers' worth: against Pentobi level 7 at `ms=1600`
/// a game thought 22.8 s, and 23.3 s with `ms` alone (the time the book's answers save is not
/// carried over; STRENGTH.md).
pub(super) fn time_share(placed: u32) -> f64 {
    /// The opening's share.
    const PEAK: f64 = 2.1;
    /// The placement where the share has fallen to half the peak.
    const HALF_AT: f64 = 7.0;
    /// How many placements the fall takes (the logistic's scale).
    const FALL: f64 = 1.5;
    /// The end's share: enough for the search to see the last few placements through.
    const FLOOR: f64 = 0.1;
    let fall = ((f64::from(placed) - HALF_AT) / FALL).exp();
    (PEAK / (1.0 + fall)).max(FLOOR)
}

/// `budget` with its thinking time (from `start` to its deadline) scaled by `time_share`.
pub(super) fn spread(budget: Budget, start: Instant, placed: u32) -> Budget {
    let Some(deadline) = budget.deadline else {
        return budget;
    };
    let thinking = deadline.saturating_duration_since(start);
    Budget {
        deadline: Some(start + thinking.mul_f64(time_share(placed))),
        ..budget
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_opening_gets_twice_the_time_and_the_end_a_tenth() {
        let shares: Vec<f64> = (0..21).map(time_share).collect();
        assert!((shares[1] - 2.062).abs() < 1e-3, "{shares:?}");
        assert!((shares[7] - 1.05).abs() < 1e-9);
        assert_eq!(shares[12], 0.1);
        assert!(shares.windows(2).all(|w| w[1] <= w[0]), "{shares:?}");
        // The bot's first 18 placements out of the book think about 16 answers' worth of `ms`.
        let game: f64 = shares[..18].iter().sum();
        assert!((16.0..16.5).contains(&game), "{game}");
    }

    #[test]
    fn only_timed_budgets_are_spread() {
        let start = Instant::now();
        let timed = Budget::time_from(start, Duration::from_millis(1000));
        let early = spread(timed, start, 0).deadline.unwrap() - start;
        let late = spread(timed, start, 20).deadline.unwrap() - start;
        assert_eq!((early.as_millis(), late.as_millis()), (2080, 100));
        let counted = Budget::iterations(500);
        assert_eq!(spread(counted, start, 0), counted);
    }
}
