//! The noise-floor lab (the seed lesson's step 4, exercises 1 and 4): a synthetic
//! attention problem with planted signal keys, two softmax branches whose noise is
//! partly shared, and the metrics that show differential attention cancelling it.
//!
//! The problem is a real `QKᵀ/√d` product, so the GPU path runs it with the same kernels
//! as the model. Query and key vectors have d channels: channel 0 carries the signal,
//! channels 1..d carry noise.
//!
//! ```text
//! q_i[0] = √d,                 q_i[m] ~ N(0, 1)                       (m ≥ 1)
//! k1_j[0] = s if j is a signal key else 0,   k2_j[0] = 0                (branch 2 is the noise reference)
//! kb_j[m] = σ·√(d/(d−1))·(√c·shared_j[m] + √(1−c)·own_b,j[m])      (noise keys; 0 for signal keys)
//! ```
//! so a signal key's logit is exactly s in branch 1 and 0 in branch 2, and every other
//! key's logit is noise of standard deviation σ, correlated across the two branches with
//! coefficient c, the common-mode share. Signal keys carry no noise: they are the keys
//! that truly match, and the question is how much weight the fluctuating rest steals.
//!
//! Metrics. Standard attention is branch 1 alone (A1). For differential attention the
//! weights A1 − λA2 can be negative, and a negative weight still mixes a value in, so the
//! noise side of every metric uses |w|:
//! `SNR = mean_{i, j∈S} w_ij ÷ mean_{i, j∉S} |w_ij|`; for a softmax map that is exactly
//! "mean weight on signal keys ÷ mean weight on the others".

use super::attention::ROW_BLOCK;
use super::init::{normal, seeded};
use super::linalg::Mat;
use super::softmax::softmax_rows;
use ndarray::{s, Array2, ArrayView2};
use rand::seq::index::sample;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::ops::Range;

/// The lab's knobs. The page's bounds for them are in `state::lab_state::bounds`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabParams {
    /// Sequence length N: N queries, N keys.
    pub n: usize,
    /// Signal keys (planted at seeded positions).
    pub n_signal: usize,
    /// s, the logit boost of a signal key in branch 1.
    pub signal: f32,
    /// σ, the standard deviation of the noise logits.
    pub noise: f32,
    /// c ∈ [0, 1], the share of the noise common to both branches.
    pub common: f32,
    pub seed: u64,
    /// Query/key head size d (≥ 2: one signal channel and at least one noise channel).
    pub head_dim: usize,
}

impl Default for LabParams {
    fn default() -> Self {
        Self { n: 256, n_signal: 4, signal: 4.0, noise: 1.5, common: 0.9, seed: 1, head_dim: 32 }
    }
}

impl LabParams {
    /// Signal keys never exceed half the sequence (otherwise "noise" is the minority).
    pub fn n_signal_clamped(&self) -> usize {
        self.n_signal.clamp(1, (self.n / 2).max(1))
    }
}

/// Queries and the keys of both branches, `[N, d]` each, and the signal positions.
#[derive(Clone, Debug)]
pub struct LabInputs {
    pub q: Mat,
    pub k1: Mat,
    pub k2: Mat,
    /// Sorted positions of the signal keys.
    pub signal_keys: Vec<usize>,
}

impl LabInputs {
    pub fn n(&self) -> usize {
        self.q.nrows()
    }

    pub fn is_signal(&self) -> Vec<bool> {
        let mut flags = vec![false; self.n()];
        self.signal_keys.iter().for_each(|&j| flags[j] = true);
        flags
    }

    pub fn scale(&self) -> f32 {
        crate::core::head_layout::score_scale(self.q.ncols())
    }
}

