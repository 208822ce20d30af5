//! Helpers shared by the core tests: seeded inputs and an independent f64 reference of
//! the official PyTorch modules, written from the reference text (whole matrices,
//! `repeat_kv` indexing as in the official code), sharing no code with the core (`src/core`).
#![allow(dead_code)]

use difflens::core::baseline::BaselineAttention;
use difflens::core::config::KvPairing;
use difflens::core::diff_v1::DiffAttnV1;
use difflens::core::diff_v2::DiffAttnV2;
use difflens::core::init::{normal_matrix, seeded};
use difflens::core::linalg::Mat;

pub type M64 = Vec<Vec<f64>>;

pub fn random_input(t: usize, e: usize, seed: u64) -> Mat {
    normal_matrix(&mut seeded(seed), t, e, 1.0)
}

pub fn to64(m: &Mat) -> M64 {
    m.rows().into_iter().map(|r| r.iter().map(|&v| v as f64).collect()).collect()
}

fn linear(x: &M64, w: &Mat) -> M64 {
    x.iter().map(|row| (0..w.nrows()).map(|o| (0..w.ncols()).map(|i| row[i] * w[[o, i]] as f64).sum()).collect()).collect()
}

/// Interleaved RoPE on every `d`-wide head of each row, angles in f64.
fn rope(x: &mut M64, d: usize, theta: f64) {
    for (pos, row) in x.iter_mut().enumerate() {
        for head in row.chunks_mut(d) {
            for i in 0..d / 2 {
                let ang = pos as f64 / theta.powf(2.0 * i as f64 / d as f64);
                let (a, b) = (head[2 * i], head[2 * i + 1]);
                head[2 * i] = a * ang.cos() - b * ang.sin();
                head[2 * i + 1] = a * ang.sin() + b * ang.cos();
            }
        }
    }
}

/// softmax(q_h k_hᵀ·scale + mask) for columns [qo, qo+d) of q and [ko, ko+d) of k.
fn attn_map(q: &M64, qo: usize, k: &M64, ko: usize, d: usize, causal: bool) -> M64 {
    let t = q.len();
    let scale = (d as f64).powf(-0.5);
    (0..t)
        .map(|i| {
            let logits: Vec<f64> = (0..t).map(|j| if causal && j > i { f64::NEG_INFINITY } else { (0..d).map(|c| q[i][qo + c] * k[j][ko + c]).sum::<f64>() * scale }).collect();
            let m = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = logits.iter().map(|l| (l - m).exp()).sum();
            logits.iter().map(|l| (l - m).exp() / z).collect()
        })
        .collect()
}

fn matmul_cols(a: &M64, v: &M64, vo: usize, width: usize) -> M64 {
    a.iter().map(|row| (0..width).map(|c| row.iter().zip(v).map(|(w, vr)| w * vr[vo + c]).sum()).collect()).collect()
}

/// Q, K, V projections of `x`, with RoPE on Q and K when `theta` is given.
fn project(x: &M64, wq: &Mat, wk: &Mat, wv: &Mat, d: usize, theta: Option<f64>) -> (M64, M64, M64) {
    let (mut q, mut k, v) = (linear(x, wq), linear(x, wk), linear(x, wv));
    if let Some(th) = theta {
        rope(&mut q, d, th);
        rope(&mut k, d, th);
    }
    (q, k, v)
}

pub struct Reference {
    pub out: M64,
    /// Combined map per head (A1 − λA2, or A for the baseline).
    pub maps: Vec<M64>,
}

