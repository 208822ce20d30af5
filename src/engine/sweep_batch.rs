//! Table 3's depth sweep for the worker pool: at each of the five depths a batch of fresh
//! prompts, split into chunks of a few prompts; a chunk is a short text (the explorer's
//! link, the depth and a range of that depth's seeded prompts), so a worker computes
//! exactly what the page would, and answers with each model's summed net weights. The
//! page adds the chunks in a fixed order (depth, then first prompt), whatever order they
//! arrive in and wherever they ran, so the curves do not depend on the pool's size.

use super::batch::{chunks, link_job, number, read_link_job, shipped_models};
use super::evidence::{depth_prompts, run_spec, DepthSweep, Net, DEPTHS};
use super::model::forward_options;
use crate::core::model::Model;
use crate::state::model_state::ModelState;
use crate::state::query;
use std::collections::BTreeMap;
use std::ops::Range;

/// One chunk of the sweep: prompts `prompts` of the `count` at depth `DEPTHS[depth]`,
/// through the three shipped models at checkpoint `checkpoint`.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepChunk {
    pub generation: u64,
    pub state: ModelState,
    pub checkpoint: usize,
    pub depth: usize,
    pub count: usize,
    pub prompts: Range<usize>,
}

/// A chunk's answer: per model (in `AttentionKind::ALL` order) the net weights summed
/// over its prompts, or why it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepAnswer {
    pub generation: u64,
    pub depth: usize,
    pub prompts: Range<usize>,
    pub sums: Result<Vec<Net>, String>,
}

/// Every chunk of a sweep of `count` prompts per depth, at most `size` prompts each.
pub fn sweep_chunks(count: usize, size: usize) -> Vec<(usize, Range<usize>)> {
    (0..DEPTHS.len()).flat_map(|d| chunks(count, size).into_iter().map(move |r| (d, r))).collect()
}

impl SweepChunk {
    /// The job as a message: the chunk's own keys start with `_`, the rest is the
    /// explorer's link.
    pub fn to_message(&self) -> String {
        link_job(
            "sweep",
            &[
                ("_gen", self.generation.to_string()),
                ("_ckpt", self.checkpoint.to_string()),
                ("_depth", self.depth.to_string()),
                ("_count", self.count.to_string()),
                ("_from", self.prompts.start.to_string()),
                ("_to", self.prompts.end.to_string()),
            ],
            &self.state,
        )
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let (pairs, state) = read_link_job(message, "sweep")?;
        let (depth, from, to, count) = (number(&pairs, "_depth")?, number(&pairs, "_from")?, number(&pairs, "_to")?, number(&pairs, "_count")?);
        if depth >= DEPTHS.len() || from > to || to > count {
            return Err(format!("the job's depth {depth} and prompts {from}..{to} are not within the sweep's {} depths of {count}", DEPTHS.len()));
        }
        Ok(Self { generation: number(&pairs, "_gen")?, state, checkpoint: number(&pairs, "_ckpt")?, depth, count, prompts: from..to })
    }

    /// The models this chunk runs, as the library names them.
    pub fn model_keys(&self) -> Vec<(String, usize)> {
        shipped_models(self.checkpoint)
    }

    /// The chunk as a sweep of its own, to step in slices (the page, for a failed
    /// worker's chunks) or at once (`run`). `models` in `AttentionKind::ALL` order.
    pub fn sweep(&self, models: &[&Model]) -> DepthSweep {
        let prompts = depth_prompts(&run_spec(&self.state, Some(1)), self.depth, self.count, self.state.seed).into_iter().skip(self.prompts.start).take(self.prompts.len()).collect();
        let options = models.iter().map(|m| forward_options(&self.state, m.config.attention)).collect();
        DepthSweep::new(vec![(DEPTHS[self.depth], prompts)], options)
    }

    /// The answer from the chunk's sweep once it has stepped to the end.
    pub fn answer(&self, sweep: &DepthSweep, models: usize) -> SweepAnswer {
        SweepAnswer { generation: self.generation, depth: self.depth, prompts: self.prompts.clone(), sums: Ok((0..models).map(|m| sweep.sum(m, 0).0).collect()) }
    }

    /// Runs the chunk's prompts through `models`, exactly as the page would.
    pub fn run(&self, models: &[&Model]) -> SweepAnswer {
        let mut sweep = self.sweep(models);
        loop {
            match sweep.step(models) {
                Ok(true) => {}
                Ok(false) => return self.answer(&sweep, models.len()),
                Err(e) => return SweepAnswer { generation: self.generation, depth: self.depth, prompts: self.prompts.clone(), sums: Err(e) },
            }
        }
    }
}

