//! Matrix helpers over `ndarray` (products come from `matrixmultiply`, not a hand GEMM).

use ndarray::{Array2, ArrayView2};

/// A row-major matrix of `f32`: activations `[T, E]`, weights `[out, in]`, maps `[T, T]`.
pub type Mat = Array2<f32>;

/// PyTorch `Linear` without bias: `y = x·Wᵀ`, with `W` stored `[out, in]`.
///
/// A few rows (one new token appended to a kept pass, as "Write on" does for each
/// character) are dot products of contiguous rows instead: the general product packs all
/// of `W` for every call, which cost more than the arithmetic of a single row.
pub fn linear(x: &ArrayView2<f32>, w: &ArrayView2<f32>) -> Mat {
    match (x.nrows() <= FEW_ROWS, w.as_slice()) {
        (true, Some(weights)) if x.ncols() == w.ncols() => {
            let k = w.ncols();
            let mut y = Mat::zeros((x.nrows(), w.nrows()));
            for (xr, mut yr) in x.rows().into_iter().zip(y.rows_mut()) {
                let xr = xr.to_vec();
                for (out, wr) in yr.iter_mut().zip(weights.chunks_exact(k.max(1))) {
                    *out = dot(&xr, wr);
                }
            }
            y
        }
        _ => x.dot(&w.t()),
    }
}

/// Up to how many rows [`linear`] takes the dot-product path.
const FEW_ROWS: usize = 2;

/// `a · b` with eight partial sums, which the compiler keeps in SIMD registers.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// The columns `[start, start + width)` of `x`: one head's slice of a projection.
pub fn columns(x: &Mat, start: usize, width: usize) -> ArrayView2<'_, f32> {
    x.slice(ndarray::s![.., start..start + width])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_rows_multiply_as_many_do() {
        let w = Mat::from_shape_fn((37, 70), |(i, j)| ((i * 31 + j * 17) % 23) as f32 / 11.0 - 1.0);
        let x = Mat::from_shape_fn((5, 70), |(i, j)| ((i * 7 + j * 13) % 19) as f32 / 9.0 - 1.0);
        let all = linear(&x.view(), &w.view());
        for r in 0..5 {
            let one = linear(&x.slice(ndarray::s![r..r + 1, ..]), &w.view());
            let err = one.iter().zip(all.row(r)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
            assert!(err <= 1e-5, "row {r}: {err}");
        }
        // Weights that are not one contiguous block take the general product.
        let (x1, strided) = (x.slice(ndarray::s![..1, ..]), w.slice(ndarray::s![..;2, ..]));
        assert_eq!(linear(&x1, &strided), x1.dot(&strided.t()));
    }
}
