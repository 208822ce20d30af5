//! The paper's evidence on the shipped models, computed in the page exactly as the
//! trainer's evaluation computes it for the README (a test holds the two equal): net
//! attention on the asked needle and on the context noise (Table 3), retrieval accuracy
//! over a batch of prompts (Table 2), the magnitudes of attention logits and hidden states
//! (Table 5), each optionally with the attention logits quantised (Figure 8).

use crate::core::analysis::{outlier_stats, OutlierStats};
use crate::core::attention::MapRequest;
use crate::core::init::seeded;
use crate::core::model::{ForwardOptions, Model, ModelOutput};
use crate::core::retrieval::{generate, Prompt, PromptSpec};
use crate::state::model_state::ModelState;

/// Net (signed) attention weight of one row: on the asked needle's span "KEY is VALUE ."
/// and on the rest of the context (the other needles and the filler: the noise).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Net {
    pub answer: f64,
    pub noise: f64,
}

impl Net {
    /// The row `row` of a map over keys, for the needle `span` inside `context`.
    pub fn of_row(row: &[f32], span: &std::ops::Range<usize>, context: &std::ops::Range<usize>) -> Self {
        let sum = |keys: &mut dyn Iterator<Item = usize>| keys.filter_map(|j| row.get(j)).map(|&w| w as f64).sum::<f64>();
        Self { answer: sum(&mut span.clone()), noise: sum(&mut context.clone().filter(|j| !span.contains(j))) }
    }

    fn mean<'a>(items: impl IntoIterator<Item = &'a Net>) -> Self {
        let (mut sum, mut n) = (Net::default(), 0usize);
        for x in items {
            sum.answer += x.answer;
            sum.noise += x.noise;
            n += 1;
        }
        let n = n.max(1) as f64;
        Net { answer: sum.answer / n, noise: sum.noise / n }
    }
}

/// Every head's net weights at the first query's "→" (the position that must produce the
/// answer), in the map that multiplies V (A1 − λ·A2 for DIFF): `[layer][head]`.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights(pub Vec<Vec<Net>>);

impl NetWeights {
    /// Needs every map of `output` (a forward with `MapRequest::All`).
    pub fn of(output: &ModelOutput, prompt: &Prompt) -> Self {
        let (pos, span) = (prompt.answer_positions[0], &prompt.answer_spans[0]);
        let per_layer =
            output.layers.iter().map(|layer| layer.maps.iter().map(|m| Net::of_row(m.combined().row(pos).as_slice().expect("maps are standard-layout"), span, &prompt.context)).collect()).collect();
        Self(per_layer)
    }

    /// The head of `layer` with the most net weight on the asked needle.
    pub fn best_head(&self, layer: usize) -> usize {
        self.0.get(layer).and_then(|heads| heads.iter().enumerate().max_by(|a, b| a.1.answer.total_cmp(&b.1.answer))).map_or(0, |(h, _)| h)
    }

    /// Averaged over the heads of `layer`.
    pub fn layer_mean(&self, layer: usize) -> Net {
        Net::mean(self.0.get(layer).into_iter().flatten())
    }

    /// Averaged over every head of every layer (the paper's Table 3 averages so).
    pub fn mean(&self) -> Net {
        Net::mean(self.0.iter().flatten())
    }
}

/// Table 5 for a set of forward passes kept with their attention logits: the magnitudes
/// of every head's and branch's scaled pre-softmax logits (visible entries only), the
/// largest hidden-state value after any layer, and the mean of the layers' median
/// hidden-state magnitudes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Magnitudes {
    pub logits: OutlierStats,
    pub hidden_top1: f32,
    pub hidden_median: f32,
}

impl Magnitudes {
    pub fn of<'a>(outputs: impl IntoIterator<Item = &'a ModelOutput>) -> Self {
        let (mut logits, mut top1, mut medians) = (Vec::new(), 0.0f32, Vec::new());
        for out in outputs {
            for layer in &out.layers {
                top1 = top1.max(layer.hidden.outliers.top1);
                medians.push(layer.hidden.outliers.median);
                for l in layer.maps.iter().flat_map(|m| [&m.logits1, &m.logits2]).flatten() {
                    for i in 0..l.nrows() {
                        logits.extend((0..=i).map(|j| l[[i, j]]));
                    }
                }
            }
        }
        let hidden_median = medians.iter().sum::<f32>() / medians.len().max(1) as f32;
        Self { logits: outlier_stats(logits), hidden_top1: top1, hidden_median }
    }
}

