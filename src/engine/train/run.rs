//! One training run: one attention kind, one seed, one preset, from the matched
//! initialisation of that seed. A run steps through its batches, reports its loss each
//! step, and at every evaluation its held-out loss, each layer's λ and the probe's maps;
//! its whole state (weights, Adam's moments, the step) travels as tensors, so a worker can
//! take any chunk of it and give it back.

use super::data::TaskData;
use super::preset::Preset;
use crate::core::config::AttentionKind;
use crate::core::train::{matched_params, Adam, AdamSettings, Net, Params};
use crate::core::weights::TensorStore;
use ndarray::Array2;
use serde::{Deserialize, Serialize};

/// Which run: the kind, the seed, the size and the vocabulary it reads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    pub kind: AttentionKind,
    pub seed: u64,
    #[serde(with = "super::preset::by_id")]
    pub preset: Preset,
    pub vocab: usize,
}

/// What an evaluation measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    pub step: usize,
    pub held_out: f32,
    /// Each layer's λ (V2: the mean over tokens and heads); empty for the baseline.
    pub lambdas: Vec<f32>,
    /// The needle task's retrieval accuracy on the held-out prompts (none for a text).
    #[serde(default)]
    pub accuracy: Option<f32>,
}

/// One head's maps on the probe input, `[T, T]` each (A2 and the difference only for a
/// differential head).
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeMaps {
    pub layer: usize,
    pub a1: Array2<f32>,
    pub a2: Option<Array2<f32>>,
    pub combined: Array2<f32>,
}

/// Where one weight lies among a run's state arrays ([`TrainRun::state_arrays`]), with
/// its checkpoint name and shape: what the page needs to make a checkpoint of a state
/// without the training code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightPlace {
    pub at: usize,
    pub name: String,
    pub shape: Vec<usize>,
}

/// Why a run stopped early.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// The loss (or a weight after the update) stopped being a finite number at this step.
    NotFinite { step: usize },
    /// The run's state does not fit its spec (a damaged job).
    State(String),
}

pub struct TrainRun {
    pub spec: RunSpec,
    net: Net,
    params: Params<f32>,
    adam: Adam<f32>,
}

impl TrainRun {
    /// The run at step 0, from the seed's matched initialisation.
    pub fn new(spec: RunSpec) -> Self {
        let config = spec.preset.config(spec.kind, spec.vocab);
        let params = matched_params(&config, spec.seed).expect("a preset's config makes a model");
        let net = Net::new(&config, &params).expect("a matched model has every tensor its config reads");
        let adam = Adam::new(&params, AdamSettings { lr: spec.preset.lr, ..Default::default() });
        Self { spec, net, params, adam }
    }

    /// The run at step 0 from `weights` (the needle task: a shipped checkpoint), each
    /// tensor checked against the spec's shapes; Adam starts fresh.
    pub fn start_from(spec: RunSpec, weights: &TensorStore) -> Result<Self, RunError> {
        let mut run = Self::new(spec);
        fill(&mut run.params, weights, "")?;
        Ok(run)
    }

    /// Steps taken.
    pub fn step(&self) -> usize {
        self.adam.steps() as usize
    }

    pub fn done(&self) -> bool {
        self.step() >= self.spec.preset.steps
    }

    pub fn parameter_count(&self) -> usize {
        self.params.count()
    }

