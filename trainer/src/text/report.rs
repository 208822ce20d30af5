//! `eval.json`'s long-context part: from each model's and seed's per-character losses on
//! the held-out plays (and the n-gram's on the same characters), each model's loss per
//! seed and per play, and each DIFF model's difference from the baseline with the
//! intervals of `stats`, said in numbers the page and the docs quote.

use super::stats::{block_bootstrap, blocks, combined, lag1_autocorrelation, mean_sd};
use serde::{Deserialize, Serialize};

/// Characters in a block of the bootstrap: about 400 lines, 30 blocks over the five
/// plays. The differences between two models are correlated over long stretches (a
/// scene's speakers, a play's style: DIFF V1 − baseline is +0.03 on one play and −0.02
/// on another), so the bootstrap's standard error grows with the block length well past
/// a few windows (`se_by_block_length`; at 4096 characters the lag-1 autocorrelation of
/// the blocks' mean differences was still ≈ 0.5 for V1). This is the longest block that
/// leaves enough blocks to resample; the file keeps the others' standard errors so a
/// reader can see how much the choice matters.
pub const BLOCK: usize = 16384;
const SAMPLES: usize = 2000;
const BOOTSTRAP_SEED: u64 = 20261207;

/// Per-character losses of one model (or the n-gram): one series per seed, each the
/// plays' series one after another.
pub struct Scored {
    pub model: String,
    pub seeds: Vec<Vec<f64>>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelLoss {
    pub model: String,
    /// Long-context loss (nats/char) of each seed, in `LongContext::seeds` order.
    pub seed_losses: Vec<f64>,
    pub mean: f64,
    pub sd: f64,
    /// Each play's loss, averaged over the seeds.
    pub per_play: Vec<f64>,
    /// Share of the blocks where the n-gram's loss is below this model's (seed-averaged).
    pub ngram_better_blocks: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Versus {
    pub model: String,
    /// DIFF − baseline on the whole text, seed by seed (the same seed's baseline).
    pub seed_differences: Vec<f64>,
    pub mean: f64,
    pub seed_sd: f64,
    /// The block bootstrap of the seed-averaged difference: the text's variation alone.
    pub data_low95: f64,
    pub data_high95: f64,
    pub data_se: f64,
    /// Both variations (stats::combined): what the verdict reads.
    pub low95: f64,
    pub high95: f64,
    pub degrees_of_freedom: Option<f64>,
    pub per_play: Vec<f64>,
    pub lag1_block_means: f64,
    pub se_by_block_length: Vec<(usize, f64)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NGramInfo {
    pub order: usize,
    pub loss: f64,
    pub per_play: Vec<f64>,
    /// The training plays held aside to choose the order, and each order's loss on them.
    pub aside_plays: Vec<String>,
    pub orders: Vec<(usize, f64)>,
    pub fit_seconds: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LongContext {
    pub min_context: usize,
    pub stride: usize,
    pub characters: usize,
    pub plays: Vec<String>,
    pub play_characters: Vec<usize>,
    pub seeds: Vec<u64>,
    pub block: usize,
    pub blocks: usize,
    pub bootstrap_samples: usize,
    pub models: Vec<ModelLoss>,
    pub ngram: NGramInfo,
    pub versus: Vec<Versus>,
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len().max(1) as f64
}

/// The seed-averaged series of one series per seed.
fn averaged(seeds: &[Vec<f64>]) -> Vec<f64> {
    (0..seeds[0].len()).map(|i| seeds.iter().map(|v| v[i]).sum::<f64>() / seeds.len() as f64).collect()
}

fn per_play(x: &[f64], lengths: &[usize]) -> Vec<f64> {
    let mut start = 0;
    lengths
        .iter()
        .map(|&n| {
            start += n;
            mean(&x[start - n..start])
        })
        .collect()
}

fn model_loss(s: &Scored, ngram: &[f64], lengths: &[usize]) -> ModelLoss {
    let seed_losses: Vec<f64> = s.seeds.iter().map(|v| mean(v)).collect();
    let (m, sd) = mean_sd(&seed_losses);
    let avg = averaged(&s.seeds);
    let bl = blocks(lengths, BLOCK);
    let better = bl.iter().filter(|b| mean(&ngram[(*b).clone()]) < mean(&avg[(*b).clone()])).count();
    ModelLoss { model: s.model.clone(), seed_losses, mean: m, sd, per_play: per_play(&avg, lengths), ngram_better_blocks: better as f64 / bl.len() as f64 }
}

fn versus(diff: &Scored, base: &Scored, lengths: &[usize]) -> Versus {
    let d: Vec<Vec<f64>> = diff.seeds.iter().zip(&base.seeds).map(|(a, b)| a.iter().zip(b).map(|(x, y)| x - y).collect()).collect();
    let seed_differences: Vec<f64> = d.iter().map(|v| mean(v)).collect();
    let (_, seed_sd) = mean_sd(&seed_differences);
    let bl = blocks(lengths, BLOCK);
    let boot = block_bootstrap(&d, &bl, SAMPLES, BOOTSTRAP_SEED);
    let (m, low95, high95, df) = combined(&seed_differences, boot.se);
    let avg = averaged(&d);
    let block_means: Vec<f64> = bl.iter().map(|b| mean(&avg[b.clone()])).collect();
    let se_by_block_length = [1, 128, 1024, 4096, BLOCK, 2 * BLOCK].iter().map(|&len| (len, block_bootstrap(&d, &blocks(lengths, len), 500, BOOTSTRAP_SEED).se)).collect();
    Versus {
        model: diff.model.clone(),
        seed_differences,
        mean: m,
        seed_sd,
        data_low95: boot.low95,
        data_high95: boot.high95,
        data_se: boot.se,
        low95,
        high95,
        degrees_of_freedom: df.is_finite().then_some(df),
        per_play: per_play(&avg, lengths),
        lag1_block_means: lag1_autocorrelation(&block_means),
        se_by_block_length,
    }
}

/// Everything but the n-gram's fit facts (`ngram` names the order and how it was chosen;
/// its loss and per-play losses are filled here from `ngram_losses`).
pub fn long_context(models: &[Scored], ngram_losses: &[f64], mut ngram: NGramInfo, plays: Vec<String>, lengths: Vec<usize>, seeds: Vec<u64>) -> LongContext {
    ngram.loss = mean(ngram_losses);
    ngram.per_play = per_play(ngram_losses, &lengths);
    LongContext {
        min_context: super::long::MIN_CONTEXT,
        stride: super::long::STRIDE,
        characters: lengths.iter().sum(),
        blocks: blocks(&lengths, BLOCK).len(),
        block: BLOCK,
        bootstrap_samples: SAMPLES,
        models: models.iter().map(|s| model_loss(s, ngram_losses, &lengths)).collect(),
        versus: models[1..].iter().map(|s| versus(s, &models[0], &lengths)).collect(),
        ngram,
        plays,
        play_characters: lengths,
        seeds,
    }
}
