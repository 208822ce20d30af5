//! Everything a training session has measured and what it sends next: one entry per
//! (kind, seed) run, each advanced a chunk at a time by the training workers' jobs. The page only shows the board and hands it answers; the board
//! decides each run's next chunk, keeps its curves and map snapshots, marks a failed or
//! diverged run without stopping the others, and says the verdict at the end.

use super::data::TaskData;
use super::preset::Preset;
use super::run::{Eval, ProbeMaps, RunSpec, WeightPlace};
use super::verdict::{compare, Comparison};
use crate::core::config::AttentionKind;
use crate::core::weights::TensorStore;
use crate::engine::jobs::{ChunkOutput, TrainChunk};
use std::rc::Rc;

/// Why a run stopped before its last step.
#[derive(Clone, Debug, PartialEq)]
pub enum RunFailure {
    /// Its loss was not a finite number at this step.
    NotFinite { step: usize },
    /// Its worker failed, or its answer could not be read.
    Worker(String),
}

/// One run's record.
#[derive(Clone, Debug)]
pub struct RunRecord {
    pub spec: RunSpec,
    /// Every step's training loss.
    pub losses: Vec<f32>,
    pub evals: Vec<Eval>,
    /// The probe's maps at each evaluation, by step.
    pub snapshots: Vec<(usize, Vec<ProbeMaps>)>,
    pub blocks: Option<Vec<f32>>,
    pub failure: Option<RunFailure>,
    state: Option<Vec<Vec<f32>>>,
    /// Where the weights lie in the state (the chunk's answer says it).
    weights: Vec<WeightPlace>,
    pub step: usize,
}

impl RunRecord {
    pub fn finished(&self) -> bool {
        self.blocks.is_some() || self.failure.is_some()
    }

    /// The run's weights as they are now (none before its first chunk), in a checkpoint's
    /// naming. Made from the state as it is, without the training code, which the page
    /// does not hold.
    pub fn weights(&self) -> Option<TensorStore> {
        let state = self.state.as_ref()?;
        let mut store = TensorStore::default();
        for w in &self.weights {
            store.insert(w.name.clone(), w.shape.clone(), state.get(w.at)?.clone());
        }
        Some(store)
    }
}

/// Steps the card's training loss averages.
const SMOOTH_CARD: usize = 20;

pub struct Board {
    pub preset: Preset,
    pub kinds: Vec<AttentionKind>,
    pub seeds: usize,
    pub data: Rc<TaskData>,
    pub runs: Vec<RunRecord>,
}

impl Board {
    /// Runs for every kind and seeds 1..=`seeds`, kinds side by side within a seed.
    pub fn new(preset: Preset, kinds: &[AttentionKind], seeds: usize, data: TaskData, vocab: usize) -> Self {
        let runs = (1..=seeds as u64)
            .flat_map(|seed| kinds.iter().map(move |&kind| RunSpec { kind, seed, preset, vocab }))
            .map(|spec| RunRecord { spec, losses: vec![], evals: vec![], snapshots: vec![], blocks: None, failure: None, state: None, weights: vec![], step: 0 })
            .collect();
        Self { preset, kinds: kinds.to_vec(), seeds, data: Rc::new(data), runs }
    }

    /// Each unfinished run's next chunk: its start (step 0, evaluated untrained), then up
    /// to the next evaluation.
    pub fn next_jobs(&self) -> Vec<TrainChunk> {
        let p = &self.preset;
        self.runs
            .iter()
            .filter(|r| !r.finished())
            .map(|r| {
                let steps = if r.evals.is_empty() { 0 } else { p.eval_every.min(p.steps - r.step) };
                TrainChunk { spec: r.spec, data: self.data.clone(), state: r.state.clone(), from: r.step, steps }
            })
            .collect()
    }

    fn record_mut(&mut self, spec: &RunSpec) -> Option<&mut RunRecord> {
        self.runs.iter_mut().find(|r| r.spec == *spec)
    }

    /// A chunk's answer (or why there is none). An answer for a step the run has left
    /// behind (a stale round) is ignored.
    pub fn take(&mut self, job: &TrainChunk, answer: Result<ChunkOutput, String>) {
        let Some(run) = self.record_mut(&job.spec) else { return };
        let stale = run.step != job.from || (job.steps == 0 && !run.evals.is_empty());
        if stale || run.finished() {
            return;
        }
        let out = match answer {
            Ok(out) => out,
            Err(why) => {
                run.failure = Some(RunFailure::Worker(why));
                return;
            }
        };
        run.losses.extend(&out.losses);
        run.step = out.step;
        if let Some(step) = out.not_finite {
            run.failure = Some(RunFailure::NotFinite { step });
            return;
        }
        if let Some(e) = out.eval {
            run.evals.push(e);
        }
        if !out.probe.is_empty() {
            run.snapshots.push((out.step, out.probe));
        }
        run.blocks = out.blocks;
        run.state = Some(out.state);
        run.weights = out.weights;
    }

