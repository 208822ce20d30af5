//! The WebGPU compute path (wgpu + the WGSL in `shaders/`), compiled natively (tested on
//! Mesa's lavapipe) and for the browser. It imports the core's types, never the UI.

pub mod context;
pub mod kernels;
pub mod lab;
pub mod layout;
pub mod model;
pub mod ops;
pub mod params;
mod readback;
pub mod sizes;
pub mod softmax;
