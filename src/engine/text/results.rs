//! What `eval.json` says of the text models on the held-out plays: each model's loss
//! (every seed's, the long-context and the window evaluation), the Kneser–Ney n-gram
//! beside them, each DIFF model's difference from the baseline with its interval, and
//! all of it per play. The trainer writes it (`difflens-trainer text-eval`); the page
//! only reads.

use crate::core::config::AttentionKind;
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ModelResult {
    pub held_out_loss: f64,
    pub bits_per_char: f64,
    pub windows: usize,
    pub checkpoint_losses: Vec<f64>,
    #[serde(default)]
    pub long_context_loss: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Difference {
    pub model: String,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
}

/// `eval.json` beside the text models.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct EvalSummary {
    pub models: Vec<(String, ModelResult)>,
    pub versus_baseline: Vec<Difference>,
    pub method: String,
    /// Absent from files written before the long-context evaluation and the seeds.
    #[serde(default)]
    pub long_context: Option<LongContext>,
}

/// The long-context evaluation of every seed's models and of the n-gram.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LongContext {
    pub min_context: usize,
    pub stride: usize,
    pub characters: usize,
    /// The held-out plays' slugs (`julius-caesar`, …), in the per-play lists' order.
    pub plays: Vec<String>,
    pub seeds: Vec<u64>,
    pub block: usize,
    pub blocks: usize,
    /// Baseline, DIFF V1, DIFF V2.
    pub models: Vec<ModelLoss>,
    pub ngram: NGram,
    pub versus: Vec<Versus>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ModelLoss {
    pub model: String,
    pub seed_losses: Vec<f64>,
    pub mean: f64,
    pub sd: f64,
    pub per_play: Vec<f64>,
    pub ngram_better_blocks: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct NGram {
    pub order: usize,
    pub loss: f64,
    pub per_play: Vec<f64>,
    pub aside_plays: Vec<String>,
    pub fit_seconds: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Versus {
    pub model: String,
    pub seed_differences: Vec<f64>,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
    pub data_low95: f64,
    pub data_high95: f64,
    pub degrees_of_freedom: Option<f64>,
    pub per_play: Vec<f64>,
}

/// Whether a 95% interval of DIFF − baseline lies wholly below zero (DIFF better),
/// wholly above (worse), or spans it (no difference the evaluation can tell).
pub fn verdict(low95: f64, high95: f64) -> std::cmp::Ordering {
    if high95 < 0.0 {
        std::cmp::Ordering::Less
    } else if low95 > 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

impl LongContext {
    pub fn model(&self, kind: AttentionKind) -> Option<&ModelLoss> {
        self.models.iter().find(|m| m.model == kind.slug())
    }

    pub fn versus(&self, kind: AttentionKind) -> Option<&Versus> {
        self.versus.iter().find(|v| v.model == kind.slug())
    }
}

impl EvalSummary {
    pub fn parse(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| crate::tr!("card-invalid", error = e.to_string()))
    }

    pub fn result(&self, kind: AttentionKind) -> Option<&ModelResult> {
        self.models.iter().find(|(k, _)| k == kind.slug()).map(|(_, r)| r)
    }

    pub fn versus(&self, kind: AttentionKind) -> Option<&Difference> {
        self.versus_baseline.iter().find(|d| d.model == kind.slug())
    }
}

