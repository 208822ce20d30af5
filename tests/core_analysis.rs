//! The analysis helpers: absmax quantisation, outlier statistics, effective rank, GPU-vs-core gaps.

use difflens::core::analysis::{effective_rank, max_abs_diff, outlier_stats, quantize_absmax, quantize_slice};
use ndarray::Array2;

#[test]
fn absmax_quantisation_keeps_the_extremes_and_rounds_the_rest() {
    // 4 bits: 7 steps of 1/7 on each side of zero.
    assert_eq!(quantize_absmax(1.0, 1.0, 4), 1.0);
    assert_eq!(quantize_absmax(-1.0, 1.0, 4), -1.0);
    assert!((quantize_absmax(0.2, 1.0, 4) - 1.0 / 7.0).abs() < 1e-7);
    assert_eq!(quantize_absmax(0.05, 1.0, 4), 0.0);
    assert_eq!(quantize_absmax(3.0, 0.0, 8), 0.0, "an all-zero tensor stays zero");
    let mut v = vec![0.3f32, -2.0, 1.1, 0.001];
    quantize_slice(&mut v, 16);
    assert!(v.iter().zip([0.3f32, -2.0, 1.1, 0.001]).all(|(a, b)| (a - b).abs() < 2.0 / 32767.0));
}

#[test]
fn outlier_stats_rank_magnitudes() {
    let values: Vec<f32> = (1..=200).map(|i| if i % 2 == 0 { i as f32 } else { -(i as f32) }).collect();
    let s = outlier_stats(values);
    assert_eq!((s.top1, s.top2, s.top3, s.top10, s.top100), (200.0, 199.0, 198.0, 191.0, 101.0));
    assert_eq!(s.median, 100.5);
    assert_eq!(s.count, 200);
    let short = outlier_stats([3.0, -1.0]);
    assert_eq!((short.top1, short.top10, short.median), (3.0, 1.0, 2.0));
}

/// The statistics by selection equal those of a full sort, for every size around the
/// switch between the two and with many ties (values on a coarse grid).
#[test]
fn outlier_stats_equal_a_full_sort() {
    let mut state = 12345u32;
    let mut next = move || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    };
    for n in [1usize, 2, 3, 99, 100, 101, 399, 400, 401, 402, 403, 1000, 1001, 4097] {
        for grid in [0.0f32, 64.0] {
            let values: Vec<f32> = (0..n)
                .map(|_| {
                    let v = next() * 10.0;
                    if grid > 0.0 {
                        (v * grid).round() / grid
                    } else {
                        v
                    }
                })
                .collect();
            let mut sorted: Vec<f32> = values.iter().map(|v| v.abs()).collect();
            sorted.sort_by(|a, b| b.total_cmp(a));
            let kth = |k: usize| sorted[(k - 1).min(n - 1)];
            let median = if n % 2 == 1 { sorted[n / 2] } else { 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]) };
            let s = outlier_stats(values);
            assert_eq!((s.top1, s.top2, s.top3, s.top10, s.top100, s.median, s.count), (kth(1), kth(2), kth(3), kth(10), kth(100), median, n), "n = {n}, grid {grid}");
        }
    }
}

#[test]
fn effective_rank_of_simple_maps() {
    assert!((effective_rank(&Array2::eye(8)) - 8.0).abs() < 1e-4, "identity: full rank");
    let uniform = Array2::from_elem((8, 8), 1.0 / 8.0);
    assert!((effective_rank(&uniform) - 1.0).abs() < 1e-4, "every row the same: rank one");
    assert_eq!(effective_rank(&Array2::zeros((3, 3))), 0.0);
}

#[test]
fn max_abs_diff_is_the_largest_gap_either_way() {
    assert_eq!(max_abs_diff(&[1.0, -2.0, 3.0], &[1.5, 2.0, 3.0]), 4.0);
    assert_eq!(max_abs_diff(&[], &[]), 0.0);
}

/// A comparison that drops NaN could never fail: max_abs_diff keeps it.
#[test]
fn max_abs_diff_propagates_nan() {
    assert_eq!(max_abs_diff(&[1.0, 2.0], &[1.5, 2.0]), 0.5);
    for (a, b) in [([f32::NAN, 0.0], [0.0, 0.0]), ([0.0, 0.0], [0.0, f32::NAN]), ([0.0, 9.0], [f32::NAN, 0.0])] {
        assert!(max_abs_diff(&a, &b).is_nan(), "{a:?} vs {b:?}");
    }
}
