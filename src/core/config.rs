//! The model config, read from the JSON file that sits beside a checkpoint.

use super::lambda::lambda_init_for_depth;
use super::weights::WeightsError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttentionKind {
    /// Ordinary multi-head softmax attention.
    Baseline,
    /// DIFF Transformer V1 (paper, official `multihead_diffattn.py`).
    DiffV1,
    /// DIFF V2 (January 2026): doubled query heads, per-token λ, no per-head norm.
    DiffV2,
}

impl AttentionKind {
    pub const ALL: [AttentionKind; 3] = [AttentionKind::Baseline, AttentionKind::DiffV1, AttentionKind::DiffV2];

    /// The name in configs, model cards, links and the shipped models' folders.
    pub fn slug(self) -> &'static str {
        match self {
            AttentionKind::Baseline => "baseline",
            AttentionKind::DiffV1 => "diff_v1",
            AttentionKind::DiffV2 => "diff_v2",
        }
    }

    pub fn from_slug(slug: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.slug() == slug)
    }
}

/// How a V1 layer with grouped KV heads (H_kv < H) pairs query and key sub-heads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvPairing {
    /// The official flash variants: head h uses key sub-heads 2g and 2g+1 of group
    /// g = h / n_rep, so A1 and A2 come from different keys of one KV group (intended).
    #[default]
    Flash,
    /// The official naive file: `repeat_kv` over 2·H_kv key sub-heads maps query sub-head
    /// s to key sub-head s / n_rep, so with n_rep = 2 both maps of a head share one key.
    Naive,
}

impl KvPairing {
    /// Key sub-heads for A1 and A2 and the value head of DIFF V1 head `h`, when `n_rep`
    /// heads share each KV group.
    pub fn heads_for(self, h: usize, n_rep: usize) -> (usize, usize, usize) {
        match self {
            KvPairing::Flash => {
                let g = h / n_rep;
                (2 * g, 2 * g + 1, g)
            }
            KvPairing::Naive => ((2 * h) / n_rep, (2 * h + 1) / n_rep, h / n_rep),
        }
    }
}

fn default_eps() -> f32 {
    1e-5
}
fn default_theta() -> f32 {
    10_000.0
}
fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    pub attention: AttentionKind,
    pub vocab_size: usize,
    /// E, the model width.
    pub dim: usize,
    pub n_layers: usize,
    /// Heads: softmax heads for the baseline, differential heads H for V1 and V2.
    pub n_heads: usize,
    /// KV heads (GQA); defaults to `n_heads`.
    #[serde(default)]
    pub n_kv_heads: Option<usize>,
    /// q/k head size d; defaults to E/H (baseline, V2) or E/H/2 (V1).
    #[serde(default)]
    pub head_dim: Option<usize>,
    /// Hidden width of the SwiGLU feed-forward.
    pub ffn_hidden: usize,
    #[serde(default = "default_eps")]
    pub norm_eps: f32,
    #[serde(default = "yes")]
    pub rope: bool,
    #[serde(default = "default_theta")]
    pub rope_theta: f32,
    #[serde(default = "yes")]
    pub causal: bool,
    /// V1 only: a constant λ_init, or `None` for the depth schedule 0.8 − 0.6·e^(−0.3·depth).
    #[serde(default)]
    pub lambda_init: Option<f32>,
    /// V1 only: the per-head RMSNorm (false = the paper's ablation).
    #[serde(default = "yes")]
    pub subln: bool,
    #[serde(default)]
    pub kv_pairing: KvPairing,
    /// The LM head reuses the token embedding.
    #[serde(default)]
    pub tie_embeddings: bool,
}

/// The sizes of one attention layer, derived from a config or a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttnShape {
    pub embed_dim: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
}

impl AttnShape {
    /// Validates divisibility the way the official modules assume it.
    pub fn new(kind: AttentionKind, embed_dim: usize, n_heads: usize, n_kv_heads: Option<usize>, head_dim: Option<usize>) -> Result<Self, WeightsError> {
        let err = |m: String| Err(WeightsError::Config(m));
        if embed_dim == 0 || n_heads == 0 {
            return err(format!("dim ({embed_dim}) and n_heads ({n_heads}) must be positive"));
        }
        let n_kv_heads = n_kv_heads.unwrap_or(n_heads);
        if n_kv_heads == 0 || n_heads % n_kv_heads != 0 {
            return err(format!("n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})"));
        }
        // Checked: 2·n_heads of a huge n_heads must be an error, not a wrapped zero.
        let split = if kind == AttentionKind::DiffV1 { n_heads.checked_mul(2).ok_or_else(|| WeightsError::Config(format!("n_heads ({n_heads}) is too large")))? } else { n_heads };
        let head_dim = match head_dim {
            Some(d) => d,
            None if embed_dim % split == 0 => embed_dim / split,
            None => return err(format!("dim ({embed_dim}) is not divisible by {split} (the number of {})", if split == n_heads { "heads" } else { "sub-heads, 2·n_heads" })),
        };
        if head_dim == 0 || head_dim % 2 != 0 {
            return err(format!("head size {head_dim} must be even and positive (RoPE rotates pairs)"));
        }
        Ok(Self { embed_dim, n_heads, n_kv_heads, head_dim })
    }

    pub fn n_rep(&self) -> usize {
        self.n_heads / self.n_kv_heads
    }
}

impl ModelConfig {
    pub fn from_json(text: &str) -> Result<Self, WeightsError> {
        let config: Self = serde_json::from_str(text).map_err(|e| WeightsError::Config(e.to_string()))?;
        config.attn_shape()?;
        if config.vocab_size == 0 || config.n_layers == 0 || config.ffn_hidden == 0 {
            return Err(WeightsError::Config("vocab_size, n_layers and ffn_hidden must be positive".into()));
        }
        Ok(config)
    }

    pub fn attn_shape(&self) -> Result<AttnShape, WeightsError> {
        AttnShape::new(self.attention, self.dim, self.n_heads, self.n_kv_heads, self.head_dim)
    }

    /// λ_init of the V1 layer at `depth` (0-based).
    pub fn lambda_init(&self, depth: usize) -> f32 {
        self.lambda_init.unwrap_or_else(|| lambda_init_for_depth(depth))
    }
}
