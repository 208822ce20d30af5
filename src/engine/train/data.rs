//! What a run learns from: a text (the Shakespeare training plays' excerpt the page ships,
//! or text a student pastes), split into a training part and a held-out part; each step's
//! windows drawn from the training part by a generator seeded by (seed, step) only, so the
//! three models of a seed see the same windows in the same order, and a run cut into
//! chunks (worker jobs) draws exactly what it would have in one go.

use crate::core::char_vocab::CharVocab;
use crate::core::init::seeded;
use crate::core::train::Batch;
use rand::Rng;

/// The held-out share of a pasted text (its end).
pub const HELD_OUT_SHARE: f64 = 0.1;
/// Held-out windows the curves' loss averages (evenly spaced, never overlapping where
/// the held-out text is long enough).
pub const EVAL_WINDOWS: usize = 16;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextData {
    pub train: Vec<u32>,
    pub held_out: Vec<u32>,
}

/// Why a text cannot be trained on.
#[derive(Clone, Debug, PartialEq)]
pub enum DataError {
    /// Fewer characters than the preset needs (how many there are, how many it needs).
    TooShort { have: usize, need: usize },
    /// Characters the vocabulary does not have, each once, in order of appearance.
    Unknown(Vec<char>),
}

impl TextData {
    /// The text split at `1 − HELD_OUT_SHARE` (both parts at least two contexts long), in
    /// `vocab`'s ids; a character outside it is an error that names it.
    pub fn from_text(text: &str, vocab: &CharVocab, context: usize) -> Result<Self, DataError> {
        let unknown = vocab.unknown_in(text);
        if !unknown.is_empty() {
            return Err(DataError::Unknown(unknown));
        }
        let ids = vocab.encode(text);
        let held = ((ids.len() as f64 * HELD_OUT_SHARE) as usize).max(2 * (context + 1));
        let need = held + 2 * (context + 1);
        if ids.len() < need {
            return Err(DataError::TooShort { have: ids.len(), need });
        }
        let (train, held_out) = ids.split_at(ids.len() - held);
        Ok(Self { train: train.to_vec(), held_out: held_out.to_vec() })
    }

    /// Training and held-out parts given apart (the shipped plays).
    pub fn split(train: &str, held_out: &str, vocab: &CharVocab, context: usize) -> Result<Self, DataError> {
        let unknown: Vec<char> = vocab.unknown_in(&format!("{train}{held_out}"));
        if !unknown.is_empty() {
            return Err(DataError::Unknown(unknown));
        }
        let (train, held_out) = (vocab.encode(train), vocab.encode(held_out));
        let need = 2 * (context + 1);
        match (train.len() < need, held_out.len() < need) {
            (true, _) => Err(DataError::TooShort { have: train.len(), need }),
            (_, true) => Err(DataError::TooShort { have: held_out.len(), need }),
            _ => Ok(Self { train, held_out }),
        }
    }

    /// Step `step`'s windows for run seed `seed`: `batch` windows of `context` tokens,
    /// each scored on the next token at every position.
    pub fn batch(&self, seed: u64, step: usize, batch: usize, context: usize) -> Batch {
        let mut rng = seeded(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (step as u64).wrapping_mul(0xd1b5_4a32_d192_ed03) ^ 0x7e47);
        let starts: Vec<usize> = (0..batch).map(|_| rng.random_range(0..self.train.len() - context)).collect();
        windows(&self.train, &starts, context)
    }

    /// The held-out windows every evaluation uses: evenly spaced over the held-out text.
    pub fn held_out_batch(&self, context: usize) -> Batch {
        let span = self.held_out.len() - context - 1;
        let starts: Vec<usize> = (0..EVAL_WINDOWS).map(|i| i * span / (EVAL_WINDOWS - 1)).collect();
        windows(&self.held_out, &starts, context)
    }

    /// Every non-overlapping held-out window, for the final losses and the blocks of the
    /// verdict's bootstrap.
    pub fn held_out_windows(&self, context: usize) -> Vec<Batch> {
        let starts: Vec<usize> = (0..(self.held_out.len() - 1) / context).map(|i| i * context).collect();
        starts.chunks(8).map(|s| windows(&self.held_out, s, context)).collect()
    }
}

/// What a run learns from: a text, or the needle task's prompts (made from the seed and
/// the step, so they cross to a worker as nothing).
#[derive(Clone, Debug, PartialEq)]
pub enum TaskData {
    Text(TextData),
    Needle,
}

impl Default for TaskData {
    fn default() -> Self {
        Self::Text(TextData::default())
    }
}

impl TaskData {
    /// Step `step`'s batch for run seed `seed`.
    pub fn batch(&self, seed: u64, step: usize, batch: usize, context: usize) -> Batch {
        match self {
            Self::Text(text) => text.batch(seed, step, batch, context),
            Self::Needle => super::needle::batch(seed, step, batch),
        }
    }

    /// What every evaluation scores.
    pub fn held_out_batch(&self, context: usize) -> Batch {
        match self {
            Self::Text(text) => text.held_out_batch(context),
            Self::Needle => super::needle::held_out_batch(),
        }
    }

    /// Everything held out, in blocks, for the final losses and the verdict.
    pub fn held_out_windows(&self, context: usize) -> Vec<Batch> {
        match self {
            Self::Text(text) => text.held_out_windows(context),
            Self::Needle => super::needle::held_out_blocks(),
        }
    }

    /// The probe input whose maps the page shows.
    pub fn probe(&self, context: usize) -> Vec<u32> {
        match self {
            Self::Text(text) => text.held_out[..context].to_vec(),
            Self::Needle => super::needle::probe(),
        }
    }

    pub fn is_needle(&self) -> bool {
        matches!(self, Self::Needle)
    }
}

fn windows(tokens: &[u32], starts: &[usize], context: usize) -> Batch {
    let mut batch = Batch { tokens: Vec::with_capacity(starts.len() * context), targets: Vec::with_capacity(starts.len() * context), seq_len: context };
    for &s in starts {
        batch.tokens.extend_from_slice(&tokens[s..s + context]);
        batch.targets.extend(tokens[s + 1..s + context + 1].iter().map(|&t| Some(t)));
    }
    batch
}
