//! Training of a text model: AdamW on every position's next-character cross-entropy,
//! over windows of the training plays drawn by a seeded generator (the same windows in
//! the same order for all three kinds); a linear warm-up, then a cosine decay to a tenth
//! of the rate; checkpoints through the run for the page's scrubber, and the loss on a
//! fixed held-out slice at each log point, for the cards' curves.

use super::configs::{text_config, CONTEXT};
use crate::model::CandleModel;
use crate::train::Checkpoint;
use candle_core::{Device, Result, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use difflens::core::config::AttentionKind;
use difflens::core::init::seeded;
use difflens::core::model::Model;
use rand::Rng;
use std::time::Instant;

/// Steps of the learning-rate warm-up.
const WARMUP: usize = 100;
/// Held-out windows in the curve's validation loss.
const CURVE_WINDOWS: usize = 32;

pub struct TextTrainOptions {
    pub kind: AttentionKind,
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
    pub log_every: usize,
    /// Only the trained checkpoint, not the page's scrubber's.
    pub final_only: bool,
}

pub struct TextTrainReport {
    /// (step, training loss, held-out loss on the curve's slice) at each log point.
    pub curve: Vec<(usize, f32, f32)>,
    pub seconds: f64,
    pub checkpoints: Vec<Checkpoint>,
}

fn learning_rate(opts: &TextTrainOptions, step: usize) -> f64 {
    if step < WARMUP {
        return opts.lr * (step + 1) as f64 / WARMUP as f64;
    }
    let progress = (step - WARMUP) as f64 / (opts.steps.saturating_sub(WARMUP)).max(1) as f64;
    opts.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos()))
}

/// Checkpoints at the start, 5%, 20%, half-way and the end.
pub fn checkpoint_plan(steps: usize) -> Vec<(usize, String)> {
    [(0, "untrained"), (steps / 20, "5% of training"), (steps / 5, "20% of training"), (steps / 2, "half-way"), (steps, "fully trained")].into_iter().map(|(s, l)| (s, l.to_string())).collect()
}

/// `count` windows of CONTEXT + 1 tokens from `tokens` at random offsets, as (inputs,
/// targets) [count, CONTEXT].
pub fn windows(tokens: &[u32], offsets: &[usize], device: &Device) -> Result<(Tensor, Tensor)> {
    let (mut x, mut y) = (Vec::with_capacity(offsets.len() * CONTEXT), Vec::with_capacity(offsets.len() * CONTEXT));
    for &o in offsets {
        x.extend_from_slice(&tokens[o..o + CONTEXT]);
        y.extend_from_slice(&tokens[o + 1..o + CONTEXT + 1]);
    }
    Ok((Tensor::from_vec(x, (offsets.len(), CONTEXT), device)?, Tensor::from_vec(y, (offsets.len(), CONTEXT), device)?))
}

/// Mean next-character loss over every position of the windows.
pub fn window_loss(model: &CandleModel, x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (b, t) = x.dims2()?;
    let logits = model.forward(x)?.reshape((b * t, model.config.vocab_size))?;
    candle_nn::loss::cross_entropy(&logits, &y.flatten_all()?)
}

/// Evenly spaced non-overlapping window offsets over `len` tokens.
pub fn spaced_offsets(len: usize, count: usize) -> Vec<usize> {
    let span = len.saturating_sub(CONTEXT + 1);
    (0..count).map(|i| i * span / count.max(1)).collect()
}

/// Trains one text model from the core's seeded initialisation.
pub fn train(opts: &TextTrainOptions, vocab_size: usize, train_tokens: &[u32], held_out: &[u32]) -> Result<TextTrainReport> {
    let device = Device::Cpu;
    let config = text_config(opts.kind, vocab_size);
    let init = Model::random(config.clone(), opts.seed).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let model = CandleModel::from_store(&init.to_store(), config)?;
    let params = ParamsAdamW { lr: opts.lr, weight_decay: 0.0, ..Default::default() };
    let mut optimizer = AdamW::new(model.all_vars(), params)?;
    // The data order depends on the seed only, never on the kind.
    let mut rng = seeded(opts.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x7e47);
    let (vx, vy) = windows(held_out, &spaced_offsets(held_out.len(), CURVE_WINDOWS), &device)?;
    let mut plan = checkpoint_plan(opts.steps).into_iter().filter(|(s, _)| !opts.final_only || *s == opts.steps).peekable();
    let mut report = TextTrainReport { curve: vec![], seconds: 0.0, checkpoints: vec![] };
    let started = Instant::now();
    for step in 0..=opts.steps {
        while let Some((_, label)) = plan.next_if(|(s, _)| *s == step) {
            report.checkpoints.push(Checkpoint { step, fraction: step as f64 / opts.steps.max(1) as f64, label, weights: model.to_store()? });
        }
        if step == opts.steps {
            break;
        }
        let offsets: Vec<usize> = (0..opts.batch).map(|_| rng.random_range(0..train_tokens.len() - CONTEXT - 1)).collect();
        let (x, y) = windows(train_tokens, &offsets, &device)?;
        let loss = window_loss(&model, &x, &y)?;
        optimizer.set_learning_rate(learning_rate(opts, step));
        optimizer.backward_step(&loss)?;
        if step % opts.log_every == 0 || step + 1 == opts.steps {
            let l = loss.to_scalar::<f32>()?;
            let v = window_loss(&model, &vx, &vy)?.to_scalar::<f32>()?;
            report.curve.push((step, l, v));
            eprintln!("[{}] step {step:5} loss {l:.4} held-out {v:.4} ({:.0} s)", opts.kind.slug(), started.elapsed().as_secs_f64());
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}
