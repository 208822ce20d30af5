//! A chunk of one training run (`engine::train`): the run's spec, the text as token ids,
//! the run's whole state (none at step 0) and how many steps to take. It answers each
//! step's training loss, the evaluation at the chunk's end (held-out loss, λ per layer),
//! the probe's maps, the held-out blocks' losses once the run is done, and the state to
//! send with the next chunk. Any worker can take any chunk: the batches depend on the
//! seed and the step alone.
//!
//! The page sends a [`TrainChunk`] and never runs one: the code that takes the steps is
//! [`Training`]'s, and only the training workers' own wasm (`src/bin/train_worker.rs`)
//! links it, so a visit that never trains never downloads it.

use crate::core::model::Model;
use crate::engine::jobs::{Job, ModelKey, WorkerMemory};
use crate::engine::train::needle::WARMUP_CHECKPOINT;
use crate::engine::train::{Eval, ProbeMaps, RunError, RunSpec, TaskData, TextData, TrainRun, WeightPlace};
use ndarray::Array2;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The spec and the steps cross as JSON; the texts and the state as arrays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainChunk {
    pub spec: RunSpec,
    #[serde(skip)]
    pub data: Rc<TaskData>,
    /// The run's state after `from` steps (`None` at step 0).
    #[serde(skip)]
    pub state: Option<Vec<Vec<f32>>>,
    pub from: usize,
    pub steps: usize,
}

/// What a chunk did.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkOutput {
    /// Each step's training loss, in order.
    pub losses: Vec<f32>,
    /// At the chunk's end (none when the run stopped on a loss that is not a number).
    pub eval: Option<Eval>,
    pub probe: Vec<ProbeMaps>,
    /// The held-out blocks' losses, once the run has taken all its steps.
    pub blocks: Option<Vec<f32>>,
    /// The step whose loss was not a finite number, if one was.
    pub not_finite: Option<usize>,
    pub state: Vec<Vec<f32>>,
    /// Where the weights lie in the state, named as in a checkpoint: the page makes the
    /// model a person keeps from them.
    pub weights: Vec<WeightPlace>,
    pub step: usize,
}

fn ids(tokens: &[u32]) -> Vec<f32> {
    tokens.iter().map(|&t| t as f32).collect()
}

/// Token ids back from their array, each a whole number below the vocabulary's size.
fn tokens(values: &[f32], vocab: usize, what: &str) -> Result<Vec<u32>, String> {
    values.iter().map(|&v| if v >= 0.0 && v.fract() == 0.0 && (v as usize) < vocab { Ok(v as u32) } else { Err(format!("the {what} holds {v}, not a token id below {vocab}")) }).collect()
}

/// A text run's two texts from their arrays, each long enough for two contexts.
fn text_of(arrays: &[Vec<f32>], spec: RunSpec) -> Result<TextData, String> {
    let (train, held_out) = (tokens(&arrays[0], spec.vocab, "training text")?, tokens(&arrays[1], spec.vocab, "held-out text")?);
    let need = 2 * (spec.preset.context + 1);
    if train.len() < need || held_out.len() < need {
        return Err(format!("a training chunk's texts are shorter than two contexts ({need} tokens)"));
    }
    Ok(TextData { train, held_out })
}

fn state_error(e: RunError) -> String {
    match e {
        RunError::State(why) => why,
        RunError::NotFinite { step } => format!("not finite at step {step}"),
    }
}

/// A chunk as a training worker takes it, a step at a time.
struct ChunkStepper {
    data: Rc<TaskData>,
    run: TrainRun,
    out: ChunkOutput,
    left: usize,
}

