//! Table 3's depth sweep in chunks: at each of the five depths a batch of fresh prompts,
//! split into chunks of a few prompts; a chunk is the explorer's link, the depth and a
//! range of that depth's seeded prompts, and answers each model's summed net weights.
//! The page adds the chunks in a fixed order (depth, then first prompt), whatever order
//! they arrive in and wherever they ran, so the curves do not depend on the pool's size.

use crate::core::model::Model;
use crate::engine::explorer::evidence::{depth_prompts, run_spec, DepthSweep, Net, DEPTHS};
use crate::engine::jobs::accuracy::{chunks, shipped_models};
use crate::engine::jobs::{plain, plain_back, Job, ModelKey, Slices, WorkerMemory};
use crate::engine::model::forward_options;
use crate::state::model_state::ModelState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;

/// One chunk of the sweep: prompts `prompts` of the `count` at depth `DEPTHS[depth]`,
/// through the three shipped models at checkpoint `checkpoint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepChunk {
    pub state: ModelState,
    pub checkpoint: usize,
    pub depth: usize,
    pub count: usize,
    pub prompts: Range<usize>,
}

/// Every chunk of a sweep of `count` prompts per depth, at most `size` prompts each.
pub fn sweep_chunks(count: usize, size: usize) -> Vec<(usize, Range<usize>)> {
    (0..DEPTHS.len()).flat_map(|d| chunks(count, size).into_iter().map(move |r| (d, r))).collect()
}

impl SweepChunk {
    /// The chunk as a sweep of its own, to step in slices (the page, for a failed
    /// worker's chunks) or at once (`run`). `models` in `AttentionKind::ALL` order.
    fn sweep(&self, models: &[&Model]) -> DepthSweep {
        let prompts = depth_prompts(&run_spec(&self.state, Some(1)), self.depth, self.count, self.state.seed).into_iter().skip(self.prompts.start).take(self.prompts.len()).collect();
        let options = models.iter().map(|m| forward_options(&self.state, m.config.attention)).collect();
        DepthSweep::new(vec![(DEPTHS[self.depth], prompts)], options)
    }

    /// Each model's summed net weights, once the chunk's sweep has stepped to the end.
    fn sums(sweep: &DepthSweep, models: usize) -> Vec<Net> {
        (0..models).map(|m| sweep.sum(m, 0).0).collect()
    }
}

/// A chunk's sweep on the page, a step per call; its sums once it has stepped to the end.
struct SweepSlices(DepthSweep);

impl Slices<Vec<Net>> for SweepSlices {
    fn step(&mut self, models: &[&Model], _: &mut WorkerMemory) -> Result<Option<Vec<Net>>, String> {
        Ok((!self.0.step(models)?).then(|| SweepChunk::sums(&self.0, models.len())))
    }
}

impl Job for SweepChunk {
    const KIND: &'static str = "sweep";
    /// Per model (in `AttentionKind::ALL` order): the net weights summed over the chunk's prompts.
    type Output = Vec<Net>;
    type Answer = Self::Output;

    fn check(&self) -> Result<(), String> {
        let (depth, from, to, count) = (self.depth, self.prompts.start, self.prompts.end, self.count);
        match depth >= DEPTHS.len() || from > to || to > count {
            true => Err(format!("the job's depth {depth} and prompts {from}..{to} are not within the sweep's {} depths of {count}", DEPTHS.len())),
            false => Ok(()),
        }
    }

    fn models(&self) -> Vec<ModelKey> {
        shipped_models(self.checkpoint)
    }

    fn run(&self, models: &[&Model], _: &mut WorkerMemory) -> Result<Self::Output, String> {
        let mut sweep = self.sweep(models);
        while sweep.step(models)? {}
        Ok(Self::sums(&sweep, models.len()))
    }

    fn slices(&self, models: &[&Model]) -> Result<Box<dyn Slices<Self::Output>>, String> {
        Ok(Box::new(SweepSlices(self.sweep(models))))
    }

    fn to_answer(sums: Self::Output) -> (Self::Answer, Vec<Vec<f32>>) {
        plain(sums)
    }

    fn from_answer(sums: Self::Answer, arrays: Vec<Vec<f32>>) -> Result<Self::Output, String> {
        plain_back(sums, arrays)
    }
}

/// The chunks' sums as they come in, kept by (depth, first prompt).
#[derive(Clone, Debug, Default)]
pub struct SweepTotals {
    cells: BTreeMap<(usize, usize), (Vec<Net>, usize)>,
}

impl SweepTotals {
    /// A chunk's answer; a chunk already in (a late duplicate) is not counted twice.
    pub fn add(&mut self, depth: usize, prompts: &Range<usize>, sums: Vec<Net>) {
        self.cells.entry((depth, prompts.start)).or_insert((sums, prompts.len()));
    }

    /// Prompts counted so far, at every depth together.
    pub fn prompts(&self) -> usize {
        self.cells.values().map(|(_, n)| n).sum()
    }

    /// Model `m`'s mean net weights at each depth with a chunk in: (depth, net).
    pub fn curve(&self, m: usize) -> Vec<(f32, Net)> {
        let mut by_depth: BTreeMap<usize, (Net, usize)> = BTreeMap::new();
        for ((d, _), (sums, n)) in &self.cells {
            let cell = by_depth.entry(*d).or_default();
            let s = sums.get(m).copied().unwrap_or_default();
            cell.0.answer += s.answer;
            cell.0.noise += s.noise;
            cell.1 += n;
        }
        by_depth.into_iter().map(|(d, (sum, n))| (DEPTHS[d], Net { answer: sum.answer / n.max(1) as f64, noise: sum.noise / n.max(1) as f64 })).collect()
    }
}
