//! Every native integration test of the app's crate, linked as one test binary.
//!
//! Each file beside this one is a module of it (`Cargo.toml` lists this binary and
//! turns off Cargo's one-binary-per-file discovery). One binary links the crate, wgpu
//! and their dependencies once instead of once per file, and the generic code they
//! share is compiled once: docs/performance.md ("The cold test run") has what that
//! saves. `cargo test --test native gpu_` runs the tests whose path starts so.

mod common;
mod source_files;

mod cli_corpus;
mod cli_layer;
mod core_analysis;
mod core_arch;
mod core_attention;
mod core_lab;
mod core_model;
mod core_softmax;
mod docs_paths;
mod fuzz_inputs;
mod gpu_columns;
mod gpu_kernels;
mod gpu_model;
mod gpu_params;
mod gpu_text;
mod i18n_catalogues;
mod layering;
