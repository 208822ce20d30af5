//! A block of a problem's query rows: both maps' rows and their summary, so that a
//! problem split by rows (across workers, or across the page's slices) sums to the same
//! numbers as when computed whole.

use super::lambda_sweep::kink_key;
use super::metrics::Sums;
use super::*;
use crate::linalg::Mat;
use ndarray::s;
use std::ops::Range;

/// A block of query rows of a problem: standard attention's sums over it and its part of
/// the λ sweep. Summed block by block in row order, the blocks give the same numbers
/// however they were computed (one thread, several workers, any order of arrival).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowSummary {
    pub rows: Range<usize>,
    /// Σ of A1 on signal keys and Σ |A1| on noise keys over these rows.
    pub standard_signal: f64,
    pub standard_noise_abs: f64,
    pub sweep: SweepPart,
}

/// Both maps' rows `rows` (row-major, `rows.len() × N` each): one block of a problem.
pub fn map_rows(inputs: &LabInputs, rows: Range<usize>) -> (Vec<f32>, Vec<f32>) {
    let (q, scale) = (inputs.q.slice(s![rows, ..]), inputs.scale());
    let flat = |m: Mat| {
        let (v, offset) = m.into_raw_vec_and_offset();
        debug_assert!(offset.is_none_or(|o| o == 0));
        v
    };
    (flat(softmax_block(&q, &inputs.k1, scale)), flat(softmax_block(&q, &inputs.k2, scale)))
}

/// The summary of rows `rows` of both maps, given as `rows.len() × N` row-major slices.
pub fn summarise_rows(inputs: &LabInputs, rows: Range<usize>, a1: &[f32], a2: &[f32]) -> RowSummary {
    let n = inputs.n();
    let is_signal = inputs.is_signal();
    let stride = LambdaSweep::stride_for(n);
    let mut standard = Sums::default();
    let mut part = SweepPart::default();
    for (k, i) in rows.clone().enumerate() {
        let (r1, r2) = (&a1[k * n..(k + 1) * n], &a2[k * n..(k + 1) * n]);
        standard.add_row(r1, r1, 0.0, &inputs.signal_keys);
        if i % stride == 0 {
            part.add_row(r1, r2, &is_signal);
        }
    }
    part.kinks.sort_unstable_by_key(kink_key);
    RowSummary { rows, standard_signal: standard.signal, standard_noise_abs: standard.noise_abs, sweep: part }
}
