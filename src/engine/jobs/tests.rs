//! One suite for every kind of job: each goes through the worker's table and back as
//! the page would send and read it, and gives what the page computes itself, bit for
//! bit; every damaged job or answer is refused with a reason, never a panic.

use crate::core::lab::NoiseSweepPoint;
use crate::engine::explorer::evidence::{fresh_prompts, run_spec, AccuracyRun, DepthSweep, Net, DEPTHS};
use crate::engine::jobs::table::{self, PAGE_JOBS, TRAINING_JOBS};
use crate::engine::jobs::*;
use crate::engine::lab::blocks::{blocks, LabAssembly};
use crate::engine::model::{explain_prompt, forward_options, prompt_for, render};
use crate::state::model_state::{AttentionKind, ModelState, V2Lambda};

fn tiny_models(seed: u64) -> Vec<Model> {
    AttentionKind::ALL.iter().map(|k| Model::tiny(*k, seed)).collect()
}

/// A job as the page sends it, read and run by the worker's table, its answer read back
/// by the page (the same job comes back too, as a leftover would).
fn through_worker<J: Job + std::fmt::Debug + PartialEq>(job: &J, models: &[&Model], memory: &mut WorkerMemory) -> Result<J::Output, String> {
    let message = encode(job);
    assert_eq!(decode::<J>(&message).as_ref(), Ok(job), "the job survives its message");
    let runnable = table::read(&message).expect("the table reads every kind");
    let wanted: Vec<ModelKey> = job.models();
    assert_eq!(runnable.models(), wanted);
    decode_answer::<J>(runnable.answer(models, memory)).map_err(|e| e.to_string())
}

/// The job's message without each of its body's fields in turn: (the field, the message).
fn without_each_field<J: Job>(job: &J) -> Vec<(String, String)> {
    let whole: serde_json::Value = serde_json::from_str(&encode(job)).unwrap();
    let fields: Vec<String> = whole["body"].as_object().expect("a job's body is an object").keys().cloned().collect();
    fields
        .into_iter()
        .map(|key| {
            let mut message = whole.clone();
            message["body"].as_object_mut().unwrap().remove(&key);
            (key, message.to_string())
        })
        .collect()
}

/// An answer of job kind `J` with `text` and `arrays`, read back as the page reads it.
fn answer_of<J: Job>(text: &str, arrays: Vec<Vec<f32>>) -> Result<J::Output, JobError> {
    decode_answer::<J>(Parts { text: text.into(), arrays })
}

#[test]
fn the_table_has_each_kind_once_and_refuses_strangers() {
    let mut kinds: Vec<&str> = PAGE_JOBS.iter().chain(&TRAINING_JOBS).map(|e| e.kind).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), PAGE_JOBS.len() + TRAINING_JOBS.len());
    // The page's workers know no training job (the page's wasm holds no training code),
    // the training workers no other job.
    let (data, vocab) = training::data();
    let spec = crate::engine::train::RunSpec { kind: AttentionKind::Baseline, seed: 1, preset: crate::engine::train::PRESETS[0], vocab };
    let chunk = encode_parts(&TrainChunk { spec, data: std::rc::Rc::new(data), state: None, from: 0, steps: 1 });
    assert!(table::read_in(&TRAINING_JOBS, chunk.clone()).is_ok());
    assert!(matches!(table::read_in(&PAGE_JOBS, chunk).err(), Some(JobError::NotAJob(_))));
    let forward = Parts { text: encode(&ForwardJob { state: ModelState::default(), checkpoint: 0, kind: AttentionKind::DiffV1 }), arrays: vec![] };
    assert!(table::read_in(&PAGE_JOBS, forward.clone()).is_ok());
    assert!(matches!(table::read_in(&TRAINING_JOBS, forward).err(), Some(JobError::NotAJob(_))));
    for message in ["", "garbage", "{}", r#"{"job":""}"#, r#"{"job":"teleport","body":{}}"#, r#"{"job":"accuracy"}"#, r#"{"job":"block","body":{"params":"#] {
        assert!(matches!(table::read(message).err(), Some(JobError::NotAJob(_))), "{message:?}");
    }
    let forward = encode(&ForwardJob { state: ModelState::default(), checkpoint: 0, kind: AttentionKind::DiffV1 });
    assert!(decode::<SweepChunk>(&forward).unwrap_err().to_string().contains("not a job of kind sweep"));
}

