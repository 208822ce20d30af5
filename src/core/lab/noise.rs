//! The noise experiments: SNR of both kinds as σ varies, where standard attention's SNR
//! falls below a threshold, and the noise floor against context length.

use super::*;
use crate::attention::ROW_BLOCK;
use crate::init::{normal, seeded};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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