impl TrainChunk {
    /// The chunk's run, resumed from its state and ready to step; at step 0 of the needle
    /// task, from `models`' shipped warm-up checkpoint.
    fn stepper(&self, models: &[&Model]) -> Result<ChunkStepper, String> {
        let run = match (&self.state, self.data.is_needle()) {
            (None, false) => TrainRun::new(self.spec),
            (None, true) => {
                let shipped = models.first().ok_or("a needle run starts from a shipped model, and none was given")?;
                if shipped.config != self.spec.preset.config(self.spec.kind, self.spec.vocab) {
                    return Err(format!("the shipped {} model is not the needle task's size", self.spec.kind.slug()));
                }
                TrainRun::start_from(self.spec, &shipped.to_store()).map_err(state_error)?
            }
            (Some(arrays), _) => TrainRun::from_arrays(self.spec, arrays.clone(), self.from as u32).map_err(state_error)?,
        };
        let out = ChunkOutput { losses: vec![], eval: None, probe: vec![], blocks: None, not_finite: None, state: vec![], weights: vec![], step: 0 };
        Ok(ChunkStepper { data: self.data.clone(), run, out, left: self.steps })
    }
}

impl ChunkStepper {
    /// One step; `false` once the chunk has no step left (or a loss was not finite).
    fn step(&mut self) -> Result<bool, String> {
        if self.left == 0 || self.run.done() || self.out.not_finite.is_some() {
            return Ok(false);
        }
        self.left -= 1;
        match self.run.train_step(&self.data) {
            Ok(loss) => self.out.losses.push(loss),
            Err(RunError::NotFinite { step }) => self.out.not_finite = Some(step),
            Err(e) => return Err(state_error(e)),
        }
        Ok(self.left > 0 && !self.run.done() && self.out.not_finite.is_none())
    }

    /// The chunk's answer: the evaluation, the probe's maps, the blocks when the run is
    /// done, and the state.
    fn finish(mut self) -> ChunkOutput {
        let (run, data) = (&self.run, &self.data);
        if self.out.not_finite.is_none() {
            match run.evaluate(data) {
                Ok(eval) => self.out.eval = Some(eval),
                Err(_) => self.out.not_finite = Some(run.step()),
            }
            self.out.probe = run.probe(&data.probe(run.spec.preset.context));
            self.out.blocks = run.done().then(|| run.block_losses(data));
        }
        self.out.state = run.state_arrays().0;
        self.out.weights = run.weight_places();
        self.out.step = run.step();
        self.out
    }
}

/// What the page says where a chunk would have to run on the page.
const NOT_ON_THE_PAGE: &str = "the page does not train: training runs in the training workers, and none could take this chunk";

/// A chunk's answer as its numbers cross back; the losses, the blocks, the maps (A1, then
/// A2 and A1 − λ·A2 for a differential head, layer by layer) and the state go as arrays.
#[derive(Serialize, Deserialize)]
pub struct ChunkAnswer {
    step: usize,
    eval: Option<Eval>,
    layers: usize,
    /// Whether each layer's maps are three (A1, A2, A1 − λ·A2), not one.
    differential: bool,
    done: bool,
    not_finite: Option<usize>,
    weights: Vec<WeightPlace>,
}

impl Job for TrainChunk {
    const KIND: &'static str = "train";
    type Output = ChunkOutput;
    type Answer = ChunkAnswer;

    /// The training text, the held-out text (both empty for the needle task), then the
    /// state's tensors.
    fn arrays(&self) -> Vec<Vec<f32>> {
        let mut arrays = match &*self.data {
            TaskData::Text(text) => vec![ids(&text.train), ids(&text.held_out)],
            TaskData::Needle => vec![vec![], vec![]],
        };
        arrays.extend(self.state.iter().flatten().cloned());
        arrays
    }

    /// At step 0 of the needle task, the shipped model it fine-tunes.
    fn models(&self) -> Vec<ModelKey> {
        match self.spec.preset.is_needle() && self.state.is_none() {
            true => vec![(self.spec.kind.slug().to_string(), WARMUP_CHECKPOINT)],
            false => vec![],
        }
    }

    fn with_arrays(self, mut arrays: Vec<Vec<f32>>) -> Result<Self, String> {
        if arrays.len() < 2 {
            return Err("a training chunk without its text".into());
        }
        let state: Vec<Vec<f32>> = arrays.split_off(2);
        let data = match self.spec.preset.is_needle() {
            true if arrays.iter().all(Vec::is_empty) => TaskData::Needle,
            true => return Err("a needle chunk carries no text".into()),
            false => TaskData::Text(text_of(&arrays, self.spec)?),
        };
        let state = match (state.is_empty(), self.from) {
            (true, 0) => None,
            (true, _) => return Err("a training chunk after step 0 without the run's state".into()),
            (false, _) => Some(state),
        };
        Ok(Self { data: Rc::new(data), state, ..self })
    }

