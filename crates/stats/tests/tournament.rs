//! A whole simulated tournament through every accumulator: the batch fit must recover the
//! order of the true strengths it was generated from. The 10,000-match version runs only with
//! `REALM_SLOW_TESTS=1`.

use realm_stats::{BatchConfig, ChoiceData, Placing, Tally, WengLinTable};

/// SplitMix64, so the simulated results do not depend on any crate's RNG.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Plays `n_matches` 4-player matches among 8 bots whose Plackett-Luce strengths are
/// `e^{0.3·bot}`, returning each match's placings in seat order.
fn simulate(n_matches: usize, seed: u64) -> Vec<Vec<Placing>> {
    let mut rng = SplitMix(seed);
    let strength = |bot: usize| (0.3 * bot as f64).exp();
    (0..n_matches)
        .map(|_| {
            let mut seats: Vec<usize> = (0..8).collect();
            for i in (1..8).rev() {
                seats.swap(i, rng.next() as usize % (i + 1));
            }
            seats.truncate(4);
            // Draw the finishing order by successive strength-weighted choices.
            let mut left = seats.clone();
            let mut rank_of = [0u32; 8];
            let mut rank = 1;
            while !left.is_empty() {
                let total: f64 = left.iter().map(|&b| strength(b)).sum();
                let mut x = rng.unit() * total;
                let mut pick = left.len() - 1;
                for (k, &b) in left.iter().enumerate() {
                    x -= strength(b);
                    if x < 0.0 {
                        pick = k;
                        break;
                    }
                }
                rank_of[left.remove(pick)] = rank;
                rank += 1;
            }
            seats
                .iter()
                .map(|&bot| Placing {
                    bot,
                    rank: rank_of[bot],
                    score: f64::from(5 - rank_of[bot]),
                })
                .collect()
        })
        .collect()
}

fn check_tournament(n_matches: usize) {
    let matches = simulate(n_matches, 7);
    let mut tally = Tally::new(8);
    let mut weng_lin = WengLinTable::new(8);
    let mut rankings = ChoiceData::new(8);
    for m in &matches {
        tally.add_match(m).unwrap();
        weng_lin.update(m).unwrap();
        rankings.add_ranking(m).unwrap();
    }
    let pl = rankings.fit(&BatchConfig::default()).unwrap();
    let bt = ChoiceData::from_tally(&tally)
        .fit(&BatchConfig::default())
        .unwrap();
    assert!(pl.converged && bt.converged);
    // The true gap between neighbours is 0.3 nats = 52.1 Elo; the fit must be within 4
    // standard errors of it for every bot (the true ratings centered: 52.1·(bot − 3.5)).
    let step = 0.3 * 400.0 / std::f64::consts::LN_10;
    for r in &pl.ratings {
        let truth = step * (r.bot as f64 - 3.5);
        assert!(
            (r.elo - truth).abs() < 4.0 * r.std_error,
            "bot {}: {} ± {} vs {truth}",
            r.bot,
            r.elo,
            r.std_error
        );
    }
    // Bradley-Terry on the pairwise decomposition and Weng-Lin agree on the extremes.
    let best = |xs: Vec<f64>| {
        xs.iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i)
    };
    assert_eq!(best(bt.ratings.iter().map(|r| r.elo).collect()), Some(7));
    assert_eq!(
        best(weng_lin.entries().iter().map(|e| e.rating).collect()),
        Some(7)
    );
    assert_eq!(tally.matches(), n_matches as u64);
}

#[test]
fn five_hundred_match_tournament_recovers_the_true_order() {
    check_tournament(500);
}

#[test]
fn ten_thousand_match_tournament_recovers_the_true_order() {
    if std::env::var_os("REALM_SLOW_TESTS").is_none() {
        return;
    }
    check_tournament(10_000);
}