    /// The learning rate at `step`: a linear warm-up over the first tenth (at most 100
    /// steps), then a cosine decay to a tenth of the peak, as the shipped text models.
    pub fn learning_rate(&self, step: usize) -> f64 {
        let p = &self.spec.preset;
        let warmup = (p.steps / 10).clamp(1, 100);
        if step < warmup {
            return p.lr * (step + 1) as f64 / warmup as f64;
        }
        let progress = (step - warmup) as f64 / (p.steps - warmup).max(1) as f64;
        p.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos()))
    }

    /// One step on the run's next batch; its training loss.
    pub fn train_step(&mut self, data: &TaskData) -> Result<f32, RunError> {
        let (step, p) = (self.step(), self.spec.preset);
        let batch = data.batch(self.spec.seed, step, p.batch, p.context);
        let (loss, grads) = self.net.loss_and_grad(&self.params, &batch).map_err(RunError::State)?;
        if !loss.is_finite() {
            return Err(RunError::NotFinite { step });
        }
        let lr = self.learning_rate(step);
        self.adam.step(&mut self.params, &grads, lr);
        Ok(loss)
    }

    /// The held-out loss, each layer's λ and (the needle task) the retrieval accuracy now.
    pub fn evaluate(&self, data: &TaskData) -> Result<Eval, RunError> {
        let batch = data.held_out_batch(self.spec.preset.context);
        let pass = self.net.forward(&self.params, &batch.tokens, batch.seq_len);
        let (held_out, _) = crate::core::train::ops::cross_entropy(&pass.logits.view(), &batch.targets);
        if !held_out.is_finite() {
            return Err(RunError::NotFinite { step: self.step() });
        }
        let lambdas = (0..self.spec.preset.layers).filter_map(|l| pass.attention(l).lambda_mean().map(|v| v as f32)).collect();
        let accuracy = data.is_needle().then(|| super::needle::accuracy(&pass.logits, &batch.targets));
        Ok(Eval { step: self.step(), held_out, lambdas, accuracy })
    }

    /// Head 0's maps in every layer on `tokens` (one sequence).
    pub fn probe(&self, tokens: &[u32]) -> Vec<ProbeMaps> {
        let pass = self.net.forward(&self.params, tokens, tokens.len());
        (0..self.spec.preset.layers)
            .map(|layer| {
                let m = pass.attention(layer).maps(0, 0);
                ProbeMaps { layer, a1: m.a1.clone(), a2: m.a2.clone(), combined: m.combined.clone() }
            })
            .collect()
    }

    /// The mean loss of every block of held-out windows (`TextData::held_out_windows`).
    pub fn block_losses(&self, data: &TaskData) -> Vec<f32> {
        data.held_out_windows(self.spec.preset.context).iter().map(|b| self.net.loss(&self.params, b).unwrap_or(f32::NAN)).collect()
    }

    /// The trained weights in the checkpoint naming the explorer and text page load.
    pub fn weights(&self) -> TensorStore {
        self.params.to_store()
    }

    /// The whole state: weights, then Adam's two moments (names prefixed `adam.m.` and
    /// `adam.v.`); the step is Adam's count.
    pub fn state(&self) -> (TensorStore, u32) {
        let mut store = self.params.to_store();
        let (m, v) = self.adam.moments();
        for (prefix, moment) in [("adam.m.", m), ("adam.v.", v)] {
            let s = moment.to_store();
            for name in s.names() {
                let t = s.get(name).expect("listed");
                store.insert(format!("{prefix}{name}"), t.shape.clone(), t.data.clone());
            }
        }
        (store, self.adam.steps())
    }

    /// The run `spec` from a state [`TrainRun::state`] wrote, checked against the spec.
    pub fn resume(spec: RunSpec, state: &TensorStore, steps: u32) -> Result<Self, RunError> {
        let mut run = Self::new(spec);
        let mut parts = [run.params.zeros_like(), run.params.zeros_like(), run.params.zeros_like()];
        for (prefix, part) in ["", "adam.m.", "adam.v."].iter().zip(parts.iter_mut()) {
            fill(part, state, prefix)?;
        }
        let [params, m, v] = parts;
        run.params = params;
        run.adam = Adam::from_moments(run.adam.settings, m, v, steps);
        Ok(run)
    }

    /// [`TrainRun::state`] as bare arrays in the order of its names (what a worker job
    /// carries; the names and shapes follow from the spec).
    pub fn state_arrays(&self) -> (Vec<Vec<f32>>, u32) {
        let (store, steps) = self.state();
        (store.names().map(|n| store.get(n).expect("listed").data.clone()).collect(), steps)
    }

    /// Where each weight lies among [`TrainRun::state_arrays`].
    pub fn weight_places(&self) -> Vec<WeightPlace> {
        let (state, _) = self.state();
        let names: Vec<&str> = state.names().collect();
        let weights = self.weights();
        let place = |name: &str| WeightPlace {
            at: names.iter().position(|n| *n == name).expect("the state holds every weight"),
            name: name.to_string(),
            shape: weights.get(name).expect("listed").shape.clone(),
        };
        weights.names().map(place).collect()
    }

    /// The run from [`TrainRun::state_arrays`], checked: as many arrays as the spec's state
    /// has tensors, each of its length.
    pub fn from_arrays(spec: RunSpec, arrays: Vec<Vec<f32>>, steps: u32) -> Result<Self, RunError> {
        let (template, _) = Self::new(spec).state();
        let names: Vec<&str> = template.names().collect();
        if names.len() != arrays.len() {
            return Err(RunError::State(format!("a state of {} arrays, the run has {} tensors", arrays.len(), names.len())));
        }
        let mut store = TensorStore::default();
        for (name, data) in names.into_iter().zip(arrays) {
            store.insert(name, template.get(name).expect("listed").shape.clone(), data);
        }
        Self::resume(spec, &store, steps)
    }
}

/// Every tensor of `part` from `store`'s `<prefix><name>`, or which one is missing or of
/// the wrong size.
fn fill(part: &mut Params<f32>, store: &TensorStore, prefix: &str) -> Result<(), RunError> {
    let names: Vec<String> = part.names().map(String::from).collect();
    for name in names {
        let t = store.get(&format!("{prefix}{name}")).ok_or_else(|| RunError::State(format!("the state has no `{prefix}{name}`")))?;
        let mut into = part.mat_mut(&name);
        if t.data.len() != into.len() {
            return Err(RunError::State(format!("`{prefix}{name}` has {} values, the run needs {}", t.data.len(), into.len())));
        }
        into.iter_mut().zip(&t.data).for_each(|(a, &b)| *a = b);
    }
    Ok(())
}
