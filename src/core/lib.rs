//! The reference math of DiffLens, one small module per idea of the DIFF paper (§2).
//!
//! Shapes follow the official PyTorch code: activations are `[T, E]` row-major
//! (one row per token), linear weights are `[out, in]` and applied as `y = x·Wᵀ`.

pub mod analysis;
pub mod arch;
pub mod attention;
pub mod baseline;
pub mod char_lm;
pub mod char_vocab;
pub mod colour;
pub mod config;
pub mod diff_v1;
pub mod diff_v2;
pub mod head_layout;
pub mod init;
pub mod lab;
pub mod lambda;
pub mod linalg;
pub mod model;
pub mod pass_cache;
pub mod pooling;
pub mod retrieval;
pub mod rms_norm;
pub mod rope;
pub mod softmax;
pub mod swiglu;
pub mod train;
pub mod weights;

pub use attention::{AttentionLayer, AttentionOptions, HeadMaps, LambdaTrace, LayerOutput, MapRequest};
pub use config::{AttentionKind, KvPairing, ModelConfig};
pub use model::{Model, ModelOutput};
pub use weights::{TensorStore, WeightsError};
