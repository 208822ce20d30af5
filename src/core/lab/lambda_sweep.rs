//! Differential SNR against λ, exactly, for any number of λ values; built whole or
//! merged from blocks of rows.

use super::*;
use serde::{Deserialize, Serialize};

/// Differential SNR as a function of λ, exactly, for any number of λ values.
///
/// Σ|a1 − λ·a2| over noise entries is piecewise linear in λ with a kink at every
/// ratio r = a1/a2, so after one sort of the ratios each λ costs a binary search.
/// Above `max_entries` noise entries (N ≳ 1400) every k-th query row is used.
pub struct LambdaSweep {
    /// (r, a2) sorted by r, for entries with a2 > 0.
    kinks: Vec<(f32, f32)>,
    /// Prefix sums of a2 and of a1 = r·a2 over `kinks`.
    prefix_a2: Vec<f64>,
    prefix_a1: Vec<f64>,
    /// Σ a1 over entries whose a2 underflowed to 0 (constant in λ).
    constant_noise: f64,
    signal_a1: f64,
    signal_a2: f64,
    n_signal_entries: usize,
    n_noise_entries: usize,
    n_keys: usize,
    /// Query rows used: every `row_stride`-th.
    pub row_stride: usize,
}

/// A point of an SNR curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnrPoint {
    pub x: f64,
    pub snr: f64,
}

/// What a block of query rows gives the λ sweep: its sorted kinks and its sums, so a
/// problem split by query rows (across workers, or across the page's slices) is summed
/// into the same [`LambdaSweep`] as when computed whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepPart {
    /// (r, a2), sorted by r, then a2.
    pub kinks: Vec<(f32, f32)>,
    pub constant_noise: f64,
    pub signal_a1: f64,
    pub signal_a2: f64,
    pub n_signal_entries: usize,
    pub n_noise_entries: usize,
}

