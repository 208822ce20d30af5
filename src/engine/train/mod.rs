//! Training in the page: the sizes a student picks, the text a run learns from, one run
//! (kind × seed) stepped in chunks, and the verdict the final numbers support. The math
//! is `core::train`'s; this module decides what runs and what is measured.

pub mod board;
pub mod data;
pub mod needle;
pub mod preset;
pub mod run;
pub mod verdict;

#[cfg(test)]
mod tests;

pub use board::{Board, RunFailure, RunRecord};
pub use data::{DataError, TaskData, TextData};
pub use preset::{Preset, NEEDLE, PRESETS};
pub use run::{Eval, ProbeMaps, RunError, RunSpec, TrainRun, WeightPlace};
pub use verdict::{compare, Comparison, Finding};
