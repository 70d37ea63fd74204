//! Property tests over random counts: monotonicity of the SPRT, intervals around estimates,
//! symmetry, and consistency between the accumulators and the fits.

use proptest::prelude::*;
use realm_stats::{
    percentiles, BatchConfig, ChoiceData, Pentanomial, Placing, Sprt, SprtConfig, SprtModel, Tally,
    Wdl,
};

fn sprt(model: SprtModel) -> Sprt {
    Sprt::new(SprtConfig {
        alpha: 0.05,
        beta: 0.05,
        elo0: 0.0,
        elo1: 5.0,
        model,
    })
    .expect("valid")
}

fn models() -> impl Strategy<Value = SprtModel> {
    prop_oneof![Just(SprtModel::Normalized), Just(SprtModel::Logistic)]
}

fn penta() -> impl Strategy<Value = Pentanomial> {
    proptest::array::uniform5(0u64..300).prop_map(Pentanomial::from_counts)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn trinomial_llr_increases_with_a_win(w in 0u64..500, d in 0u64..500, l in 0u64..500, model in models()) {
        let test = sprt(model);
        let before = test.llr_trinomial(&Wdl::new(w, d, l)).unwrap();
        let after = test.llr_trinomial(&Wdl::new(w + 1, d, l)).unwrap();
        prop_assert!(after > before - 1e-9, "{before} -> {after}");
        let worse = test.llr_trinomial(&Wdl::new(w, d, l + 1)).unwrap();
        prop_assert!(worse < before + 1e-9, "{before} -> {worse}");
    }

    #[test]
    fn pentanomial_llr_increases_with_a_won_pair(p in penta(), model in models()) {
        let test = sprt(model);
        let before = test.llr_pentanomial(&p).unwrap();
        let better = Pentanomial { ww: p.ww + 1, ..p };
        let after = test.llr_pentanomial(&better).unwrap();
        prop_assert!(after > before - 1e-9, "{before} -> {after}");
    }

    #[test]
    fn normalized_llr_is_defined_for_wide_bounds(p in penta(), elo1 in 1.0f64..600.0) {
        let test = Sprt::new(SprtConfig {
            alpha: 0.05,
            beta: 0.05,
            elo0: -elo1,
            elo1,
            model: SprtModel::Normalized,
        })
        .unwrap();
        let llr = test.llr_pentanomial(&p);
        prop_assert!(matches!(llr, Ok(x) if x.is_finite()), "{llr:?}");
        let llr = test.llr_trinomial(&p.wdl());
        prop_assert!(matches!(llr, Ok(x) if x.is_finite()), "{llr:?}");
    }

    #[test]
    fn trinomial_interval_contains_the_estimate(w in 0u64..1000, d in 0u64..1000, l in 0u64..1000) {
        if let Ok(e) = Wdl::new(w, d, l).elo() {
            prop_assert!(e.elo_lower <= e.elo && e.elo <= e.elo_upper, "{e:?}");
            prop_assert!(e.score_lower <= e.score && e.score <= e.score_upper);
            prop_assert!((0.0..=1.0).contains(&e.los));
            let r = Wdl::new(w, d, l).reversed().elo().unwrap();
            prop_assert!((e.elo + r.elo).abs() < 1e-9);
        } else {
            prop_assert!(w + l == 0 || w == 0 && d == 0 || l == 0 && d == 0);
        }
    }

    #[test]
    fn pentanomial_interval_contains_the_estimate(p in penta()) {
        if let Ok(e) = p.elo() {
            prop_assert!(e.elo_lower <= e.elo && e.elo <= e.elo_upper, "{e:?}");
            prop_assert!(e.elo_error >= 0.0 && e.nelo_error >= 0.0);
            prop_assert!((0.0..=1.0).contains(&e.los));
        }
    }

    #[test]
    fn batch_fit_is_centered_and_intervals_contain_estimates(
        games in proptest::collection::vec((0usize..5, 0usize..5, 0u64..6, 0u64..3, 0u64..6), 0..20)
    ) {
        let mut data = ChoiceData::new(5);
        for (a, b, w, d, l) in games {
            if a != b {
                data.add_pairwise(a, b, Wdl::new(w, d, l)).unwrap();
            }
        }
        let fit = data.fit(&BatchConfig::default()).unwrap();
        prop_assert!(fit.converged);
        let sum: f64 = fit.ratings.iter().map(|r| r.elo).sum();
        prop_assert!(sum.abs() < 1e-6);
        for r in &fit.ratings {
            prop_assert!(r.elo.is_finite() && r.std_error.is_finite() && r.std_error > 0.0);
            prop_assert!(r.lower < r.elo && r.elo < r.upper);
        }
    }

    #[test]
    fn two_player_rankings_equal_bradley_terry(w in 0u64..8, d in 0u64..8, l in 0u64..8) {
        let mut bt = ChoiceData::new(2);
        bt.add_pairwise(0, 1, Wdl::new(w, d, l)).unwrap();
        let mut pl = ChoiceData::new(2);
        let place = |bot, rank| Placing { bot, rank, score: 0.0 };
        for (n, (r0, r1)) in [(w, (1, 2)), (d, (1, 1)), (l, (2, 1))] {
            for _ in 0..n {
                pl.add_ranking(&[place(0, r0), place(1, r1)]).unwrap();
            }
        }
        let (a, b) = (bt.fit(&BatchConfig::default()).unwrap(), pl.fit(&BatchConfig::default()).unwrap());
        prop_assert!((a.ratings[0].elo - b.ratings[0].elo).abs() < 1e-9);
        prop_assert!((a.ratings[0].std_error - b.ratings[0].std_error).abs() < 1e-9);
    }

    #[test]
    fn tally_is_consistent(
        matches in proptest::collection::vec(
            Just(()).prop_perturb(|_, mut rng| {
                // A random 2-4 player match over 6 bots with random ranks.
                let n = 2 + (rng.next_u32() % 3) as usize;
                let mut bots: Vec<usize> = (0..6).collect();
                for i in (1..bots.len()).rev() {
                    bots.swap(i, rng.next_u32() as usize % (i + 1));
                }
                bots.truncate(n);
                bots.into_iter()
                    .map(|bot| Placing { bot, rank: 1 + rng.next_u32() % n as u32, score: f64::from(rng.next_u32() % 50) })
                    .collect::<Vec<_>>()
            }),
            0..30,
        )
    ) {
        let mut t = Tally::new(6);
        for m in &matches {
            t.add_match(m).unwrap();
        }
        prop_assert_eq!(t.matches(), matches.len() as u64);
        for i in 0..6 {
            let b = t.bot(i);
            prop_assert_eq!(b.wins + b.draws + b.losses, b.games);
            let seat_games: u64 = t.seats(i).iter().map(|s| s.games).sum();
            prop_assert_eq!(seat_games, b.games);
            for j in 0..6 {
                prop_assert_eq!(t.pair(i, j), t.pair(j, i).reversed());
            }
        }
        let total_wins: u64 = (0..6).map(|i| t.bot(i).wins).sum();
        prop_assert!(total_wins <= matches.len() as u64);
    }

    #[test]
    fn percentiles_are_ordered(v in proptest::collection::vec(0u64..10_000_000, 1..300)) {
        let p = percentiles(&v).unwrap();
        prop_assert!(p.p50 <= p.p90 && p.p90 <= p.p99 && p.p99 <= p.max);
        prop_assert_eq!(p.max, *v.iter().max().unwrap());
        prop_assert!(p.mean <= p.max);
    }
}

#[test]
fn reports_serialize_to_json() {
    let est = Wdl::new(2, 0, 1).elo().unwrap();
    let json = serde_json::to_value(est).unwrap();
    // The upper bound is +∞ (score interval past 1); JSON has no infinity, so it is null.
    assert!(json["elo_upper"].is_null());
    assert!(json["elo"].as_f64().unwrap() > 100.0);
    let status = sprt(SprtModel::Normalized)
        .status_pentanomial(&Pentanomial::from_counts([578, 1352, 1985, 1283, 564]))
        .unwrap();
    let json = serde_json::to_string(&status).unwrap();
    assert!(json.contains("\"decision\":\"accept_h0\""), "{json}");
    assert!(json.contains("\"model\":\"normalized\""), "{json}");
    let mut t = Tally::new(2);
    t.add_match(&[
        Placing {
            bot: 0,
            rank: 1,
            score: 3.0,
        },
        Placing {
            bot: 1,
            rank: 2,
            score: 1.0,
        },
    ])
    .unwrap();
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["bots"][0]["wins"], 1);
}