/// Does the model's argmax at each "→" name the answer?
pub fn answers_right(output: &ModelOutput, prompt: &Prompt) -> Vec<bool> {
    prompt
        .answer_positions
        .iter()
        .zip(&prompt.answers)
        .map(|(&pos, &answer)| {
            let row = output.logits.row(pos);
            row.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i as u32) == Some(answer)
        })
        .collect()
}

/// The prompts of a run over fresh prompts with the explorer's settings: its N, its R
/// (or `queries`), its context; needles at random depths and values drawn as in the
/// trainer's evaluation, so the page's runs measure what the README's tables measure.
pub fn run_spec(state: &ModelState, queries: Option<usize>) -> PromptSpec {
    PromptSpec { context_len: state.context, n_needles: state.needles, n_queries: queries.unwrap_or(state.queries).min(state.needles), target_depth: None, distinct_values: false }
}

/// `count` fresh prompts of `spec`, the same for every model (seeded).
pub fn fresh_prompts(spec: &PromptSpec, count: usize, seed: u64) -> Vec<Prompt> {
    let mut rng = seeded(seed);
    (0..count).map(|_| generate(&mut rng, spec)).collect()
}

/// Table 2 live: a batch of prompts through several models, one forward pass per step,
/// so the page can run it in slices, show progress and drop it.
pub struct AccuracyRun {
    prompts: Vec<Prompt>,
    /// Each model's options (precision, λ override); maps are never kept here.
    options: Vec<ForwardOptions>,
    /// The next (prompt, model).
    next: (usize, usize),
    /// Per model: queries answered right, and asked.
    pub right: Vec<usize>,
    pub asked: Vec<usize>,
}

impl AccuracyRun {
    /// `options`: one per model, in the order `step` is given the models.
    pub fn new(prompts: Vec<Prompt>, options: Vec<ForwardOptions>) -> Self {
        let models = options.len();
        let options = options.into_iter().map(|o| ForwardOptions { maps: MapRequest::None, keep_logits: false, ..o }).collect();
        Self { prompts, options, next: (0, 0), right: vec![0; models], asked: vec![0; models] }
    }

    /// Runs the next prompt through the next model; false once everything has run.
    pub fn step(&mut self, models: &[&Model]) -> Result<bool, String> {
        let (i, m) = self.next;
        let (Some(p), Some(model)) = (self.prompts.get(i), models.get(m)) else { return Ok(false) };
        let out = model.forward(&p.tokens, &self.options[m]).map_err(|e| e.to_string())?;
        let verdicts = answers_right(&out, p);
        self.right[m] += verdicts.iter().filter(|r| **r).count();
        self.asked[m] += verdicts.len();
        self.next = if m + 1 < models.len() { (i, m + 1) } else { (i + 1, 0) };
        Ok(true)
    }

    /// (prompts through every model, prompts in the batch).
    pub fn progress(&self) -> (usize, usize) {
        (self.next.0, self.prompts.len())
    }

    pub fn accuracy(&self, model: usize) -> f64 {
        self.right[model] as f64 / self.asked[model].max(1) as f64
    }
}

/// Table 3's depth sweep live: at each depth of the asked needle, a batch of fresh
/// prompts through several models, and each model's net weights averaged over heads,
/// layers and prompts. One forward pass per step.
pub struct DepthSweep {
    /// (depth, its prompts).
    batches: Vec<(f32, Vec<Prompt>)>,
    /// Each model's options, every map kept (the net weights need them).
    options: Vec<ForwardOptions>,
    /// The next (depth, prompt, model).
    next: (usize, usize, usize),
    /// `[model][depth]`: summed net weights and the prompts summed.
    sums: Vec<Vec<(Net, usize)>>,
}

/// The sweep's `count` prompts at depth `DEPTHS[k]` for `spec` (its depth replaced), each
/// depth seeded apart from the others.
pub fn depth_prompts(spec: &PromptSpec, k: usize, count: usize, seed: u64) -> Vec<Prompt> {
    fresh_prompts(&PromptSpec { target_depth: Some(DEPTHS[k]), ..spec.clone() }, count, seed ^ ((k as u64 + 1) << 40))
}

