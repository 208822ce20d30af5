//! DiffLens: differential attention (DIFF Transformer V1 and V2) you can look at.
//!
//! `core` is the reference math: pure Rust, no web crates, compiled natively for tests
//! and to wasm32 as the browser's CPU path. Everything else is tested against it.

pub mod core;
