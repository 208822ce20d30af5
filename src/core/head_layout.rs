//! Which columns of a layer's projections each head reads, where it writes, and where
//! its λ comes from: the one description the CPU core's three attention kinds, the GPU
//! model and the trainer all follow (the GPU reads heads in place from Q, K and V by
//! these offsets; the trainer gathers the same columns).

use super::config::{AttentionKind, ModelConfig};
use super::weights::WeightsError;

/// One head: the first column of each slice it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadSlices {
    /// Branch 1's query and key (`d` columns each).
    pub q1: usize,
    pub k1: usize,
    /// Branch 2's query and key, for a differential head.
    pub branch2: Option<(usize, usize)>,
    /// Its values (`dv` columns) and where its output goes in the concatenated heads.
    pub v: usize,
    pub out: usize,
}

/// Where a layer's λ comes from, and what it does to the heads' outputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LambdaSource {
    /// Standard attention: one map per head, no λ.
    None,
    /// DIFF V1: one learnt scalar per layer, λ = exp(λ_q1·λ_k1) − exp(λ_q2·λ_k2) + λ_init;
    /// each head's output is RMS-normed (when `subln`; off is the paper's ablation) and
    /// scaled by 1 − λ_init.
    Reparam { init: f32, subln: bool },
    /// DIFF V2: one per token and head, λ = sigmoid(x·W_λᵀ); no norm, no scale.
    PerToken,
}

/// Every head of a layer, with the sizes, the score scale and the λ source they share.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadLayout {
    /// Query/key head size.
    pub d: usize,
    /// Value (and output) head size: `d`, or `2d` for DIFF V1.
    pub dv: usize,
    /// d^−½, the scale of every head's scores.
    pub scale: f32,
    pub lambda: LambdaSource,
    pub heads: Vec<HeadSlices>,
}

/// DIFF V2's KV head for query head `q` (of 2H): pairs (2h, 2h+1) share one, and
/// `n_rep` differential heads share each KV head.
pub fn v2_kv_group(q: usize, n_rep: usize) -> usize {
    q / (2 * n_rep)
}

/// The attention score scale d^−½ (computed in f32, as the official code's float32 run).
pub fn score_scale(d: usize) -> f32 {
    (d as f32).powf(-0.5)
}

impl HeadLayout {
    /// Standard attention: head h reads query h and the KV group of `group` query heads.
    pub fn baseline(n_heads: usize, n_kv_heads: usize, d: usize) -> Self {
        let group = n_heads / n_kv_heads;
        let heads = (0..n_heads).map(|h| HeadSlices { q1: h * d, k1: (h / group) * d, branch2: None, v: (h / group) * d, out: h * d }).collect();
        Self { d, dv: d, scale: score_scale(d), lambda: LambdaSource::None, heads }
    }

    /// DIFF V1: head h's sub-heads are query columns 2h and 2h+1; `kv(h)` gives its two
    /// key sub-heads and its value head (2d wide), by the module's KV pairing.
    pub fn diff_v1(n_heads: usize, d: usize, kv: impl Fn(usize) -> (usize, usize, usize), lambda_init: f32, subln: bool) -> Self {
        let heads = (0..n_heads)
            .map(|h| {
                let (k1, k2, vh) = kv(h);
                HeadSlices { q1: 2 * h * d, k1: k1 * d, branch2: Some(((2 * h + 1) * d, k2 * d)), v: vh * 2 * d, out: h * 2 * d }
            })
            .collect();
        Self { d, dv: 2 * d, scale: score_scale(d), lambda: LambdaSource::Reparam { init: lambda_init, subln }, heads }
    }

    /// DIFF V2: 2H query heads in pairs (2h, 2h+1) sharing one KV head, `group(q)` for
    /// query head q; the output is one d-wide head per pair.
    pub fn diff_v2(n_heads: usize, d: usize, group: impl Fn(usize) -> usize) -> Self {
        let heads = (0..n_heads)
            .map(|h| {
                let g = group(2 * h);
                debug_assert_eq!(g, group(2 * h + 1), "both branches of a V2 head read one KV head");
                HeadSlices { q1: 2 * h * d, k1: g * d, branch2: Some(((2 * h + 1) * d, g * d)), v: g * d, out: h * d }
            })
            .collect();
        Self { d, dv: d, scale: score_scale(d), lambda: LambdaSource::PerToken, heads }
    }

    /// The layout of layer `depth` of a model with this config, without its weights (what
    /// the trainer builds its batched forward from).
    pub fn of_layer(config: &ModelConfig, depth: usize) -> Result<Self, WeightsError> {
        let shape = config.attn_shape()?;
        let (h, d, n_rep) = (shape.n_heads, shape.head_dim, shape.n_rep());
        Ok(match config.attention {
            AttentionKind::Baseline => Self::baseline(h, shape.n_kv_heads, d),
            AttentionKind::DiffV1 => Self::diff_v1(h, d, |head| config.kv_pairing.heads_for(head, n_rep), config.lambda_init(depth), config.subln),
            AttentionKind::DiffV2 => Self::diff_v2(h, d, |q| v2_kv_group(q, n_rep)),
        })
    }

    /// Width of the concatenated head outputs.
    pub fn out_width(&self) -> usize {
        self.heads.len() * self.dv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_tile_their_projections() {
        let b = HeadLayout::baseline(4, 2, 16);
        assert_eq!(b.heads[3], HeadSlices { q1: 48, k1: 16, branch2: None, v: 16, out: 48 });
        assert_eq!((b.out_width(), b.scale), (64, 0.25));
        let v1 = HeadLayout::diff_v1(2, 8, |h| (2 * h, 2 * h + 1, h), 0.2, true);
        assert_eq!(v1.heads[1], HeadSlices { q1: 16, k1: 16, branch2: Some((24, 24)), v: 16, out: 16 });
        assert_eq!(v1.out_width(), 32);
        let v2 = HeadLayout::diff_v2(4, 16, |q| q / 4);
        assert_eq!(v2.heads[3], HeadSlices { q1: 96, k1: 16, branch2: Some((112, 16)), v: 16, out: 48 });
        assert_eq!((b.lambda, v1.lambda, v2.lambda), (LambdaSource::None, LambdaSource::Reparam { init: 0.2, subln: true }, LambdaSource::PerToken));
    }

    /// The layout read from a config alone is the one the loaded layers use.
    #[test]
    fn a_config_describes_its_layers() {
        use crate::config::KvPairing;
        use crate::model::Model;
        let base = ModelConfig::from_json(r#"{"attention":"baseline","vocab_size":8,"dim":32,"n_layers":3,"n_heads":4,"n_kv_heads":2,"ffn_hidden":16}"#).unwrap();
        for kind in AttentionKind::ALL {
            for (pairing, subln) in [(KvPairing::Flash, true), (KvPairing::Naive, false)] {
                let config = ModelConfig { attention: kind, kv_pairing: pairing, subln, ..base.clone() };
                let model = Model::random(config.clone(), 7).unwrap();
                for (depth, block) in model.blocks.iter().enumerate() {
                    assert_eq!(HeadLayout::of_layer(&config, depth).unwrap(), block.attn.head_layout(), "{kind:?} {pairing:?} layer {depth}");
                }
            }
        }
    }
}
