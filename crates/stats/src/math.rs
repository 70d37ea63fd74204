//! Numeric helpers the statistics need and `std` lacks: the error function, the normal CDF and
//! a bracketed root finder. Accuracy targets reporting (about 1e-13), not special-function
//! libraries.

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval is
/// `mean ± Z95 · sd`. Same constant as fastchess's `CI95ZSCORE` and cutechess's `phiInv(0.975)`.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// `400 / ln 10`: converts a natural-log strength difference to Elo points.
pub(crate) const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The complementary error function.
///
/// For `|x| < 2.5` this uses the Maclaurin series of `erf` (cancellation costs at most
/// `e^{6.25}` ulps); beyond, the continued fraction
/// `erfc x = e^{-x²}/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …))))`, evaluated backwards.
pub(crate) fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() < 2.5 {
        return 1.0 - erf_series(x);
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    let mut k = x;
    for n in (1..=120).rev() {
        k = x + (f64::from(n) / 2.0) / k;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * k)
}

/// The error function.
pub(crate) fn erf(x: f64) -> f64 {
    if x.abs() < 2.5 {
        erf_series(x)
    } else {
        1.0 - erfc(x)
    }
}

fn erf_series(x: f64) -> f64 {
    // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1)).
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    for n in 1..200 {
        let n = f64::from(n);
        term *= -x2 / n;
        let add = term / (2.0 * n + 1.0);
        sum += add;
        if add.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// The standard normal cumulative distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// A root of a decreasing function `f` on the open interval `(lo, hi)` by bisection.
///
/// The caller guarantees `f` is strictly decreasing there, positive near `lo` and negative near
/// `hi` (the endpoints themselves may be poles). Bisection is slow but cannot fail, and 200
/// halvings reach the resolution of `f64` for any bracket the statistics produce.
pub(crate) fn bisect_decreasing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let value = f(mid);
        if value > 0.0 {
            lo = mid;
        } else if value < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Reference values from Python's math.erf / math.erfc (C library, correctly rounded to ~1 ulp).
        let cases = [
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (-1.5, -0.9661051464753108),
        ];
        for (x, want) in cases {
            assert!((erf(x) - want).abs() < 1e-14, "erf({x}) = {}", erf(x));
        }
        let tail = [(3.0, 2.209049699858544e-05), (5.0, 1.5374597944280351e-12)];
        for (x, want) in tail {
            assert!(
                ((erfc(x) - want) / want).abs() < 1e-12,
                "erfc({x}) = {}",
                erfc(x)
            );
        }
        assert!((erfc(-3.0) - (2.0 - 2.209049699858544e-05)).abs() < 1e-15);
    }

    #[test]
    fn normal_cdf_of_z95_is_0_975() {
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-14);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-16);
    }

    #[test]
    fn bisection_finds_root_of_decreasing_function() {
        let root = bisect_decreasing(|x| 2.0 - x * x * x, 0.0, 4.0);
        assert!((root - 2f64.cbrt()).abs() < 1e-14);
    }
}