/// The depths of the paper's Table 3 (and the trainer's).
pub const DEPTHS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl DepthSweep {
    /// `options`: one per model, in the order `step` is given the models.
    pub fn new(batches: Vec<(f32, Vec<Prompt>)>, options: Vec<ForwardOptions>) -> Self {
        let (depths, models) = (batches.len(), options.len());
        let options = options.into_iter().map(|o| ForwardOptions { maps: MapRequest::All, keep_logits: false, ..o }).collect();
        Self { batches, options, next: (0, 0, 0), sums: vec![vec![(Net::default(), 0); depths]; models] }
    }

    /// `count` fresh prompts at each of `DEPTHS` for `spec` (its depth replaced).
    pub fn fresh(spec: &PromptSpec, count: usize, seed: u64, options: Vec<ForwardOptions>) -> Self {
        let batches = (0..DEPTHS.len()).map(|k| (DEPTHS[k], depth_prompts(spec, k, count, seed))).collect();
        Self::new(batches, options)
    }

    /// Model `m`'s summed net weights at depth index `d` and how many prompts they sum.
    pub fn sum(&self, m: usize, d: usize) -> (Net, usize) {
        self.sums.get(m).and_then(|row| row.get(d)).copied().unwrap_or_default()
    }

    pub fn step(&mut self, models: &[&Model]) -> Result<bool, String> {
        let (d, i, m) = self.next;
        let (Some(p), Some(model)) = (self.batches.get(d).and_then(|(_, ps)| ps.get(i)), models.get(m)) else { return Ok(false) };
        let net = NetWeights::of(&model.forward(&p.tokens, &self.options[m]).map_err(|e| e.to_string())?, p).mean();
        let cell = &mut self.sums[m][d];
        cell.0.answer += net.answer;
        cell.0.noise += net.noise;
        cell.1 += 1;
        self.next = match (m + 1 < models.len(), i + 1 < self.batches[d].1.len()) {
            (true, _) => (d, i, m + 1),
            (false, true) => (d, i + 1, 0),
            (false, false) => (d + 1, 0, 0),
        };
        Ok(true)
    }

    /// (prompts through every model, prompts in the sweep).
    pub fn progress(&self) -> (usize, usize) {
        let done = self.batches[..self.next.0.min(self.batches.len())].iter().map(|(_, ps)| ps.len()).sum::<usize>() + self.next.1;
        (done, self.batches.iter().map(|(_, ps)| ps.len()).sum())
    }

    /// Model `m`'s mean net weights at each depth measured so far: (depth, net).
    pub fn curve(&self, m: usize) -> Vec<(f32, Net)> {
        self.batches.iter().zip(&self.sums[m]).filter(|(_, (_, n))| *n > 0).map(|((d, _), (sum, n))| (*d, Net { answer: sum.answer / *n as f64, noise: sum.noise / *n as f64 })).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::ModelConfig;

    fn tiny(kind: &str) -> Model {
        let config = ModelConfig::from_json(&format!(r#"{{"attention":"{kind}","vocab_size":76,"dim":32,"n_layers":2,"n_heads":2,"ffn_hidden":16}}"#)).unwrap();
        Model::random(config, 3).unwrap()
    }

    #[test]
    fn net_weights_split_the_row_and_find_the_best_head() {
        let net = Net::of_row(&[0.1, 0.2, 0.3, -0.1, 0.5], &(2..4), &(1..5));
        assert!((net.answer - 0.2).abs() < 1e-6 && (net.noise - 0.7).abs() < 1e-6, "{net:?}");
        let w = NetWeights(vec![vec![Net { answer: 0.1, noise: 0.5 }, Net { answer: 0.7, noise: 0.1 }], vec![Net { answer: -0.2, noise: 0.0 }, Net { answer: -0.3, noise: 0.2 }]]);
        assert_eq!((w.best_head(0), w.best_head(1), w.best_head(9)), (1, 0, 0));
        assert!((w.layer_mean(0).answer - 0.4).abs() < 1e-12 && (w.mean().noise - 0.2).abs() < 1e-12);
    }

    #[test]
    fn batches_run_a_prompt_per_step_and_count_every_query() {
        let (a, b) = (tiny("baseline"), tiny("diff_v2"));
        let spec = PromptSpec { context_len: 32, n_needles: 2, n_queries: 2, target_depth: None, distinct_values: false };
        let four_bits = ForwardOptions { logit_quant_bits: Some(4), ..Default::default() };
        let mut run = AccuracyRun::new(fresh_prompts(&spec, 3, 1), vec![four_bits.clone(), four_bits]);
        let mut steps = 0;
        while run.step(&[&a, &b]).unwrap() {
            steps += 1;
        }
        assert_eq!((steps, run.progress(), run.asked.clone()), (6, (3, 3), vec![6, 6]));
        let mut sweep = DepthSweep::fresh(&spec, 2, 1, vec![ForwardOptions::default()]);
        while sweep.step(&[&b]).unwrap() {}
        assert_eq!(sweep.progress(), (10, 10));
        assert_eq!(sweep.curve(0).iter().map(|(d, _)| *d).collect::<Vec<_>>(), DEPTHS.to_vec());
    }
}
