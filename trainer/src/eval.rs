//! Evaluation with the DiffLens core (what the page runs), on seeded prompt sets:
//! - retrieval accuracy for N ∈ {1, 2, 4, 6} needles and R ∈ {1, 2} queries at the
//!   training context length and at 2× and 4× it (per query: argmax at "→");
//! - attention to the answer span and to the noise context by answer depth (the paper's
//!   Table 3, measured the same way: the row of the position that predicts the answer,
//!   in the map that multiplies V — A1 − λ·A2 for DIFF — summed over the needle's
//!   tokens and over the rest of the context, averaged over heads, layers and prompts),
//!   and the same per layer, to show which layer finds the needle;
//! - the largest attention logits and hidden-state values (Table 5 style);
//! - accuracy with attention logits absmax-quantised to 8, 6 and 4 bits (Figure 8).

use crate::card::ModelCard;
use crate::configs::TRAIN_CONTEXT;
use difflens::core::analysis::{outlier_stats, OutlierStats};
use difflens::core::attention::MapRequest;
use difflens::core::init::seeded;
use difflens::core::model::{ForwardOptions, Model};
use difflens::core::retrieval::{generate, Prompt, PromptSpec};
use difflens::core::weights::TensorStore;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The fixed seed of every evaluation set (the cards' accuracies are on these prompts).
pub const EVAL_SEED: u64 = 1234;
pub const NEEDLES: [usize; 4] = [1, 2, 4, 6];
pub const QUERIES: [usize; 2] = [1, 2];
pub const DEPTHS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AccuracyCell {
    pub context: usize,
    pub n: usize,
    pub r: usize,
    pub accuracy: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DepthRow {
    pub depth: f32,
    pub answer: f64,
    pub noise: f64,
}

/// One layer's net attention weights at the answering position, all depths pooled.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LayerRow {
    pub layer: usize,
    /// Averaged over the layer's heads.
    pub answer: f64,
    pub noise: f64,
    /// The head with the most weight on the answer span, and that weight.
    pub top_head: usize,
    pub top_head_answer: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelEval {
    pub name: String,
    pub parameters: u64,
    pub training_seconds: f64,
    pub accuracy: Vec<AccuracyCell>,
    /// Mean over the N × R cells at the training length: what the CI test re-checks.
    pub accuracy_at_training_length: f64,
    pub attention_by_depth: Vec<DepthRow>,
    #[serde(default)]
    pub attention_by_layer: Vec<LayerRow>,
    pub attention_logits: OutlierStats,
    pub hidden_top1: f32,
    pub hidden_median: f32,
    /// (bits, accuracy at the training length; 32 = unquantised).
    pub quantized: Vec<(u32, f64)>,
}

pub fn load_final(dir: &Path) -> Result<(Model, ModelCard), Box<dyn std::error::Error>> {
    let card = ModelCard::read(dir)?;
    let bytes = std::fs::read(dir.join(&card.final_checkpoint().file))?;
    let model = Model::load(card.config.clone(), &TensorStore::from_bytes(&bytes)?)?;
    Ok((model, card))
}

/// A seeded prompt set for one configuration (the same prompts for every model).
pub fn prompts(context: usize, n: usize, r: usize, depth: Option<f32>, count: usize) -> Vec<Prompt> {
    let seed = EVAL_SEED ^ ((context as u64) << 32) ^ ((n as u64) << 16) ^ ((r as u64) << 8) ^ depth.map(|d| (d * 100.0) as u64 + 1).unwrap_or(0);
    let mut rng = seeded(seed);
    (0..count).map(|_| generate(&mut rng, &PromptSpec { context_len: context, n_needles: n, n_queries: r, target_depth: depth, distinct_values: false })).collect()
}

/// Fraction of queries answered right (argmax of the logits at each "→").
pub fn accuracy(model: &Model, prompts: &[Prompt], quant_bits: Option<u32>) -> f64 {
    let opts = ForwardOptions { logit_quant_bits: quant_bits, ..Default::default() };
    let (mut right, mut total) = (0usize, 0usize);
    for p in prompts {
        let out = model.forward(&p.tokens, &opts).expect("prompts use the model's vocabulary");
        for (&pos, &answer) in p.answer_positions.iter().zip(&p.answers) {
            let row = out.logits.row(pos);
            let best = row.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i as u32).unwrap();
            right += (best == answer) as usize;
            total += 1;
        }
    }
    right as f64 / total.max(1) as f64
}

/// Mean accuracy over the N × R cells at the training length.
pub fn training_length_accuracy(model: &Model, count: usize, quant_bits: Option<u32>) -> f64 {
    let cells: Vec<f64> = NEEDLES.iter().flat_map(|&n| QUERIES.iter().map(move |&r| (n, r))).map(|(n, r)| accuracy(model, &prompts(TRAIN_CONTEXT, n, r, None, count), quant_bits)).collect();
    cells.iter().sum::<f64>() / cells.len() as f64
}

/// Table 3 by depth (averaged over heads and layers, as the paper does) and the same
/// weights per layer, all depths pooled: the average hides which layer does the matching.
pub fn attention_weights(model: &Model, count: usize) -> (Vec<DepthRow>, Vec<LayerRow>) {
    let opts = ForwardOptions { maps: MapRequest::All, ..Default::default() };
    let (layers, heads) = (model.config.n_layers, model.blocks.first().map_or(0, |b| b.attn.n_heads()));
    // [layer][head] = (answer, noise) summed over every prompt of every depth.
    let mut per_head = vec![vec![(0.0f64, 0.0f64); heads]; layers];
    let mut prompts_seen = 0usize;
    let by_depth = DEPTHS
        .iter()
        .map(|&depth| {
            let (mut answer, mut noise, mut rows) = (0.0, 0.0, 0usize);
            for p in prompts(TRAIN_CONTEXT, 4, 1, Some(depth), count) {
                let out = model.forward(&p.tokens, &opts).unwrap();
                let (pos, span) = (p.answer_positions[0], &p.answer_spans[0]);
                for (l, layer) in out.layers.iter().enumerate() {
                    for (h, m) in layer.maps.iter().enumerate() {
                        let row = m.combined().row(pos);
                        let a = span.clone().map(|j| row[j] as f64).sum::<f64>();
                        let n = p.context.clone().filter(|j| !span.contains(j)).map(|j| row[j] as f64).sum::<f64>();
                        answer += a;
                        noise += n;
                        per_head[l][h].0 += a;
                        per_head[l][h].1 += n;
                        rows += 1;
                    }
                }
                prompts_seen += 1;
            }
            DepthRow { depth, answer: answer / rows as f64, noise: noise / rows as f64 }
        })
        .collect();
    let by_layer = per_head
        .iter()
        .enumerate()
        .map(|(layer, hs)| {
            let mean = |f: fn(&(f64, f64)) -> f64| hs.iter().map(f).sum::<f64>() / (hs.len() * prompts_seen).max(1) as f64;
            let (top_head, top) = hs.iter().enumerate().max_by(|a, b| a.1 .0.total_cmp(&b.1 .0)).map(|(h, w)| (h, w.0 / prompts_seen.max(1) as f64)).unwrap_or((0, 0.0));
            LayerRow { layer, answer: mean(|w| w.0), noise: mean(|w| w.1), top_head, top_head_answer: top }
        })
        .collect();
    (by_depth, by_layer)
}

/// Table 5: scaled pre-softmax logits of every head and branch (visible entries only),
/// and the hidden states' largest and median magnitudes.
pub fn magnitudes(model: &Model, count: usize) -> (OutlierStats, f32, f32) {
    let opts = ForwardOptions { maps: MapRequest::All, keep_logits: true, ..Default::default() };
    let (mut logits, mut top1, mut medians) = (Vec::new(), 0.0f32, Vec::new());
    for p in prompts(TRAIN_CONTEXT, 4, 2, None, count) {
        let out = model.forward(&p.tokens, &opts).unwrap();
        for layer in &out.layers {
            top1 = top1.max(layer.hidden.outliers.top1);
            medians.push(layer.hidden.outliers.median);
            for m in &layer.maps {
                for l in [&m.logits1, &m.logits2].into_iter().flatten() {
                    for i in 0..l.nrows() {
                        logits.extend((0..=i).map(|j| l[[i, j]]));
                    }
                }
            }
        }
    }
    let median = medians.iter().sum::<f32>() / medians.len().max(1) as f32;
    (outlier_stats(logits), top1, median)
}

pub fn evaluate(dir: &Path, count: usize) -> Result<ModelEval, Box<dyn std::error::Error>> {
    let (model, card) = load_final(dir)?;
    let mut accuracy_cells = vec![];
    for context in [TRAIN_CONTEXT, 2 * TRAIN_CONTEXT, 4 * TRAIN_CONTEXT] {
        for &n in &NEEDLES {
            for &r in &QUERIES {
                accuracy_cells.push(AccuracyCell { context, n, r, accuracy: accuracy(&model, &prompts(context, n, r, None, count), None) });
            }
        }
    }
    let at_train: Vec<f64> = accuracy_cells.iter().filter(|c| c.context == TRAIN_CONTEXT).map(|c| c.accuracy).collect();
    let accuracy_at_training_length = at_train.iter().sum::<f64>() / at_train.len() as f64;
    let quantized = [8u32, 6, 4].iter().map(|&b| (b, training_length_accuracy(&model, count, Some(b)))).collect();
    let (attention_logits, hidden_top1, hidden_median) = magnitudes(&model, 20);
    let (attention_by_depth, attention_by_layer) = attention_weights(&model, count);
    Ok(ModelEval {
        name: card.name.clone(),
        parameters: card.parameters,
        training_seconds: card.training_seconds,
        accuracy: accuracy_cells,
        accuracy_at_training_length,
        attention_by_depth,
        attention_by_layer,
        attention_logits,
        hidden_top1,
        hidden_median,
        quantized,
    })
}

pub fn evaluate_all(models: &Path, count: usize) -> Result<Vec<ModelEval>, Box<dyn std::error::Error>> {
    ["baseline", "diff_v1", "diff_v2"]
        .iter()
        .map(|k| models.join(k))
        .filter(|d| d.join("card.json").exists())
        .map(|d| {
            let e = evaluate(&d, count)?;
            eprintln!("evaluated {}: accuracy at the training length {:.3}", e.name, e.accuracy_at_training_length);
            Ok(e)
        })
        .collect()
}

fn markdown(results: &[ModelEval]) -> String {
    let mut s = String::new();
    let names: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    s += &format!("Retrieval accuracy (per query; {} prompts per cell, seed {EVAL_SEED}). Context = tokens of filler and needles; training used {TRAIN_CONTEXT}.\n\n", "100");
    s += &format!("| context | N, R | {} |\n|---|---|{}\n", names.join(" | "), "---|".repeat(names.len()));
    for (k, cell) in results[0].accuracy.iter().enumerate() {
        let accs: Vec<String> = results.iter().map(|r| format!("{:.2}", r.accuracy[k].accuracy)).collect();
        s += &format!("| {} | N{} R{} | {} |\n", cell.context, cell.n, cell.r, accs.join(" | "));
    }
    s += "\nAttention to the answer span / to the noise context by the answer's depth (paper Table 3 style; N = 4, R = 1, training length; net weight of the map that multiplies V, averaged over heads and layers):\n\n";
    s += &format!("| depth | {} |\n|---|{}\n", names.iter().map(|n| format!("{n} answer | {n} noise")).collect::<Vec<_>>().join(" | "), "---|---|".repeat(names.len()));
    for (k, d) in results[0].attention_by_depth.iter().enumerate() {
        let cells: Vec<String> = results.iter().map(|r| format!("{:.3} | {:.3}", r.attention_by_depth[k].answer, r.attention_by_depth[k].noise)).collect();
        s += &format!("| {:.0}% | {} |\n", d.depth * 100.0, cells.join(" | "));
    }
    s += "\nThe same weights per layer (all five depths pooled, averaged over the layer's heads; in brackets the head with the most weight on the answer span, and that weight):\n\n";
    s += &format!("| layer | {} |\n|---|{}\n", names.iter().map(|n| format!("{n} answer | {n} noise")).collect::<Vec<_>>().join(" | "), "---|---|".repeat(names.len()));
    for (k, l) in results[0].attention_by_layer.iter().enumerate() {
        let cells: Vec<String> =
            results.iter().filter_map(|r| r.attention_by_layer.get(k)).map(|w| format!("{:.3} (head {}: {:.2}) | {:.3}", w.answer, w.top_head, w.top_head_answer, w.noise)).collect();
        s += &format!("| {} | {} |\n", l.layer, cells.join(" | "));
    }
    s += "\nLargest attention logits and hidden states (Table 5 style) and accuracy with absmax-quantised attention logits at the training length (Figure 8 style):\n\n";
    s += "| model | params | training | logits top-1 / top-10 / median | hidden top-1 / median | accuracy f32 / 8 / 6 / 4 bit |\n|---|---|---|---|---|---|\n";
    for r in results {
        let q: Vec<String> = r.quantized.iter().map(|(_, a)| format!("{a:.2}")).collect();
        s += &format!(
            "| {} | {} | {:.0} s | {:.1} / {:.1} / {:.2} | {:.1} / {:.2} | {:.2} / {} |\n",
            r.name,
            r.parameters,
            r.training_seconds,
            r.attention_logits.top1,
            r.attention_logits.top10,
            r.attention_logits.median,
            r.hidden_top1,
            r.hidden_median,
            r.accuracy_at_training_length,
            q.join(" / ")
        );
    }
    s
}

/// Writes `eval.json`, each card's `eval`, and the README's table between its markers.
pub fn write_outputs(models: &Path, readme: Option<&Path>, results: &[ModelEval]) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::write(models.join("eval.json"), serde_json::to_string_pretty(results)? + "\n")?;
    for r in results {
        let dir = models.join(&r.name);
        let mut card = ModelCard::read(&dir)?;
        card.eval = Some(serde_json::to_value(r)?);
        card.write(&dir)?;
    }
    let table = markdown(results);
    println!("{table}");
    if let Some(path) = readme {
        let text = std::fs::read_to_string(path)?;
        let (begin, end) = ("<!-- eval:begin -->", "<!-- eval:end -->");
        if let (Some(a), Some(b)) = (text.find(begin), text.find(end)) {
            let updated = format!("{}{begin}\n{table}{}", &text[..a], &text[b..]);
            std::fs::write(path, updated)?;
        } else {
            return Err(format!("{} has no {begin} … {end} markers", path.display()).into());
        }
    }
    Ok(())
}
