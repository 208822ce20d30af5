//! Matrix helpers over `ndarray` (products come from `matrixmultiply`, not a hand GEMM).

use ndarray::{Array2, ArrayView2};

/// A row-major matrix of `f32`: activations `[T, E]`, weights `[out, in]`, maps `[T, T]`.
pub type Mat = Array2<f32>;

/// PyTorch `Linear` without bias: `y = x·Wᵀ`, with `W` stored `[out, in]`.
pub fn linear(x: &ArrayView2<f32>, w: &ArrayView2<f32>) -> Mat {
    x.dot(&w.t())
}

/// The columns `[start, start + width)` of `x`: one head's slice of a projection.
pub fn columns(x: &Mat, start: usize, width: usize) -> ArrayView2<'_, f32> {
    x.slice(ndarray::s![.., start..start + width])
}
