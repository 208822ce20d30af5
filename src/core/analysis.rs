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

/// The ranks [`OutlierStats`] reports, largest first.
const TOP_RANKS: usize = 100;

/// Statistics of |value|; a rank beyond the count reads as the smallest magnitude.
/// Order statistics by selection (O(n)) rather than a full sort: the explorer computes
/// them for every head's logits on each step of a λ drag. Same values as sorting.
pub fn outlier_stats(values: impl IntoIterator<Item = f32>) -> OutlierStats {
    let mut mags: Vec<f32> = values.into_iter().map(f32::abs).collect();
    let n = mags.len();
    if n == 0 {
        return OutlierStats::default();
    }
    let desc = |a: &f32, b: &f32| b.total_cmp(a);
    if n <= 4 * TOP_RANKS {
        mags.sort_unstable_by(desc);
    } else {
        // Descending: the n/2 largest before the middle, the rest after it.
        let mid = n / 2;
        let (larger, _, _) = mags.select_nth_unstable_by(mid, desc);
        let below_mid = larger.iter().copied().min_by(f32::total_cmp).expect("n > 2 so the larger half is not empty");
        // The largest TOP_RANKS, in order, at the front.
        larger.select_nth_unstable_by(TOP_RANKS - 1, desc);
        larger[..TOP_RANKS].sort_unstable_by(desc);
        mags[mid - 1] = below_mid;
    }
    let kth = |k: usize| mags[(k - 1).min(n - 1)];
    let median = if n % 2 == 1 { mags[n / 2] } else { 0.5 * (mags[n / 2 - 1] + mags[n / 2]) };
    OutlierStats { top1: kth(1), top2: kth(2), top3: kth(3), top10: kth(10), top100: kth(TOP_RANKS), median, count: n }
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