/// The official `MultiheadDiffAttn.forward`, step by step, in f64.
pub fn v1_reference(layer: &DiffAttnV1, x: &Mat, causal: bool, theta: Option<f64>) -> Reference {
    let d = layer.head_dim;
    let (h_count, kv_count) = (layer.n_heads, layer.n_kv_heads);
    let n_rep = h_count / kv_count;
    let x = to64(x);
    let (q, k, v) = project(&x, &layer.wq, &layer.wk, &layer.wv, d, theta);
    let dot = |a: &ndarray::Array1<f32>, b: &ndarray::Array1<f32>| a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum::<f64>();
    let l = &layer.lambda;
    let lambda = dot(&l.q1, &l.k1).exp() - dot(&l.q2, &l.k2).exp() + layer.lambda_init as f64;
    let t = x.len();
    let mut heads = vec![vec![0.0; 2 * d * h_count]; t];
    let mut maps = vec![];
    for h in 0..h_count {
        // After repeat_kv, query sub-head s reads key sub-head s / n_rep (naive file);
        // the flash files read key sub-heads 2g, 2g+1 of group g = h / n_rep.
        let (k1, k2) = match layer.pairing {
            KvPairing::Naive => ((2 * h) / n_rep, (2 * h + 1) / n_rep),
            KvPairing::Flash => (2 * (h / n_rep), 2 * (h / n_rep) + 1),
        };
        let a1 = attn_map(&q, 2 * h * d, &k, k1 * d, d, causal);
        let a2 = attn_map(&q, (2 * h + 1) * d, &k, k2 * d, d, causal);
        let diff: M64 = a1.iter().zip(&a2).map(|(r1, r2)| r1.iter().zip(r2).map(|(a, b)| a - lambda * b).collect()).collect();
        let mut o = matmul_cols(&diff, &v, (h / n_rep) * 2 * d, 2 * d);
        for row in o.iter_mut() {
            let ms = row.iter().map(|v| v * v).sum::<f64>() / row.len() as f64;
            let r = 1.0 / (ms + 1e-5).sqrt();
            for (c, val) in row.iter_mut().enumerate() {
                let g = if layer.use_subln { *val * r * layer.subln.gain[c] as f64 } else { *val };
                *val = g * (1.0 - layer.lambda_init as f64);
            }
        }
        for i in 0..t {
            heads[i][h * 2 * d..(h + 1) * 2 * d].copy_from_slice(&o[i]);
        }
        maps.push(diff);
    }
    Reference { out: linear(&heads, &layer.wout), maps }
}

/// DIFF V2 from the blog's reference code, in f64.
pub fn v2_reference(layer: &DiffAttnV2, x: &Mat, causal: bool, theta: Option<f64>) -> Reference {
    let d = layer.head_dim;
    let x64 = to64(x);
    let (q, k, v) = project(&x64, &layer.wq, &layer.wk, &layer.wv, d, theta);
    let lam: M64 = linear(&x64, &layer.w_lambda).into_iter().map(|r| r.into_iter().map(|z| 1.0 / (1.0 + (-z).exp())).collect()).collect();
    let group = 2 * layer.n_heads / layer.n_kv_heads;
    let t = x64.len();
    let mut heads = vec![vec![0.0; d * layer.n_heads]; t];
    let mut maps = vec![];
    for h in 0..layer.n_heads {
        let g = (2 * h) / group;
        let a1 = attn_map(&q, 2 * h * d, &k, g * d, d, causal);
        let a2 = attn_map(&q, (2 * h + 1) * d, &k, g * d, d, causal);
        // attn1 − λ·attn2 on the outputs, as the blog computes it.
        let o1 = matmul_cols(&a1, &v, g * d, d);
        let o2 = matmul_cols(&a2, &v, g * d, d);
        for i in 0..t {
            for c in 0..d {
                heads[i][h * d + c] = o1[i][c] - lam[i][h] * o2[i][c];
            }
        }
        maps.push(a1.iter().zip(&a2).enumerate().map(|(i, (r1, r2))| r1.iter().zip(r2).map(|(a, b)| a - lam[i][h] * b).collect()).collect());
    }
    Reference { out: linear(&heads, &layer.wo), maps }
}

pub fn baseline_reference(layer: &BaselineAttention, x: &Mat, causal: bool, theta: Option<f64>) -> Reference {
    let d = layer.head_dim;
    let x64 = to64(x);
    let (q, k, v) = project(&x64, &layer.wq, &layer.wk, &layer.wv, d, theta);
    let group = layer.n_heads / layer.n_kv_heads;
    let t = x64.len();
    let mut heads = vec![vec![0.0; d * layer.n_heads]; t];
    let mut maps = vec![];
    for h in 0..layer.n_heads {
        let a = attn_map(&q, h * d, &k, (h / group) * d, d, causal);
        let o = matmul_cols(&a, &v, (h / group) * d, d);
        for i in 0..t {
            heads[i][h * d..(h + 1) * d].copy_from_slice(&o[i]);
        }
        maps.push(a);
    }
    Reference { out: linear(&heads, &layer.wout), maps }
}

/// Largest |a − b| between an f32 matrix and its f64 reference.
pub fn max_abs_diff(a: &Mat, b: &M64) -> f64 {
    a.rows()
        .into_iter()
        .zip(b)
        .flat_map(|(ra, rb)| ra.iter().zip(rb).map(|(x, y)| (*x as f64 - y).abs()).collect::<Vec<_>>())
        .fold(0.0, |m, d| if m.is_nan() || d.is_nan() { f64::NAN } else { m.max(d) })
}
