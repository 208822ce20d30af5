//! The training loop: AdamW on the answer tokens' cross-entropy, linear warm-up then
//! cosine decay, checkpoints at fixed fractions of the run.

use crate::batch::make_batch;
use crate::configs::{model_config, train_spec};
use crate::model::CandleModel;
use candle_core::{Device, Result};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use difflens::core::config::AttentionKind;
use difflens::core::init::seeded;
use difflens::core::model::Model;
use difflens::core::retrieval::{generate, VOCAB_SIZE};
use std::time::Instant;

/// The fractions of training at which checkpoints are written (0 = the initial weights).
pub const CHECKPOINTS: [f64; 5] = [0.0, 0.05, 0.2, 0.5, 1.0];

pub struct TrainOptions {
    pub kind: AttentionKind,
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
    pub log_every: usize,
}

pub struct Checkpoint {
    pub step: usize,
    pub fraction: f64,
    pub weights: difflens::core::weights::TensorStore,
}

pub struct TrainReport {
    /// (step, loss) every `log_every` steps.
    pub losses: Vec<(usize, f32)>,
    pub seconds: f64,
    pub checkpoints: Vec<Checkpoint>,
}

fn learning_rate(opts: &TrainOptions, step: usize) -> f64 {
    let warmup = (opts.steps / 20).max(1);
    if step < warmup {
        return opts.lr * (step + 1) as f64 / warmup as f64;
    }
    let progress = (step - warmup) as f64 / (opts.steps - warmup).max(1) as f64;
    opts.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()))
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
    let checkpoint_steps: Vec<usize> = CHECKPOINTS.iter().map(|f| (f * opts.steps as f64).round() as usize).collect();
    let mut report = TrainReport { losses: vec![], seconds: 0.0, checkpoints: vec![] };
    let started = Instant::now();
    for step in 0..=opts.steps {
        if let Some(k) = checkpoint_steps.iter().position(|&s| s == step) {
            report.checkpoints.push(Checkpoint { step, fraction: CHECKPOINTS[k], weights: model.to_store()? });
        }
        if step == opts.steps {
            break;
        }
        let prompts = sample_prompts(&mut rng, opts.batch);
        let batch = make_batch(&prompts, &device)?;
        let logits = model.forward(&batch.tokens)?.reshape((opts.batch * batch.t, VOCAB_SIZE))?;
        let picked = logits.index_select(&batch.answer_index, 0)?;
        let loss = candle_nn::loss::cross_entropy(&picked, &batch.answers)?;
        optimizer.set_learning_rate(learning_rate(opts, step));
        optimizer.backward_step(&loss)?;
        if step % opts.log_every == 0 || step + 1 == opts.steps {
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