/// Seeded: the same parameters give the same problem on every platform.
/// The random draws do not depend on σ or s, so a noise sweep scales one fixed pattern.
pub fn generate(p: &LabParams) -> LabInputs {
    let (n, d) = (p.n, p.head_dim.max(2));
    let mut rng = seeded(p.seed);
    let mut signal_keys = sample(&mut rng, n, p.n_signal_clamped()).into_vec();
    signal_keys.sort_unstable();
    let c = p.common.clamp(0.0, 1.0);
    let noise_scale = p.noise * (d as f32 / (d - 1) as f32).sqrt();
    let (shared_w, own_w) = (c.sqrt(), (1.0 - c).sqrt());
    let mut q = Array2::zeros((n, d));
    let mut k1 = Array2::zeros((n, d));
    let mut k2 = Array2::zeros((n, d));
    for i in 0..n {
        q[[i, 0]] = (d as f32).sqrt();
        for m in 1..d {
            q[[i, m]] = normal(&mut rng, 1.0);
            let shared = normal(&mut rng, 1.0);
            let (own1, own2) = (normal(&mut rng, 1.0), normal(&mut rng, 1.0));
            k1[[i, m]] = noise_scale * (shared_w * shared + own_w * own1);
            k2[[i, m]] = noise_scale * (shared_w * shared + own_w * own2);
        }
    }
    for &j in &signal_keys {
        k1.row_mut(j).fill(0.0);
        k2.row_mut(j).fill(0.0);
        k1[[j, 0]] = p.signal;
    }
    LabInputs { q, k1, k2, signal_keys }
}

/// The lab's two softmax maps (bidirectional, no RoPE): `[N, N]` each.
#[derive(Clone, Debug)]
pub struct LabMaps {
    pub a1: Mat,
    pub a2: Mat,
}

fn softmax_block(q: &ArrayView2<f32>, k: &Mat, scale: f32) -> Mat {
    let mut scores = q.dot(&k.t());
    scores.mapv_inplace(|v| v * scale);
    softmax_rows(scores.view_mut());
    scores
}

pub fn maps(inputs: &LabInputs) -> LabMaps {
    let scale = inputs.scale();
    LabMaps { a1: softmax_block(&inputs.q.view(), &inputs.k1, scale), a2: softmax_block(&inputs.q.view(), &inputs.k2, scale) }
}

/// A1 − λ·A2: every row sums to 1 − λ.
pub fn diff_map(maps: &LabMaps, lambda: f32) -> Mat {
    let mut d = maps.a1.clone();
    d.zip_mut_with(&maps.a2, |a, b| *a -= lambda * b);
    d
}

/// One kind of attention's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AttentionMetrics {
    /// Mean weight on a signal key ÷ mean |weight| on a noise key.
    pub snr: f64,
    /// Per query: Σ of the weights on signal keys, averaged over queries.
    pub signal_mass: f64,
    /// Per query: Σ of |weights| on the other keys, averaged over queries.
    pub noise_mass: f64,
}

/// Standard (A1) and differential (A1 − λA2) attention side by side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LabMetrics {
    pub standard: AttentionMetrics,
    pub differential: AttentionMetrics,
    pub lambda: f32,
    /// Every row of A1 − λA2 sums to this (1 − λ).
    pub diff_row_sum: f64,
}

impl LabMetrics {
    /// How many times the differential SNR exceeds the standard one.
    pub fn snr_gain(&self) -> f64 {
        self.differential.snr / self.standard.snr
    }
}

/// Sums over a map: weights on signal keys, |weights| on noise keys, and the counts.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    signal: f64,
    noise_abs: f64,
    rows: usize,
}

impl Sums {
    /// Adds one query's row of A1 − λ·A2: |w| summed over every key without a branch
    /// (four f64 accumulators, a loop the compiler vectorises), then the few signal keys
    /// moved from the noise side to the signal side. λ = 0 with `a2 = a1` is A1 itself.
    fn add_row(&mut self, a1: &[f32], a2: &[f32], lambda: f32, signal_keys: &[usize]) {
        let mut acc = [0.0f64; 4];
        let (c1, c2) = (a1.chunks_exact(4), a2.chunks_exact(4));
        let (t1, t2) = (c1.remainder(), c2.remainder());
        for (x, y) in c1.zip(c2) {
            for k in 0..4 {
                acc[k] += (x[k] - lambda * y[k]).abs() as f64;
            }
        }
        let mut all = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        for (x, y) in t1.iter().zip(t2) {
            all += (x - lambda * y).abs() as f64;
        }
        let (mut signal, mut signal_abs) = (0.0, 0.0);
        for &j in signal_keys {
            let w = a1[j] - lambda * a2[j];
            signal += w as f64;
            signal_abs += w.abs() as f64;
        }
        self.signal += signal;
        self.noise_abs += all - signal_abs;
        self.rows += 1;
    }

