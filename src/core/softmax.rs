//! Row-wise softmax with the causal mask, in f32 as the official code does
//! (`F.softmax(..., dtype=torch.float32)`).

use ndarray::ArrayViewMut2;

/// Masks keys after the query (`j > i`) to −∞ for a block of rows whose first row is
/// query `first_query`; with `causal == false` it leaves the scores alone.
pub fn apply_mask(mut scores: ArrayViewMut2<f32>, first_query: usize, causal: bool) {
    if !causal {
        return;
    }
    for (r, mut row) in scores.rows_mut().into_iter().enumerate() {
        let query = first_query + r;
        row.iter_mut().skip(query + 1).for_each(|v| *v = f32::NEG_INFINITY);
    }
}

/// Replaces each row by its softmax; the max is subtracted first for stability.
/// A row always has at least one finite entry (a query may always see itself).
pub fn softmax_rows(mut x: ArrayViewMut2<f32>) {
    for mut row in x.rows_mut() {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0f32;
        row.iter_mut().for_each(|v| {
            *v = (*v - max).exp();
            sum += *v;
        });
        row.iter_mut().for_each(|v| *v /= sum);
    }
}
