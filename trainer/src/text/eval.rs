//! Evaluation of the text models with the DiffLens core (what the page runs) on the
//! held-out plays, two ways: the window loss (the text cut into non-overlapping windows
//! of CONTEXT + 1 characters, each predicted from its own start: what the page's curve
//! and the tests recompute) and the long-context loss (`long`: every character, each with
//! at least 97 characters before it where its play allows), the headline. Every seed's
//! trained model is evaluated (seed 1 ships; seeds 2 and 3 live under
//! `trainer/text-seeds/`), and beside them a Kneser–Ney character n-gram (`ngram`), its
//! order chosen on training plays held aside; `report` turns the per-character losses
//! into each model's loss and each DIFF model's difference from the baseline with
//! intervals.

use super::card::TextCard;
use super::configs::CONTEXT;
use super::corpus::Corpus;
use super::long::{on_two_threads, sliding_losses};
use super::ngram::{choose_order, KneserNey};
use super::report::{long_context, LongContext, NGramInfo, Scored};
use difflens::core::char_lm::next_token_losses;
use difflens::core::char_vocab::CharVocab;
use difflens::core::config::AttentionKind;
use difflens::core::model::{ForwardOptions, Model};
use difflens::core::weights::TensorStore;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Windows in the fixed slice that the tests recompute (the held-out text's first ones).
pub const SLICE_WINDOWS: usize = 8;

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
    /// The long-context loss of this model's trained checkpoint.
    #[serde(default)]
    pub long_context_loss: f64,
    /// Every seed's trained model of this kind (the card's own seed among them).
    #[serde(default)]
    pub seeds: Vec<SeedLoss>,
    /// The Kneser–Ney reference on the same characters: its order and long-context loss
    /// (it has no window loss: it reads at most order − 1 characters back anyway).
    #[serde(default)]
    pub ngram_order: usize,
    #[serde(default)]
    pub ngram_loss: f64,
}

/// DIFF minus baseline: the long-context difference averaged over the seeds, with the
/// interval that counts both the text's and the training runs' variation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Difference {
    pub model: String,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
}

