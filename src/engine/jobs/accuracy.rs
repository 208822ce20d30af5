//! Table 2's batch in chunks: a chunk is the explorer's link and a range of the run's
//! seeded prompts, through the three shipped models; it answers each model's queries
//! answered right and asked.

use crate::core::model::Model;
use crate::engine::explorer::evidence::{fresh_prompts, run_spec, AccuracyRun};
use crate::engine::jobs::fields::{numbers, whole};
use crate::engine::jobs::{with_link, Fields, Job, ModelKey, Pairs, WorkerMemory};
use crate::engine::model::forward_options;
use crate::state::model_state::{AttentionKind, ModelState};
use std::ops::Range;

/// One chunk of an accuracy run: prompts `prompts` of the run's `count`, through the
/// three shipped models at checkpoint `checkpoint`.
#[derive(Clone, Debug, PartialEq)]
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

impl Job for AccuracyChunk {
    const KIND: &'static str = "accuracy";
    /// Per model (in `AttentionKind::ALL` order): queries answered right, and asked.
    type Output = Vec<(usize, usize)>;

    fn write(&self) -> Pairs {
        let own = [("_ckpt", self.checkpoint.to_string()), ("_count", self.count.to_string()), ("_from", self.prompts.start.to_string()), ("_to", self.prompts.end.to_string())];
        with_link(&own, &self.state)
    }

    fn read(f: &Fields) -> Result<Self, String> {
        let (from, to, count) = (f.number("_from")?, f.number("_to")?, f.number("_count")?);
        if from > to || to > count {
            return Err(format!("the job's prompts {from}..{to} are not within its {count}"));
        }
        Ok(Self { state: f.link_state(), checkpoint: f.number("_ckpt")?, count, prompts: from..to })
    }

    fn models(&self) -> Vec<ModelKey> {
        shipped_models(self.checkpoint)
    }

    /// The chunk's prompts through `models`, exactly as the page's own run would.
    fn run(&self, models: &[&Model], _: &mut WorkerMemory) -> Result<Self::Output, String> {
        let prompts: Vec<_> = fresh_prompts(&run_spec(&self.state, None), self.count, self.state.seed).into_iter().skip(self.prompts.start).take(self.prompts.len()).collect();
        let options = models.iter().map(|m| forward_options(&self.state, m.config.attention)).collect();
        let mut run = AccuracyRun::new(prompts, options);
        while run.step(models)? {}
        Ok(run.right.iter().copied().zip(run.asked.iter().copied()).collect())
    }

    fn write_output(counts: Self::Output) -> (Pairs, Vec<Vec<f32>>) {
        (vec![("counts".into(), counts.iter().map(|(r, a)| format!("{r}/{a}")).collect::<Vec<_>>().join(","))], vec![])
    }

    fn read_output(f: &Fields, _: Vec<Vec<f32>>) -> Result<Self::Output, String> {
        f.list("counts", |item| {
            let [right, asked] = numbers::<2>(item)?;
            Ok((whole(right, "count")?, whole(asked, "count")?))
        })
    }
}
