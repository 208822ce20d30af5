//! The SwiGLU feed-forward of LLaMA-style blocks (Shazeer 2020):
//! `SwiGLU(x) = (swish(x·W_gᵀ) ⊙ x·W_upᵀ)·W_downᵀ`, with `swish(z) = z·σ(z)`.

use super::linalg::{Mat, Weight};
use super::softmax::exp_f32;
use ndarray::ArrayView2;

#[derive(Clone, Debug)]
pub struct SwiGlu {
    /// `[hidden, E]`, the gated branch.
    pub gate: Weight,
    /// `[hidden, E]`, the linear branch.
    pub up: Weight,
    /// `[E, hidden]`, back to the model width.
    pub down: Weight,
}

/// `z·σ(z)`, with the core's vectorisable exponential (two ulp) instead of a library
/// call per element.
#[inline(always)]
pub fn swish(z: f32) -> f32 {
    z / (1.0 + exp_f32(-z))
}

impl SwiGlu {
    pub fn forward(&self, x: &ArrayView2<f32>) -> Mat {
        let mut g = self.gate.times(x);
        let u = self.up.times(x);
        g.zip_mut_with(&u, |g, u| *g = swish(*g) * u);
        self.down.times(&g.view())
    }
}
