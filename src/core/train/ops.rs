//! The operations of a DIFF Transformer with their backward passes, written out by hand
//! (`docs/architecture.md` says why no autodiff crate): each `*_forward` returns what its
//! backward needs, each `*_backward` takes the gradient of the output and returns (or
//! adds to) the gradients of the inputs. `tests.rs` checks every one by finite
//! differences in f64.

use super::real::{sigmoid, Real};
use crate::rope::inv_freq;
use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};

/// `y = x·Wᵀ` for `W` `[out, in]`.
pub fn linear<R: Real>(x: &ArrayView2<R>, w: &ArrayView2<R>) -> Array2<R> {
    x.dot(&w.t())
}

/// The backward of [`linear`]: adds `dyᵀ·x` to `dw` and returns `dx = dy·W`.
pub fn linear_backward<R: Real>(dy: &ArrayView2<R>, x: &ArrayView2<R>, w: &ArrayView2<R>, mut dw: ArrayViewMut2<R>) -> Array2<R> {
    dw += &dy.t().dot(x);
    dy.dot(w)
}

/// RMSNorm of each row, `y = x · g / √(mean(x²) + eps)`; returns `y` and each row's
/// `1 / √(mean(x²) + eps)`.
pub fn rms_norm_forward<R: Real>(x: &ArrayView2<R>, gain: &ArrayView1<R>, eps: R) -> (Array2<R>, Vec<R>) {
    let width = R::of(x.ncols() as f64);
    let gain = gain.to_vec();
    let mut y = x.as_standard_layout().into_owned();
    let mut inv = Vec::with_capacity(x.nrows());
    for mut row in y.rows_mut() {
        let row = row.as_slice_mut().expect("a standard-layout row");
        let mean_square = row.iter().map(|&v| v * v).sum::<R>() / width;
        let r = R::of(1.0) / (mean_square + eps).sqrt();
        row.iter_mut().zip(&gain).for_each(|(v, &g)| *v = *v * r * g);
        inv.push(r);
    }
    (y, inv)
}

/// The backward of [`rms_norm_forward`]: with `n = x·r`, `dg += Σ dy·n` and
/// `dx = r·(dy·g − n·mean(dy·g·n))`.
pub fn rms_norm_backward<R: Real>(dy: &ArrayView2<R>, x: &ArrayView2<R>, gain: &ArrayView1<R>, inv: &[R], mut dgain: ArrayViewMut1<R>) -> Array2<R> {
    let width = R::of(x.ncols() as f64);
    // Contiguous copies: the loops below then run over slices, which compile to plain
    // (vectorised) loops; over ndarray's general iterators they took a twelfth of a step.
    let (x, dy, gain) = (x.as_standard_layout(), dy.as_standard_layout(), gain.to_vec());
    let mut dg = vec![R::of(0.0); gain.len()];
    let mut dx = Array2::zeros(x.dim());
    let cols = x.ncols().max(1);
    let (xs, dys) = (x.as_slice().expect("standard layout"), dy.as_slice().expect("standard layout"));
    for (((mut dx_row, x_row), dy_row), &r) in dx.rows_mut().into_iter().zip(xs.chunks_exact(cols)).zip(dys.chunks_exact(cols)).zip(inv) {
        let mut dot = R::of(0.0);
        for (((&xv, &dyv), &g), dg) in x_row.iter().zip(dy_row).zip(&gain).zip(dg.iter_mut()) {
            let n = xv * r;
            *dg += dyv * n;
            dot += dyv * g * n;
        }
        let mean = dot / width;
        let dx_row = dx_row.as_slice_mut().expect("a fresh row is contiguous");
        for (((d, &xv), &dyv), &g) in dx_row.iter_mut().zip(x_row).zip(dy_row).zip(&gain) {
            *d = r * (dyv * g - xv * r * mean);
        }
    }
    dgain.iter_mut().zip(dg).for_each(|(a, b)| *a += b);
    dx
}

/// The (sin, cos) of every position and rotated pair, `[positions][d/2]`, computed in f32
/// exactly as the core's RoPE does, then widened.
pub fn rope_table<R: Real>(theta: f32, head_dim: usize, positions: usize) -> Vec<Vec<(R, R)>> {
    let freqs = inv_freq(theta, head_dim);
    (0..positions)
        .map(|pos| {
            freqs
                .iter()
                .map(|f| {
                    let (s, c) = (pos as f32 * f).sin_cos();
                    (R::of_f32(s), R::of_f32(c))
                })
                .collect()
        })
        .collect()
}