    fn metrics(&self, n_signal: usize, n_noise: usize) -> AttentionMetrics {
        let rows = self.rows.max(1) as f64;
        let signal_mean = self.signal / (rows * n_signal as f64);
        let noise_mean = self.noise_abs / (rows * n_noise as f64);
        let snr = if noise_mean > 0.0 { signal_mean / noise_mean } else { f64::INFINITY };
        AttentionMetrics { snr, signal_mass: self.signal / rows, noise_mass: self.noise_abs / rows }
    }
}

fn metrics_from_sums(inputs: &LabInputs, standard: &Sums, diff: &Sums, lambda: f32) -> LabMetrics {
    let sums = [standard.signal, standard.noise_abs, diff.signal, diff.noise_abs];
    LabMetrics::from_sums(inputs.n(), inputs.signal_keys.len(), standard.rows, sums, lambda)
}

impl LabMetrics {
    /// Metrics from sums over all queries, as a GPU reduction returns them:
    /// `[Σ_signal a1, Σ_noise |a1|, Σ_signal d, Σ_noise |d|]` over `rows` queries.
    pub fn from_sums(n_keys: usize, n_signal: usize, rows: usize, sums: [f64; 4], lambda: f32) -> Self {
        let standard = Sums { signal: sums[0], noise_abs: sums[1], rows };
        let diff = Sums { signal: sums[2], noise_abs: sums[3], rows };
        let n_noise = n_keys - n_signal;
        LabMetrics { standard: standard.metrics(n_signal, n_noise), differential: diff.metrics(n_signal, n_noise), lambda, diff_row_sum: 1.0 - lambda as f64 }
    }
}

/// Metrics from maps already computed (the page has them for the heatmaps).
pub fn metrics(inputs: &LabInputs, maps: &LabMaps, lambda: f32) -> LabMetrics {
    let keys = &inputs.signal_keys;
    let (mut standard, mut diff) = (Sums::default(), Sums::default());
    let (a1, a2) = (maps.a1.as_standard_layout(), maps.a2.as_standard_layout());
    for (r1, r2) in a1.rows().into_iter().zip(a2.rows()) {
        let (r1, r2) = (r1.to_slice().expect("standard layout"), r2.to_slice().expect("standard layout"));
        standard.add_row(r1, r1, 0.0, keys);
        diff.add_row(r1, r2, lambda, keys);
    }
    metrics_from_sums(inputs, &standard, &diff, lambda)
}

/// The same metrics without any `N × N` buffer: rows are made and consumed in blocks.
pub fn metrics_streaming(inputs: &LabInputs, lambda: f32) -> LabMetrics {
    let mut stream = MetricsStream::new(Cow::Borrowed(inputs), lambda);
    while stream.advance(ROW_BLOCK) {}
    stream.finish()
}

/// [`metrics_streaming`] a few query rows at a time, so a caller on a browser's main
/// thread can stop between steps and let the page paint (the noise chart computes 25
/// whole problems this way).
pub struct MetricsStream<'a> {
    inputs: Cow<'a, LabInputs>,
    lambda: f32,
    next_row: usize,
    standard: Sums,
    diff: Sums,
}

impl<'a> MetricsStream<'a> {
    pub fn new(inputs: Cow<'a, LabInputs>, lambda: f32) -> Self {
        Self { inputs, lambda, next_row: 0, standard: Sums::default(), diff: Sums::default() }
    }

    /// Consumes up to `rows` more query rows; false once every row is in.
    pub fn advance(&mut self, rows: usize) -> bool {
        let (n, scale) = (self.inputs.n(), self.inputs.scale());
        let end = (self.next_row + rows.max(1)).min(n);
        let q = self.inputs.q.slice(s![self.next_row..end, ..]);
        let p1 = softmax_block(&q, &self.inputs.k1, scale);
        let p2 = softmax_block(&q, &self.inputs.k2, scale);
        for (r1, r2) in p1.rows().into_iter().zip(p2.rows()) {
            let (r1, r2) = (r1.to_slice().expect("a fresh block is row-major"), r2.to_slice().expect("a fresh block is row-major"));
            self.standard.add_row(r1, r1, 0.0, &self.inputs.signal_keys);
            self.diff.add_row(r1, r2, self.lambda, &self.inputs.signal_keys);
        }
        self.next_row = end;
        end < n
    }

