//! One component per visual element; pages only compose them.

pub mod announce;
pub mod as_table;
pub mod axis_labels;
pub mod canvas;
pub mod chart;
pub mod compute_on;
pub mod download;
pub mod figure_words;
pub mod heatmap;
pub mod heatmap_export;
pub mod notice;
pub mod readout;
pub mod slider;
pub mod status_line;
pub mod thumbnail;
