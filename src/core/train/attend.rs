//! One head of attention and its backward: `softmax(s·Q1K1ᵀ)` (masked when causal), for a
//! differential head minus `λ_i·softmax(s·Q2K2ᵀ)` row by row, times V. Training sizes are
//! small (a context of tens to a few hundred tokens), so a head keeps its whole maps for
//! the backward instead of recomputing them block by block as the viewer's kernel does.

use super::real::Real;
use ndarray::{Array2, ArrayView2, Zip};

/// Branch 2 of a differential head: its queries and keys and each query row's λ.
pub struct Branch2<'a, R> {
    pub q: ArrayView2<'a, R>,
    pub k: ArrayView2<'a, R>,
    pub lambda: &'a [R],
}

/// A head's inputs (rotated queries and keys, values), as views into the layer's
/// projections.
pub struct HeadIn<'a, R> {
    pub q1: ArrayView2<'a, R>,
    pub k1: ArrayView2<'a, R>,
    pub branch2: Option<Branch2<'a, R>>,
    pub v: ArrayView2<'a, R>,
    pub scale: R,
    pub causal: bool,
}

/// The maps a head's backward needs: A1, A2 and the combination that multiplied V.
#[derive(Clone, Debug)]
pub struct HeadMapsOf<R> {
    pub a1: Array2<R>,
    pub a2: Option<Array2<R>>,
    pub combined: Array2<R>,
}

/// The gradients of one head's inputs; `lambda` has one entry per query row (empty for
/// a head without a second branch).
pub struct HeadGrads<R> {
    pub q1: Array2<R>,
    pub k1: Array2<R>,
    pub q2: Option<Array2<R>>,
    pub k2: Option<Array2<R>>,
    pub v: Array2<R>,
    pub lambda: Vec<R>,
}

/// Row-wise softmax of `scale·q·kᵀ`, with the keys after each query left out when causal
/// (their weights are exactly 0, never a stand-in for −∞).
pub fn probs<R: Real>(q: &ArrayView2<R>, k: &ArrayView2<R>, scale: R, causal: bool) -> Array2<R> {
    let mut s = q.dot(&k.t());
    for (i, mut row) in s.rows_mut().into_iter().enumerate() {
        let visible = if causal { (i + 1).min(row.len()) } else { row.len() };
        let row = row.as_slice_mut().expect("a fresh product is row-major");
        let (seen, hidden) = row.split_at_mut(visible);
        let max = seen.iter().fold(seen[0] * scale, |m, &v| m.max(v * scale));
        let mut sum = R::of(0.0);
        for v in seen.iter_mut() {
            *v = (*v * scale - max).exp();
            sum += *v;
        }
        seen.iter_mut().for_each(|v| *v /= sum);
        hidden.iter_mut().for_each(|v| *v = R::of(0.0));
    }
    s
}

/// The head's output `[T, dv]` and its maps.
pub fn head_forward<R: Real>(h: &HeadIn<R>) -> (Array2<R>, HeadMapsOf<R>) {
    let a1 = probs(&h.q1, &h.k1, h.scale, h.causal);
    let (combined, a2) = match &h.branch2 {
        None => (a1.clone(), None),
        Some(b) => {
            let a2 = probs(&b.q, &b.k, h.scale, h.causal);
            let mut c = a1.clone();
            for ((mut row, row2), &l) in c.rows_mut().into_iter().zip(a2.rows()).zip(b.lambda) {
                row.zip_mut_with(&row2, |a, &b| *a -= l * b);
            }
            (c, Some(a2))
        }
    };
    (combined.dot(&h.v), HeadMapsOf { a1, a2, combined })
}

/// The backward of a softmax map: `dS = A ⊙ (dA − rowsum(dA ⊙ A))`, then the scores'
/// `s·Q·Kᵀ` to `(dQ, dK)`.
fn softmax_backward<R: Real>(d_map: &Array2<R>, map: &Array2<R>, q: &ArrayView2<R>, k: &ArrayView2<R>, scale: R) -> (Array2<R>, Array2<R>) {
    let mut ds = d_map.as_standard_layout().into_owned();
    let map = map.as_standard_layout();
    for (mut row, a) in ds.rows_mut().into_iter().zip(map.rows()) {
        let (row, a) = (row.as_slice_mut().expect("a standard-layout row"), a.to_slice().expect("a standard-layout row"));
        let dot = row.iter().zip(a).map(|(&d, &p)| d * p).sum::<R>();
        row.iter_mut().zip(a).for_each(|(d, &p)| *d = p * (*d - dot) * scale);
    }
    (ds.dot(k), ds.t().dot(q))
}

/// The backward of [`head_forward`] for the output gradient `d_out` `[T, dv]`.
pub fn head_backward<R: Real>(h: &HeadIn<R>, maps: &HeadMapsOf<R>, d_out: &ArrayView2<R>) -> HeadGrads<R> {
    let d_combined = d_out.dot(&h.v.t());
    let v = maps.combined.t().dot(d_out);
    let (q1, k1) = softmax_backward(&d_combined, &maps.a1, &h.q1, &h.k1, h.scale);
    let (Some(b), Some(a2)) = (&h.branch2, &maps.a2) else {
        return HeadGrads { q1, k1, q2: None, k2: None, v, lambda: vec![] };
    };
    let lambda = d_combined.rows().into_iter().zip(a2.rows()).map(|(d, a)| -d.iter().zip(a.iter()).map(|(&d, &p)| d * p).sum::<R>()).collect();
    let mut d_a2 = d_combined;
    for (mut row, &l) in d_a2.rows_mut().into_iter().zip(b.lambda) {
        row.mapv_inplace(|d| -l * d);
    }
    let (q2, k2) = softmax_backward(&d_a2, a2, &b.q, &b.k, h.scale);
    HeadGrads { q1, k1, q2: Some(q2), k2: Some(k2), v, lambda }
}

/// `into += from`, for gradients that several heads share (grouped keys and values, a V2
/// key read by both branches).
pub fn accumulate<R: Real>(mut into: ndarray::ArrayViewMut2<R>, from: &Array2<R>) {
    Zip::from(&mut into).and(from).for_each(|a, &b| *a += b);
}
