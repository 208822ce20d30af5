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
//!
//! The files: the problem and its maps here; `metrics` (SNR of both kinds, whole or
//! streamed); `rows` (a block of query rows and its summary, for workers and slices);
//! `lambda_sweep` (the exact SNR-against-λ curve and its merge of blocks); `noise` (the
//! noise sweeps, the crossover, the noise floor against context length).

mod lambda_sweep;
mod metrics;
mod noise;
mod rows;

pub use lambda_sweep::{linspace, LambdaSweep, SnrPoint, SweepBuilder, SweepPart};
pub use metrics::{metrics, metrics_streaming, AttentionMetrics, LabMetrics, MetricsStream};
pub use noise::{crossover, noise_mass, noise_mass_curve, noise_point_stream, noise_sweep, uniform_noise_total, NoiseMassPoint, NoiseSweepPoint};
pub use rows::{map_rows, summarise_rows, RowSummary};

use crate::init::{normal, seeded};
use crate::linalg::Mat;
use crate::softmax::softmax_rows;
use ndarray::{Array2, ArrayView2};
use rand::seq::index::sample;
use serde::{Deserialize, Serialize};

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
        crate::head_layout::score_scale(self.q.ncols())
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

pub(crate) fn softmax_block(q: &ArrayView2<f32>, k: &Mat, scale: f32) -> Mat {
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
