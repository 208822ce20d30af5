//! Ordinary multi-head softmax attention (grouped KV allowed): the control the DIFF
//! paper compares against. For parameter parity with a V1 layer of H differential heads
//! it has 2H heads of size d.

use super::attention::{head_maps, rotate, run_head, AttentionOptions, HeadInputs, Keep, KvRows, LambdaTrace, LayerOutput};
use super::config::AttnShape;
use super::head_layout::HeadLayout;
use super::init::linear_weight;
use super::linalg::{columns, Mat, Weight};
use super::weights::{Scope, WeightsError};
use ndarray::{s, Array2, ArrayView2};
use rand::Rng;

#[derive(Clone, Debug)]
pub struct BaselineAttention {
    pub wq: Weight,
    pub wk: Weight,
    pub wv: Weight,
    pub wout: Weight,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
}

impl BaselineAttention {
    /// Loads `q_proj`, `k_proj`, `v_proj`, `out_proj` (`.weight`, `[out, in]`).
    pub fn load(vb: &Scope, shape: AttnShape) -> Result<Self, WeightsError> {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        Ok(Self {
            wq: vb.matrix("q_proj.weight", n_heads * d, e)?.into(),
            wk: vb.matrix("k_proj.weight", n_kv_heads * d, e)?.into(),
            wv: vb.matrix("v_proj.weight", n_kv_heads * d, e)?.into(),
            wout: vb.matrix("out_proj.weight", e, n_heads * d)?.into(),
            n_heads,
            n_kv_heads,
            head_dim: d,
        })
    }

    pub fn random(rng: &mut impl Rng, shape: AttnShape) -> Self {
        let AttnShape { embed_dim: e, n_heads, n_kv_heads, head_dim: d } = shape;
        Self {
            wq: linear_weight(rng, n_heads * d, e).into(),
            wk: linear_weight(rng, n_kv_heads * d, e).into(),
            wv: linear_weight(rng, n_kv_heads * d, e).into(),
            wout: linear_weight(rng, e, n_heads * d).into(),
            n_heads,
            n_kv_heads,
            head_dim: d,
        }
    }

    /// `softmax(QKᵀ/√d)·V` per head, heads concatenated, then `out_proj`.
    /// Which columns each head reads and writes.
    pub fn head_layout(&self) -> HeadLayout {
        HeadLayout::baseline(self.n_heads, self.n_kv_heads, self.head_dim)
    }

    pub fn forward(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize) -> LayerOutput {
        self.forward_after(x, opts, layer, &mut KvRows::default())
    }

    /// The rows `x` that follow those whose keys and values `kv` holds (see
    /// [`AttentionLayer::forward_after`](super::attention::AttentionLayer::forward_after)).
    pub fn forward_after(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, kv: &mut KvRows) -> LayerOutput {
        let (d, first) = (self.head_dim, kv.rows());
        let q = rotate(self.wq.times(x), d, opts, first);
        kv.append(rotate(self.wk.times(x), d, opts, first), self.wv.times(x));
        let (k, v) = (&kv.k, &kv.v);
        let layout = self.head_layout();
        let mut heads: Mat = Array2::zeros((x.nrows(), layout.out_width()));
        let mut maps = Vec::new();
        for (h, at) in layout.heads.iter().enumerate() {
            let inputs = HeadInputs { q1: columns(&q, at.q1, d), k1: columns(k, at.k1, d), branch2: None, v: columns(v, at.v, d), scale: layout.scale, first_query: first };
            let wants = opts.maps.wants(layer, h);
            let mut r = run_head(&inputs, opts, &Keep { maps: wants, logits: wants && opts.keep_logits });
            heads.slice_mut(s![.., at.out..at.out + d]).assign(&r.out);
            maps.extend(head_maps(layer, h, &mut r));
        }
        LayerOutput { out: self.wout.times(&heads.view()), lambda: LambdaTrace::None, maps }
    }
}
