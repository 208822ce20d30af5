//! Work for a pool of workers, each with its own wasm instance (GitHub Pages cannot send
//! the headers SharedArrayBuffer needs): Table 2's batch in chunks, the lab's
//! SNR-against-noise chart a noise level at a time, and its noise masses (a lab problem's
//! own blocks are in `engine::lab_blocks`). A job is a short text: for a chunk,
//! the explorer's link (every setting a run depends on) and a range of the run's seeded
//! prompts; for a noise level, the problem on screen, λ and σ. A worker therefore
//! computes exactly what the page would, and answers with a few numbers. Each job and
//! answer carries its run's generation: an answer for a run the reader has since
//! cancelled or replaced is dropped.

use super::evidence::{fresh_prompts, run_spec, AccuracyRun};
use super::lab::{context_lengths, noise_mass_point, noise_point};
use super::model::forward_options;
use crate::core::lab::{LabParams, NoiseMassPoint, NoiseSweepPoint};
use crate::core::model::Model;
use crate::state::model_state::{AttentionKind, ModelState};
use crate::state::query;
use std::ops::Range;

/// One chunk of an accuracy run: prompts `prompts` of the run's `count`, through the
/// three shipped models at checkpoint `checkpoint`.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyChunk {
    pub generation: u64,
    pub state: ModelState,
    pub checkpoint: usize,
    pub count: usize,
    pub prompts: Range<usize>,
}

/// A chunk's answer: per model (in `AttentionKind::ALL` order) queries answered right
/// and asked, or why it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkResult {
    pub generation: u64,
    pub prompts: Range<usize>,
    pub counts: Result<Vec<(usize, usize)>, String>,
}

/// Ranges of at most `size` prompts covering `0..count`.
pub fn chunks(count: usize, size: usize) -> Vec<Range<usize>> {
    let size = size.max(1);
    (0..count).step_by(size).map(|a| a..(a + size).min(count)).collect()
}

/// A job that carries the explorer's link: its kind and its own keys (each starting
/// with `_`), then the link's, so a worker runs exactly the page's state.
pub(super) fn link_job(kind: &str, own: &[(&str, String)], state: &ModelState) -> String {
    let mut pairs: Vec<(String, String)> = std::iter::once(("_job".to_string(), kind.to_string())).chain(own.iter().map(|(k, v)| (k.to_string(), v.clone()))).collect();
    pairs.extend(state.to_params());
    query::format(&pairs)
}

/// A [`link_job`] of `kind` read back: all its pairs and the explorer state its link
/// carries, or why the message is not such a job.
pub(super) fn read_link_job(message: &str, kind: &str) -> Result<(Vec<(String, String)>, ModelState), String> {
    let pairs = query::parse(message);
    if !pairs.iter().any(|(k, v)| k == "_job" && v == kind) {
        return Err(format!("not a job of kind {kind}: {}", message.chars().take(60).collect::<String>()));
    }
    let link: Vec<(String, String)> = pairs.iter().filter(|(k, _)| !k.starts_with('_')).cloned().collect();
    let (state, _) = ModelState::from_params(&link);
    Ok((pairs, state))
}

/// A job's or an answer's number `key`, or why it is missing or not a number.
pub(super) fn number<T: std::str::FromStr>(pairs: &[(String, String)], key: &str) -> Result<T, String> {
    let raw = pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).ok_or_else(|| format!("the job has no {key}"))?;
    raw.parse().map_err(|_| format!("the job's {key} is not a number: {raw}"))
}

impl AccuracyChunk {
    /// The job as a message: the chunk's own keys start with `_`, the rest is the
    /// explorer's link.
    pub fn to_message(&self) -> String {
        link_job(
            "accuracy",
            &[
                ("_gen", self.generation.to_string()),
                ("_ckpt", self.checkpoint.to_string()),
                ("_count", self.count.to_string()),
                ("_from", self.prompts.start.to_string()),
                ("_to", self.prompts.end.to_string()),
            ],
            &self.state,
        )
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let (pairs, state) = read_link_job(message, "accuracy")?;
        let (from, to, count) = (number(&pairs, "_from")?, number(&pairs, "_to")?, number(&pairs, "_count")?);
        if from > to || to > count {
            return Err(format!("the job's prompts {from}..{to} are not within its {count}"));
        }
        Ok(Self { generation: number(&pairs, "_gen")?, state, checkpoint: number(&pairs, "_ckpt")?, count, prompts: from..to })
    }

    /// The models this chunk runs, as the library names them.
    pub fn model_keys(&self) -> Vec<(String, usize)> {
        shipped_models(self.checkpoint)
    }

