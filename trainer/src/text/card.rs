//! The text models' files: `www/text-models/vocab.json` (shared by the three),
//! `<kind>/config.json`, one F16 safetensors file per checkpoint, and `card.json` with
//! the corpus it was trained on, how, the training curve and, after `text-eval`, how it
//! does on the held-out plays.

use super::corpus::{Corpus, HELD_OUT, WHEEL, WHEEL_SHA256};
use super::train::{TextTrainOptions, TextTrainReport};
use crate::card::{commit, machine, parameter_count, read_card, write_card, write_checkpoints, CheckpointEntry};
use difflens::core::config::ModelConfig;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Which text a model read, so a card names its data exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusInfo {
    pub wheel: String,
    pub wheel_sha256: String,
    /// The training plays' text (the plays in path order), its sha256 and length.
    pub train_sha256: String,
    pub train_chars: usize,
    pub held_out_plays: Vec<String>,
    pub held_out_sha256: String,
    pub held_out_chars: usize,
}

impl CorpusInfo {
    pub fn of(corpus: &Corpus) -> Self {
        let (train, held_out) = (corpus.train_text(), corpus.held_out_text());
        Self {
            wheel: WHEEL.into(),
            wheel_sha256: WHEEL_SHA256.into(),
            train_sha256: sha256_hex(train.as_bytes()),
            train_chars: train.chars().count(),
            held_out_plays: HELD_OUT.iter().map(|s| s.to_string()).collect(),
            held_out_sha256: sha256_hex(held_out.as_bytes()),
            held_out_chars: held_out.chars().count(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TextCard {
    pub name: String,
    pub config: ModelConfig,
    pub parameters: u64,
    pub command: String,
    pub seed: u64,
    pub commit: String,
    pub steps: usize,
    pub batch: usize,
    pub context: usize,
    pub lr: f64,
    pub training_seconds: f64,
    pub machine: String,
    pub corpus: CorpusInfo,
    /// (step, training loss, held-out loss on 32 fixed windows) along the run.
    pub curve: Vec<(usize, f32, f32)>,
    pub checkpoints: Vec<CheckpointEntry>,
    /// Filled by `text-eval`.
    #[serde(default)]
    pub eval: Option<super::eval::TextEval>,
}

impl TextCard {
    pub fn read(dir: &Path) -> Result<Self, Box<dyn std::error::Error>> {
        read_card(dir)
    }

    pub fn write(&self, dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
        write_card(dir, self)
    }
}

/// Writes a finished run's checkpoints (F16) and card under `out/<kind>/`.
pub fn write_training(out: &Path, opts: &TextTrainOptions, config: ModelConfig, report: &TextTrainReport, corpus: CorpusInfo, command: &str) -> Result<(), Box<dyn std::error::Error>> {
    let dir = out.join(opts.kind.slug());
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("config.json"), serde_json::to_string_pretty(&config)? + "\n")?;
    let checkpoints = write_checkpoints(&dir, &report.checkpoints)?;
    let parameters = parameter_count(&report.checkpoints[0].weights);
    let card = TextCard {
        name: opts.kind.slug().into(),
        config,
        parameters,
        command: command.into(),
        seed: opts.seed,
        commit: commit(),
        steps: opts.steps,
        batch: opts.batch,
        context: super::configs::CONTEXT,
        lr: opts.lr,
        training_seconds: report.seconds,
        machine: machine(),
        corpus,
        curve: report.curve.clone(),
        checkpoints,
        eval: None,
    };
    card.write(&dir)
}