    pub fn finish(&self) -> LabMetrics {
        metrics_from_sums(&self.inputs, &self.standard, &self.diff, self.lambda)
    }
}

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

/// A block of query rows of a problem: standard attention's sums over it and its part of
/// the λ sweep. Summed block by block in row order, the blocks give the same numbers
/// however they were computed (one thread, several workers, any order of arrival).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowSummary {
    pub rows: Range<usize>,
    /// Σ of A1 on signal keys and Σ |A1| on noise keys over these rows.
    pub standard_signal: f64,
    pub standard_noise_abs: f64,
    pub sweep: SweepPart,
}

/// Both maps' rows `rows` (row-major, `rows.len() × N` each): one block of a problem.
pub fn map_rows(inputs: &LabInputs, rows: Range<usize>) -> (Vec<f32>, Vec<f32>) {
    let (q, scale) = (inputs.q.slice(s![rows, ..]), inputs.scale());
    let flat = |m: Mat| {
        let (v, offset) = m.into_raw_vec_and_offset();
        debug_assert!(offset.is_none_or(|o| o == 0));
        v
    };
    (flat(softmax_block(&q, &inputs.k1, scale)), flat(softmax_block(&q, &inputs.k2, scale)))
}

/// The summary of rows `rows` of both maps, given as `rows.len() × N` row-major slices.
pub fn summarise_rows(inputs: &LabInputs, rows: Range<usize>, a1: &[f32], a2: &[f32]) -> RowSummary {
    let n = inputs.n();
    let is_signal = inputs.is_signal();
    let stride = LambdaSweep::stride_for(n);
    let mut standard = Sums::default();
    let mut part = SweepPart::default();
    for (k, i) in rows.clone().enumerate() {
        let (r1, r2) = (&a1[k * n..(k + 1) * n], &a2[k * n..(k + 1) * n]);
        standard.add_row(r1, r1, 0.0, &inputs.signal_keys);
        if i % stride == 0 {
            part.add_row(r1, r2, &is_signal);
        }
    }
    part.kinks.sort_unstable_by_key(kink_key);
    RowSummary { rows, standard_signal: standard.signal, standard_noise_abs: standard.noise_abs, sweep: part }
}

/// The total order of kinks: by ratio, then by weight (`total_cmp`), so that merging
/// sorted blocks gives exactly the sequence one sort of all of them gives.
#[cfg(test)]
fn kink_order(a: &(f32, f32), b: &(f32, f32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
}

impl SweepPart {
    fn add_row(&mut self, a1: &[f32], a2: &[f32], is_signal: &[bool]) {
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
fn kink_key(k: &(f32, f32)) -> u64 {
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

/// SNR of both kinds as the noise amplitude varies (other knobs fixed, same seed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseSweepPoint {
    pub noise: f64,
    pub standard_snr: f64,
    pub differential_snr: f64,
}

pub fn noise_sweep(params: &LabParams, lambda: f32, amplitudes: &[f32]) -> Vec<NoiseSweepPoint> {
    amplitudes
        .iter()
        .map(|&sigma| {
            let mut stream = noise_point_stream(params, lambda, sigma);
            while stream.advance(ROW_BLOCK) {}
            NoiseSweepPoint::new(sigma, &stream.finish())
        })
        .collect()
}

/// One point of [`noise_sweep`], to be advanced by the caller.
pub fn noise_point_stream(params: &LabParams, lambda: f32, sigma: f32) -> MetricsStream<'static> {
    MetricsStream::new(Cow::Owned(generate(&LabParams { noise: sigma, ..params.clone() })), lambda)
}

impl NoiseSweepPoint {
    pub fn new(sigma: f32, m: &LabMetrics) -> Self {
        Self { noise: sigma as f64, standard_snr: m.standard.snr, differential_snr: m.differential.snr }
    }
}

/// Standard attention's SNR with noise σ (branch 1 only, streamed).
fn standard_snr(params: &LabParams, sigma: f32) -> f64 {
    metrics_streaming(&generate(&LabParams { noise: sigma, ..params.clone() }), 0.0).standard.snr
}

/// The noise amplitude at which standard attention's SNR falls to `threshold`
/// (bisection on `[0, max_noise]`; with the seed fixed the noise pattern only scales,
/// and its SNR falls as σ grows). `None` if it stays above the threshold up to
/// `max_noise`, `Some(0)` if it is below it even without noise.
pub fn crossover(params: &LabParams, threshold: f64, max_noise: f32) -> Option<f32> {
    if standard_snr(params, 0.0) < threshold {
        return Some(0.0);
    }
    if standard_snr(params, max_noise) >= threshold {
        return None;
    }
    let (mut lo, mut hi) = (0.0f32, max_noise);
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if standard_snr(params, mid) >= threshold {
            lo = mid
        } else {
            hi = mid
        }
    }
    Some(0.5 * (lo + hi))
}

/// The noise mass of one query over a context of `n` keys.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseMassPoint {
    pub n: usize,
    /// Σ of standard attention weights on noise keys, for one sampled query.
    pub standard: f64,
    /// Its expectation, (n−k)·e^(σ²/2) ÷ ((n−k)·e^(σ²/2) + k·e^s) (log-normal mean).
    pub standard_expected: f64,
    /// Σ |A1 − λA2| on noise keys for the same query.
    pub differential: f64,
}