    /// Runs the chunk's prompts through `models` (in `AttentionKind::ALL` order), exactly
    /// as the page's own run would for the same prompts.
    pub fn run(&self, models: &[&Model]) -> ChunkResult {
        let counts = (|| {
            let prompts: Vec<_> = fresh_prompts(&run_spec(&self.state, None), self.count, self.state.seed).into_iter().skip(self.prompts.start).take(self.prompts.len()).collect();
            let options = models.iter().map(|m| forward_options(&self.state, m.config.attention)).collect();
            let mut run = AccuracyRun::new(prompts, options);
            while run.step(models)? {}
            Ok(run.right.iter().copied().zip(run.asked.iter().copied()).collect())
        })();
        ChunkResult { generation: self.generation, prompts: self.prompts.clone(), counts }
    }
}

impl ChunkResult {
    pub fn to_message(&self) -> String {
        let mut pairs = vec![("_gen".to_string(), self.generation.to_string()), ("_from".to_string(), self.prompts.start.to_string()), ("_to".to_string(), self.prompts.end.to_string())];
        match &self.counts {
            Ok(c) => pairs.push(("counts".into(), c.iter().map(|(r, a)| format!("{r}/{a}")).collect::<Vec<_>>().join(","))),
            Err(e) => pairs.push(("error".into(), e.clone())),
        }
        query::format(&pairs)
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        let field = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let counts = match (field("counts"), field("error")) {
            (_, Some(e)) => Err(e),
            (Some(c), None) => Ok(c
                .split(',')
                .filter(|x| !x.is_empty())
                .map(|pair| {
                    let (r, a) = pair.split_once('/').ok_or_else(|| format!("a count without its total: {pair}"))?;
                    Ok((r.parse().map_err(|_| format!("not a count: {r}"))?, a.parse().map_err(|_| format!("not a count: {a}"))?))
                })
                .collect::<Result<Vec<_>, String>>()?),
            (None, None) => return Err("an answer with neither counts nor an error".into()),
        };
        Ok(Self { generation: number(&pairs, "_gen")?, prompts: number(&pairs, "_from")?..number(&pairs, "_to")?, counts })
    }
}

/// One point of the lab's SNR-against-noise chart: the problem on screen (`params`) at
/// noise amplitude `sigma`, its differential map at `lambda`.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseJob {
    pub generation: u64,
    pub params: LabParams,
    pub lambda: f32,
    pub sigma: f32,
}

/// A noise job's answer: its point, or why it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseAnswer {
    pub generation: u64,
    pub point: Result<NoiseSweepPoint, String>,
}

impl NoiseJob {
    pub fn to_message(&self) -> String {
        let params = serde_json::to_string(&self.params).expect("lab parameters are plain numbers");
        query::format(&[
            ("_job".into(), "noise".into()),
            ("_gen".into(), self.generation.to_string()),
            ("lambda".into(), self.lambda.to_string()),
            ("sigma".into(), self.sigma.to_string()),
            ("params".into(), params),
        ])
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        if !pairs.iter().any(|(k, v)| k == "_job" && v == "noise") {
            return Err(format!("not a noise job: {}", message.chars().take(60).collect::<String>()));
        }
        let raw = pairs.iter().find(|(k, _)| k == "params").map(|(_, v)| v.as_str()).ok_or("the job has no params")?;
        let params = serde_json::from_str(raw).map_err(|e| format!("the job's params: {e}"))?;
        Ok(Self { generation: number(&pairs, "_gen")?, params, lambda: number(&pairs, "lambda")?, sigma: number(&pairs, "sigma")? })
    }

    /// The point, exactly as the page's own `SlowCharts` computes it.
    pub fn run(&self) -> NoiseAnswer {
        let mut stream = noise_point(&self.params, self.lambda, self.sigma);
        while stream.advance(usize::MAX) {}
        NoiseAnswer { generation: self.generation, point: Ok(NoiseSweepPoint::new(self.sigma, &stream.finish())) }
    }
}

impl NoiseAnswer {
    pub fn to_message(&self) -> String {
        let mut pairs = vec![("_gen".to_string(), self.generation.to_string())];
        match &self.point {
            Ok(p) => pairs.extend([("noise".to_string(), p.noise.to_string()), ("standard".to_string(), p.standard_snr.to_string()), ("differential".to_string(), p.differential_snr.to_string())]),
            Err(e) => pairs.push(("error".into(), e.clone())),
        }
        query::format(&pairs)
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        let point = match pairs.iter().find(|(k, _)| k == "error") {
            Some((_, e)) => Err(e.clone()),
            None => Ok(NoiseSweepPoint { noise: number(&pairs, "noise")?, standard_snr: number(&pairs, "standard")?, differential_snr: number(&pairs, "differential")? }),
        };
        Ok(Self { generation: number(&pairs, "_gen")?, point })
    }
}