impl SweepAnswer {
    /// Tagged like its job (`job_kind`). Rust prints an f64 in its shortest form that
    /// parses back to the same bits, so the page adds what the worker summed.
    pub fn to_message(&self) -> String {
        let own = [
            ("_job", "sweep".to_string()),
            ("_gen", self.generation.to_string()),
            ("_depth", self.depth.to_string()),
            ("_from", self.prompts.start.to_string()),
            ("_to", self.prompts.end.to_string()),
        ];
        let mut pairs: Vec<(String, String)> = own.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        match &self.sums {
            Ok(sums) => pairs.push(("sums".into(), sums.iter().map(|n| format!("{}/{}", n.answer, n.noise)).collect::<Vec<_>>().join(","))),
            Err(e) => pairs.push(("error".into(), e.clone())),
        }
        query::format(&pairs)
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        let field = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let sums = match (field("sums"), field("error")) {
            (_, Some(e)) => Err(e),
            (Some(s), None) => Ok(s.split(',').filter(|x| !x.is_empty()).map(net).collect::<Result<Vec<_>, String>>()?),
            (None, None) => return Err("an answer with neither sums nor an error".into()),
        };
        Ok(Self { generation: number(&pairs, "_gen")?, depth: number(&pairs, "_depth")?, prompts: number(&pairs, "_from")?..number(&pairs, "_to")?, sums })
    }
}

fn net(text: &str) -> Result<Net, String> {
    let bad = || format!("not a pair of net weights: {text}");
    let (answer, noise) = text.split_once('/').ok_or_else(bad)?;
    Ok(Net { answer: answer.parse().map_err(|_| bad())?, noise: noise.parse().map_err(|_| bad())? })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::model_state::AttentionKind;

    fn tiny(kind: AttentionKind) -> Model {
        Model::tiny(kind, 5)
    }

    #[test]
    fn a_sweep_job_and_its_answer_survive_the_message() {
        let state = ModelState { seed: 8, ..ModelState::default() };
        let job = SweepChunk { generation: 3, state, checkpoint: 1, depth: 4, count: 20, prompts: 15..20 };
        assert_eq!(SweepChunk::from_message(&job.to_message()), Ok(job.clone()));
        assert_eq!(super::super::batch::job_kind(&job.to_message()).as_deref(), Some("sweep"));
        for sums in [Ok(vec![Net { answer: 0.1 + 0.2, noise: -1e-300 }, Net { answer: 3.0, noise: 0.0 }]), Err("models/x: HTTP 404 & more".to_string())] {
            let answer = SweepAnswer { generation: 3, depth: 4, prompts: 15..20, sums };
            assert_eq!(SweepAnswer::from_message(&answer.to_message()), Ok(answer), "bit for bit");
        }
        assert!(SweepChunk::from_message("_job=sweep&_gen=1&_ckpt=0&_depth=5&_count=10&_from=0&_to=5").unwrap_err().contains("not within"));
        assert!(SweepChunk::from_message("_job=accuracy&_gen=1").is_err());
        assert!(SweepAnswer::from_message("_gen=1&_depth=0&_from=0&_to=2&sums=3").is_err());
    }

    /// Chunks, added in any order, give the page's own sweep of the same prompts (up to
    /// the order of the additions), and the same curves bit for bit whatever that order.
    #[test]
    fn chunks_add_up_to_the_page_s_own_sweep_in_any_order() {
        let models: Vec<Model> = AttentionKind::ALL.iter().map(|k| tiny(*k)).collect();
        let refs: Vec<&Model> = models.iter().collect();
        let state = ModelState { context: 64, seed: 2, ..ModelState::default() };
        let count = 5;
        let options = refs.iter().map(|m| forward_options(&state, m.config.attention)).collect();
        let mut whole = DepthSweep::fresh(&run_spec(&state, Some(1)), count, state.seed, options);
        while whole.step(&refs).unwrap() {}
        let answers: Vec<SweepAnswer> = sweep_chunks(count, 2)
            .into_iter()
            .map(|(depth, prompts)| SweepChunk::from_message(&SweepChunk { generation: 1, state: state.clone(), checkpoint: 0, depth, count, prompts }.to_message()).unwrap().run(&refs))
            .map(|a| SweepAnswer::from_message(&a.to_message()).unwrap())
            .collect();
        assert_eq!(answers.len(), DEPTHS.len() * 3);
        let totals = |order: &mut dyn Iterator<Item = &SweepAnswer>| {
            let mut t = SweepTotals::default();
            for a in order {
                t.add(a.depth, &a.prompts, a.sums.clone().unwrap());
            }
            t
        };
        let forward = totals(&mut answers.iter());
        let backward = totals(&mut answers.iter().rev().chain(answers.iter().take(2)));
        assert_eq!(forward.prompts(), DEPTHS.len() * count, "a late duplicate is not counted twice");
        for m in 0..refs.len() {
            assert_eq!(forward.curve(m), backward.curve(m), "model {m}: the same bits in any order");
            let (got, want) = (forward.curve(m), whole.curve(m));
            assert_eq!(got.len(), DEPTHS.len());
            for ((dg, g), (dw, w)) in got.iter().zip(&want) {
                assert_eq!(dg, dw);
                assert!((g.answer - w.answer).abs() < 1e-12 && (g.noise - w.noise).abs() < 1e-12, "model {m} at depth {dg}: {g:?} vs {w:?}");
            }
        }
    }
}
