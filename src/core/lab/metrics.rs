//! The lab's metrics: standard attention (A1) and differential attention (A1 − λA2)
//! side by side, from maps already made or streamed a block of rows at a time.

use super::*;
use crate::attention::ROW_BLOCK;
use ndarray::s;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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
pub(super) struct Sums {
    pub(super) signal: f64,
    pub(super) noise_abs: f64,
    rows: usize,
}

impl Sums {
    /// Adds one query's row of A1 − λ·A2: |w| summed over every key without a branch
    /// (four f64 accumulators, a loop the compiler vectorises), then the few signal keys
    /// moved from the noise side to the signal side. λ = 0 with `a2 = a1` is A1 itself.
    pub(super) fn add_row(&mut self, a1: &[f32], a2: &[f32], lambda: f32, signal_keys: &[usize]) {
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
