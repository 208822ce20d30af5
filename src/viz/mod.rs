//! Turning maps into pixels: colour maps and max-magnitude pooling. Pure functions with
//! no browser types, so the UI stays thin and these are tested natively.

pub mod colormap;
pub mod describe;
pub mod export;
pub mod labels;
pub mod map_figure;
pub mod palette;
/// Max-magnitude pooling lives in the core, compiled for speed with the math (a λ drag
/// pools a 1024² map every frame); the figures reach it here.
pub use crate::core::pooling;
pub mod ticks;
