//! The three text models' sizes, matched in parameters as the needle models are: the
//! baseline has 4 heads of d = E/4; DIFF V1 has 2 differential heads of two sub-heads
//! each (the same projection sizes, plus λ's vectors and the heads' norm gains); DIFF V2
//! has 4 differential heads (8 query heads), whose extra E² + H·E query and λ parameters
//! per layer are taken from its SwiGLU width, as the V2 authors do.

use difflens::core::config::{AttentionKind, ModelConfig};

/// Characters the models read at once in training, and what the page keeps of a text.
pub const CONTEXT: usize = 128;
/// E, the model width.
pub const DIM: usize = 128;
pub const LAYERS: usize = 4;
/// The baseline's (and V1's) SwiGLU width.
pub const FFN: usize = 256;

/// V2's SwiGLU width: FFN less the rows that pay for its extra E² + H·E per layer
/// (3·E parameters a row).
fn v2_ffn() -> usize {
    let extra = DIM * DIM + 4 * DIM;
    FFN - (extra + 3 * DIM / 2) / (3 * DIM)
}

pub fn text_config(kind: AttentionKind, vocab_size: usize) -> ModelConfig {
    let (heads, ffn) = match kind {
        AttentionKind::Baseline => (4, FFN),
        AttentionKind::DiffV1 => (2, FFN),
        AttentionKind::DiffV2 => (4, v2_ffn()),
    };
    ModelConfig::from_json(&format!(r#"{{"attention": "{}", "vocab_size": {vocab_size}, "dim": {DIM}, "n_layers": {LAYERS}, "n_heads": {heads}, "ffn_hidden": {ffn}}}"#, kind.slug()))
        .expect("valid config")
}
