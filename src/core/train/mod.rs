//! Training: the backward pass of every operation the three attention kinds use, a whole
//! model's loss and gradients, AdamW, and matched initialisations, in plain Rust generic
//! over the float type (f32 to train, f64 to check gradients by finite differences).
//! Hand-written rather than through an autodiff crate: `docs/architecture.md` says why.

pub mod adam;
pub mod attend;
pub mod exp;
pub mod init;
pub mod layer;
pub mod net;
pub mod ops;
pub mod params;
pub mod real;

#[cfg(test)]
mod tests;

pub use adam::{Adam, AdamSettings};
pub use init::{matched_init, matched_params};
pub use layer::{attention_backward, attention_forward, AttnSpec};
pub use net::{Batch, Net, Pass};
pub use params::Params;
pub use real::Real;
