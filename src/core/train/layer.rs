//! One attention layer of any kind, forward and backward, on a batch of sequences
//! (`[B·T, E]`, one row per token): the projections, RoPE, every head as the core's
//! [`HeadLayout`] describes it (so the pairing of sub-heads cannot drift from the viewer),
//! λ (V1's re-parameterised scalar or V2's per-token sigmoid), V1's per-head RMSNorm and
//! (1 − λ_init), the output projection. Parameters are read by their checkpoint names.

use super::attend::{accumulate, head_backward, head_forward, Branch2, HeadIn, HeadMapsOf};
use super::ops::{linear, linear_backward, rms_norm_backward, rms_norm_forward, rope, rope_table};
use super::params::Params;
use super::real::{sigmoid, Real};
use crate::config::{AttentionKind, ModelConfig};
use crate::diff_v1::SUBLN_EPS;
use crate::head_layout::{HeadLayout, HeadSlices, LambdaSource};
use ndarray::{s, Array2, ArrayView2};

/// What a layer is, apart from its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct AttnSpec {
    pub kind: AttentionKind,
    pub layout: HeadLayout,
    pub causal: bool,
    /// RoPE's θ, or `None` for no rotary embedding.
    pub rope_theta: Option<f32>,
    /// The layer's names in the checkpoint start with this (`layers.0.attn`; empty: none).
    pub prefix: String,
}

/// What the backward needs of a layer's forward.
pub struct AttnCache<R> {
    x: Array2<R>,
    q: Array2<R>,
    k: Array2<R>,
    v: Array2<R>,
    lambda: LambdaCache<R>,
    /// `[b][h]`.
    maps: Vec<Vec<HeadMapsOf<R>>>,
    /// The heads' outputs before V1's norm, and each (row, head)'s 1/rms.
    pre_norm: Array2<R>,
    norm_inv: Vec<Vec<R>>,
    /// What the output projection read.
    heads: Array2<R>,
    seq_len: usize,
}

enum LambdaCache<R> {
    None,
    /// V1: λ and its two exponentials.
    Scalar {
        lambda: R,
        e1: R,
        e2: R,
    },
    /// V2: σ(x·W_λᵀ), `[B·T, H]`.
    PerToken(Array2<R>),
}

impl AttnSpec {
    /// Layer `depth` of a model with `config`.
    pub fn of_model(config: &ModelConfig, depth: usize) -> Result<Self, String> {
        let layout = HeadLayout::of_layer(config, depth).map_err(|e| e.to_string())?;
        Ok(Self { kind: config.attention, layout, causal: config.causal, rope_theta: config.rope.then_some(config.rope_theta), prefix: format!("layers.{depth}.attn") })
    }