/// Every field a job's body holds is needed: without any one of them the job is refused;
/// and a job whose fields do not hold together is refused by its check.
#[test]
fn a_job_missing_any_of_its_fields_is_refused() {
    fn each_field<J: Job>(job: &J) {
        let cases = without_each_field(job);
        assert!(!cases.is_empty());
        for (field, message) in cases {
            assert!(table::read(&message).is_err(), "{} without {field}", J::KIND);
        }
    }
    let state = ModelState::default();
    each_field(&AccuracyChunk { state: state.clone(), checkpoint: 1, count: 10, prompts: 2..4 });
    each_field(&SweepChunk { state: state.clone(), checkpoint: 1, depth: 2, count: 10, prompts: 2..4 });
    each_field(&ForwardJob { state: state.clone(), checkpoint: 1, kind: AttentionKind::DiffV2 });
    each_field(&BlockJob { params: LabParams::default(), rows: 0..4 });
    each_field(&NoiseChartJob { params: LabParams::default(), lambda: 0.5, part: ChartPart::Level(1.0) });
    let refused = |message: String| table::read(&message).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused(encode(&AccuracyChunk { state: state.clone(), checkpoint: 0, count: 10, prompts: 5..50 })).contains("not within"));
    assert!(refused(encode(&SweepChunk { state: state.clone(), checkpoint: 0, depth: 5, count: 10, prompts: 0..5 })).contains("not within"));
    let gpt = encode(&ForwardJob { state, checkpoint: 0, kind: AttentionKind::DiffV2 }).replace("diff_v2", "gpt");
    assert!(refused(gpt).contains("gpt"));
}

/// A failure in the worker reaches the page as that failure, typed, for every kind; an
/// answer that is not one (empty, a stranger's, cut short) says it cannot be read.
#[test]
fn failures_and_damaged_answers_say_why() {
    fn check<J: Job>() {
        let why = JobError::Failed("models/diff_v1/x.safetensors: HTTP 404 & more".into());
        assert_eq!(decode_answer::<J>(failure(why.clone())).err(), Some(why), "{}", J::KIND);
        for text in ["", "{}", "unrelated=1", r#"{"ok":5}"#, r#"{"ok":{"x":1}}"#, r#"{"error":"x"}"#] {
            let damaged = answer_of::<J>(text, vec![vec![1.0]]);
            assert!(matches!(&damaged, Err(JobError::Unreadable { kind, .. }) if kind == J::KIND), "{}: {text:?}: {:?}", J::KIND, damaged.as_ref().err());
            assert!(damaged.err().unwrap().to_string().contains("could not be read"));
        }
    }
    check::<AccuracyChunk>();
    check::<SweepChunk>();
    check::<ForwardJob>();
    check::<BlockJob>();
    check::<NoiseChartJob>();
    check::<TrainChunk>();
}

