//! The SwiGLU feed-forward of LLaMA-style blocks (Shazeer 2020):
//! `SwiGLU(x) = (swish(x·W_gᵀ) ⊙ x·W_upᵀ)·W_downᵀ`, with `swish(z) = z·σ(z)`.

use super::linalg::{linear, Mat};
use super::softmax::exp_f32;
use ndarray::ArrayView2;

#[derive(Clone, Debug)]
pub struct SwiGlu {
    /// `[hidden, E]`, the gated branch.
    pub gate: Mat,
    /// `[hidden, E]`, the linear branch.
    pub up: Mat,
    /// `[E, hidden]`, back to the model width.
    pub down: Mat,
}

/// `z·σ(z)`, with the core's vectorisable exponential (two ulp) instead of a library
/// call per element.
#[inline(always)]
pub fn swish(z: f32) -> f32 {
    z / (1.0 + exp_f32(-z))
}

impl SwiGlu {
    pub fn forward(&self, x: &ArrayView2<f32>) -> Mat {
        let mut g = linear(x, &self.gate.view());
        let u = linear(x, &self.up.view());
        g.zip_mut_with(&u, |g, u| *g = swish(*g) * u);
        linear(&g.view(), &self.down.view())
    }
}