    /// The checkpoint name of the layer's tensor `name`.
    pub fn name(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.prefix)
        }
    }

    fn out_proj(&self) -> String {
        self.name(if self.kind == AttentionKind::DiffV2 { "o_proj.weight" } else { "out_proj.weight" })
    }

    /// Widths of the q, k and v projections: one past the last column any head reads.
    fn widths(&self) -> (usize, usize, usize) {
        let l = &self.layout;
        let last = |f: &dyn Fn(&HeadSlices) -> usize| l.heads.iter().map(f).max().unwrap_or(0);
        let q = last(&|h| h.q1.max(h.branch2.map_or(0, |b| b.0))) + l.d;
        let k = last(&|h| h.k1.max(h.branch2.map_or(0, |b| b.1))) + l.d;
        (q, k, last(&|h| h.v) + l.dv)
    }

    /// Checks that `params` holds every tensor this layer reads, in its shape, for inputs
    /// `e` wide.
    pub fn check<R: Real>(&self, params: &Params<R>, e: usize) -> Result<(), String> {
        let (q, k, v) = self.widths();
        params.expect(&self.name("q_proj.weight"), q, e)?;
        params.expect(&self.name("k_proj.weight"), k, e)?;
        params.expect(&self.name("v_proj.weight"), v, e)?;
        params.expect(&self.out_proj(), e, self.layout.out_width())?;
        match self.layout.lambda {
            LambdaSource::None => Ok(()),
            LambdaSource::Reparam { subln, .. } => {
                for n in ["lambda_q1", "lambda_k1", "lambda_q2", "lambda_k2"] {
                    params.expect(&self.name(n), 1, self.layout.d)?;
                }
                if subln {
                    params.expect(&self.name("subln.weight"), 1, self.layout.dv)?;
                }
                Ok(())
            }
            LambdaSource::PerToken => params.expect(&self.name("lambda_proj.weight"), self.layout.heads.len(), e),
        }
    }

    /// The names of every tensor the layer reads (what `--grad-of` writes a gradient for).
    pub fn parameter_names(&self) -> Vec<String> {
        let mut names: Vec<String> = ["q_proj.weight", "k_proj.weight", "v_proj.weight"].iter().map(|n| self.name(n)).collect();
        names.push(self.out_proj());
        match self.layout.lambda {
            LambdaSource::None => {}
            LambdaSource::Reparam { subln, .. } => {
                names.extend(["lambda_q1", "lambda_k1", "lambda_q2", "lambda_k2"].iter().map(|n| self.name(n)));
                if subln {
                    names.push(self.name("subln.weight"));
                }
            }
            LambdaSource::PerToken => names.push(self.name("lambda_proj.weight")),
        }
        names
    }

    fn lambda_forward<R: Real>(&self, params: &Params<R>, x: &ArrayView2<R>) -> LambdaCache<R> {
        match self.layout.lambda {
            LambdaSource::None => LambdaCache::None,
            LambdaSource::Reparam { init, .. } => {
                let dot = |a: &str, b: &str| params.vector(&self.name(a)).dot(&params.vector(&self.name(b))).exp();
                let (e1, e2) = (dot("lambda_q1", "lambda_k1"), dot("lambda_q2", "lambda_k2"));
                LambdaCache::Scalar { lambda: e1 - e2 + R::of_f32(init), e1, e2 }
            }
            LambdaSource::PerToken => LambdaCache::PerToken(linear(x, &params.mat(&self.name("lambda_proj.weight"))).mapv(sigmoid)),
        }
    }

    /// The inputs of head `h` of sequence `b`; `lambda` holds its rows' λ.
    fn head_in<'a, R: Real>(&self, c: &'a AttnCache<R>, b: usize, h: usize, lambda: &'a [R]) -> HeadIn<'a, R> {
        let (l, at) = (&self.layout, &self.layout.heads[h]);
        let rows = b * c.seq_len..(b + 1) * c.seq_len;
        let cols = |m: &'a Array2<R>, start: usize, width: usize| m.slice(s![rows.clone(), start..start + width]);
        HeadIn {
            q1: cols(&c.q, at.q1, l.d),
            k1: cols(&c.k, at.k1, l.d),
            branch2: at.branch2.map(|(q2, k2)| Branch2 { q: cols(&c.q, q2, l.d), k: cols(&c.k, k2, l.d), lambda }),
            v: cols(&c.v, at.v, l.dv),
            scale: R::of_f32(l.scale),
            causal: self.causal,
        }
    }

    /// The λ of each row of sequence `b` in head `h` (empty without a second branch).
    fn row_lambdas<R: Real>(&self, c: &LambdaCache<R>, b: usize, h: usize, t: usize) -> Vec<R> {
        match c {
            LambdaCache::None => vec![],
            LambdaCache::Scalar { lambda, .. } => vec![*lambda; t],
            LambdaCache::PerToken(m) => m.slice(s![b * t..(b + 1) * t, h]).to_vec(),
        }
    }
}