/// The noise-floor chart: one query's noise mass at each context length (eight O(N)
/// points, up to 128k keys), as one job since the chart shows them together.
#[derive(Clone, Debug, PartialEq)]
pub struct MassJob {
    pub generation: u64,
    pub params: LabParams,
    pub lambda: f32,
}

/// A mass job's answer: the points in length order, or why it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct MassAnswer {
    pub generation: u64,
    pub points: Result<Vec<NoiseMassPoint>, String>,
}

impl MassJob {
    pub fn to_message(&self) -> String {
        let params = serde_json::to_string(&self.params).expect("lab parameters are plain numbers");
        query::format(&[("_job".into(), "masses".into()), ("_gen".into(), self.generation.to_string()), ("lambda".into(), self.lambda.to_string()), ("params".into(), params)])
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        if !pairs.iter().any(|(k, v)| k == "_job" && v == "masses") {
            return Err(format!("not a masses job: {}", message.chars().take(60).collect::<String>()));
        }
        let raw = pairs.iter().find(|(k, _)| k == "params").map(|(_, v)| v.as_str()).ok_or("the job has no params")?;
        let params = serde_json::from_str(raw).map_err(|e| format!("the job's params: {e}"))?;
        Ok(Self { generation: number(&pairs, "_gen")?, params, lambda: number(&pairs, "lambda")? })
    }

    /// The points, exactly as the page's own `SlowCharts` computes them.
    pub fn run(&self) -> MassAnswer {
        MassAnswer { generation: self.generation, points: Ok(context_lengths().into_iter().map(|n| noise_mass_point(&self.params, self.lambda, n)).collect()) }
    }
}

impl MassAnswer {
    /// Tagged like its job (`job_kind`), so that it is told apart from a noise level's.
    pub fn to_message(&self) -> String {
        let mut pairs = vec![("_job".to_string(), "masses".to_string()), ("_gen".to_string(), self.generation.to_string())];
        match &self.points {
            // Rust prints an f64 in its shortest form that parses back to the same bits.
            Ok(p) => pairs.push(("points".into(), p.iter().map(|p| format!("{}/{}/{}/{}", p.n, p.standard, p.standard_expected, p.differential)).collect::<Vec<_>>().join(","))),
            Err(e) => pairs.push(("error".into(), e.clone())),
        }
        query::format(&pairs)
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let pairs = query::parse(message);
        let field = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let points = match (field("points"), field("error")) {
            (_, Some(e)) => Err(e),
            (Some(p), None) => Ok(p.split(',').filter(|x| !x.is_empty()).map(mass_point).collect::<Result<Vec<_>, String>>()?),
            (None, None) => return Err("an answer with neither points nor an error".into()),
        };
        Ok(Self { generation: number(&pairs, "_gen")?, points })
    }
}

fn mass_point(text: &str) -> Result<NoiseMassPoint, String> {
    let bad = || format!("not a noise-mass point: {text}");
    let f: Vec<&str> = text.split('/').collect();
    let [n, standard, expected, differential] = f.as_slice() else { return Err(bad()) };
    let x = |v: &str| v.parse::<f64>().map_err(|_| bad());
    Ok(NoiseMassPoint { n: n.parse().map_err(|_| bad())?, standard: x(standard)?, standard_expected: x(expected)?, differential: x(differential)? })
}

/// The three shipped models at `checkpoint`, as the library names them, in
/// `AttentionKind::ALL` order (the order a job's answers list them in).
pub fn shipped_models(checkpoint: usize) -> Vec<(String, usize)> {
    AttentionKind::ALL.iter().map(|k| (k.slug().to_string(), checkpoint)).collect()
}

