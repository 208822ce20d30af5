//! Matrix helpers over `ndarray` (products come from `matrixmultiply`, not a hand GEMM).

use ndarray::{Array2, ArrayView2};
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

/// A row-major matrix of `f32`: activations `[T, E]`, weights `[out, in]`, maps `[T, T]`.
pub type Mat = Array2<f32>;

/// PyTorch `Linear` without bias: `y = x·Wᵀ`, with `W` stored `[out, in]`.
///
/// A few rows (one new token appended to a kept pass, as "Write on" does for each
/// character) take [`few_rows_times`]: the general product packs all of `W` for every
/// call, which cost more than the arithmetic of a single row.
pub fn linear(x: &ArrayView2<f32>, w: &ArrayView2<f32>) -> Mat {
    match (x.nrows() <= FEW_ROWS, w.as_slice()) {
        (true, Some(weights)) if x.ncols() == w.ncols() && w.ncols() > 0 => row_by_row(x, w.nrows(), |xr, out| few_rows_times(xr, weights, out)),
        _ => x.dot(&w.t()),
    }
}

/// A model's weight matrix `[out, in]`, read as a [`Mat`], and beside it, made the first
/// time a product of a few rows needs it, the same weights laid out for that product:
/// [`LANES`] rows side by side ([`few_rows_times`] lays them out anew at every call, which
/// costs as much as the product itself; "Write on" multiplies one row by every weight
/// for every character). Changing the matrix drops the copy.
#[derive(Clone, Default)]
pub struct Weight {
    mat: Mat,
    side_by_side: OnceLock<Vec<f32>>,
}

impl From<Mat> for Weight {
    fn from(mat: Mat) -> Self {
        Self { mat, side_by_side: OnceLock::new() }
    }
}

impl Deref for Weight {
    type Target = Mat;
    fn deref(&self) -> &Mat {
        &self.mat
    }
}

impl DerefMut for Weight {
    fn deref_mut(&mut self) -> &mut Mat {
        self.side_by_side = OnceLock::new();
        &mut self.mat
    }
}

impl PartialEq for Weight {
    fn eq(&self, other: &Self) -> bool {
        self.mat == other.mat
    }
}

impl std::fmt::Debug for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.mat.fmt(f)
    }
}

impl Weight {
    /// `x·Wᵀ`, as [`linear`] computes it, bit for bit; a few rows from the weights laid side by side.
    pub fn times(&self, x: &ArrayView2<f32>) -> Mat {
        let w = &self.mat;
        if x.nrows() > FEW_ROWS || x.ncols() != w.ncols() || w.ncols() == 0 || !w.is_standard_layout() {
            return linear(x, &w.view());
        }
        let packed = self.side_by_side.get_or_init(|| side_by_side(w));
        row_by_row(x, w.nrows(), |xr, out| few_rows_side_by_side(xr, packed, out))
    }
}

/// `w`'s rows in groups of [`LANES`], each group's rows side by side: for every column,
/// the group's values in a row of [`LANES`] (zeros where the last group is short).
fn side_by_side(w: &Mat) -> Vec<f32> {
    let (rows, k) = w.dim();
    let mut out = vec![0.0; rows.div_ceil(LANES) * k * LANES];
    for (r, row) in w.rows().into_iter().enumerate() {
        let group = &mut out[(r / LANES) * k * LANES..][..k * LANES];
        for (cells, &v) in group.chunks_exact_mut(LANES).zip(row) {
            cells[r % LANES] = v;
        }
    }
    out
}

/// [`few_rows_times`] on weights already laid side by side ([`side_by_side`]): the same
/// sums in the same order.
fn few_rows_side_by_side(x: &[f32], packed: &[f32], out: &mut [f32]) {
    let k = x.len();
    for (o_group, group) in out.chunks_mut(LANES).zip(packed.chunks_exact(LANES * k)) {
        let mut total = [0.0f32; LANES];
        for start in (0..k).step_by(GEMM_KC) {
            let end = (start + GEMM_KC).min(k);
            let mut sum = [0.0f32; LANES];
            for (cells, &xv) in group[start * LANES..end * LANES].chunks_exact(LANES).zip(&x[start..end]) {
                let cells: &[f32; LANES] = cells.try_into().expect("a row of LANES");
                for (s, &w) in sum.iter_mut().zip(cells) {
                    *s += w * xv;
                }
            }
            for (t, s) in total.iter_mut().zip(sum) {
                *t = if start == 0 { s } else { s + *t };
            }
        }
        o_group.copy_from_slice(&total[..o_group.len()]);
    }
}

/// A `[rows of x, width]` result made a row at a time: `each(x's row, its output row)`.
fn row_by_row(x: &ArrayView2<f32>, width: usize, each: impl Fn(&[f32], &mut [f32])) -> Mat {
    let mut y = Mat::zeros((x.nrows(), width));
    for (xr, mut yr) in x.rows().into_iter().zip(y.rows_mut()) {
        let xr = xr.as_slice().map_or_else(|| std::borrow::Cow::Owned(xr.to_vec()), std::borrow::Cow::Borrowed);
        each(&xr, yr.as_slice_mut().expect("a fresh row is contiguous"));
    }
    y
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
    few_rows_each(x, |o| &weights[o * k..(o + 1) * k], out);
}