    /// Never on the page (the module's note): a chunk no worker took is sent again.
    fn run(&self, _: &[&Model], _: &mut WorkerMemory) -> Result<ChunkOutput, String> {
        Err(NOT_ON_THE_PAGE.into())
    }

    fn to_answer(o: ChunkOutput) -> (ChunkAnswer, Vec<Vec<f32>>) {
        let answer = ChunkAnswer {
            step: o.step,
            eval: o.eval,
            layers: o.probe.len(),
            differential: o.probe.iter().any(|m| m.a2.is_some()),
            done: o.blocks.is_some(),
            not_finite: o.not_finite,
            weights: o.weights,
        };
        let mut arrays = vec![o.losses, o.blocks.unwrap_or_default()];
        for m in o.probe {
            arrays.push(m.a1.into_iter().collect());
            if let Some(a2) = m.a2 {
                arrays.push(a2.into_iter().collect());
                arrays.push(m.combined.into_iter().collect());
            }
        }
        arrays.extend(o.state);
        (answer, arrays)
    }

    fn from_answer(a: ChunkAnswer, arrays: Vec<Vec<f32>>) -> Result<ChunkOutput, String> {
        // Read without the job: the page checks the state against its run when it sends it on.
        let mut arrays = arrays.into_iter();
        let (losses, blocks) = (arrays.next().ok_or("a chunk's answer without its losses")?, arrays.next().ok_or("a chunk's answer without its blocks")?);
        let mut probe = vec![];
        for layer in 0..a.layers {
            let mut map = || -> Result<Array2<f32>, String> {
                let m = arrays.next().ok_or("a chunk's answer is missing a map")?;
                let t = (m.len() as f64).sqrt() as usize;
                Array2::from_shape_vec((t, t), m).map_err(|_| "a chunk's map is not square".to_string())
            };
            let a1 = map()?;
            let (a2, combined) = if a.differential { (Some(map()?), map()?) } else { (None, a1.clone()) };
            probe.push(ProbeMaps { layer, a1, a2, combined });
        }
        let state: Vec<Vec<f32>> = arrays.collect();
        let fits = a.weights.iter().all(|w| state.get(w.at).is_some_and(|data| w.shape.iter().product::<usize>() == data.len()));
        if !fits {
            return Err("a chunk's weights do not fit its state".into());
        }
        Ok(ChunkOutput { losses, eval: a.eval, probe, blocks: a.done.then_some(blocks), not_finite: a.not_finite, state, weights: a.weights, step: a.step })
    }
}

/// A chunk as a training worker reads it: the same message and answer as [`TrainChunk`],
/// and the code that takes its steps (only the training workers' wasm links it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Training(pub TrainChunk);

impl Job for Training {
    const KIND: &'static str = TrainChunk::KIND;
    type Output = ChunkOutput;
    type Answer = ChunkAnswer;

    fn arrays(&self) -> Vec<Vec<f32>> {
        self.0.arrays()
    }

    fn models(&self) -> Vec<ModelKey> {
        self.0.models()
    }

    fn with_arrays(self, arrays: Vec<Vec<f32>>) -> Result<Self, String> {
        self.0.with_arrays(arrays).map(Training)
    }

    fn run(&self, models: &[&Model], _: &mut WorkerMemory) -> Result<ChunkOutput, String> {
        let mut stepper = self.0.stepper(models)?;
        while stepper.step()? {}
        Ok(stepper.finish())
    }

    fn to_answer(o: ChunkOutput) -> (ChunkAnswer, Vec<Vec<f32>>) {
        TrainChunk::to_answer(o)
    }

    fn from_answer(a: ChunkAnswer, arrays: Vec<Vec<f32>>) -> Result<ChunkOutput, String> {
        TrainChunk::from_answer(a, arrays)
    }
}
