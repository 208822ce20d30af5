//! The WebGPU compute path (wgpu + WGSL in `shaders/`). It never imports the UI.

pub mod context;
