//! The core's softmax and its exponential against f64.

use difflens::core::softmax::{apply_mask, exp_f32, exp_shifted, softmax_rows};
use difflens::core::swiglu::swish;
use ndarray::Array2;

fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

/// Every 1/4096 between −87 and 0, and the ends: within two ulp of f64's exp.
#[test]
fn exp_shifted_is_within_two_ulp_over_its_range() {
    let mut worst = (0u32, 0.0f32);
    for k in 0..=(87 * 4096) {
        let x = -(k as f32) / 4096.0;
        let want = (x as f64).exp() as f32;
        let d = ulps(exp_shifted(x), want);
        if d > worst.0 {
            worst = (d, x);
        }
    }
    assert!(worst.0 <= 2, "{} ulp at x = {}", worst.0, worst.1);
    assert_eq!(exp_shifted(0.0), 1.0, "the row's largest score weighs exactly e^0");
    assert_eq!(exp_shifted(-0.0), 1.0);
    assert_eq!(exp_shifted(f32::NEG_INFINITY), 0.0, "a masked key weighs nothing");
    assert_eq!(exp_shifted(-1000.0), 0.0);
    assert_eq!(exp_shifted(-87.5), 0.0, "below a normal f32: zero");
    assert!(exp_shifted(-86.9) > 0.0);
}

/// Every 1/4096 between −87 and 88: within two ulp of f64's exp; beyond, 0 and e^88.
#[test]
fn exp_f32_is_within_two_ulp_from_minus_87_to_88() {
    let mut worst = (0u32, 0.0f32);
    for k in -(87 * 4096)..=(88 * 4096) {
        let x = k as f32 / 4096.0;
        let d = ulps(exp_f32(x), (x as f64).exp() as f32);
        if d > worst.0 {
            worst = (d, x);
        }
    }
    assert!(worst.0 <= 2, "{} ulp at x = {}", worst.0, worst.1);
    assert_eq!(exp_f32(0.0), 1.0);
    assert_eq!(exp_f32(-100.0), 0.0);
    assert_eq!(exp_f32(1000.0), (88.0f64).exp() as f32, "saturates instead of overflowing");
    assert!(exp_f32(f32::INFINITY).is_finite());
}

/// SwiGLU's swish against f64's z·σ(z): within 1e-6 relative where it is not tiny, and
/// within 1e-30 absolute far on the negative side (where f64 gives a denormal or 0).
#[test]
fn swish_matches_f64() {
    for k in -(120 * 64)..=(120 * 64) {
        let z = k as f32 / 64.0;
        let want = z as f64 / (1.0 + (-(z as f64)).exp());
        let got = swish(z) as f64;
        if want.abs() > 1e-30 {
            assert!(((got - want) / want).abs() < 1e-6, "swish({z}) = {got}, f64 {want}");
        } else {
            assert!((got - want).abs() < 1e-30, "swish({z}) = {got}, f64 {want}");
        }
    }
}

/// Masked random rows (a causal block starting at query 3): each weight within 1e-6 of
/// f64's softmax, relative (f32's sum and division add a few ulp to the exponential's
/// two), masked keys exactly 0, rows summing to 1.
#[test]
fn softmax_rows_match_f64() {
    let mut state = 7u32;
    let mut next = move || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let (rows, cols) = (40, 67);
    let mut x = Array2::from_shape_fn((rows, cols), |_| next() * 24.0);
    apply_mask(x.view_mut(), 3, true);
    let scores = x.clone();
    softmax_rows(x.view_mut());
    for i in 0..rows {
        let row = scores.row(i);
        // The shifted scores as f32 computes them (official code too): the reference
        // starts from the same rounded arguments.
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e = |v: f32| ((v - max) as f64).exp();
        let z: f64 = row.iter().map(|v| e(*v)).sum();
        let mut sum = 0.0f64;
        for j in 0..cols {
            let want = e(scores[[i, j]]) / z;
            assert!((x[[i, j]] as f64 - want).abs() <= 1e-6 * want, "[{i}][{j}]: {} vs {want}", x[[i, j]]);
            if j > i + 3 {
                assert_eq!(x[[i, j]], 0.0);
            }
            sum += x[[i, j]] as f64;
        }
        assert!((sum - 1.0).abs() < 1e-6);
    }
}