    pub fn finished(&self) -> bool {
        self.runs.iter().all(RunRecord::finished)
    }

    /// Steps taken by every run together, and the steps all runs take in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.runs.iter().map(|r| r.step).sum(), self.runs.len() * self.preset.steps)
    }

    /// The tokens a step reads, for a throughput figure.
    pub fn tokens_per_step(&self) -> usize {
        self.preset.batch * self.preset.context
    }

    /// Each DIFF kind against the baseline, over the seeds where both finished (`None`
    /// until every run is finished, or without a baseline).
    pub fn verdicts(&self) -> Vec<(AttentionKind, Comparison)> {
        if !self.finished() || !self.kinds.contains(&AttentionKind::Baseline) {
            return vec![];
        }
        let blocks = |kind: AttentionKind, seed: u64| self.runs.iter().find(|r| r.spec.kind == kind && r.spec.seed == seed).and_then(|r| r.blocks.clone());
        self.kinds
            .iter()
            .filter(|&&k| k != AttentionKind::Baseline)
            .filter_map(|&kind| {
                let pairs: Vec<(Vec<f32>, Vec<f32>)> = (1..=self.seeds as u64).filter_map(|s| Some((blocks(kind, s)?, blocks(AttentionKind::Baseline, s)?))).collect();
                let (k, b): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
                (!k.is_empty()).then(|| (kind, compare(&k, &b)))
            })
            .collect()
    }

    /// Each finished run's final held-out loss (the mean of its blocks), by kind: seeds
    /// in order.
    pub fn final_losses(&self, kind: AttentionKind) -> Vec<(u64, f64)> {
        self.runs.iter().filter(|r| r.spec.kind == kind).filter_map(|r| r.blocks.as_ref().map(|b| (r.spec.seed, b.iter().map(|&v| v as f64).sum::<f64>() / b.len().max(1) as f64))).collect()
    }

    fn of_kind(&self, kind: AttentionKind) -> impl Iterator<Item = &RunRecord> {
        self.runs.iter().filter(move |r| r.spec.kind == kind)
    }

    /// The training loss of `kind` over its seeds: at each step that every one of its
    /// runs has taken, the mean, the least and the most of the seeds' losses, each
    /// averaged over the last `window` steps (one step's batch is noisy).
    pub fn loss_band(&self, kind: AttentionKind, window: usize) -> Vec<(f64, f64, f64, f64)> {
        let smoothed: Vec<Vec<f64>> = self
            .of_kind(kind)
            .map(|r| (0..r.losses.len()).map(|i| r.losses[i.saturating_sub(window.max(1) - 1)..=i].iter().map(|&v| v as f64).sum::<f64>() / (i.min(window.max(1) - 1) + 1) as f64).collect())
            .collect();
        band(&smoothed, |i| (i + 1) as f64)
    }

    /// `value` of each evaluation of `kind` that every run has reached: (step, mean,
    /// least, most) over the seeds.
    fn eval_band(&self, kind: AttentionKind, value: impl Fn(&Eval) -> Option<f64>) -> Vec<(f64, f64, f64, f64)> {
        let per_seed: Vec<Vec<f64>> = self.of_kind(kind).map(|r| r.evals.iter().filter_map(&value).collect()).collect();
        let steps: Vec<usize> = self.of_kind(kind).next().map(|r| r.evals.iter().map(|e| e.step).collect()).unwrap_or_default();
        band(&per_seed, |i| steps.get(i).copied().unwrap_or(0) as f64)
    }

    /// The held-out loss of `kind` at each evaluation every run has reached: mean, least
    /// and most over the seeds.
    pub fn held_out_band(&self, kind: AttentionKind) -> Vec<(f64, f64, f64, f64)> {
        self.eval_band(kind, |e| Some(e.held_out as f64))
    }

    /// The needle task's retrieval accuracy of `kind` at each evaluation every run has
    /// reached: mean, least and most over the seeds (empty for a text).
    pub fn accuracy_band(&self, kind: AttentionKind) -> Vec<(f64, f64, f64, f64)> {
        self.eval_band(kind, |e| e.accuracy.map(f64::from))
    }

    /// λ of each layer of `kind` at each evaluation, the mean over its seeds.
    pub fn lambda_curves(&self, kind: AttentionKind) -> Vec<Vec<(f64, f64)>> {
        (0..self.preset.layers)
            .map(|layer| self.eval_band(kind, |e| e.lambdas.get(layer).map(|&l| l as f64)).into_iter().map(|(x, mean, _, _)| (x, mean)).collect())
            .filter(|c: &Vec<(f64, f64)>| !c.is_empty())
            .collect()
    }

    /// The model card that goes with a run's weights: what it learnt from, its size, its
    /// seed, its steps and its losses (`task` names the text in the reader's words).
    pub fn card(&self, run: &RunRecord, task: &str) -> String {
        let p = &self.preset;
        let last = run.losses.len().saturating_sub(SMOOTH_CARD);
        let train = run.losses[last..].iter().map(|&v| v as f64).sum::<f64>() / run.losses[last..].len().max(1) as f64;
        let held = run.evals.last().map(|e| format!("{:.4}", e.held_out)).unwrap_or_else(|| "–".into());
        let blocks = run.blocks.as_ref().map(|b| format!("{:.4}", b.iter().map(|&v| v as f64).sum::<f64>() / b.len().max(1) as f64)).unwrap_or_else(|| "–".into());
        let (data, unit, held_what) = match &*self.data {
            TaskData::Text(text) => {
                (format!("{task}: {} training characters, {} held out", text.train.len(), text.held_out.len()), "nats per character", format!("{} evaluation windows", super::data::EVAL_WINDOWS))
            }
            TaskData::Needle => (
                format!(
                    "{task}: fine-tuned from the shipped model's checkpoint after its copy warm-up (checkpoint {}), on retrieval prompts of 1 to 6 needles, scored on the answers",
                    super::needle::WARMUP_CHECKPOINT
                ),
                "nats per answer",
                format!("{} evaluation prompts", super::needle::EVAL_PROMPTS),
            ),
        };
        let accuracy = run.evals.last().and_then(|e| e.accuracy).map(|a| format!("| retrieval accuracy, {held_what} | {:.1} % |\n", 100.0 * a)).unwrap_or_default();
        format!(
            "# DiffLens: a {kind} model trained in the browser\n\n| | |\n|---|---|\n| attention | {kind} |\n| data | {data} |\n| size | {id}: width {dim}, {layers} layers, context {context}, batch {batch} |\n| seed | {seed} |\n| steps | {step} of {steps} (AdamW, peak learning rate {lr}, warm-up then cosine decay) |\n| training loss, last {smooth} steps | {train:.4} {unit} |\n| held-out loss, {held_what} | {held} |\n| held-out loss, everything held out | {blocks} |\n{accuracy}{failure}",
            kind = run.spec.kind.slug(),
            id = p.id,
            dim = p.dim,
            layers = p.layers,
            context = p.context,
            batch = p.batch,
            seed = run.spec.seed,
            step = run.step,
            steps = p.steps,
            lr = p.lr,
            smooth = SMOOTH_CARD,
            failure = match &run.failure {
                None => String::new(),
                Some(RunFailure::NotFinite { step }) => format!("\nThe run stopped at step {step}: its loss was not a finite number.\n"),
                Some(RunFailure::Worker(why)) => format!("\nThe run stopped: {why}\n"),
            },
        )
    }

    /// The curves as CSV: one row per run and evaluation, then the training loss of every
    /// step as its own rows.
    pub fn csv(&self) -> String {
        let mut out = String::from("kind,seed,step,train_loss,held_out_loss,lambda_per_layer,retrieval_accuracy\n");
        for r in &self.runs {
            for e in &r.evals {
                let lambdas = e.lambdas.iter().map(|l| format!("{l:.5}")).collect::<Vec<_>>().join(" ");
                let accuracy = e.accuracy.map(|a| format!("{a:.4}")).unwrap_or_default();
                out += &format!("{},{},{},,{:.5},{lambdas},{accuracy}\n", r.spec.kind.slug(), r.spec.seed, e.step, e.held_out);
            }
            for (i, l) in r.losses.iter().enumerate() {
                out += &format!("{},{},{},{l:.5},,,\n", r.spec.kind.slug(), r.spec.seed, i + 1);
            }
        }
        out
    }
}

/// At each index every series has: (x, mean, least, most).
fn band(series: &[Vec<f64>], x: impl Fn(usize) -> f64) -> Vec<(f64, f64, f64, f64)> {
    let len = series.iter().map(Vec::len).min().unwrap_or(0);
    (0..len)
        .map(|i| {
            let v: Vec<f64> = series.iter().map(|s| s[i]).collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            (x(i), mean, v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        })
        .collect()
}
