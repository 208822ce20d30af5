//! Model cards and checkpoint files: `www/models/<kind>/config.json`, one F16
//! safetensors file per checkpoint, and `card.json` with how the model was made and,
//! after `eval`, how it does.

use crate::configs::kind_name;
use crate::train::{TrainOptions, TrainReport};
use difflens::core::config::ModelConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckpointEntry {
    pub file: String,
    pub step: usize,
    pub fraction: f64,
    #[serde(default)]
    pub label: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelCard {
    pub name: String,
    pub config: ModelConfig,
    pub parameters: u64,
    pub command: String,
    pub seed: u64,
    pub commit: String,
    /// Copy warm-up steps, then `steps` retrieval steps.
    #[serde(default)]
    pub warmup_steps: usize,
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub training_seconds: f64,
    pub machine: String,
    /// (step, training loss) along the run.
    pub losses: Vec<(usize, f32)>,
    pub checkpoints: Vec<CheckpointEntry>,
    /// Filled by `eval`.
    #[serde(default)]
    pub eval: Option<serde_json::Value>,
}

/// A card, `card.json` under `dir`, of either kind of model.
pub fn read_card<T: serde::de::DeserializeOwned>(dir: &Path) -> Result<T, Box<dyn std::error::Error>> {
    Ok(serde_json::from_str(&std::fs::read_to_string(dir.join("card.json"))?)?)
}

pub fn write_card<T: Serialize>(dir: &Path, card: &T) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::write(dir.join("card.json"), serde_json::to_string_pretty(card)? + "\n")?;
    Ok(())
}

/// Writes a run's checkpoints under `dir` as F16 safetensors, after removing those of
/// an earlier run (they would be shipped without a card entry); returns their entries.
pub fn write_checkpoints(dir: &Path, checkpoints: &[crate::train::Checkpoint]) -> Result<Vec<CheckpointEntry>, Box<dyn std::error::Error>> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("step-") && n.ends_with(".safetensors")) {
            std::fs::remove_file(path)?;
        }
    }
    let mut entries = vec![];
    for c in checkpoints {
        let file = format!("step-{:05}.safetensors", c.step);
        std::fs::write(dir.join(&file), c.weights.to_bytes_f16())?;
        entries.push(CheckpointEntry { file, step: c.step, fraction: c.fraction, label: c.label.clone() });
    }
    Ok(entries)
}

/// The parameters of a model's weights.
pub fn parameter_count(weights: &difflens::core::weights::TensorStore) -> u64 {
    weights.names().map(|n| weights.get(n).expect("listed").data.len() as u64).sum()
}

impl ModelCard {
    pub fn read(dir: &Path) -> Result<Self, Box<dyn std::error::Error>> {
        read_card(dir)
    }

    pub fn write(&self, dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
        write_card(dir, self)
    }

    pub fn final_checkpoint(&self) -> &CheckpointEntry {
        self.checkpoints.last().expect("a card lists its checkpoints")
    }
}

pub fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{cpu}, {} threads", std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

/// Writes the checkpoints (F16) and the card of a finished run under `out/<kind>/`.
pub fn write_training(out: &Path, opts: &TrainOptions, report: &TrainReport, command: &str) -> Result<(), Box<dyn std::error::Error>> {
    let dir = out.join(kind_name(opts.kind));
    std::fs::create_dir_all(&dir)?;
    let config = crate::configs::model_config(opts.kind);
    std::fs::write(dir.join("config.json"), serde_json::to_string_pretty(&config)? + "\n")?;
    let checkpoints = write_checkpoints(&dir, &report.checkpoints)?;
    let parameters = parameter_count(&report.checkpoints[0].weights);
    let card = ModelCard {
        name: kind_name(opts.kind).into(),
        config,
        parameters,
        command: command.into(),
        seed: opts.seed,
        commit: commit(),
        warmup_steps: opts.warmup,
        steps: opts.steps,
        batch: opts.batch,
        lr: opts.lr,
        training_seconds: report.seconds,
        machine: machine(),
        losses: report.losses.clone(),
        checkpoints,
        eval: None,
    };
    card.write(&dir)
}