/// The total order of kinks: by ratio, then by weight (`total_cmp`), so that merging
/// sorted blocks gives exactly the sequence one sort of all of them gives.
#[cfg(test)]
fn kink_order(a: &(f32, f32), b: &(f32, f32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
}

impl SweepPart {
    pub(super) fn add_row(&mut self, a1: &[f32], a2: &[f32], is_signal: &[bool]) {
        for ((&a1, &a2), &sig) in a1.iter().zip(a2).zip(is_signal) {
            if sig {
                self.signal_a1 += a1 as f64;
                self.signal_a2 += a2 as f64;
                self.n_signal_entries += 1;
            } else {
                self.n_noise_entries += 1;
                if a2 > 0.0 {
                    self.kinks.push((a1 / a2, a2));
                } else {
                    self.constant_noise += a1 as f64;
                }
            }
        }
    }
}

/// A kink as one integer ordered as `kink_order` orders kinks: each f32's bits mapped
/// so that unsigned order is `total_cmp`'s, the ratio's above the weight's. Merging
/// integers is a few times faster than comparing pairs of floats.
pub(super) fn kink_key(k: &(f32, f32)) -> u64 {
    let ordered = |x: f32| {
        let b = x.to_bits();
        if b >> 31 == 1 {
            !b
        } else {
            b | 1 << 31
        }
    };
    (u64::from(ordered(k.0)) << 32) | u64::from(ordered(k.1))
}

fn kink_of(key: u64) -> (f32, f32) {
    let float = |b: u32| f32::from_bits(if b >> 31 == 1 { b & !(1 << 31) } else { !b });
    (float((key >> 32) as u32), float(key as u32))
}

/// Two sorted runs of keys as one.
fn merge_sorted(a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() { b } else { a };
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let take_b = y < x;
        out.push(if take_b { y } else { x });
        j += usize::from(take_b);
        i += usize::from(!take_b);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// [`LambdaSweep::from_parts`] a merge at a time, so a caller on a browser's main thread
/// can paint between merges (a 2048² problem has about 1.4 million kinks).
pub struct SweepBuilder {
    n: usize,
    /// Sorted runs of kinks still to merge; merging the front two and queueing the result
    /// merges equal runs pairwise, log2(runs) passes over the kinks in all.
    runs: std::collections::VecDeque<Vec<u64>>,
    /// Blocks' kinks not yet made keys (one block per step).
    unkeyed: std::collections::VecDeque<Vec<(f32, f32)>>,
    /// Once one run is left: the kinks decoded and their prefix sums, so far.
    kinks: Vec<(f32, f32)>,
    prefix_a2: Vec<f64>,
    prefix_a1: Vec<f64>,
    constant_noise: f64,
    signal_a1: f64,
    signal_a2: f64,
    n_signal_entries: usize,
    n_noise_entries: usize,
}

impl SweepBuilder {
    /// The parts of consecutive row blocks, in row order (their sums are added in it).
    pub fn new(n: usize, parts: Vec<SweepPart>) -> Self {
        let mut b = Self {
            n,
            runs: Default::default(),
            unkeyed: Default::default(),
            kinks: vec![],
            prefix_a2: vec![0.0],
            prefix_a1: vec![0.0],
            constant_noise: 0.0,
            signal_a1: 0.0,
            signal_a2: 0.0,
            n_signal_entries: 0,
            n_noise_entries: 0,
        };
        for p in parts {
            b.constant_noise += p.constant_noise;
            b.signal_a1 += p.signal_a1;
            b.signal_a2 += p.signal_a2;
            b.n_signal_entries += p.n_signal_entries;
            b.n_noise_entries += p.n_noise_entries;
            b.unkeyed.push_back(p.kinks);
        }
        b
    }

    /// Kinks decoded and summed per step once the runs are merged.
    const PREFIX_STEP: usize = 1 << 18;

    /// Makes one block's kinks keys, or merges two runs, or once one is left, decodes and sums the next
    /// `PREFIX_STEP` of its kinks; false once nothing is left for [`Self::finish`].
    pub fn step(&mut self) -> bool {
        if let Some(kinks) = self.unkeyed.pop_front() {
            self.runs.push_back(kinks.iter().map(kink_key).collect());
            return true;
        }
        if self.runs.len() >= 2 {
            let (a, b) = (self.runs.pop_front().expect("two runs"), self.runs.pop_front().expect("two runs"));
            self.runs.push_back(merge_sorted(a, b));
            return true;
        }
        let Some(keys) = self.runs.front() else { return false };
        let (from, to) = (self.kinks.len(), (self.kinks.len() + Self::PREFIX_STEP).min(keys.len()));
        if from == 0 {
            self.kinks.reserve_exact(keys.len());
            self.prefix_a2.reserve_exact(keys.len());
            self.prefix_a1.reserve_exact(keys.len());
        }
        let (mut a2, mut a1) = (*self.prefix_a2.last().expect("starts with 0"), *self.prefix_a1.last().expect("starts with 0"));
        for &key in &keys[from..to] {
            let (r, w) = kink_of(key);
            a2 += w as f64;
            a1 += (r * w) as f64;
            self.kinks.push((r, w));
            self.prefix_a2.push(a2);
            self.prefix_a1.push(a1);
        }
        if to == keys.len() {
            self.runs.clear();
        }
        true
    }

    pub fn finish(mut self) -> LambdaSweep {
        while self.step() {}
        let Self { n, kinks, prefix_a2, prefix_a1, constant_noise, signal_a1, signal_a2, n_signal_entries, n_noise_entries, .. } = self;
        LambdaSweep { kinks, prefix_a2, prefix_a1, constant_noise, signal_a1, signal_a2, n_signal_entries, n_noise_entries, n_keys: n, row_stride: LambdaSweep::stride_for(n) }
    }
}

impl LambdaSweep {
    pub const MAX_ENTRIES: usize = 2_000_000;

    /// Every how many query rows the sweep takes one, for N keys.
    pub fn stride_for(n: usize) -> usize {
        (n * n).div_ceil(Self::MAX_ENTRIES).max(1)
    }

    pub fn new(inputs: &LabInputs, maps: &LabMaps) -> Self {
        let n = inputs.n();
        let (a1, a2) = (maps.a1.as_standard_layout(), maps.a2.as_standard_layout());
        let (a1, a2) = (a1.as_slice().expect("standard layout"), a2.as_slice().expect("standard layout"));
        Self::from_parts(n, vec![summarise_rows(inputs, 0..n, a1, a2).sweep])
    }

    /// The sweep from the parts of consecutive row blocks, in row order.
    pub fn from_parts(n: usize, parts: Vec<SweepPart>) -> Self {
        SweepBuilder::new(n, parts).finish()
    }

    /// The differential metrics at λ from the sorted kinks: O(log N²) instead of a pass
    /// over both maps. Exact when every row was used (`row_stride == 1`).
    pub fn differential(&self, lambda: f32) -> AttentionMetrics {
        let l = lambda as f64;
        let rows = (self.n_signal_entries + self.n_noise_entries) as f64 / self.n_keys.max(1) as f64;
        let signal = self.signal_a1 - l * self.signal_a2;
        AttentionMetrics { snr: self.snr(lambda), signal_mass: signal / rows, noise_mass: self.noise_abs(lambda) / rows }
    }

    /// Σ |a1 − λ·a2| over the noise entries of the rows used.
    fn noise_abs(&self, lambda: f32) -> f64 {
        self.noise_abs_split(lambda, self.kinks.partition_point(|k| k.0 <= lambda))
    }

    /// [`Self::noise_abs`] with `split`, the number of kinks with r ≤ λ, already known.
    fn noise_abs_split(&self, lambda: f32, split: usize) -> f64 {
        let l = lambda as f64;
        let (a2_lo, a1_lo) = (self.prefix_a2[split], self.prefix_a1[split]);
        let (a2_all, a1_all) = (*self.prefix_a2.last().expect("prefix sums start with 0"), *self.prefix_a1.last().expect("prefix sums start with 0"));
        // r ≤ λ: |a1 − λa2| = λa2 − a1;  r > λ: a1 − λa2.
        (self.constant_noise + (l * a2_lo - a1_lo) + ((a1_all - a1_lo) - l * (a2_all - a2_lo))).max(0.0)
    }

    /// SNR of A1 − λA2.
    pub fn snr(&self, lambda: f32) -> f64 {
        self.snr_from(lambda, self.noise_abs(lambda))
    }

    fn snr_from(&self, lambda: f32, noise_abs: f64) -> f64 {
        let l = lambda as f64;
        let signal_mean = (self.signal_a1 - l * self.signal_a2) / self.n_signal_entries.max(1) as f64;
        let noise_mean = noise_abs / self.n_noise_entries.max(1) as f64;
        if noise_mean > 0.0 {
            signal_mean / noise_mean
        } else {
            f64::INFINITY
        }
    }

    pub fn curve(&self, lambdas: &[f32]) -> Vec<SnrPoint> {
        lambdas.iter().map(|&l| SnrPoint { x: l as f64, snr: self.snr(l) }).collect()
    }

    /// The λ in `[lo, hi]` with the highest SNR. The SNR is a ratio of a linear function
    /// and a piecewise-linear one, so on each piece it is monotone: the maximum sits at a
    /// kink or an end. Ties go to the smaller λ.
    pub fn best_lambda(&self, lo: f32, hi: f32) -> SnrPoint {
        let better = |best: SnrPoint, p: SnrPoint| if p.snr > best.snr || (p.snr == best.snr && p.x < best.x) { p } else { best };
        let mut best = [lo, hi].into_iter().map(|l| SnrPoint { x: l as f64, snr: self.snr(l) }).fold(SnrPoint { x: lo as f64, snr: f64::NEG_INFINITY }, better);
        // The kinks are sorted: walking them, the split at each one is where its run of
        // equal ratios ends, so every candidate costs O(1), not a binary search.
        let mut i = self.kinks.partition_point(|k| k.0 < lo);
        while i < self.kinks.len() && self.kinks[i].0 <= hi {
            let r = self.kinks[i].0;
            let mut end = i + 1;
            while end < self.kinks.len() && self.kinks[end].0 <= r {
                end += 1;
            }
            best = better(best, SnrPoint { x: r as f64, snr: self.snr_from(r, self.noise_abs_split(r, end)) });
            i = end;
        }
        best
    }
}

/// Evenly spaced values from `lo` to `hi` inclusive.
pub fn linspace(lo: f32, hi: f32, count: usize) -> Vec<f32> {
    match count {
        0 => vec![],
        1 => vec![lo],
        _ => (0..count).map(|i| lo + (hi - lo) * i as f32 / (count - 1) as f32).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kink_keys_order_as_total_cmp_and_decode_exactly() {
        let xs = [0.0f32, -0.0, 1e-30, 0.5, 1.0, 7.25, f32::MAX, -1.0, -f32::MIN_POSITIVE, f32::INFINITY, f32::MIN_POSITIVE / 4.0];
        let kinks: Vec<(f32, f32)> = xs.iter().flat_map(|&a| xs.iter().map(move |&b| (a, b))).collect();
        for a in &kinks {
            assert_eq!(kink_of(kink_key(a)).0.to_bits(), a.0.to_bits());
            assert_eq!(kink_of(kink_key(a)).1.to_bits(), a.1.to_bits());
            for b in &kinks {
                assert_eq!(kink_key(a).cmp(&kink_key(b)), kink_order(a, b), "{a:?} {b:?}");
            }
        }
    }
}
