//! Differential attention V1 with the semantics of the official `MultiheadDiffAttn`
//! (microsoft/unilm, `Diff-Transformer/multihead_diffattn.py`), paper §2.1:
//!
//! ```text
//! [Q1; Q2] = X·W_q,  [K1; K2] = X·W_k,  V = X·W_v          (2H sub-heads of size d, V heads 2d)
//! head_h   = (softmax(Q1 K1ᵀ/√d) − λ·softmax(Q2 K2ᵀ/√d))·V   with Q1 = sub-head 2h, Q2 = 2h+1
//! out      = Concat_h((1 − λ_init)·RMSNorm(head_h))·W_outᵀ
//! λ        = exp(λ_q1·λ_k1) − exp(λ_q2·λ_k2) + λ_init        (one scalar per layer)
//! ```

use super::attention::{head_maps, rotate, run_head, AttentionOptions, HeadInputs, Keep, KvRows, LambdaTrace, LayerOutput, RowLambda};
use super::config::{AttnShape, KvPairing};
use super::head_layout::HeadLayout;
use super::init::{linear_weight, normal_vector};
use super::lambda::LambdaParams;
use super::linalg::{columns, Mat, Weight};
use super::rms_norm::RmsNorm;
use super::weights::{Scope, WeightsError};
use ndarray::{s, Array2, ArrayView2};
use rand::Rng;

/// The per-head norm's epsilon in the official code (`RMSNorm(2*head_dim, eps=1e-5)`).
pub const SUBLN_EPS: f32 = 1e-5;

#[derive(Clone, Debug)]
pub struct DiffAttnV1 {
    /// `[E, E]`: 2H query sub-heads of size d.
    pub wq: Weight,
    /// `[E / n_rep, E]`: 2·H_kv key sub-heads of size d.
    pub wk: Weight,
    /// `[E / n_rep, E]`: H_kv value heads of size 2d.
    pub wv: Weight,
    /// `[E, E]`.
    pub wout: Weight,
    pub lambda: LambdaParams,
    /// RMSNorm over 2d channels, one gain shared by all heads (`subln.weight`).
    pub subln: RmsNorm,
    /// `false` removes the per-head norm (the paper's ablation); (1 − λ_init) stays.
    pub use_subln: bool,
    pub lambda_init: f32,
    pub pairing: KvPairing,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
}

impl DiffAttnV1 {
    /// Loads the official module's state dict (names as in `multihead_diffattn.py`).
    pub fn load(vb: &Scope, shape: AttnShape, lambda_init: f32, pairing: KvPairing, use_subln: bool) -> Result<Self, WeightsError> {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        let kv_width = 2 * n_kv_heads * d;
        // Without the norm (the ablation) a checkpoint need not carry its gain.
        let subln = match use_subln {
            true => RmsNorm::new(vb.vector("subln.weight", 2 * d)?, SUBLN_EPS),
            false => RmsNorm::unit(2 * d, SUBLN_EPS),
        };
        Ok(Self {
            wq: vb.matrix("q_proj.weight", 2 * n_heads * d, e)?.into(),
            wk: vb.matrix("k_proj.weight", kv_width, e)?.into(),
            wv: vb.matrix("v_proj.weight", kv_width, e)?.into(),
            wout: vb.matrix("out_proj.weight", e, 2 * n_heads * d)?.into(),
            lambda: LambdaParams { q1: vb.vector("lambda_q1", d)?, k1: vb.vector("lambda_k1", d)?, q2: vb.vector("lambda_q2", d)?, k2: vb.vector("lambda_k2", d)? },
            subln,
            use_subln,
            lambda_init,
            pairing,
            n_heads,
            n_kv_heads,
            head_dim: d,
        })
    }

    /// Random weights; λ vectors N(0, 0.1²) as the official initialisation.
    pub fn random(rng: &mut impl Rng, shape: AttnShape, lambda_init: f32) -> Self {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        let kv_width = 2 * n_kv_heads * d;
        Self {
            wq: linear_weight(rng, 2 * n_heads * d, e).into(),
            wk: linear_weight(rng, kv_width, e).into(),
            wv: linear_weight(rng, kv_width, e).into(),
            wout: linear_weight(rng, e, 2 * n_heads * d).into(),
            lambda: LambdaParams { q1: normal_vector(rng, d, 0.1), k1: normal_vector(rng, d, 0.1), q2: normal_vector(rng, d, 0.1), k2: normal_vector(rng, d, 0.1) },
            subln: RmsNorm::unit(2 * d, SUBLN_EPS),
            use_subln: true,
            lambda_init,
            pairing: KvPairing::Flash,
            n_heads,
            n_kv_heads,
            head_dim: d,
        }
    }

    /// The learned λ of this layer.
    pub fn lambda_full(&self) -> f32 {
        self.lambda.lambda_full(self.lambda_init)
    }

    /// Key sub-heads for A1 and A2 and the value head of differential head `h`.
    pub fn kv_heads_for(&self, h: usize) -> (usize, usize, usize) {
        self.pairing.heads_for(h, self.n_heads / self.n_kv_heads)
    }

    /// Which columns each differential head reads and writes.
    pub fn head_layout(&self) -> HeadLayout {
        HeadLayout::diff_v1(self.n_heads, self.head_dim, |h| self.kv_heads_for(h), self.lambda_init, self.use_subln)
    }

    pub fn forward(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize) -> LayerOutput {
        self.forward_with_lambda(x, opts, layer, opts.lambda.apply(layer, self.lambda_full()))
    }

    /// The forward pass with λ given: the page's λ slider overrides the learned value.
    pub fn forward_with_lambda(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, lambda: f32) -> LayerOutput {
        self.forward_after(x, opts, layer, lambda, &mut KvRows::default())
    }

    /// The rows `x` that follow those whose keys and values `kv` holds (see
    /// [`AttentionLayer::forward_after`](super::attention::AttentionLayer::forward_after)).
    pub fn forward_after(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, lambda: f32, kv: &mut KvRows) -> LayerOutput {
        let (d, first) = (self.head_dim, kv.rows());
        let q = rotate(self.wq.times(x), d, opts, first);
        kv.append(rotate(self.wk.times(x), d, opts, first), self.wv.times(x));
        let (k, v) = (&kv.k, &kv.v);
        let layout = self.head_layout();
        let mut heads: Mat = Array2::zeros((x.nrows(), layout.out_width()));
        let mut maps = Vec::new();
        for (h, at) in layout.heads.iter().enumerate() {
            let (q2, k2) = at.branch2.expect("DIFF V1 heads have two branches");
            let inputs = HeadInputs {
                q1: columns(&q, at.q1, d),
                k1: columns(k, at.k1, d),
                branch2: Some((columns(&q, q2, d), columns(k, k2, d), RowLambda::Scalar(lambda))),
                v: columns(v, at.v, layout.dv),
                scale: layout.scale,
                first_query: first,
            };
            let wants = opts.maps.wants(layer, h);
            let mut r = run_head(&inputs, opts, &Keep { maps: wants, logits: wants && opts.keep_logits });
            if opts.subln.unwrap_or(self.use_subln) {
                self.subln.apply(r.out.view_mut());
            }
            r.out.mapv_inplace(|o| o * (1.0 - self.lambda_init));
            heads.slice_mut(s![.., at.out..at.out + layout.dv]).assign(&r.out);
            maps.extend(head_maps(layer, h, &mut r));
        }
        LayerOutput { out: self.wout.times(&heads.view()), lambda: LambdaTrace::Scalar(lambda), maps }
    }
}
