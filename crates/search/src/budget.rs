//! How long a search may run: an iteration count, a wall-clock deadline, or both (whichever
//! ends first). Searches always complete at least one iteration so they can answer. A search
//! asks a `Pacer`, which reads the clock only every few iterations when they are short.

use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub iterations: Option<u64>,
    pub deadline: Option<Instant>,
}

impl Budget {
    /// A fixed number of iterations: deterministic for a given seed.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            iterations: Some(n.max(1)),
            deadline: None,
        }
    }

    /// Runs until `time` from `start` has passed.
    pub fn time_from(start: Instant, time: Duration) -> Budget {
        Budget {
            iterations: None,
            deadline: Some(start + time),
        }
    }
}

/// How often a `Pacer` reads the clock, at most: about this much time between two readings.
const CLOCK_INTERVAL: Duration = Duration::from_micros(20);

/// The most iterations between two readings of the clock.
const MAX_STRIDE: u64 = 32;

/// Asks a budget whether a search is over, reading the clock about every `CLOCK_INTERVAL`
/// rather than every iteration: late in a Blokus game an iteration takes half a microsecond,
/// and reading the clock each time was 4% of it. The iterations until the next reading are
/// set from the rate since the last one, so a search passes its deadline by about one
/// interval (at most `MAX_STRIDE` iterations).
pub(crate) struct Pacer {
    budget: Budget,
    next_check: u64,
    /// The iterations done and the time at the last reading (the start at first).
    last: (u64, Instant),
}

impl Pacer {
    pub fn new(budget: Budget) -> Pacer {
        Pacer {
            budget,
            next_check: 1,
            last: (0, Instant::now()),
        }
    }

    /// True once `done` iterations exhaust the budget (never before the first one), the clock
    /// read only at the paced iterations. With neither limit set, one iteration is the budget.
    pub fn exhausted(&mut self, done: u64) -> bool {
        if done == 0 {
            return false;
        }
        if self.budget.iterations.is_some_and(|n| done >= n) {
            return true;
        }
        let Some(deadline) = self.budget.deadline else {
            return self.budget.iterations.is_none();
        };
        if done < self.next_check {
            return false;
        }
        let now = Instant::now();
        if now >= deadline {
            return true;
        }
        let (then_done, then) = self.last;
        let per_iteration = now.duration_since(then).as_nanos() / u128::from(done - then_done);
        let stride = (CLOCK_INTERVAL.as_nanos() / per_iteration.max(1)).clamp(1, MAX_STRIDE.into());
        self.last = (done, now);
        self.next_check = done + stride as u64;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a deadline the pacer answers as the budget does, iteration by iteration.
    #[test]
    fn iteration_budgets_end_on_their_count() {
        for budget in [Budget::iterations(1), Budget::iterations(37)] {
            let mut pacer = Pacer::new(budget);
            let done = (0..).find(|&i| pacer.exhausted(i)).unwrap();
            assert_eq!(done, budget.iterations.unwrap());
        }
    }

    /// A deadline already past ends the search after its one iteration; a count ends a timed
    /// budget on the very iteration, whatever the pacing.
    #[test]
    fn timed_budgets_end_on_the_deadline_or_the_count() {
        let past = Budget::time_from(Instant::now(), Duration::ZERO);
        let mut pacer = Pacer::new(past);
        assert!(!pacer.exhausted(0));
        assert!(pacer.exhausted(1));
        let both = Budget {
            iterations: Some(1000),
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
        };
        let mut pacer = Pacer::new(both);
        assert_eq!((0..).find(|&i| pacer.exhausted(i)), Some(1000));
    }
}