/// One seed's trained model on the held-out plays.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeedLoss {
    pub seed: u64,
    pub long_context_loss: f64,
    pub window_loss: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TextEvalSummary {
    pub models: Vec<(String, TextEval)>,
    pub versus_baseline: Vec<Difference>,
    pub method: String,
    /// Absent in files written before the long-context evaluation.
    #[serde(default)]
    pub long_context: Option<LongContext>,
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

pub fn load(dir: &Path, card: &TextCard, file: &str) -> Result<Model, Box<dyn std::error::Error>> {
    let store = TensorStore::from_bytes(&std::fs::read(dir.join(file))?)?;
    Ok(Model::load(card.config.clone(), &store)?)
}

/// The seeds whose three models are all trained, each with its folder of kinds: the
/// shipped seed under `models`, the others under `seeds/seed-N/`.
pub fn seed_dirs(models: &Path, seeds: &Path) -> Result<Vec<(u64, PathBuf)>, Box<dyn std::error::Error>> {
    let mut out = vec![(TextCard::read(&models.join(AttentionKind::Baseline.slug()))?.seed, models.to_path_buf())];
    for entry in std::fs::read_dir(seeds).into_iter().flatten() {
        let dir = entry?.path();
        let all = AttentionKind::ALL.iter().all(|k| dir.join(k.slug()).join("card.json").is_file());
        if let (true, Ok(card)) = (all, TextCard::read(&dir.join(AttentionKind::Baseline.slug()))) {
            out.push((card.seed, dir));
        }
    }
    out.sort_by_key(|(s, _)| *s);
    Ok(out)
}

/// One model's window evaluation: each checkpoint's loss (all but the last on every
/// fourth window, the last on all of them) and the last's per-window losses.
fn window_eval(dir: &Path, card: &TextCard, held_out: &[u32], starts: &[usize]) -> Result<(Vec<f64>, Vec<f64>), Box<dyn std::error::Error>> {
    let mut checkpoint_losses = vec![];
    let mut last = vec![];
    for (i, c) in card.checkpoints.iter().enumerate() {
        let is_final = i + 1 == card.checkpoints.len();
        let some: Vec<usize> = if is_final { starts.to_vec() } else { starts.iter().step_by(4).copied().collect() };
        last = window_losses(&load(dir, card, &c.file)?, held_out, &some);
        checkpoint_losses.push(mean(&last));
        eprintln!("[{} seed {}] {}: window loss {:.4}", card.name, card.seed, c.label, mean(&last));
    }
    Ok((checkpoint_losses, last))
}

/// The n-gram: its order chosen on every tenth training play (fitted on the others),
/// then fitted on all the training plays; its losses on the held-out plays.
fn ngram_losses(corpus: &Corpus, vocab: &CharVocab, plays: &[Vec<u32>]) -> (Vec<f64>, NGramInfo) {
    let started = Instant::now();
    let (mut fit, mut aside, mut aside_plays) = (vec![], vec![], vec![]);
    for (i, play) in corpus.train.iter().enumerate() {
        if i % 10 == 9 {
            aside.push(vocab.encode(&play.text));
            aside_plays.push(play.name.clone());
        } else {
            fit.extend(vocab.encode(&play.text));
        }
    }
    let aside_refs: Vec<&[u32]> = aside.iter().map(|v| v.as_slice()).collect();
    let (order, orders) = choose_order(&fit, &aside_refs, 3..=10, vocab.size());
    eprintln!("[n-gram] orders on the plays held aside: {orders:?}; order {order}");
    let model = KneserNey::fit(&vocab.encode(&corpus.train_text()), order, vocab.size());
    let losses: Vec<f64> = plays.iter().flat_map(|p| model.losses(p)).collect();
    let info = NGramInfo { order, loss: 0.0, per_play: vec![], aside_plays, orders, fit_seconds: started.elapsed().as_secs_f64() };
    (losses, info)
}

/// Evaluates every model: seed 1's checkpoints on the windows (the cards' curves), every
/// seed's trained model on the windows and with long context, the n-gram; writes each
/// card's `eval` and `eval.json` beside the shipped models.
pub fn evaluate_all(models: &Path, seeds: &Path, corpus: &Corpus, vocab: &CharVocab) -> Result<TextEvalSummary, Box<dyn std::error::Error>> {
    let held_out = vocab.encode(&corpus.held_out_text());
    let starts = window_starts(held_out.len());
    let plays: Vec<Vec<u32>> = corpus.held_out.iter().map(|p| vocab.encode(&p.text)).collect();
    let runs = seed_dirs(models, seeds)?;
    let (ngram, ngram_info) = ngram_losses(corpus, vocab, &plays);
    let mut summary = TextEvalSummary { models: vec![], versus_baseline: vec![], method: String::new(), long_context: None };
    let mut scored = vec![];
    for kind in AttentionKind::ALL {
        let mut cards = vec![];
        let mut seed_losses = vec![];
        let mut series = vec![];
        for (seed, dir) in &runs {
            let dir = dir.join(kind.slug());
            let card = TextCard::read(&dir)?;
            let (checkpoint_losses, last) = window_eval(&dir, &card, &held_out, &starts)?;
            let model = load(&dir, &card, &card.checkpoints.last().expect("a checkpoint").file)?;
            let long: Vec<f64> = on_two_threads(plays.len(), |p| sliding_losses(&model, &plays[p])).concat();
            eprintln!("[{} seed {seed}] long-context loss {:.4}", kind.slug(), mean(&long));
            seed_losses.push(SeedLoss { seed: *seed, long_context_loss: mean(&long), window_loss: mean(&last) });
            let eval = TextEval {
                held_out_loss: mean(&last),
                bits_per_char: mean(&last) / std::f64::consts::LN_2,
                windows: starts.len(),
                slice_loss: mean(&last[..SLICE_WINDOWS.min(last.len())]),
                checkpoint_losses,
                long_context_loss: mean(&long),
                seeds: vec![],
                ngram_order: ngram_info.order,
                ngram_loss: mean(&ngram),
            };
            cards.push((dir, card, eval));
            series.push(long);
        }
        for (dir, mut card, mut eval) in cards {
            eval.seeds = seed_losses.clone();
            if card.seed == runs[0].0 {
                summary.models.push((kind.slug().into(), eval.clone()));
            }
            card.eval = Some(eval);
            card.write(&dir)?;
        }
        scored.push(Scored { model: kind.slug().into(), seeds: series });
    }
    let lengths: Vec<usize> = plays.iter().map(|p| p.len() - 1).collect();
    let long = long_context(&scored, &ngram, ngram_info, corpus.held_out.iter().map(|p| p.name.clone()).collect(), lengths, runs.iter().map(|(s, _)| *s).collect());
    summary.versus_baseline = long.versus.iter().map(|v| Difference { model: v.model.clone(), mean: v.mean, low95: v.low95, high95: v.high95 }).collect();
    summary.method = method(&long, starts.len());
    summary.long_context = Some(long);
    std::fs::write(models.join("eval.json"), serde_json::to_string_pretty(&summary)? + "\n")?;
    Ok(summary)
}

fn method(long: &LongContext, windows: usize) -> String {
    format!(
        "Long-context loss: all {} held-out characters after each play's first, each with at least {} characters of context where its play allows (windows of {CONTEXT} moved {} at a time); window loss: {windows} non-overlapping windows of {} characters, each predicted from its start. DIFF − baseline: the long-context difference averaged over {} seeds, its 95% interval from a paired bootstrap over {} blocks of {} characters ({} resamples) combined with the spread across seeds (Student's t, Welch–Satterthwaite degrees of freedom). n-gram: interpolated modified Kneser–Ney, order {} chosen on {} training plays held aside, fitted on all training plays.",
        long.characters,
        long.min_context,
        long.stride,
        CONTEXT + 1,
        long.seeds.len(),
        long.blocks,
        long.block,
        long.bootstrap_samples,
        long.ngram.order,
        long.ngram.aside_plays.len()
    )
}
