//! DIFF V2 (microsoft/unilm `Diff-Transformer-V2`, January 2026): 2H query heads of the
//! ordinary size d, KV heads unchanged, and a per-token, per-head λ:
//!
//! ```text
//! head_h = (softmax(Q_2h Kᵀ/√d) − λ[t,h]·softmax(Q_2h+1 Kᵀ/√d))·V   (K, V of one KV group)
//! λ[t,h] = sigmoid(x·W_λᵀ)[t,h]
//! out    = Concat_h(head_h)·W_oᵀ                                    (no per-head norm)
//! ```
//! Query heads 2h and 2h+1 must share a KV group, so H must be a multiple of H_kv.

use super::attention::{head_maps, rotate, run_head, AttentionOptions, HeadInputs, Keep, KvRows, LambdaTrace, LayerOutput, RowLambda};
use super::config::AttnShape;
use super::head_layout::{v2_kv_group, HeadLayout};
use super::init::linear_weight;
use super::lambda::sigmoid;
use super::linalg::{columns, Mat, Weight};
use super::weights::{Scope, WeightsError};
use ndarray::{s, Array2, ArrayView2};
use rand::Rng;

#[derive(Clone, Debug)]
pub struct DiffAttnV2 {
    /// `[2H·d, E]`.
    pub wq: Weight,
    /// `[H_kv·d, E]`.
    pub wk: Weight,
    /// `[H_kv·d, E]`.
    pub wv: Weight,
    /// `[E, H·d]`: the same as a baseline with H heads.
    pub wo: Weight,
    /// `[H, E]`.
    pub w_lambda: Weight,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
}

impl DiffAttnV2 {
    /// Loads `q_proj`, `k_proj`, `v_proj`, `o_proj` and `lambda_proj` (`.weight`).
    pub fn load(vb: &Scope, shape: AttnShape) -> Result<Self, WeightsError> {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        Ok(Self {
            wq: vb.matrix("q_proj.weight", 2 * n_heads * d, e)?.into(),
            wk: vb.matrix("k_proj.weight", n_kv_heads * d, e)?.into(),
            wv: vb.matrix("v_proj.weight", n_kv_heads * d, e)?.into(),
            wo: vb.matrix("o_proj.weight", e, n_heads * d)?.into(),
            w_lambda: vb.matrix("lambda_proj.weight", n_heads, e)?.into(),
            n_heads,
            n_kv_heads,
            head_dim: d,
        })
    }

    pub fn random(rng: &mut impl Rng, shape: AttnShape) -> Self {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        Self {
            wq: linear_weight(rng, 2 * n_heads * d, e).into(),
            wk: linear_weight(rng, n_kv_heads * d, e).into(),
            wv: linear_weight(rng, n_kv_heads * d, e).into(),
            wo: linear_weight(rng, e, n_heads * d).into(),
            w_lambda: linear_weight(rng, n_heads, e).into(),
            n_heads,
            n_kv_heads,
            head_dim: d,
        }
    }

    /// λ[t, h] = sigmoid(x·W_λᵀ), `[T, H]`.
    pub fn lambdas(&self, x: &ArrayView2<f32>) -> Mat {
        self.w_lambda.times(x).mapv(sigmoid)
    }

    /// The KV group of query head `j` (of 2H): heads 2h and 2h+1 always share one.
    pub fn kv_group(&self, query_head: usize) -> usize {
        v2_kv_group(query_head, self.n_heads / self.n_kv_heads)
    }

    /// Which columns each differential head reads and writes.
    pub fn head_layout(&self) -> HeadLayout {
        HeadLayout::diff_v2(self.n_heads, self.head_dim, |q| self.kv_group(q))
    }

    pub fn forward(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize) -> LayerOutput {
        let lambdas = self.lambdas(x).mapv(|l| opts.lambda.apply(layer, l));
        self.forward_with_lambdas(x, opts, layer, lambdas)
    }

    /// The forward pass with λ `[T, H]` given (the page may override the learned one).
    pub fn forward_with_lambdas(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, lambdas: Mat) -> LayerOutput {
        self.forward_after(x, opts, layer, lambdas, &mut KvRows::default())
    }

    /// The rows `x` that follow those whose keys and values `kv` holds (see
    /// [`AttentionLayer::forward_after`](super::attention::AttentionLayer::forward_after));
    /// `lambdas` are the rows of `x`'s.
    pub fn forward_after(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, lambdas: Mat, kv: &mut KvRows) -> LayerOutput {
        let (d, first) = (self.head_dim, kv.rows());
        let q = rotate(self.wq.times(x), d, opts, first);
        kv.append(rotate(self.wk.times(x), d, opts, first), self.wv.times(x));
        let (k, v) = (&kv.k, &kv.v);
        let layout = self.head_layout();
        let mut heads: Mat = Array2::zeros((x.nrows(), layout.out_width()));
        let mut maps = Vec::new();
        for (h, at) in layout.heads.iter().enumerate() {
            let (q2, k2) = at.branch2.expect("DIFF V2 heads have two branches");
            let lambda_h: Vec<f32> = lambdas.column(h).to_vec();
            let inputs = HeadInputs {
                q1: columns(&q, at.q1, d),
                k1: columns(k, at.k1, d),
                branch2: Some((columns(&q, q2, d), columns(k, k2, d), RowLambda::PerRow(&lambda_h))),
                v: columns(v, at.v, d),
                scale: layout.scale,
                first_query: first,
            };
            let wants = opts.maps.wants(layer, h);
            let mut r = run_head(&inputs, opts, &Keep { maps: wants, logits: wants && opts.keep_logits });
            heads.slice_mut(s![.., at.out..at.out + d]).assign(&r.out);
            maps.extend(head_maps(layer, h, &mut r));
        }
        LayerOutput { out: self.wo.times(&heads.view()), lambda: LambdaTrace::PerToken(lambdas), maps }
    }
}
