//! The sizes a student can train, and the three models of each size matched in
//! parameters as the shipped ones are: the baseline has H heads of d = E/H; DIFF V1 has
//! H/2 differential heads of two sub-heads (the same projections, plus λ's vectors and
//! the heads' norm gain); DIFF V2 has H differential heads (2H query heads), whose extra
//! E² + H·E query and λ parameters per layer come out of its SwiGLU width.

use crate::core::config::{AttentionKind, ModelConfig};

/// One size: the model and how it trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// Its name in the link (`size=`) and the catalogues (`train-size-<id>`).
    pub id: &'static str,
    pub dim: usize,
    pub layers: usize,
    /// The baseline's heads (V1 has half as many, each of two sub-heads).
    pub heads: usize,
    /// The baseline's and V1's SwiGLU width.
    pub ffn: usize,
    /// Tokens a sequence holds.
    pub context: usize,
    /// Sequences a step sees.
    pub batch: usize,
    pub steps: usize,
    pub lr: f64,
    /// Held-out loss, λ and the probe's maps every this many steps.
    pub eval_every: usize,
}

/// The smallest learns visibly within a minute on a laptop's CPU (one worker per run);
/// the others are for patient people, or a GPU.
pub const PRESETS: [Preset; 3] = [
    Preset { id: "small", dim: 64, layers: 2, heads: 4, ffn: 172, context: 64, batch: 16, steps: 600, lr: 3e-3, eval_every: 25 },
    Preset { id: "medium", dim: 96, layers: 3, heads: 4, ffn: 256, context: 96, batch: 16, steps: 1500, lr: 2e-3, eval_every: 50 },
    Preset { id: "large", dim: 128, layers: 4, heads: 4, ffn: 256, context: 128, batch: 16, steps: 3000, lr: 1.5e-3, eval_every: 100 },
];

/// A preset as its id, for serde (`#[serde(with = "preset::by_id")]`): a job names its
/// size, and a size that no longer exists is refused by name.
pub mod by_id {
    use super::Preset;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(preset: &Preset, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(preset.id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Preset, D::Error> {
        let id = String::deserialize(d)?;
        Preset::by_id(&id).ok_or_else(|| D::Error::custom(format!("no size is called {id:?}")))
    }
}

/// The needle task's size: the shipped needle models' own (width 64, three layers, the
/// same heads and SwiGLU widths), fine-tuned from their warm-up checkpoint
/// (`needle::WARMUP_CHECKPOINT`). Its learning rate is three times the shipped training's:
/// with a fresh optimiser at 1e-3, DIFF V1 stays for hundreds of steps on the plateau
/// where it answers with some value from the context (about 40 %), while the baseline
/// and V2 retrieve within 50 steps at either rate (docs/performance.md). Prompts hold
/// `context` tokens of filler and needles, a few more with the questions.
pub const NEEDLE: Preset = Preset { id: "needle", dim: 64, layers: 3, heads: 4, ffn: 172, context: 64, batch: 16, steps: 300, lr: 3e-3, eval_every: 10 };

impl Preset {
    /// A text size, or the needle task's.
    pub fn by_id(id: &str) -> Option<Preset> {
        PRESETS.into_iter().chain([NEEDLE]).find(|p| p.id == id)
    }

    pub fn is_needle(&self) -> bool {
        self.id == NEEDLE.id
    }

    /// V2's SwiGLU width: the baseline's less the rows (3·E parameters each) that pay for
    /// its extra E² + H·E per layer.
    pub fn v2_ffn(&self) -> usize {
        let extra = self.dim * self.dim + self.heads * self.dim;
        self.ffn - (extra + 3 * self.dim / 2) / (3 * self.dim)
    }

    /// The config of `kind` at this size for a vocabulary of `vocab` tokens.
    pub fn config(&self, kind: AttentionKind, vocab: usize) -> ModelConfig {
        let (heads, ffn) = match kind {
            AttentionKind::Baseline => (self.heads, self.ffn),
            AttentionKind::DiffV1 => (self.heads / 2, self.ffn),
            AttentionKind::DiffV2 => (self.heads, self.v2_ffn()),
        };
        let json = format!(r#"{{"attention": "{}", "vocab_size": {vocab}, "dim": {}, "n_layers": {}, "n_heads": {heads}, "ffn_hidden": {ffn}}}"#, kind.slug(), self.dim, self.layers);
        ModelConfig::from_json(&json).expect("a preset's config is valid")
    }

    /// Multiply-adds of one training step, forward and backward (≈ 3 × forward): what
    /// the page's time estimate and memory check start from.
    pub fn step_flops(&self, vocab: usize) -> f64 {
        let (e, t, b) = (self.dim as f64, self.context as f64, self.batch as f64);
        let per_token = self.layers as f64 * (4.0 * e * e + 3.0 * e * self.ffn as f64 + 2.0 * t * e) + e * vocab as f64;
        3.0 * per_token * t * b
    }
}
