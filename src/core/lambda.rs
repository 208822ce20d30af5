//! The λ of differential attention (paper §2.1).

use ndarray::Array1;

/// λ_init(depth) = 0.8 − 0.6·exp(−0.3·depth), depth counted from 0 as in the official
/// code (the paper writes l − 1 with l from 1): 0.200, 0.356, 0.471, …
pub fn lambda_init_for_depth(depth: usize) -> f32 {
    (0.8 - 0.6 * (-0.3 * depth as f64).exp()) as f32
}

/// The V1 re-parameterisation, one scalar per layer shared by its heads:
/// λ = exp(λ_q1·λ_k1) − exp(λ_q2·λ_k2) + λ_init. Not clamped: it may be negative or > 1.
#[derive(Clone, Debug)]
pub struct LambdaParams {
    pub q1: Array1<f32>,
    pub k1: Array1<f32>,
    pub q2: Array1<f32>,
    pub k2: Array1<f32>,
}

impl LambdaParams {
    pub fn lambda_full(&self, lambda_init: f32) -> f32 {
        (self.q1.dot(&self.k1)).exp() - (self.q2.dot(&self.k2)).exp() + lambda_init
    }
}

/// The V2 λ for one token and head: a logistic squash, so λ ∈ (0, 1).
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}
