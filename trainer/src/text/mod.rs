//! The character-level language models on Shakespeare: the corpus and its split, the
//! models' sizes, training, evaluation on the held-out plays with its intervals, and the
//! classic reference they are measured against (a Kneser–Ney character n-gram).

pub mod card;
pub mod configs;
pub mod corpus;
pub mod eval;
pub mod long;
pub mod ngram;
pub mod report;
pub mod stats;
pub mod train;
