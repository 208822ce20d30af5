//! Every integration test of the trainer, linked as one test binary (as the app's
//! `tests/native.rs`, which says why): each file beside this one is a module of it.

mod core_gradients;
mod text_models;
mod trainer;