#[test]
fn accuracy_chunks_add_up_to_the_page_s_own_run() {
    assert_eq!(chunks(100, 30), vec![0..30, 30..60, 60..90, 90..100]);
    assert_eq!(chunks(5, 0), vec![0..1, 1..2, 2..3, 3..4, 4..5]);
    assert!(chunks(0, 8).is_empty());
    let models = tiny_models(7);
    let refs: Vec<&Model> = models.iter().collect();
    let state = ModelState { context: 64, seed: 3, ..ModelState::default() };
    let count = 9;
    let options = refs.iter().map(|m| forward_options(&state, m.config.attention)).collect();
    let mut whole = AccuracyRun::new(fresh_prompts(&run_spec(&state, None), count, state.seed), options);
    while whole.step(&refs).unwrap() {}
    let mut total = vec![];
    for prompts in chunks(count, 4) {
        add(&mut total, &through_worker(&AccuracyChunk { state: state.clone(), checkpoint: 0, count, prompts }, &refs, &mut WorkerMemory::default()).unwrap());
    }
    let expected: Vec<(usize, usize)> = whole.right.iter().copied().zip(whole.asked.iter().copied()).collect();
    assert_eq!(total, expected);
    assert!(expected.iter().all(|(_, asked)| *asked >= count), "every prompt asks at least once");
    assert_eq!(decode_answer::<AccuracyChunk>(encode_answer::<AccuracyChunk>(Ok(vec![(3, 15), (15, 15)]))), Ok(vec![(3, 15), (15, 15)]));
    assert!(answer_of::<AccuracyChunk>(r#"{"ok":[[3]]}"#, vec![]).is_err());
    assert!(answer_of::<AccuracyChunk>(r#"{"ok":[[1.5,2]]}"#, vec![]).is_err());
    assert!(answer_of::<AccuracyChunk>(r#"{"ok":[[1,2]]}"#, vec![vec![]]).is_err(), "an array where none belongs");
}

/// Sweep chunks, added in any order, give the page's own sweep of the same prompts (up
/// to the order of the additions), and the same curves bit for bit whatever that order.
#[test]
fn sweep_chunks_add_up_to_the_page_s_own_sweep_in_any_order() {
    let models = tiny_models(5);
    let refs: Vec<&Model> = models.iter().collect();
    let state = ModelState { context: 64, seed: 2, ..ModelState::default() };
    let count = 5;
    let options = refs.iter().map(|m| forward_options(&state, m.config.attention)).collect();
    let mut whole = DepthSweep::fresh(&run_spec(&state, Some(1)), count, state.seed, options);
    while whole.step(&refs).unwrap() {}
    let answers: Vec<(SweepChunk, Vec<Net>)> = sweep_chunks(count, 2)
        .into_iter()
        .map(|(depth, prompts)| SweepChunk { state: state.clone(), checkpoint: 0, depth, count, prompts })
        .map(|job| (job.clone(), through_worker(&job, &refs, &mut WorkerMemory::default()).unwrap()))
        .collect();
    assert_eq!(answers.len(), DEPTHS.len() * 3);
    let totals = |order: &mut dyn Iterator<Item = &(SweepChunk, Vec<Net>)>| {
        let mut t = SweepTotals::default();
        for (job, sums) in order {
            t.add(job.depth, &job.prompts, sums.clone());
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
    let tricky = vec![Net { answer: 0.1 + 0.2, noise: -1e-300 }, Net { answer: 3.0, noise: 0.0 }];
    assert_eq!(decode_answer::<SweepChunk>(encode_answer::<SweepChunk>(Ok(tricky.clone()))), Ok(tricky), "bit for bit");
}

/// A forward job made from a state the page holds (a typed prompt, moved λs, 8-bit
/// logits) runs what the page would run, and its answer arrives whole.
#[test]
fn a_forward_job_runs_what_the_page_would_and_answers_bit_for_bit() {
    let mut typed = ModelState { bits: Some(8), v2_lambda: V2Lambda::Scale(0.5), ..ModelState::default() };
    typed.set_v1_lambda(1, Some(0.3));
    typed.text = Some(render(&prompt_for(&ModelState { seed: 9, ..ModelState::default() }).tokens));
    for state in [ModelState::default(), typed] {
        for kind in AttentionKind::ALL {
            let model = Model::tiny(kind, 3);
            let job = ForwardJob { state: state.clone(), checkpoint: 2, kind };
            assert_eq!(decode::<ForwardJob>(&encode(&job)).unwrap().state.run_key(), state.run_key(), "{kind:?}: the link carries every setting of the pass");
            let got = through_worker(&job, &[&model], &mut WorkerMemory::default()).unwrap();
            let want = explain_prompt(&model, prompt_for(&state), &forward_options(&state, kind)).unwrap().output;
            assert_eq!(got.logits, want.logits, "{kind:?}");
            assert_eq!(got.residuals, want.residuals, "{kind:?}");
            for (a, b) in got.layers.iter().zip(&want.layers) {
                assert_eq!(a.lambda, b.lambda);
                assert!(a.maps.iter().zip(&b.maps).all(|(x, y)| x.a1 == y.a1 && x.a2 == y.a2 && x.diff == y.diff && x.logits1 == y.logits1));
            }
            // One array short, or one too many: refused.
            let mut answer = table::read(&encode(&job)).unwrap().answer(&[&model], &mut WorkerMemory::default());
            answer.arrays.push(vec![0.0]);
            assert!(decode_answer::<ForwardJob>(answer.clone()).is_err(), "{kind:?}: an extra array");
            answer.arrays.truncate(answer.arrays.len() - 2);
            assert!(decode_answer::<ForwardJob>(answer).is_err(), "{kind:?}: a missing array");
        }
    }
    let job = ForwardJob { state: ModelState::default(), checkpoint: 0, kind: AttentionKind::DiffV1 };
    assert!(through_worker(&job, &[&Model::tiny(AttentionKind::DiffV2, 1)], &mut WorkerMemory::default()).unwrap_err().contains("given a diff_v2 model"));
}

/// Whatever order a problem's blocks come in from the workers, the problem is the one
/// computed here, bit for bit; one worker's memory serves every block of a problem.
#[test]
fn lab_blocks_through_the_workers_give_the_page_s_problem() {
    for n in [48, 300] {
        let params = LabParams { n, noise: 2.0, ..LabParams::default() };
        let here = LabAssembly::for_cpu(&params).run_all().unwrap();
        let mut memory = WorkerMemory::default();
        let mut by_workers = LabAssembly::for_cpu(&params);
        for rows in by_workers.missing().into_iter().rev() {
            by_workers.add(through_worker(&BlockJob { params: params.clone(), rows }, &[], &mut memory).unwrap()).unwrap();
        }
        assert!(memory.lab_inputs.as_ref().is_some_and(|(p, _)| *p == params));
        let by_workers = by_workers.run_all().unwrap();
        assert_eq!((by_workers.maps.a1 == here.maps.a1, by_workers.maps.a2 == here.maps.a2), (true, true), "n {n}");
        assert_eq!(by_workers.metrics(0.6), here.metrics(0.6), "n {n}");
        assert!(blocks(n).len() > 1);
    }
    let mut answer = table::read(&encode(&BlockJob { params: LabParams { n: 64, ..LabParams::default() }, rows: blocks(64)[0].clone() })).unwrap().answer(&[], &mut WorkerMemory::default());
    answer.arrays[4].pop();
    assert!(decode_answer::<BlockJob>(answer.clone()).unwrap_err().to_string().contains("not pairs"));
    answer.arrays.pop();
    assert!(decode_answer::<BlockJob>(answer).unwrap_err().to_string().contains("five arrays"));
    let far = BlockJob { params: LabParams { n: 64, ..LabParams::default() }, rows: 0..5 };
    assert!(through_worker(&far, &[], &mut WorkerMemory::default()).unwrap_err().contains("not a block"));
}

/// Each part of the noise charts is its point computed directly, bit for bit (the page's
/// slices of a part are compared with the worker's below, in `runner`).
#[test]
fn noise_chart_parts_are_their_points_computed_directly() {
    use crate::engine::lab::{context_lengths, noise_grid};
    let params = LabParams { n: 64, noise: 1.5, ..LabParams::default() };
    let job = |part| NoiseChartJob { params: params.clone(), lambda: 0.7, part };
    let sigma = noise_grid()[3];
    let mut direct = crate::core::lab::noise_point_stream(&params, 0.7, sigma);
    while direct.advance(5) {}
    let level = through_worker(&job(ChartPart::Level(sigma)), &[], &mut WorkerMemory::default());
    assert_eq!(level, Ok(ChartPoint::Level(NoiseSweepPoint::new(sigma, &direct.finish()))));
    let masses = context_lengths().into_iter().map(|n| crate::core::lab::noise_mass(&params, 0.7, n)).collect();
    assert_eq!(through_worker(&job(ChartPart::Masses), &[], &mut WorkerMemory::default()), Ok(ChartPoint::Masses(masses)));
    assert!(answer_of::<NoiseChartJob>(r#"{"ok":{"Level":{"noise":1.0,"standard_snr":2.0}}}"#, vec![]).is_err());
    assert!(answer_of::<NoiseChartJob>(r#"{"ok":{"Masses":[{"n":1.5,"standard":2,"standard_expected":3,"differential":4}]}}"#, vec![]).is_err());
}

mod training {
    use super::*;
    use crate::core::char_vocab::CharVocab;
    use crate::engine::train::{RunSpec, TaskData, TextData, TrainRun, PRESETS};
    use std::rc::Rc;

    pub(super) fn data() -> (TaskData, usize) {
        let text = "Now is the winter of our discontent made glorious summer by this sun of York. ".repeat(30);
        let vocab = CharVocab::of_text(&text);
        (TaskData::Text(TextData::from_text(&text, &vocab, PRESETS[0].context).unwrap()), vocab.size())
    }

    /// A job as the page sends it (text and arrays), through the worker's table and back.
    fn through(job: &TrainChunk) -> Result<ChunkOutput, String> {
        let parts = encode_parts(job);
        assert_eq!(decode_parts::<TrainChunk>(parts.clone()).as_ref(), Ok(job), "the job survives its message");
        let answer = table::read_parts(parts).map_err(|e| e.to_string())?.answer(&[], &mut WorkerMemory::default());
        decode_answer::<TrainChunk>(answer).map_err(|e| e.to_string())
    }

    /// A run in chunks through the worker's table equals the page's own run: the same
    /// losses, the same evaluation and the same weights, bit for bit, for every kind.
    #[test]
    fn training_chunks_through_a_worker_equal_the_run_on_the_page() {
        let (data, vocab) = data();
        for kind in AttentionKind::ALL {
            let spec = RunSpec { kind, seed: 3, preset: PRESETS[0], vocab };
            let mut direct = TrainRun::new(spec);
            let want: Vec<f32> = (0..4).map(|_| direct.train_step(&data).unwrap()).collect();
            let mut job = TrainChunk { spec, data: Rc::new(data.clone()), state: None, from: 0, steps: 0 };
            let (mut losses, mut weights) = (vec![], vec![]);
            for steps in [0, 3, 1] {
                job.steps = steps;
                let out = through(&job).unwrap();
                losses.extend(out.losses.clone());
                weights = out.weights.clone();
                assert_eq!((out.step, out.eval.as_ref().map(|e| e.step), out.probe.len()), (job.from + steps, Some(job.from + steps), 2), "{kind:?}");
                assert_eq!(out.probe[0].a2.is_some(), kind != AttentionKind::Baseline);
                job = TrainChunk { state: Some(out.state), from: out.step, ..job };
            }
            assert_eq!(losses, want, "{kind:?}");
            let resumed = TrainRun::from_arrays(spec, job.state.clone().unwrap(), 4).unwrap();
            assert_eq!(resumed.weights().to_bytes(), direct.weights().to_bytes(), "{kind:?}");
            // The page's model to keep, from the answer's names and shapes, without the training code.
            let mut kept = crate::core::weights::TensorStore::default();
            let state = job.state.clone().unwrap();
            weights.into_iter().for_each(|w| kept.insert(w.name, w.shape, state[w.at].clone()));
            assert_eq!(kept.to_bytes(), direct.weights().to_bytes(), "{kind:?}");
            job.steps = 0;
            assert_eq!(through(&job).unwrap().eval, Some(direct.evaluate(&data).unwrap()), "{kind:?}");
        }
    }

    #[test]
    fn a_damaged_training_chunk_or_answer_is_refused() {
        let (data, vocab) = data();
        let spec = RunSpec { kind: AttentionKind::DiffV1, seed: 1, preset: PRESETS[0], vocab };
        let job = TrainChunk { spec, data: Rc::new(data), state: None, from: 0, steps: 1 };
        let parts = encode_parts(&job);
        for (field, text) in without_each_field(&job) {
            assert!(table::read_parts(Parts { text, arrays: parts.arrays.clone() }).is_err(), "train without {field}");
        }
        let unknown_size = parts.text.replace("\"small\"", "\"huge\"");
        assert!(decode_parts::<TrainChunk>(Parts { text: unknown_size, arrays: parts.arrays.clone() }).unwrap_err().to_string().contains("no size is called \"huge\""));
        let refused = |p: Parts| decode_parts::<TrainChunk>(p).unwrap_err().to_string();
        assert!(refused(Parts { arrays: vec![], ..parts.clone() }).contains("without its text"));
        let mut bad = parts.clone();
        bad.arrays[0][5] = vocab as f32;
        assert!(refused(bad).contains("not a token id"));
        let later = TrainChunk { from: 5, ..job.clone() };
        assert!(refused(encode_parts(&later)).contains("without the run's state"));
        let wrong_state = TrainChunk { state: Some(vec![vec![1.0; 3]]), from: 5, ..job.clone() };
        assert!(through(&wrong_state).unwrap_err().contains("arrays"));
        let mut answer = table::read_parts(parts).unwrap().answer(&[], &mut WorkerMemory::default());
        answer.arrays.truncate(3);
        assert!(decode_answer::<TrainChunk>(answer).unwrap_err().to_string().contains("could not be read"));
    }
}

/// The one runner, through a pool in this process whose workers can fail: every job's
/// answer reaches the page once, from a worker or from the page's own slices.
mod runner {
    use super::*;
    use crate::engine::jobs::local_pool::LocalPool;
    use crate::engine::jobs::runner::{Outcome, Runner};
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    fn shipped(checkpoint: usize, seed: u64) -> Vec<(ModelKey, Rc<Model>)> {
        AttentionKind::ALL.iter().map(|k| ((k.slug().to_string(), checkpoint), Rc::new(Model::tiny(*k, seed)))).collect()
    }

    /// Each answer with its job, in arrival order.
    type Answers<J> = Vec<(J, Result<<J as Job>::Output, JobError>)>;

    /// Runs `jobs` through `runner`, collecting each answer (with its job) in arrival order.
    fn run_all<J: Job>(runner: &Runner, jobs: Vec<J>, alive: impl Fn() -> bool + 'static) -> (Answers<J>, Outcome<J>)
    where
        J::Output: 'static,
    {
        let got = Rc::new(RefCell::new(vec![]));
        let sink = got.clone();
        let outcome = pollster::block_on(runner.run(jobs, alive, move |job: &J, out| sink.borrow_mut().push((job.clone(), out))));
        (Rc::try_unwrap(got).ok().unwrap().into_inner(), outcome)
    }

    fn accuracy_jobs(count: usize) -> Vec<AccuracyChunk> {
        let state = ModelState { context: 64, seed: 4, ..ModelState::default() };
        chunks(count, 2).into_iter().map(|prompts| AccuracyChunk { state: state.clone(), checkpoint: 1, count, prompts }).collect()
    }

    fn total(answers: &Answers<AccuracyChunk>) -> Vec<(usize, usize)> {
        let mut t = vec![];
        for (_, counts) in answers {
            add(&mut t, counts.as_ref().unwrap());
        }
        t
    }

    /// A worker that fails after two answers: its job and the rest run on the page, in
    /// slices with pauses between them, and the counts are those of an unbroken run. The
    /// failure is reported once, and the page is told before it takes over.
    #[test]
    fn what_a_failed_worker_left_runs_on_the_page_and_adds_up() {
        let models = shipped(1, 6);
        let (whole, _) = run_all(&Runner::new(&LocalPool::with_models(models.clone())), accuracy_jobs(7), || true);
        let pool = LocalPool::with_models(models.clone()).failing_after(2);
        let notes = Rc::new(RefCell::new(vec![]));
        let sink = notes.clone();
        let runner = Runner::new(&pool).with_models(models).on_take_over(move |why| sink.borrow_mut().push(why.map(str::to_string)));
        let (answers, outcome) = run_all(&runner, accuracy_jobs(7), || true);
        assert_eq!(answers.len(), 4, "every chunk answered once");
        assert_eq!(total(&answers), total(&whole));
        assert_eq!((outcome.on_page, outcome.left.len(), outcome.failure.as_deref()), (2, 0, Some("the worker stopped")));
        assert_eq!(*pool.reports.borrow(), vec!["the worker stopped".to_string()]);
        assert_eq!(*notes.borrow(), vec![Some("the worker stopped".to_string())]);
        assert!(pool.pauses.get() >= 2, "the page paused between its slices: {}", pool.pauses.get());
    }

    /// No worker at all (a browser that started none): every job runs on the page.
    #[test]
    fn with_no_worker_the_page_runs_everything() {
        let models = shipped(1, 6);
        let pool = LocalPool::default().failing_after(0);
        let (answers, outcome) = run_all(&Runner::new(&pool).with_models(models.clone()), accuracy_jobs(5), || true);
        let (whole, _) = run_all(&Runner::new(&LocalPool::with_models(models)), accuracy_jobs(5), || true);
        assert_eq!((answers.len(), outcome.on_page, pool.answered.get()), (3, 3, 0));
        assert_eq!(total(&answers), total(&whole));
    }

    /// A stop (a newer run, the page left) ends the run: no answer after it, and nothing
    /// runs on the page.
    #[test]
    fn a_stop_ends_the_run_wherever_it_is() {
        let models = shipped(1, 6);
        let pool = LocalPool::with_models(models.clone()).failing_after(1);
        let answered = Rc::new(Cell::new(0));
        let seen = answered.clone();
        let runner = Runner::new(&pool).with_models(models);
        let got = pollster::block_on(runner.run(accuracy_jobs(9), move || seen.get() < 1, move |_, _| answered.set(answered.get() + 1)));
        assert_eq!((got.on_page, got.left.len()), (0, 0));
        assert_eq!(pool.pauses.get(), 0);
    }

    /// Told to leave them, the runner hands a failed worker's jobs back untouched.
    #[test]
    fn leftovers_can_be_left_to_the_caller() {
        let models = shipped(1, 6);
        let pool = LocalPool::with_models(models.clone()).failing_after(1);
        let (answers, outcome) = run_all(&Runner::new(&pool).with_models(models).leave_to_caller(), accuracy_jobs(6), || true);
        assert_eq!(answers.len(), 1);
        assert_eq!(outcome.left, accuracy_jobs(6)[1..].to_vec());
        assert_eq!(outcome.on_page, 0);
    }

    /// A job that fails in its worker reaches the page as that failure, typed, and is not
    /// run again; a job the page takes over without its models says which it lacks.
    #[test]
    fn a_job_s_own_failure_is_its_answer() {
        let state = ModelState::default();
        let job = ForwardJob { state, checkpoint: 3, kind: AttentionKind::DiffV1 };
        let (answers, outcome) = run_all(&Runner::new(&LocalPool::default()), vec![job.clone()], || true);
        assert_eq!(answers[0].1.as_ref().err(), Some(&JobError::Failed("models/diff_v1/3: HTTP 404".into())));
        assert_eq!(outcome.on_page, 0);
        let nobody = LocalPool::default().failing_after(0);
        let (answers, _) = run_all(&Runner::new(&nobody), vec![job], || true);
        assert!(answers[0].1.as_ref().unwrap_err().to_string().contains("no diff_v1 model at checkpoint 3"));
    }

    /// Every kind's slices on the page give what its worker gives, bit for bit.
    #[test]
    fn each_kind_s_slices_give_the_worker_s_answer() {
        fn same<J: Job>(jobs: Vec<J>, models: Vec<(ModelKey, Rc<Model>)>) -> Vec<J::Output>
        where
            J::Output: PartialEq + std::fmt::Debug + 'static,
        {
            let (by_workers, _) = run_all(&Runner::new(&LocalPool::with_models(models.clone())), jobs.clone(), || true);
            let nobody = LocalPool::default().failing_after(0);
            let (by_page, outcome) = run_all(&Runner::new(&nobody).with_models(models), jobs.clone(), || true);
            assert_eq!(outcome.on_page, jobs.len());
            let by_workers: Vec<J::Output> = by_workers.into_iter().map(|(_, o)| o.unwrap()).collect();
            assert_eq!(by_page.into_iter().map(|(_, o)| o.unwrap()).collect::<Vec<_>>(), by_workers, "{}", J::KIND);
            by_workers
        }
        let state = ModelState { context: 64, seed: 2, ..ModelState::default() };
        same(sweep_chunks(3, 2).into_iter().map(|(depth, prompts)| SweepChunk { state: state.clone(), checkpoint: 1, depth, count: 3, prompts }).collect(), shipped(1, 5));
        let params = LabParams { n: 64, noise: 1.5, ..LabParams::default() };
        let parts = [ChartPart::Masses, ChartPart::Level(0.5), ChartPart::Level(2.0)];
        same(parts.into_iter().map(|part| NoiseChartJob { params: params.clone(), lambda: 0.7, part }).collect(), vec![]);
        let blocks = same(blocks(300).into_iter().map(|rows| BlockJob { params: LabParams { n: 300, ..params.clone() }, rows }).collect(), vec![]);
        assert_eq!(blocks.len(), crate::engine::lab::blocks::blocks(300).len());
    }

    /// The page never trains: a chunk no worker took is left to the training page (which
    /// sends it again), and a runner that would take it over answers why it cannot.
    #[test]
    fn a_training_chunk_never_runs_on_the_page() {
        let (data, vocab) = training::data();
        let spec = crate::engine::train::RunSpec { kind: AttentionKind::DiffV2, seed: 2, preset: crate::engine::train::PRESETS[0], vocab };
        let chunk = TrainChunk { spec, data: Rc::new(data), state: None, from: 0, steps: 2 };
        let (answers, outcome) = run_all(&Runner::new(&LocalPool::default()), vec![chunk.clone()], || true);
        assert_eq!(answers[0].1.as_ref().map(|o| o.losses.len()), Ok(2), "a worker trains it");
        let nobody = LocalPool::default().failing_after(0);
        let (answers, outcome_left) = run_all(&Runner::new(&nobody).leave_to_caller(), vec![chunk.clone()], || true);
        assert!(answers.is_empty());
        assert_eq!((outcome_left.left, outcome_left.failure.is_some(), outcome.on_page), (vec![chunk.clone()], true, 0));
        let (answers, _) = run_all(&Runner::new(&nobody), vec![chunk], || true);
        assert!(answers[0].1.as_ref().unwrap_err().to_string().contains("the page does not train"));
    }
}
