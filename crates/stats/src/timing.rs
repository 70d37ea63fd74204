//! Response-time summaries: nearest-rank percentiles of per-turn response times in
//! microseconds. Collecting the times is the arena's job.

use serde::{Deserialize, Serialize};

/// Percentiles of a set of response times, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Number of samples.
    pub count: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest sample.
    pub max: u64,
    /// Mean, rounded down.
    pub mean: u64,
}

/// Nearest-rank percentiles: the `p`-th percentile is the smallest sample such that at least
/// `p`% of the samples are less than or equal to it, i.e. element `⌈p·n/100⌉ − 1` of the sorted
/// samples. `None` for an empty slice.
pub fn percentiles(micros: &[u64]) -> Option<Percentiles> {
    if micros.is_empty() {
        return None;
    }
    let mut sorted = micros.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let at = |p: usize| sorted[(p * n).div_ceil(100).max(1) - 1];
    let sum: u128 = sorted.iter().map(|&x| u128::from(x)).sum();
    Some(Percentiles {
        count: n as u64,
        p50: at(50),
        p90: at(90),
        p99: at(99),
        max: sorted[n - 1],
        mean: (sum / n as u128) as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_one_to_hundred_are_the_ranks() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        v.swap(3, 70);
        let p = percentiles(&v).unwrap();
        assert_eq!(
            (p.p50, p.p90, p.p99, p.max, p.count, p.mean),
            (50, 90, 99, 100, 100, 50)
        );
    }

    #[test]
    fn small_samples_use_nearest_rank() {
        let p = percentiles(&[300, 100, 200]).unwrap();
        // ⌈0.5·3⌉ = 2nd, ⌈0.9·3⌉ = 3rd, ⌈0.99·3⌉ = 3rd.
        assert_eq!(
            (p.p50, p.p90, p.p99, p.max, p.mean),
            (200, 300, 300, 300, 200)
        );
        let one = percentiles(&[42]).unwrap();
        assert_eq!((one.p50, one.p99, one.max), (42, 42, 42));
        assert_eq!(percentiles(&[]), None);
    }

    #[test]
    fn huge_values_do_not_overflow_the_mean() {
        let p = percentiles(&[u64::MAX, u64::MAX]).unwrap();
        assert_eq!(p.mean, u64::MAX);
    }
}
