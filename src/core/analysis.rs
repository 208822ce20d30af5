//! Analysis helpers for the later pages: logit quantisation (paper Figure 8),
//! activation-outlier statistics (Table 5) and the effective rank of an attention map.

use super::linalg::Mat;
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

/// The largest |a − b| over paired values: how far a GPU result is from the core's.
/// NaN if any pair is NaN (`f32::max` would drop it, and a check could never fail).
pub fn max_abs_diff<'a>(a: impl IntoIterator<Item = &'a f32>, b: impl IntoIterator<Item = &'a f32>) -> f32 {
    a.into_iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, |m, d| if m.is_nan() || d.is_nan() { f32::NAN } else { m.max(d) })
}

/// Symmetric absmax quantisation of one value to `bits` bits: the grid has
/// 2^(bits−1) − 1 steps of `absmax / (2^(bits−1) − 1)` on each side of zero.
pub fn quantize_absmax(value: f32, absmax: f32, bits: u32) -> f32 {
    assert!((2..=24).contains(&bits), "quantisation needs 2 to 24 bits, got {bits}");
    if absmax <= 0.0 {
        return 0.0;
    }
    let levels = ((1u32 << (bits - 1)) - 1) as f32;
    let step = absmax / levels;
    (value / step).round().clamp(-levels, levels) * step
}

/// Quantises a whole slice against its own absmax.
pub fn quantize_slice(values: &mut [f32], bits: u32) {
    let absmax = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    values.iter_mut().for_each(|v| *v = quantize_absmax(*v, absmax, bits));
}

/// The largest magnitudes and the median magnitude of a set of activations
/// (Table 5 of the paper reports top-1/2/3/10/100 and the median).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OutlierStats {
    pub top1: f32,
    pub top2: f32,
    pub top3: f32,
    pub top10: f32,
    pub top100: f32,
    pub median: f32,
    pub count: usize,
}

/// Statistics of |value|; a rank beyond the count reads as the smallest magnitude.
pub fn outlier_stats(values: impl IntoIterator<Item = f32>) -> OutlierStats {
    let mut mags: Vec<f32> = values.into_iter().map(f32::abs).collect();
    if mags.is_empty() {
        return OutlierStats::default();
    }
    mags.sort_unstable_by(|a, b| b.total_cmp(a));
    let n = mags.len();
    let kth = |k: usize| mags[(k - 1).min(n - 1)];
    let median = if n % 2 == 1 { mags[n / 2] } else { 0.5 * (mags[n / 2 - 1] + mags[n / 2]) };
    OutlierStats { top1: kth(1), top2: kth(2), top3: kth(3), top10: kth(10), top100: kth(100), median, count: n }
}

/// Effective rank (Roy & Vetterli 2007): exp of the entropy of the normalised singular
/// values. 1 for a rank-one map, n for a multiple of an n×n orthogonal matrix.
pub fn effective_rank(map: &Mat) -> f32 {
    let m = DMatrix::from_fn(map.nrows(), map.ncols(), |i, j| map[[i, j]] as f64);
    let sv = m.singular_values();
    let total: f64 = sv.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let entropy: f64 = sv.iter().map(|s| s / total).filter(|p| *p > 0.0).map(|p| -p * p.ln()).sum();
    entropy.exp() as f32
}
