//! Dense symmetric positive-definite inversion for the covariance of the batch rating fit.
//! Matrices are small (one row per bot), so a plain Cholesky factorisation is enough.

/// Inverts the symmetric positive-definite `n × n` row-major matrix `a`.
///
/// Returns `None` if `a` is not positive definite (a pivot is not positive), which for the
/// batch fit means the information matrix is singular.
pub(crate) fn spd_inverse(a: &[f64], n: usize) -> Option<Vec<f64>> {
    // Factor a = L Lᵀ (lower-triangular L, stored row-major).
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if sum.is_nan() || sum <= 0.0 {
                    return None;
                }
                l[i * n + i] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    // Solve L Lᵀ x = e_c column by column.
    let mut inv = vec![0.0; n * n];
    let mut y = vec![0.0; n];
    for c in 0..n {
        for i in 0..n {
            let mut sum = if i == c { 1.0 } else { 0.0 };
            for k in 0..i {
                sum -= l[i * n + k] * y[k];
            }
            y[i] = sum / l[i * n + i];
        }
        for i in (0..n).rev() {
            let mut sum = y[i];
            for k in i + 1..n {
                sum -= l[k * n + i] * inv[k * n + c];
            }
            inv[i * n + c] = sum / l[i * n + i];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_times_matrix_is_identity() {
        let a = [4.0, 1.0, 0.5, 1.0, 3.0, 0.25, 0.5, 0.25, 2.0];
        let inv = spd_inverse(&a, 3).expect("positive definite");
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((p - want).abs() < 1e-12, "({i},{j}) = {p}");
            }
        }
    }

    #[test]
    fn singular_matrix_is_rejected() {
        assert!(spd_inverse(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
    }
}
