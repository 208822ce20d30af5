//! Matrix helpers over `ndarray` (products come from `matrixmultiply`, not a hand GEMM).

use ndarray::{Array2, ArrayView2};

/// A row-major matrix of `f32`: activations `[T, E]`, weights `[out, in]`, maps `[T, T]`.
pub type Mat = Array2<f32>;

/// PyTorch `Linear` without bias: `y = x·Wᵀ`, with `W` stored `[out, in]`.
///
/// A few rows (one new token appended to a kept pass, as "Write on" does for each
/// character) take [`few_rows_times`]: the general product packs all of `W` for every
/// call, which cost more than the arithmetic of a single row.
pub fn linear(x: &ArrayView2<f32>, w: &ArrayView2<f32>) -> Mat {
    match (x.nrows() <= FEW_ROWS, w.as_slice()) {
        (true, Some(weights)) if x.ncols() == w.ncols() && w.ncols() > 0 => {
            let mut y = Mat::zeros((x.nrows(), w.nrows()));
            for (xr, mut yr) in x.rows().into_iter().zip(y.rows_mut()) {
                let xr = xr.as_slice().map_or_else(|| std::borrow::Cow::Owned(xr.to_vec()), std::borrow::Cow::Borrowed);
                few_rows_times(&xr, weights, yr.as_slice_mut().expect("a fresh row is contiguous"));
            }
            y
        }
        _ => x.dot(&w.t()),
    }
}

/// The columns `[start, start + width)` of `x`: one head's slice of a projection.
pub fn columns(x: &Mat, start: usize, width: usize) -> ArrayView2<'_, f32> {
    x.slice(ndarray::s![.., start..start + width])
}

/// Up to how many rows [`linear`] takes [`few_rows_times`].
const FEW_ROWS: usize = 2;

/// The depth matrixmultiply's single-precision product sums in one pass (`S_KC`).
const GEMM_KC: usize = 256;

/// Outputs computed together by [`few_rows_times`]: eight independent sums, one vector.
const LANES: usize = 8;

/// `out[o] = x · W[o]` for every row `o` of the row-major `weights`, each sum taken in
/// the order of matrixmultiply's wasm kernel (no fused multiply-add there): from zero,
/// one product at a time, in blocks of [`GEMM_KC`] that are then added in order. So in
/// the browser a row computed here equals, bit for bit, the same row of a whole pass
/// (the text page compares a character's loss after a key with its loss after a whole
/// pass); natively, where the library fuses, they agree to rounding.
///
/// One dot product per output would be a chain of dependent additions ("Write on" spends
/// most of a character here). Instead [`LANES`] rows are first laid side by side for a
/// block of the sum, so each step adds one product to each of the eight sums at once,
/// from contiguous memory: a vector operation, each sum still in its own order.
fn few_rows_times(x: &[f32], weights: &[f32], out: &mut [f32]) {
    let k = x.len();
    let mut side = [[0.0f32; LANES]; GEMM_KC];
    for (o_group, w_group) in out.chunks_mut(LANES).zip(weights.chunks(LANES * k)) {
        let m = o_group.len();
        let mut total = [0.0f32; LANES];
        for start in (0..k).step_by(GEMM_KC) {
            let end = (start + GEMM_KC).min(k);
            let side = &mut side[..end - start];
            for (o, row) in w_group.chunks_exact(k).enumerate() {
                for (cell, &w) in side.iter_mut().zip(&row[start..end]) {
                    cell[o] = w;
                }
            }
            let mut sum = [0.0f32; LANES];
            for (cells, &xv) in side.iter().zip(&x[start..end]) {
                for (s, &w) in sum.iter_mut().zip(cells) {
                    *s += w * xv;
                }
            }
            for (t, s) in total.iter_mut().zip(sum) {
                *t = if start == 0 { s } else { s + *t };
            }
        }
        o_group.copy_from_slice(&total[..m]);
    }
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
