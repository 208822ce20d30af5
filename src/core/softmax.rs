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
/// The exponentials are [`exp_shifted`]'s, in a pass of their own so it vectorises; the
/// sum then adds them in order, as before.
pub fn softmax_rows(mut x: ArrayViewMut2<f32>) {
    for mut row in x.rows_mut() {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        match row.as_slice_mut() {
            Some(values) => values.iter_mut().for_each(|v| *v = exp_shifted(*v - max)),
            None => row.iter_mut().for_each(|v| *v = exp_shifted(*v - max)),
        }
        let sum: f32 = row.iter().sum();
        row.iter_mut().for_each(|v| *v /= sum);
    }
}

/// Below this e^x (< 1.7e-38) is within a factor of 1.4 of f32's smallest normal number
/// or under it: it is taken as 0, as is −∞ (a masked key).
const EXP_FLOOR: f32 = -87.0;
/// ln 2 split in two (Cody and Waite) so that `n · LN2_HI` is exact for |n| ≤ 126.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;

/// e^x for x ≤ 0, the shifted scores of a softmax (the masked ones are −∞), within two
/// units in the last place of the exact value (tested against f64 over the whole range).
/// Written without calls or branches so that the row loop vectorises: the library's
/// `expf`, a call per element, was the largest part of a model's forward in wasm. The
/// polynomial is Cephes' `expf` on the reduced argument |r| ≤ ln 2 / 2; e^0 is exactly 1.
#[inline(always)]
pub fn exp_shifted(x: f32) -> f32 {
    let xc = x.max(EXP_FLOOR);
    let n = (xc * std::f32::consts::LOG2_E).round_ties_even();
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let mut p = 1.987_569_2e-4f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 5e-1;
    let e_r = p * r * r + r + 1.0;
    let two_n = f32::from_bits(((n as i32 + 127) as u32) << 23);
    if x >= EXP_FLOOR {
        e_r * two_n
    } else {
        0.0
    }
}

/// Above this e^x would overflow f32 (e^88.7 is f32's largest number).
const EXP_CEIL: f32 = 88.0;

/// e^x for any x, within two units in the last place for −87 ≤ x ≤ 88 (tested against
/// f64); 0 below, e^88 above. [`exp_shifted`]'s reduction and polynomial hold for
/// positive arguments too while 2^n stays a normal number (n ≤ 127). SwiGLU's swish
/// calls it: a call per element to the library's `expf` was a large part of the
/// explorer's λ step in wasm.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    exp_shifted(x.min(EXP_CEIL))
}
