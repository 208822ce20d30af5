//! Evaluation of the text models with the DiffLens core (what the page runs) on the
//! held-out plays: the text cut into non-overlapping windows of CONTEXT + 1 characters,
//! each window's characters after the first predicted from the window's own start; the
//! mean loss in nats and bits per character, and for each DIFF model its difference from
//! the baseline with a 95% interval from a paired bootstrap over the windows.

use super::card::TextCard;
use super::configs::CONTEXT;
use difflens::core::char_lm::next_token_losses;
use difflens::core::init::seeded;
use difflens::core::model::{ForwardOptions, Model};
use difflens::core::weights::TensorStore;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Windows in the fixed slice that the tests recompute (the held-out text's first ones).
pub const SLICE_WINDOWS: usize = 8;
const BOOTSTRAP_SAMPLES: usize = 2000;
const BOOTSTRAP_SEED: u64 = 20261205;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TextEval {
    /// Mean loss over every predicted held-out character, nats.
    pub held_out_loss: f64,
    pub bits_per_char: f64,
    pub windows: usize,
    /// Mean loss over the first SLICE_WINDOWS windows (what the tests recompute).
    pub slice_loss: f64,
    /// Held-out loss of each checkpoint, in the card's order (all but the last on every
    /// fourth window).
    pub checkpoint_losses: Vec<f64>,
}

/// DIFF minus baseline on the same windows.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Difference {
    pub model: String,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TextEvalSummary {
    pub models: Vec<(String, TextEval)>,
    pub versus_baseline: Vec<Difference>,
    pub method: String,
}

/// Window starts over `len` tokens: non-overlapping, CONTEXT + 1 tokens each.
pub fn window_starts(len: usize) -> Vec<usize> {
    (0..len.saturating_sub(CONTEXT) / (CONTEXT + 1)).map(|i| i * (CONTEXT + 1)).collect()
}

/// Each window's mean loss (nats/char) under `model`, windows split over two threads.
pub fn window_losses(model: &Model, tokens: &[u32], starts: &[usize]) -> Vec<f64> {
    let one = |s: &usize| {
        let w = &tokens[*s..*s + CONTEXT + 1];
        let out = model.forward(&w[..CONTEXT], &ForwardOptions::default()).expect("tokens are in the vocabulary");
        let losses = next_token_losses(&out.logits, w);
        losses.iter().map(|&l| l as f64).sum::<f64>() / losses.len() as f64
    };
    let half = starts.len() / 2;
    std::thread::scope(|s| {
        let a = s.spawn(|| starts[..half].iter().map(one).collect::<Vec<_>>());
        let mut b: Vec<f64> = starts[half..].iter().map(one).collect();
        let mut a = a.join().expect("evaluation thread");
        a.append(&mut b);
        a
    })
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// Paired bootstrap of mean(a − b) over windows: (mean, 2.5th, 97.5th percentile).
pub fn bootstrap_difference(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mut rng = seeded(BOOTSTRAP_SEED);
    let mut means: Vec<f64> = (0..BOOTSTRAP_SAMPLES).map(|_| (0..d.len()).map(|_| d[rng.random_range(0..d.len())]).sum::<f64>() / d.len() as f64).collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * (BOOTSTRAP_SAMPLES - 1) as f64).round()) as usize];
    (mean(&d), at(0.025), at(0.975))
}

pub fn load(dir: &Path, card: &TextCard, file: &str) -> Result<Model, Box<dyn std::error::Error>> {
    let store = TensorStore::from_bytes(&std::fs::read(dir.join(file))?)?;
    Ok(Model::load(card.config.clone(), &store)?)
}

/// Evaluates every checkpoint of the three models, writes each card's `eval` and
/// `eval.json` beside them.
pub fn evaluate_all(models: &Path, held_out: &[u32]) -> Result<TextEvalSummary, Box<dyn std::error::Error>> {
    let starts = window_starts(held_out.len());
    let mut summary = TextEvalSummary {
        models: vec![],
        versus_baseline: vec![],
        method: format!(
            "{} non-overlapping windows of {} held-out characters, each predicted from its window's start; 95% intervals from a paired bootstrap over windows ({BOOTSTRAP_SAMPLES} resamples)",
            starts.len(),
            CONTEXT + 1
        ),
    };
    let mut finals: Vec<Vec<f64>> = vec![];
    for kind in difflens::core::config::AttentionKind::ALL {
        let dir = models.join(kind.slug());
        let mut card = TextCard::read(&dir)?;
        let mut checkpoint_losses = vec![];
        let mut last = vec![];
        for (i, c) in card.checkpoints.iter().enumerate() {
            // Earlier checkpoints (the curve's points) on every fourth window; the final
            // one, which the comparison uses, on all of them.
            let is_final = i + 1 == card.checkpoints.len();
            let some: Vec<usize> = if is_final { starts.clone() } else { starts.iter().step_by(4).copied().collect() };
            last = window_losses(&load(&dir, &card, &c.file)?, held_out, &some);
            checkpoint_losses.push(mean(&last));
            eprintln!("[{}] {}: held-out {:.4}", kind.slug(), c.label, mean(&last));
        }
        let held_out_loss = mean(&last);
        let eval =
            TextEval { held_out_loss, bits_per_char: held_out_loss / std::f64::consts::LN_2, windows: starts.len(), slice_loss: mean(&last[..SLICE_WINDOWS.min(last.len())]), checkpoint_losses };
        card.eval = Some(eval.clone());
        card.write(&dir)?;
        summary.models.push((kind.slug().into(), eval));
        finals.push(last);
    }
    for (i, kind) in difflens::core::config::AttentionKind::ALL.iter().enumerate().skip(1) {
        let (m, lo, hi) = bootstrap_difference(&finals[i], &finals[0]);
        summary.versus_baseline.push(Difference { model: kind.slug().into(), mean: m, low95: lo, high95: hi });
    }
    std::fs::write(models.join("eval.json"), serde_json::to_string_pretty(&summary)? + "\n")?;
    Ok(summary)
}