/// Interleaved RoPE on every `head_dim`-wide head of `x` (`[B·T, W]`, row `i` at
/// position `i mod seq_len`), in place. `inverse` rotates back: the backward of a
/// rotation is its transpose.
pub fn rope<R: Real>(x: &mut Array2<R>, head_dim: usize, seq_len: usize, table: &[Vec<(R, R)>], inverse: bool) {
    for (i, mut row) in x.rows_mut().into_iter().enumerate() {
        let angles = &table[i % seq_len];
        let row = row.as_slice_mut().expect("activations are row-major");
        for head in row.chunks_exact_mut(head_dim) {
            for (p, &(s, c)) in angles.iter().enumerate() {
                let s = if inverse { -s } else { s };
                let (a, b) = (head[2 * p], head[2 * p + 1]);
                head[2 * p] = a * c - b * s;
                head[2 * p + 1] = a * s + b * c;
            }
        }
    }
}

/// What the SwiGLU backward needs: the input and both branches before the gate.
pub struct SwiGluCache<R> {
    pub x: Array2<R>,
    pub gate: Array2<R>,
    pub up: Array2<R>,
    pub gated: Array2<R>,
}

/// `(swish(x·W_gᵀ) ⊙ x·W_upᵀ)·W_downᵀ`.
pub fn swiglu_forward<R: Real>(x: Array2<R>, w_gate: &ArrayView2<R>, w_up: &ArrayView2<R>, w_down: &ArrayView2<R>) -> (Array2<R>, SwiGluCache<R>) {
    let gate = linear(&x.view(), w_gate);
    let up = linear(&x.view(), w_up);
    let mut gated = gate.clone();
    gated.zip_mut_with(&up, |g, &u| *g = *g * sigmoid(*g) * u);
    let y = linear(&gated.view(), w_down);
    (y, SwiGluCache { x, gate, up, gated })
}

/// The backward of [`swiglu_forward`], `d swish(g)/dg = σ(g)·(1 + g·(1 − σ(g)))`: the
/// input's gradient and the three weights' (gate, up, down).
pub fn swiglu_backward<R: Real>(dy: &ArrayView2<R>, c: &SwiGluCache<R>, w: [&ArrayView2<R>; 3]) -> (Array2<R>, [Array2<R>; 3]) {
    let [w_gate, w_up, w_down] = w;
    let mut grads = [Array2::zeros(w_gate.dim()), Array2::zeros(w_up.dim()), Array2::zeros(w_down.dim())];
    let [g_gate, g_up, g_down] = &mut grads;
    let d_gated = linear_backward(dy, &c.gated.view(), w_down, g_down.view_mut());
    let one = R::of(1.0);
    let mut d_gate = d_gated.clone();
    let mut d_up = d_gated;
    ndarray::Zip::from(&mut d_gate).and(&mut d_up).and(&c.gate).and(&c.up).for_each(|dg, du, &g, &u| {
        let s = sigmoid(g);
        let upstream = *dg;
        *dg = upstream * u * s * (one + g * (one - s));
        *du = upstream * g * s;
    });
    let dx = linear_backward(&d_gate.view(), &c.x.view(), w_gate, g_gate.view_mut()) + linear_backward(&d_up.view(), &c.x.view(), w_up, g_up.view_mut());
    (dx, grads)
}

/// The mean cross-entropy of the rows that have a target, and its gradient with respect
/// to the logits (`[rows, vocab]`; rows without a target get zeros). Rows are the
/// positions of a batch, a target the next token or the asked answer.
pub fn cross_entropy<R: Real>(logits: &ArrayView2<R>, targets: &[Option<u32>]) -> (R, Array2<R>) {
    let scored = targets.iter().filter(|t| t.is_some()).count().max(1);
    let inv_count = R::of(1.0 / scored as f64);
    let mut grad = Array2::zeros(logits.dim());
    let mut total = R::of(0.0);
    for ((row, mut g), target) in logits.axis_iter(Axis(0)).zip(grad.axis_iter_mut(Axis(0))).zip(targets) {
        let Some(target) = *target else { continue };
        let max = row.iter().fold(row[0], |m, &v| m.max(v));
        let sum = row.iter().map(|&v| (v - max).exp()).sum::<R>();
        let log_sum = sum.ln() + max;
        total += log_sum - row[target as usize];
        g.iter_mut().zip(row.iter()).for_each(|(g, &v)| *g = (v - log_sum).exp() * inv_count);
        g[target as usize] -= inv_count;
    }
    (total * inv_count, grad)
}
