//! The architecture calculator's arithmetic, as the page reads it (the core computes it).

pub use crate::core::arch::{ArchConfig, Variant};
pub use crate::core::lambda::lambda_init_for_depth;