/// The layer on `x` (`[B·T, E]`, `seq_len` = T): its output `[B·T, E]` and its cache.
pub fn attention_forward<R: Real>(spec: &AttnSpec, params: &Params<R>, x: Array2<R>, seq_len: usize) -> (Array2<R>, AttnCache<R>) {
    let (l, n) = (&spec.layout, x.nrows());
    let mut q = linear(&x.view(), &params.mat(&spec.name("q_proj.weight")));
    let mut k = linear(&x.view(), &params.mat(&spec.name("k_proj.weight")));
    let v = linear(&x.view(), &params.mat(&spec.name("v_proj.weight")));
    if let Some(theta) = spec.rope_theta {
        let table = rope_table(theta, l.d, seq_len);
        rope(&mut q, l.d, seq_len, &table, false);
        rope(&mut k, l.d, seq_len, &table, false);
    }
    let lambda = spec.lambda_forward(params, &x.view());
    let mut c = AttnCache { x, q, k, v, lambda, maps: vec![], pre_norm: Array2::zeros((n, l.out_width())), norm_inv: vec![], heads: Array2::zeros((0, 0)), seq_len };
    for b in 0..n / seq_len {
        let mut of_b = Vec::with_capacity(l.heads.len());
        for (h, at) in l.heads.iter().enumerate() {
            let lambdas = spec.row_lambdas(&c.lambda, b, h, seq_len);
            let (out, maps) = head_forward(&spec.head_in(&c, b, h, &lambdas));
            c.pre_norm.slice_mut(s![b * seq_len..(b + 1) * seq_len, at.out..at.out + l.dv]).assign(&out);
            of_b.push(maps);
        }
        c.maps.push(of_b);
    }
    c.heads = c.pre_norm.clone();
    if let LambdaSource::Reparam { init, subln } = l.lambda {
        for at in &l.heads {
            let mut cols = c.heads.slice_mut(s![.., at.out..at.out + l.dv]);
            if subln {
                let (normed, inv) = rms_norm_forward(&cols.view(), &params.vector(&spec.name("subln.weight")), R::of_f32(SUBLN_EPS));
                cols.assign(&normed);
                c.norm_inv.push(inv);
            }
            cols.mapv_inplace(|v| v * R::of_f32(1.0 - init));
        }
    }
    (linear(&c.heads.view(), &params.mat(&spec.out_proj())), c)
}

