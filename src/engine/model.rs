//! The model explorer's computations: reading a shipped model card and checkpoint, and
//! running a retrieval prompt through the model with every map kept.

use crate::core::attention::MapRequest;
use crate::core::config::ModelConfig;
use crate::core::init::seeded;
use crate::core::model::{ForwardOptions, Model, ModelOutput};
use crate::core::retrieval::{self, Prompt, PromptSpec};
use crate::core::weights::TensorStore;
use crate::state::model_state::ModelState;
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct CheckpointInfo {
    pub file: String,
    pub step: usize,
    pub fraction: f64,
    /// Where in the run this is ("after the copy warm-up"); older cards have none.
    #[serde(default)]
    pub label: String,
}

impl CheckpointInfo {
    /// The training slider's reading: the label and the step, or the fraction of the run.
    pub fn describe(&self) -> String {
        let percent = (self.fraction * 100.0).round();
        if self.label.is_empty() {
            format!("{percent}% (step {})", self.step)
        } else {
            format!("{}: step {} ({percent}%)", self.label, self.step)
        }
    }
}

/// The part of a model card (`www/models/<kind>/card.json`) the page uses.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct CardInfo {
    pub name: String,
    pub config: ModelConfig,
    pub parameters: u64,
    pub training_seconds: f64,
    pub checkpoints: Vec<CheckpointInfo>,
    #[serde(default)]
    pub eval: Option<serde_json::Value>,
}

impl CardInfo {
    pub fn parse(json: &str) -> Result<Self, String> {
        let card: Self = serde_json::from_str(json).map_err(|e| format!("the model card is not valid: {e}"))?;
        if card.checkpoints.is_empty() {
            return Err("the model card lists no checkpoints".into());
        }
        Ok(card)
    }
}

/// A checkpoint file into a model; any malformed or mismatched file is an error message.
pub fn load_checkpoint(config: &ModelConfig, bytes: &[u8]) -> Result<Model, String> {
    let store = TensorStore::from_bytes(bytes).map_err(|e| e.to_string())?;
    Model::load(config.clone(), &store).map_err(|e| e.to_string())
}

/// The prompt a state describes (seeded: the same link, the same prompt).
pub fn prompt_for(state: &ModelState) -> Prompt {
    let spec = PromptSpec { context_len: state.context, n_needles: state.needles, n_queries: state.queries, target_depth: state.depth.map(|d| d as f32 / 100.0) };
    retrieval::generate(&mut seeded(state.seed), &spec)
}

/// The model's answer to one query.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub predicted: u32,
    pub probability: f32,
    pub answer: u32,
    pub answer_probability: f32,
}

impl Prediction {
    pub fn right(&self) -> bool {
        self.predicted == self.answer
    }
}

pub struct Explained {
    pub prompt: Prompt,
    pub output: ModelOutput,
    pub predictions: Vec<Prediction>,
}

/// Runs the prompt with every map kept (T is at most a few hundred tokens).
pub fn explain(model: &Model, state: &ModelState) -> Result<Explained, String> {
    let prompt = prompt_for(state);
    let output = model.forward(&prompt.tokens, &ForwardOptions { maps: MapRequest::All, ..Default::default() }).map_err(|e| e.to_string())?;
    let predictions = prompt
        .answer_positions
        .iter()
        .zip(&prompt.answers)
        .map(|(&pos, &answer)| {
            let row = output.logits.row(pos);
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let z: f32 = row.iter().map(|v| (v - max).exp()).sum();
            let (best, _) = row.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap();
            Prediction { predicted: best as u32, probability: (row[best] - max).exp() / z, answer, answer_probability: (row[answer as usize] - max).exp() / z }
        })
        .collect();
    Ok(Explained { prompt, output, predictions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_training_slider_reads_the_cards_labels() {
        let labelled = CheckpointInfo { file: "step-03000.safetensors".into(), step: 3000, fraction: 0.6, label: "after the copy warm-up".into() };
        assert_eq!(labelled.describe(), "after the copy warm-up: step 3000 (60%)");
        let card = CardInfo::parse(r#"{"name": "old", "config": {"attention": "baseline", "vocab_size": 76, "dim": 64, "n_layers": 1, "n_heads": 4, "ffn_hidden": 172}, "parameters": 1, "training_seconds": 1.0,
            "checkpoints": [{"file": "a", "step": 125, "fraction": 0.05}]}"#)
        .unwrap();
        assert_eq!(card.checkpoints[0].describe(), "5% (step 125)");
        assert!(CardInfo::parse(r#"{"name": "x", "config": {"attention": "baseline", "vocab_size": 76, "dim": 64, "n_layers": 1, "n_heads": 4, "ffn_hidden": 172}, "parameters": 1, "training_seconds": 1.0, "checkpoints": []}"#).is_err());
    }
}
