//! Batches of prompts as tensors, padded at the end (the models are causal, so padding
//! after the last query changes nothing before it).

use candle_core::{Device, Result, Tensor};
use difflens::core::retrieval::{Prompt, PAD};

pub struct Batch {
    /// [b, t] u32 token ids.
    pub tokens: Tensor,
    /// Flat indices (row · t + position) of the positions that predict an answer.
    pub answer_index: Tensor,
    /// The answers, in the same order.
    pub answers: Tensor,
    pub t: usize,
}

pub fn make_batch(prompts: &[Prompt], device: &Device) -> Result<Batch> {
    let t = prompts.iter().map(|p| p.tokens.len()).max().unwrap_or(1);
    let mut ids = Vec::with_capacity(prompts.len() * t);
    let (mut index, mut answers) = (vec![], vec![]);
    for (row, p) in prompts.iter().enumerate() {
        ids.extend(p.tokens.iter().copied().chain(std::iter::repeat(PAD)).take(t));
        for (&pos, &a) in p.answer_positions.iter().zip(&p.answers) {
            index.push((row * t + pos) as u32);
            answers.push(a);
        }
    }
    Ok(Batch { tokens: Tensor::from_vec(ids, (prompts.len(), t), device)?, answer_index: Tensor::new(index.as_slice(), device)?, answers: Tensor::new(answers.as_slice(), device)?, t })
}
