//! The plain types of `core` and `gpu` that the pages name (a model's kind, a map, a
//! vocabulary, a GPU and the weights on it), re-exported so that `ui` imports only
//! `engine`, `state` and `viz` (`tests/layering.rs` checks it).

pub use crate::core::attention::{HeadMaps, LambdaOverride, LambdaTrace, LayerOutput};
pub use crate::core::char_vocab::CharVocab;
pub use crate::core::config::AttentionKind;
pub use crate::core::lab::{LabInputs, LabParams};
pub use crate::core::linalg::Mat;
pub use crate::core::model::Model;
pub use crate::gpu::context::{looks_software, GpuContext};
pub use crate::gpu::model::GpuModel;
