//! DiffLens: differential attention (DIFF Transformer V1 and V2) you can look at.
//!
//! - `core`: the reference math, pure Rust with no web crates, compiled natively for tests
//!   and to wasm32 as the browser's CPU path. Everything else is tested against it. A crate
//!   of its own (`src/core/Cargo.toml`), re-exported here, so that the web build compiles
//!   it for speed and the rest for size.
//! - `gpu`: the same computations on wgpu/WebGPU; it never imports the UI.
//! - `cli`: the `difflens-layer` command's checks and run (native only).
//! - `i18n`: the page's sentences in English and Simplified Chinese (Fluent catalogues).
//! - `ui`: the Leptos pages (wasm32 only); they call the core or the GPU and own no math.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub use difflens_core as core;
pub mod engine;
pub mod gpu;
pub mod i18n;
pub mod state;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod viz;
