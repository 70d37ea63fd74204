//! How long a search may run: an iteration count, a wall-clock deadline, or both (whichever
//! ends first). Searches always complete at least one iteration so they can answer.

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

    /// True once `done` iterations exhaust the budget (never before the first one). With
    /// neither limit set, one iteration is the budget.
    pub(crate) fn exhausted(&self, done: u64) -> bool {
        if done == 0 {
            return false;
        }
        if self.iterations.is_some_and(|n| done >= n) {
            return true;
        }
        match self.deadline {
            Some(deadline) => Instant::now() >= deadline,
            None => self.iterations.is_none(),
        }
    }
}