/// The backward of [`attention_forward`]: adds the gradients of the layer's tensors to
/// `grads` and returns the gradient of `x`.
pub fn attention_backward<R: Real>(spec: &AttnSpec, params: &Params<R>, c: &AttnCache<R>, d_out: &ArrayView2<R>, grads: &mut Params<R>) -> Array2<R> {
    let l = &spec.layout;
    let mut d_heads = linear_backward(d_out, &c.heads.view(), &params.mat(&spec.out_proj()), grads.mat_mut(&spec.out_proj()));
    if let LambdaSource::Reparam { init, subln } = l.lambda {
        d_heads.mapv_inplace(|v| v * R::of_f32(1.0 - init));
        if subln {
            let gain_name = spec.name("subln.weight");
            for (h, at) in l.heads.iter().enumerate() {
                let cols = s![.., at.out..at.out + l.dv];
                let dx = rms_norm_backward(&d_heads.slice(cols), &c.pre_norm.slice(cols), &params.vector(&gain_name), &c.norm_inv[h], grads.vector_mut(&gain_name));
                d_heads.slice_mut(cols).assign(&dx);
            }
        }
    }
    let (mut dq, mut dk, mut dv) = (Array2::zeros(c.q.dim()), Array2::zeros(c.k.dim()), Array2::zeros(c.v.dim()));
    let mut d_lambda = Array2::<R>::zeros((c.x.nrows(), l.heads.len()));
    let t = c.seq_len;
    for (b, maps) in c.maps.iter().enumerate() {
        let rows = b * t..(b + 1) * t;
        for (h, at) in l.heads.iter().enumerate() {
            let lambdas = spec.row_lambdas(&c.lambda, b, h, t);
            let g = head_backward(&spec.head_in(c, b, h, &lambdas), &maps[h], &d_heads.slice(s![rows.clone(), at.out..at.out + l.dv]));
            accumulate(dq.slice_mut(s![rows.clone(), at.q1..at.q1 + l.d]), &g.q1);
            accumulate(dk.slice_mut(s![rows.clone(), at.k1..at.k1 + l.d]), &g.k1);
            accumulate(dv.slice_mut(s![rows.clone(), at.v..at.v + l.dv]), &g.v);
            if let (Some((q2, k2)), Some(gq2), Some(gk2)) = (at.branch2, &g.q2, &g.k2) {
                accumulate(dq.slice_mut(s![rows.clone(), q2..q2 + l.d]), gq2);
                accumulate(dk.slice_mut(s![rows.clone(), k2..k2 + l.d]), gk2);
            }
            d_lambda.slice_mut(s![rows.clone(), h]).iter_mut().zip(&g.lambda).for_each(|(d, &g)| *d += g);
        }
    }
    let mut dx = lambda_backward(spec, params, c, &d_lambda, grads);
    if let Some(theta) = spec.rope_theta {
        let table = rope_table(theta, l.d, t);
        rope(&mut dq, l.d, t, &table, true);
        rope(&mut dk, l.d, t, &table, true);
    }
    for (d, w) in [(&dq, "q_proj.weight"), (&dk, "k_proj.weight"), (&dv, "v_proj.weight")] {
        let name = spec.name(w);
        dx += &linear_backward(&d.view(), &c.x.view(), &params.mat(&name), grads.mat_mut(&name));
    }
    dx
}

/// λ's share of the backward: V1's four vectors, or V2's projection and its input.
/// Returns the gradient of `x` through λ (zeros unless V2).
fn lambda_backward<R: Real>(spec: &AttnSpec, params: &Params<R>, c: &AttnCache<R>, d_lambda: &Array2<R>, grads: &mut Params<R>) -> Array2<R> {
    match &c.lambda {
        LambdaCache::None => Array2::zeros(c.x.dim()),
        LambdaCache::Scalar { e1, e2, .. } => {
            let d = d_lambda.sum();
            // λ = exp(q1·k1) − exp(q2·k2) + init.
            for (a, b, scale) in [("lambda_q1", "lambda_k1", d * *e1), ("lambda_q2", "lambda_k2", -d * *e2)] {
                let (va, vb) = (params.vector(&spec.name(a)).to_owned(), params.vector(&spec.name(b)).to_owned());
                grads.vector_mut(&spec.name(a)).scaled_add(scale, &vb);
                grads.vector_mut(&spec.name(b)).scaled_add(scale, &va);
            }
            Array2::zeros(c.x.dim())
        }
        LambdaCache::PerToken(sig) => {
            let mut dz = d_lambda.clone();
            dz.zip_mut_with(sig, |d, &s| *d = *d * s * (R::of(1.0) - s));
            let name = spec.name("lambda_proj.weight");
            linear_backward(&dz.view(), &c.x.view(), &params.mat(&name), grads.mat_mut(&name))
        }
    }
}

impl<R: Real> AttnCache<R> {
    /// The λ the layer used: V1's scalar, or V2's mean over tokens and heads.
    pub fn lambda_mean(&self) -> Option<f64> {
        match &self.lambda {
            LambdaCache::None => None,
            LambdaCache::Scalar { lambda, .. } => Some(lambda.f64()),
            LambdaCache::PerToken(m) => (!m.is_empty()).then(|| m.iter().map(|v| v.f64()).sum::<f64>() / m.len() as f64),
        }
    }

    /// The maps of head `h` of sequence `b`.
    pub fn maps(&self, b: usize, h: usize) -> &HeadMapsOf<R> {
        &self.maps[b][h]
    }
}
