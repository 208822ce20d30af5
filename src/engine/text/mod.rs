//! The text page's engine: the three character-level models on what a student types.
//! `typed` fits a text to the models' context and finds characters they cannot read;
//! `run` makes one model's column (each character's surprise, the next character's top
//! five, the maps and what they say); `writer` samples a continuation one character at
//! a time. Plain Rust, tested natively.

pub mod run;
pub mod session;
pub mod typed;
pub mod writer;

/// Where the page fetches the text models (cards, checkpoints, `vocab.json`, `eval.json`).
pub const FOLDER: &str = "text-models";
/// Characters the models read: what they were trained on.
pub const CONTEXT: usize = 128;