/// [`few_rows_times`] with the rows of `W` wherever they lie (`row(o)`, each `x.len()` long).
fn few_rows_each<'a>(x: &[f32], row: impl Fn(usize) -> &'a [f32], out: &mut [f32]) {
    let k = x.len();
    let mut side = [[0.0f32; LANES]; GEMM_KC];
    for (g, o_group) in out.chunks_mut(LANES).enumerate() {
        let mut total = [0.0f32; LANES];
        for start in (0..k).step_by(GEMM_KC) {
            let end = (start + GEMM_KC).min(k);
            let side = &mut side[..end - start];
            for o in 0..o_group.len() {
                for (cell, &w) in side.iter_mut().zip(&row(g * LANES + o)[start..end]) {
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
        o_group.copy_from_slice(&total[..o_group.len()]);
    }
}

/// `q·kᵀ` (a head's logits): a few query rows against keys whose rows are each contiguous
/// (a head's columns of the keys) take [`few_rows_each`], the sums in the general
/// product's order; more rows take the general product. A character "Write on" adds
/// reads every key once, and the general product would pack them all first.
pub fn times_t(q: &ArrayView2<f32>, k: &ArrayView2<f32>) -> Mat {
    if q.nrows() > FEW_ROWS || q.ncols() != k.ncols() || k.ncols() == 0 || (k.ncols() > 1 && k.strides()[1] != 1) {
        return q.dot(&k.t());
    }
    let mut y = Mat::zeros((q.nrows(), k.nrows()));
    for (qr, mut yr) in q.rows().into_iter().zip(y.rows_mut()) {
        let qr = qr.to_vec();
        let rows: Vec<&[f32]> = k.rows().into_iter().map(|r| r.to_slice().expect("a row with unit stride")).collect();
        few_rows_each(&qr, |o| rows[o], yr.as_slice_mut().expect("a fresh row is contiguous"));
    }
    y
}

/// `p·v` (a head's output from its weights): a few rows of `p` against `v` whose rows are
/// each contiguous take one pass over `v`, each output summed over `v`'s rows in the
/// general product's order (from zero, one product at a time, blocks of [`GEMM_KC`]
/// added in order); more rows take the general product.
pub fn times(p: &ArrayView2<f32>, v: &ArrayView2<f32>) -> Mat {
    if p.nrows() > FEW_ROWS || p.ncols() != v.nrows() || v.nrows() == 0 || (v.ncols() > 1 && v.strides()[1] != 1) {
        return p.dot(v);
    }
    let width = v.ncols();
    let mut y = Mat::zeros((p.nrows(), width));
    let mut sum = vec![0.0f32; width];
    for (pr, mut yr) in p.rows().into_iter().zip(y.rows_mut()) {
        let total = yr.as_slice_mut().expect("a fresh row is contiguous");
        for start in (0..v.nrows()).step_by(GEMM_KC) {
            let end = (start + GEMM_KC).min(v.nrows());
            sum.fill(0.0);
            for t in start..end {
                let (weight, row) = (pr[t], v.row(t));
                for (s, &x) in sum.iter_mut().zip(row.to_slice().expect("a row with unit stride")) {
                    *s += weight * x;
                }
            }
            for (t, &s) in total.iter_mut().zip(&sum) {
                *t = if start == 0 { s } else { s + *t };
            }
        }
    }
    y
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
        // Weights laid side by side give the same rows, bit for bit, and so does the copy
        // made again after the matrix changed.
        let mut weight = Weight::from(w.clone());
        for r in 0..5 {
            let x1 = x.slice(ndarray::s![r..r + 1, ..]);
            assert_eq!(weight.times(&x1), linear(&x1, &w.view()));
        }
        assert_eq!(weight.times(&x.view()), all);
        weight[[3, 4]] = 7.0;
        let x1 = x.slice(ndarray::s![..2, ..]);
        assert_eq!(weight.times(&x1), linear(&x1, &weight.view()));
        // A head's logits and output: a few rows equal the general product's.
        let (k, v) = (columns(&w, 3, 20), Mat::from_shape_fn((300, 9), |(i, j)| ((i * 5 + j * 3) % 17) as f32 / 7.0 - 1.0));
        let q = Mat::from_shape_fn((2, 20), |(i, j)| ((i * 3 + j) % 11) as f32 / 5.0 - 1.0);
        let p = Mat::from_shape_fn((2, 300), |(i, j)| ((i + j * 7) % 13) as f32 / 13.0);
        let (logits, out) = (times_t(&q.view(), &k), times(&p.view(), &v.view()));
        let err = |a: &Mat, b: &Mat| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
        assert!(err(&logits, &q.dot(&k.t())) <= 1e-5 && err(&out, &p.dot(&v)) <= 1e-4);
        // Weights that are not one contiguous block take the general product.
        let (x1, strided) = (x.slice(ndarray::s![..1, ..]), w.slice(ndarray::s![..;2, ..]));
        assert_eq!(linear(&x1, &strided), x1.dot(&strided.t()));
    }
}
