//! The character-level language models on Shakespeare: the corpus and its split, the
//! models' sizes, training, and evaluation on the held-out plays.

pub mod card;
pub mod configs;
pub mod corpus;
pub mod eval;
pub mod train;
