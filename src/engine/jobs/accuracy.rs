//! Table 2's batch in chunks: a chunk is the explorer's link and a range of the run's
//! seeded prompts, through the three shipped models; it answers each model's queries
//! answered right and asked.

use crate::core::model::Model;
use crate::engine::explorer::evidence::{fresh_prompts, run_spec, AccuracyRun};
use crate::engine::jobs::{plain, plain_back, Job, ModelKey, Slices, WorkerMemory};
use crate::engine::model::forward_options;
use crate::state::model_state::{AttentionKind, ModelState};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// One chunk of an accuracy run: prompts `prompts` of the run's `count`, through the
/// three shipped models at checkpoint `checkpoint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccuracyChunk {
    pub state: ModelState,
    pub checkpoint: usize,
    pub count: usize,
    pub prompts: Range<usize>,
}

/// Ranges of at most `size` prompts covering `0..count`.
pub fn chunks(count: usize, size: usize) -> Vec<Range<usize>> {
    let size = size.max(1);
    (0..count).step_by(size).map(|a| a..(a + size).min(count)).collect()
}

/// Adds `counts` to `total`, model by model.
pub fn add(total: &mut Vec<(usize, usize)>, counts: &[(usize, usize)]) {
    if total.len() < counts.len() {
        total.resize(counts.len(), (0, 0));
    }
    for (t, c) in total.iter_mut().zip(counts) {
        t.0 += c.0;
        t.1 += c.1;
    }
}

/// The three shipped models at `checkpoint`, in `AttentionKind::ALL` order (the order a
/// job's answers list them in).
pub(super) fn shipped_models(checkpoint: usize) -> Vec<ModelKey> {
    AttentionKind::ALL.iter().map(|k| (k.slug().to_string(), checkpoint)).collect()
}

impl AccuracyChunk {
    /// The chunk's prompts as a run of their own, to step.
    fn accuracy_run(&self, models: &[&Model]) -> AccuracyRun {
        let prompts: Vec<_> = fresh_prompts(&run_spec(&self.state, None), self.count, self.state.seed).into_iter().skip(self.prompts.start).take(self.prompts.len()).collect();
        let options = models.iter().map(|m| forward_options(&self.state, m.config.attention)).collect();
        AccuracyRun::new(prompts, options)
    }
}

/// Per model: queries answered right, and asked.
fn counts(run: &AccuracyRun) -> Vec<(usize, usize)> {
    run.right.iter().copied().zip(run.asked.iter().copied()).collect()
}

impl Slices<Vec<(usize, usize)>> for AccuracyRun {
    fn step(&mut self, models: &[&Model], _: &mut WorkerMemory) -> Result<Option<Vec<(usize, usize)>>, String> {
        Ok((!AccuracyRun::step(self, models)?).then(|| counts(self)))
    }
}

impl Job for AccuracyChunk {
    const KIND: &'static str = "accuracy";
    /// Per model (in `AttentionKind::ALL` order): queries answered right, and asked.
    type Output = Vec<(usize, usize)>;
    type Answer = Self::Output;

    fn check(&self) -> Result<(), String> {
        let (from, to, count) = (self.prompts.start, self.prompts.end, self.count);
        match from > to || to > count {
            true => Err(format!("the job's prompts {from}..{to} are not within its {count}")),
            false => Ok(()),
        }
    }

    fn models(&self) -> Vec<ModelKey> {
        shipped_models(self.checkpoint)
    }

    /// The chunk's prompts through `models`, exactly as the page's own run would.
    fn run(&self, models: &[&Model], _: &mut WorkerMemory) -> Result<Self::Output, String> {
        let mut run = self.accuracy_run(models);
        while run.step(models)? {}
        Ok(counts(&run))
    }

    fn slices(&self, models: &[&Model]) -> Result<Box<dyn Slices<Self::Output>>, String> {
        Ok(Box::new(self.accuracy_run(models)))
    }

    fn to_answer(counts: Self::Output) -> (Self::Answer, Vec<Vec<f32>>) {
        plain(counts)
    }

    fn from_answer(counts: Self::Answer, arrays: Vec<Vec<f32>>) -> Result<Self::Output, String> {
        plain_back(counts, arrays)
    }
}
