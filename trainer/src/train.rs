//! The training loop: AdamW on the answer tokens' cross-entropy; first the copy warm-up
//! (`warmup.rs`), then retrieval prompts; a linear learning-rate ramp, then a constant
//! rate; checkpoints at the points of the run worth comparing in the page.

use crate::batch::make_batch;
use crate::configs::{model_config, train_spec};
use crate::model::CandleModel;
use crate::warmup::copy_prompt;
use candle_core::{Device, Result};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use difflens::core::config::AttentionKind;
use difflens::core::init::seeded;
use difflens::core::model::Model;
use difflens::core::retrieval::{generate, VOCAB_SIZE};
use std::time::Instant;

/// Steps of the learning-rate ramp at the start.
const RAMP: usize = 200;

pub struct TrainOptions {
    pub kind: AttentionKind,
    /// Copy warm-up steps, before any retrieval prompt.
    pub warmup: usize,
    /// Retrieval steps, after the warm-up.
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
    pub log_every: usize,
}

pub struct Checkpoint {
    pub step: usize,
    pub fraction: f64,
    /// What the page's training slider says at this checkpoint.
    pub label: String,
    pub weights: difflens::core::weights::TensorStore,
}

pub struct TrainReport {
    /// (step, loss) every `log_every` steps.
    pub losses: Vec<(usize, f32)>,
    pub seconds: f64,
    pub checkpoints: Vec<Checkpoint>,
}

fn learning_rate(opts: &TrainOptions, step: usize) -> f64 {
    let ramp = RAMP.min((opts.warmup + opts.steps) / 20).max(1);
    opts.lr * ((step + 1) as f64 / ramp as f64).min(1.0)
}

/// Five checkpoints: untrained, half-way through the copy warm-up, at its end (the copy
/// circuit formed, no retrieval seen yet), a fifth into retrieval, and the end.
pub fn checkpoint_plan(warmup: usize, steps: usize) -> Vec<(usize, String)> {
    vec![
        (0, "untrained".to_string()),
        (warmup / 2, "copy warm-up, half-way".to_string()),
        (warmup, "after the copy warm-up".to_string()),
        (warmup + steps / 5, "retrieval, 20%".to_string()),
        (warmup + steps, "fully trained".to_string()),
    ]
}

fn sample_copies(rng: &mut impl rand::Rng, count: usize) -> Vec<difflens::core::retrieval::Prompt> {
    (0..count).map(|_| copy_prompt(rng)).collect()
}

fn sample_prompts(rng: &mut impl rand::Rng, count: usize) -> Vec<difflens::core::retrieval::Prompt> {
    (0..count)
        .map(|_| {
            let spec = train_spec(rng);
            generate(rng, &spec)
        })
        .collect()
}

/// Trains one model from the core's seeded initialisation.
pub fn train(opts: &TrainOptions) -> Result<(CandleModel, TrainReport)> {
    let device = Device::Cpu;
    let config = model_config(opts.kind);
    let init = Model::random(config.clone(), opts.seed).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let model = CandleModel::from_store(&init.to_store(), config)?;
    let mut optimizer = AdamW::new(model.all_vars(), ParamsAdamW { lr: opts.lr, weight_decay: 0.0, ..Default::default() })?;
    let mut rng = seeded(opts.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xda7a);
    let total = opts.warmup + opts.steps;
    let mut plan = checkpoint_plan(opts.warmup, opts.steps).into_iter().peekable();
    let mut report = TrainReport { losses: vec![], seconds: 0.0, checkpoints: vec![] };
    let started = Instant::now();
    for step in 0..=total {
        while let Some((_, label)) = plan.next_if(|(s, _)| *s == step) {
            report.checkpoints.push(Checkpoint { step, fraction: step as f64 / total.max(1) as f64, label, weights: model.to_store()? });
        }
        if step == total {
            break;
        }
        let prompts = if step < opts.warmup { sample_copies(&mut rng, opts.batch) } else { sample_prompts(&mut rng, opts.batch) };
        let batch = make_batch(&prompts, &device)?;
        let logits = model.forward(&batch.tokens)?.reshape((opts.batch * batch.t, VOCAB_SIZE))?;
        let picked = logits.index_select(&batch.answer_index, 0)?;
        let loss = candle_nn::loss::cross_entropy(&picked, &batch.answers)?;
        optimizer.set_learning_rate(learning_rate(opts, step));
        optimizer.backward_step(&loss)?;
        if step % opts.log_every == 0 || step + 1 == total {
            let l = loss.to_scalar::<f32>()?;
            report.losses.push((step, l));
            eprintln!("[{:?}] step {step:5} loss {l:.4} ({:.0} s)", opts.kind, started.elapsed().as_secs_f64());
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok((model, report))
}

/// Mean loss of a model on fresh training prompts (for tests and logs).
pub fn mean_loss(model: &CandleModel, seed: u64, batches: usize, batch: usize) -> Result<f32> {
    let device = Device::Cpu;
    let mut rng = seeded(seed);
    let mut total = 0.0;
    for _ in 0..batches {
        let prompts = sample_prompts(&mut rng, batch);
        let b = make_batch(&prompts, &device)?;
        let logits = model.forward(&b.tokens)?.reshape((batch * b.t, VOCAB_SIZE))?;
        let loss = candle_nn::loss::cross_entropy(&logits.index_select(&b.answer_index, 0)?, &b.answers)?;
        total += loss.to_scalar::<f32>()?;
    }
    Ok(total / batches as f32)
}
