//! What went wrong with a model file, as a type: each kind of failure the page can meet
//! loading a shipped or a reader's model, with the file it concerns. It is said in the
//! language on screen when shown (`Display`, from the catalogues), so the engine keeps
//! the structure and the words stay in `locales/`.

use super::weights_message;
use crate::core::weights::WeightsError;
use crate::tr;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum ModelFileError {
    /// The file could not be fetched (the fetcher's own sentence: a status, a time-out).
    Fetch(String),
    /// A card or a config that is not UTF-8 text.
    NotText { file: String },
    /// A model card that is not valid JSON of a card.
    Card { file: String, detail: String },
    /// A model card with no checkpoints.
    CardEmpty { file: String },
    /// A card with fewer checkpoints than the one asked for.
    TooFewCheckpoints { kind: String, count: usize, wanted: usize },
    /// A config beyond what the page runs (`field = value`, at most `max`).
    TooBig { file: String, field: &'static str, value: usize, max: usize },
    /// A weights file or a config the core's loader refused.
    Weights { file: String, error: WeightsError },
    /// The page went away while the file was loading.
    PageClosed,
}

impl fmt::Display for ModelFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Self::Fetch(why) => why.clone(),
            Self::NotText { file } => tr!("not-text", name = file.as_str()),
            Self::Card { file, detail } => format!("{file}: {}", tr!("card-invalid", error = detail.as_str())),
            Self::CardEmpty { file } => format!("{file}: {}", tr!("card-empty")),
            Self::TooFewCheckpoints { kind, count, wanted } => tr!("card-too-few", kind = kind.as_str(), count = *count, wanted = *wanted),
            Self::TooBig { file, field, value, max } => tr!("config-too-big", name = file.as_str(), field = *field, value = value.to_string(), max = max.to_string()),
            Self::Weights { file, error } => format!("{file}: {}", weights_message(error)),
            Self::PageClosed => tr!("page-closed"),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ModelFileError {}
