//! The needle task as the training page runs it. Learning retrieval from scratch takes
//! the shipped models over a thousand steps of a copy warm-up before retrieval starts,
//! too slow to watch; so a needle run fine-tunes each shipped model from its checkpoint
//! after the copy warm-up (the copy circuit formed, no retrieval prompt seen yet) on the
//! prompts the shipped models trained on: 1 to 6 needles, the unasked ones distractors,
//! scored on the answers alone. Each step's prompts come from (seed, step) only, so the
//! three models of a seed see the same prompts in the same order, and a worker needs
//! nothing but the seed to make them.

use crate::core::init::seeded;
use crate::core::retrieval::{generate, training_spec, Prompt, PromptSpec, PAD, TRAIN_CONTEXT};
use crate::core::train::Batch;
use ndarray::Array2;

/// The needle task's vocabulary: the shipped needle models'.
pub const VOCAB: usize = crate::core::retrieval::VOCAB_SIZE;

/// The shipped checkpoint a needle run starts from: after the copy warm-up.
pub const WARMUP_CHECKPOINT: usize = 2;
/// Held-out prompts every evaluation scores (the first of the final ones).
pub const EVAL_PROMPTS: usize = 32;
/// Held-out prompts of the final losses, in blocks of [`BLOCK`] for the verdict.
pub const FINAL_PROMPTS: usize = 128;
const BLOCK: usize = 8;
/// The held-out prompts' and the probe's generators (no run's batches use them).
const HELD_OUT_SEED: u64 = 0x4e33_d1e5_0000_0001;
const PROBE_SEED: u64 = 0x4e33_d1e5_0000_0002;

/// Prompts padded at the end into one batch (the models are causal: padding after the
/// last answer changes nothing before it), scored at each answer position.
pub fn prompt_batch(prompts: &[Prompt]) -> Batch {
    let t = prompts.iter().map(|p| p.tokens.len()).max().unwrap_or(1);
    let mut batch = Batch { tokens: Vec::with_capacity(prompts.len() * t), targets: vec![None; prompts.len() * t], seq_len: t };
    for (row, p) in prompts.iter().enumerate() {
        batch.tokens.extend(p.tokens.iter().copied().chain(std::iter::repeat(PAD)).take(t));
        for (&at, &answer) in p.answer_positions.iter().zip(&p.answers) {
            batch.targets[row * t + at] = Some(answer);
        }
    }
    batch
}

fn prompts(seed: u64, count: usize) -> Vec<Prompt> {
    let mut rng = seeded(seed);
    (0..count)
        .map(|_| {
            let spec = training_spec(&mut rng);
            generate(&mut rng, &spec)
        })
        .collect()
}

/// Step `step`'s `size` prompts for run seed `seed`.
pub fn batch(seed: u64, step: usize, size: usize) -> Batch {
    prompt_batch(&prompts(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (step as u64).wrapping_mul(0xd1b5_4a32_d192_ed03) ^ 0x4eed, size))
}

/// The prompts every evaluation scores.
pub fn held_out_batch() -> Batch {
    prompt_batch(&prompts(HELD_OUT_SEED, FINAL_PROMPTS)[..EVAL_PROMPTS])
}

/// Every held-out prompt, in blocks, for the final losses and the verdict's bootstrap.
pub fn held_out_blocks() -> Vec<Batch> {
    prompts(HELD_OUT_SEED, FINAL_PROMPTS).chunks(BLOCK).map(prompt_batch).collect()
}

/// The probe whose maps the page shows: four needles and one question about the first,
/// each needle with its own value, so a map shows which needle the model reads.
pub fn probe() -> Vec<u32> {
    let spec = PromptSpec { context_len: TRAIN_CONTEXT, n_needles: 4, n_queries: 1, target_depth: Some(0.25), distinct_values: true };
    generate(&mut seeded(PROBE_SEED), &spec).tokens
}

/// The probe as words (what the page prints above its maps).
pub fn probe_text() -> String {
    crate::core::retrieval::render(&probe())
}

/// The share of scored positions whose most likely next token is the answer.
pub fn accuracy(logits: &Array2<f32>, targets: &[Option<u32>]) -> f32 {
    let (mut right, mut asked) = (0usize, 0usize);
    for (row, target) in logits.rows().into_iter().zip(targets) {
        let Some(answer) = target else { continue };
        let best = row.iter().enumerate().fold((0, f32::NEG_INFINITY), |best, (i, &v)| if v > best.1 { (i, v) } else { best }).0;
        right += (best == *answer as usize) as usize;
        asked += 1;
    }
    right as f32 / asked.max(1) as f32
}
