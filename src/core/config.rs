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

/// The largest size any one config field may have.
pub const MAX_SIZE: usize = 1 << 20;
/// The most parameters a config may describe (2³¹ f32 values: 8 GiB).
pub const MAX_PARAMETERS: u128 = 1 << 31;

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
        if n_kv_heads == 0 || !n_heads.is_multiple_of(n_kv_heads) {
            return err(format!("n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})"));
        }
        // Checked: 2·n_heads of a huge n_heads must be an error, not a wrapped zero.
        let split = if kind == AttentionKind::DiffV1 { n_heads.checked_mul(2).ok_or_else(|| WeightsError::Config(format!("n_heads ({n_heads}) is too large")))? } else { n_heads };
        let head_dim = match head_dim {
            Some(d) => d,
            None if embed_dim.is_multiple_of(split) => embed_dim / split,
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
        config.validate()?;
        Ok(config)
    }

    /// Every number a model's arithmetic relies on: sizes positive and small enough that
    /// no width or tensor size wraps (on 32-bit wasm too), and the float settings finite
    /// and in range, each error naming its field (a `rope_theta` of 0 or a negative
    /// `norm_eps` would otherwise load and predict NaN).
    pub fn validate(&self) -> Result<(), WeightsError> {
        let err = |m: String| Err(WeightsError::Config(m));
        let sizes = [("vocab_size", self.vocab_size), ("dim", self.dim), ("n_layers", self.n_layers), ("n_heads", self.n_heads), ("ffn_hidden", self.ffn_hidden)];
        for (field, v) in sizes.into_iter().chain(self.head_dim.map(|d| ("head_dim", d))).chain(self.n_kv_heads.map(|k| ("n_kv_heads", k))) {
            if v == 0 || v > MAX_SIZE {
                return err(format!("{field} = {v} must be between 1 and {MAX_SIZE}"));
            }
        }
        let shape = self.attn_shape()?;
        // Elements of one layer's largest tensors and of the embeddings, in u128.
        let (e, h, d, f, v) = (self.dim as u128, shape.n_heads as u128, shape.head_dim as u128, self.ffn_hidden as u128, self.vocab_size as u128);
        let per_layer = 4 * e * 2 * h * d + 3 * e * f;
        let total = per_layer * self.n_layers as u128 + 2 * v * e;
        if total > MAX_PARAMETERS {
            return err(format!("{total} parameters is more than this tool holds ({MAX_PARAMETERS}); check dim, n_heads, head_dim, ffn_hidden, n_layers"));
        }
        if !(self.norm_eps.is_finite() && self.norm_eps > 0.0) {
            return err(format!("norm_eps = {} must be a positive number", self.norm_eps));
        }
        if !(self.rope_theta.is_finite() && self.rope_theta > 0.0) {
            return err(format!("rope_theta = {} must be a positive number", self.rope_theta));
        }
        if let Some(l) = self.lambda_init.filter(|l| !l.is_finite()) {
            return err(format!("lambda_init = {l} must be a finite number"));
        }
        Ok(())
    }

    pub fn attn_shape(&self) -> Result<AttnShape, WeightsError> {
        AttnShape::new(self.attention, self.dim, self.n_heads, self.n_kv_heads, self.head_dim)
    }

    /// λ_init of the V1 layer at `depth` (0-based).
    pub fn lambda_init(&self, depth: usize) -> f32 {
        self.lambda_init.unwrap_or_else(|| lambda_init_for_depth(depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Configs that once loaded and predicted NaN, or panicked, are refused by name.
    #[test]
    fn configs_that_would_wrap_or_give_nan_are_refused_by_field() {
        let base = r#"{"attention":"diff_v1","vocab_size":76,"dim":64,"n_layers":3,"n_heads":2,"ffn_hidden":172"#;
        assert!(ModelConfig::from_json(&format!("{base}}}")).is_ok());
        for (extra, field) in [(r#","rope_theta":0"#, "rope_theta"), (r#","norm_eps":-1"#, "norm_eps"), (r#","n_kv_heads":0"#, "n_kv_heads")] {
            let e = ModelConfig::from_json(&format!("{base}{extra}}}")).unwrap_err().to_string();
            assert!(e.contains(field), "{extra}: {e}");
        }
        for (from, to, field) in
            [(r#""n_heads":2"#, r#""n_heads":2147483648"#, "n_heads"), (r#""n_layers":3"#, r#""n_layers":4000000000"#, "n_layers"), (r#""dim":64"#, r#""dim":1048576"#, "parameters")]
        {
            let e = ModelConfig::from_json(&format!("{base}}}").replace(from, to)).unwrap_err().to_string();
            assert!(e.contains(field), "{to}: {e}");
        }
    }
}
