//! Turning maps into pixels: colour maps and max-magnitude pooling. Pure functions with
//! no browser types, so the UI stays thin and these are tested natively.

pub mod colormap;
pub mod export;
pub mod labels;
pub mod map_figure;
pub mod palette;
pub mod pooling;
pub mod ticks;
