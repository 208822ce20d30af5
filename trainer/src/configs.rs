//! The three models and the training distribution.
//!
//! Parameter matching: the baseline has 4 heads of d = 16; DIFF V1 has 2 differential
//! heads with sub-heads of 16 (the same projection sizes, plus 6·d per layer for λ and
//! the norm gain); DIFF V2 has 4 differential heads of d = 16 (8 query heads), whose
//! extra E² + H·E query and λ parameters per layer are taken from its SwiGLU width
//! (172 → 149), as the V2 authors do.

use difflens::core::config::{AttentionKind, ModelConfig};
use difflens::core::retrieval::VOCAB_SIZE;

/// The training distribution lives in the core, which the training page shares.
pub use difflens::core::retrieval::{training_spec as train_spec, TRAIN_CONTEXT};

pub fn model_config(kind: AttentionKind) -> ModelConfig {
    let (heads, ffn) = match kind {
        AttentionKind::Baseline => (4, 172),
        AttentionKind::DiffV1 => (2, 172),
        AttentionKind::DiffV2 => (4, 149),
    };
    let name = serde_json::to_value(kind).unwrap();
    ModelConfig::from_json(&format!(r#"{{"attention": {name}, "vocab_size": {VOCAB_SIZE}, "dim": 64, "n_layers": 3, "n_heads": {heads}, "ffn_hidden": {ffn}}}"#)).expect("valid config")
}

pub fn kind_name(kind: AttentionKind) -> &'static str {
    match kind {
        AttentionKind::Baseline => "baseline",
        AttentionKind::DiffV1 => "diff_v1",
        AttentionKind::DiffV2 => "diff_v2",
    }
}