/// What kind of job a message is (the worker answers each kind with its own answer).
pub fn job_kind(message: &str) -> Option<String> {
    query::parse(message).into_iter().find(|(k, _)| k == "_job").map(|(_, v)| v)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(kind: AttentionKind) -> Model {
        Model::tiny(kind, 7)
    }

    #[test]
    fn chunks_cover_the_run_once() {
        assert_eq!(chunks(100, 30), vec![0..30, 30..60, 60..90, 90..100]);
        assert_eq!(chunks(5, 0), vec![0..1, 1..2, 2..3, 3..4, 4..5]);
        assert!(chunks(0, 8).is_empty());
    }

    #[test]
    fn a_job_and_its_answer_survive_the_message() {
        let state = ModelState { needles: 3, seed: 11, ..ModelState::default() };
        let job = AccuracyChunk { generation: 4, state: state.clone(), checkpoint: 2, count: 100, prompts: 20..35 };
        assert_eq!(AccuracyChunk::from_message(&job.to_message()), Ok(job.clone()));
        for counts in [Ok(vec![(3, 15), (15, 15), (14, 15)]), Err("models/diff_v1/x.safetensors: not found, & more".to_string())] {
            let answer = ChunkResult { generation: 4, prompts: 20..35, counts };
            assert_eq!(ChunkResult::from_message(&answer.to_message()), Ok(answer));
        }
        assert!(AccuracyChunk::from_message("_job=accuracy&_gen=1&_ckpt=0&_count=10&_from=5&_to=50").unwrap_err().contains("not within"));
        assert!(AccuracyChunk::from_message("garbage").is_err());
        assert!(ChunkResult::from_message("_gen=1&_from=0&_to=2&counts=3").is_err());
    }

    #[test]
    fn a_noise_job_gives_the_slow_chart_s_own_point() {
        use crate::engine::lab_charts::{SlowCharts, Step};
        let params = LabParams { n: 64, noise: 1.5, ..LabParams::default() };
        let mut chart = SlowCharts::new(&params, 0.7);
        let first = loop {
            if let Step::Noise(p) = chart.step(7) {
                break p;
            }
        };
        let job = NoiseJob { generation: 9, params: params.clone(), lambda: 0.7, sigma: crate::engine::lab::noise_grid()[0] };
        let job = NoiseJob::from_message(&job.to_message()).unwrap();
        assert_eq!(job.params, params);
        let answer = NoiseAnswer::from_message(&job.run().to_message()).unwrap();
        assert_eq!((answer.generation, answer.point), (9, Ok(first)), "the same point, bit for bit, through the messages");
        assert_eq!(job_kind(&job.to_message()).as_deref(), Some("noise"));
        let failed = NoiseAnswer { generation: 2, point: Err("out of memory".into()) };
        assert_eq!(NoiseAnswer::from_message(&failed.to_message()), Ok(failed));
        assert!(NoiseJob::from_message("_job=noise&_gen=1&lambda=0.5&sigma=1&params=%7B").unwrap_err().contains("params"));
    }

    #[test]
    fn a_masses_job_gives_the_slow_chart_s_own_points() {
        use crate::engine::lab_charts::{SlowCharts, Step};
        let params = LabParams { n: 64, noise: 2.5, ..LabParams::default() };
        let mut chart = SlowCharts::new(&params, 0.8);
        let want = loop {
            if let Step::Masses(m) = chart.step(7) {
                break m;
            }
        };
        let job = MassJob::from_message(&MassJob { generation: 5, params, lambda: 0.8 }.to_message()).unwrap();
        assert_eq!(MassAnswer::from_message(&job.run().to_message()).unwrap(), MassAnswer { generation: 5, points: Ok(want) }, "bit for bit through the messages");
        let failed = MassAnswer { generation: 1, points: Err("out of memory".into()) };
        assert_eq!(MassAnswer::from_message(&failed.to_message()), Ok(failed));
        assert!(MassJob::from_message("_job=noise").is_err());
    }

    #[test]
    fn chunks_add_up_to_the_page_s_own_run() {
        let models: Vec<Model> = AttentionKind::ALL.iter().map(|k| tiny(*k)).collect();
        let refs: Vec<&Model> = models.iter().collect();
        let state = ModelState { context: 64, seed: 3, ..ModelState::default() };
        let count = 9;
        let options = refs.iter().map(|m| forward_options(&state, m.config.attention)).collect();
        let mut whole = AccuracyRun::new(fresh_prompts(&run_spec(&state, None), count, state.seed), options);
        while whole.step(&refs).unwrap() {}
        let mut total = vec![];
        for prompts in chunks(count, 4) {
            let job = AccuracyChunk::from_message(&AccuracyChunk { generation: 1, state: state.clone(), checkpoint: 0, count, prompts }.to_message()).unwrap();
            add(&mut total, &job.run(&refs).counts.unwrap());
        }
        let expected: Vec<(usize, usize)> = whole.right.iter().copied().zip(whole.asked.iter().copied()).collect();
        assert_eq!(total, expected);
        assert!(expected.iter().all(|(_, asked)| *asked >= count), "every prompt asks at least once");
    }
}