/// The noise floor against context length, one query at a time: O(n) memory, never
/// `n × n`. The query's logits are drawn directly with the lab's distribution: signal
/// keys get s in branch 1 (0 in branch 2), every other key gets noise of std σ with
/// correlation c across the branches.
pub fn noise_mass(params: &LabParams, lambda: f32, n: usize) -> NoiseMassPoint {
    let mut rng = seeded(params.seed ^ (n as u64).rotate_left(17));
    let k = params.n_signal.clamp(1, (n / 2).max(1));
    let c = params.common.clamp(0.0, 1.0);
    let (sigma, s) = (params.noise, params.signal);
    let mut l1 = Vec::with_capacity(n);
    let mut l2 = Vec::with_capacity(n);
    for j in 0..n {
        let shared = normal(&mut rng, 1.0);
        let (o1, o2) = (normal(&mut rng, 1.0), normal(&mut rng, 1.0));
        // Signal keys are the first k: position does not matter to one query's sums.
        if j < k {
            l1.push(s);
            l2.push(0.0);
        } else {
            l1.push(sigma * (c.sqrt() * shared + (1.0 - c).sqrt() * o1));
            l2.push(sigma * (c.sqrt() * shared + (1.0 - c).sqrt() * o2));
        }
    }
    let normaliser = |l: &[f32]| {
        let max = l.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (max, l.iter().map(|v| ((v - max) as f64).exp()).sum::<f64>())
    };
    let ((m1, z1), (m2, z2)) = (normaliser(&l1), normaliser(&l2));
    let (mut standard, mut differential) = (0.0, 0.0);
    for j in k..n {
        let w1 = ((l1[j] - m1) as f64).exp() / z1;
        let w2 = ((l2[j] - m2) as f64).exp() / z2;
        standard += w1;
        differential += (w1 - lambda as f64 * w2).abs();
    }
    let noise_weight = (n - k) as f64 * ((sigma as f64).powi(2) / 2.0).exp();
    let standard_expected = noise_weight / (noise_weight + k as f64 * (s as f64).exp());
    NoiseMassPoint { n, standard, standard_expected, differential }
}

/// [`noise_mass`] at each length.
pub fn noise_mass_curve(params: &LabParams, lambda: f32, lengths: &[usize]) -> Vec<NoiseMassPoint> {
    lengths.iter().map(|&n| noise_mass(params, lambda, n)).collect()
}

/// The lesson's arithmetic, corrected: a uniform per-token weight w over n tokens sums
/// to n·w (0.0001% × 128 000 = 12.8%, whereas 0.001% would give 128%, impossible for a
/// softmax, whose weights sum to 1).
pub fn uniform_noise_total(per_token_weight: f64, n: usize) -> f64 {
    per_token_weight * n as f64
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
