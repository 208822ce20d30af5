//! One suite for every kind of job: each goes through the worker's table and back as
//! the page would send and read it, and gives what the page computes itself, bit for
//! bit; every damaged job or answer is refused with a reason, never a panic.

use crate::engine::explorer::evidence::{fresh_prompts, run_spec, AccuracyRun, DepthSweep, Net, DEPTHS};
use crate::engine::jobs::table::{self, JOBS};
use crate::engine::jobs::*;
use crate::engine::lab::blocks::{blocks, LabAssembly};
use crate::engine::lab::charts::{SlowCharts, Step};
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
    decode_answer::<J>(runnable.answer(models, memory))
}

#[test]
fn the_table_has_each_kind_once_and_refuses_strangers() {
    let mut kinds: Vec<&str> = JOBS.iter().map(|e| e.kind).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), JOBS.len());
    for message in ["", "garbage", "_job=", "_job=teleport&x=1", "_job=accuracy", "_job=block&from=0&to=4&params=%7B"] {
        assert!(table::read(message).is_err(), "{message:?}");
    }
    assert!(decode::<SweepChunk>(&encode(&ForwardJob { state: ModelState::default(), checkpoint: 0, kind: AttentionKind::DiffV1 })).unwrap_err().contains("not a job of kind sweep"));
}

/// Every pair a job writes is needed: without any one of them the job is refused.
#[test]
fn a_job_missing_any_of_its_own_keys_is_refused() {
    /// `link`: the job carries the explorer's link, whose own keys start with `_` (the
    /// link's keys have defaults).
    fn each_key<J: Job>(job: &J, link: bool) {
        for (key, _) in job.write().iter().filter(|(k, _)| !link || k.starts_with('_')) {
            let pairs: Pairs = std::iter::once(("_job".to_string(), J::KIND.to_string())).chain(job.write().into_iter().filter(|(k, _)| k != key)).collect();
            assert!(table::read(&crate::state::query::format(&pairs)).is_err(), "{} without {key}", J::KIND);
        }
    }
    let state = ModelState::default();
    each_key(&AccuracyChunk { state: state.clone(), checkpoint: 1, count: 10, prompts: 2..4 }, true);
    each_key(&SweepChunk { state: state.clone(), checkpoint: 1, depth: 2, count: 10, prompts: 2..4 }, true);
    each_key(&ForwardJob { state, checkpoint: 1, kind: AttentionKind::DiffV2 }, true);
    each_key(&BlockJob { params: LabParams::default(), rows: 0..4 }, false);
    each_key(&NoiseChartJob { params: LabParams::default(), lambda: 0.5, part: ChartPart::Level(1.0) }, false);
    assert!(decode::<AccuracyChunk>("_job=accuracy&_ckpt=0&_count=10&_from=5&_to=50").unwrap_err().contains("not within"));
    assert!(decode::<SweepChunk>("_job=sweep&_ckpt=0&_depth=5&_count=10&_from=0&_to=5").unwrap_err().contains("not within"));
    assert!(decode::<ForwardJob>("_job=forward&_ckpt=0&_model=gpt").unwrap_err().contains("gpt"));
}

/// A failure in the worker reaches the page as that failure, for every kind; an
/// answer that is not one (empty, a stranger's, cut short) says it cannot be read.
#[test]
fn failures_and_damaged_answers_say_why() {
    fn check<J: Job>() {
        let failed = decode_answer::<J>(failure("models/diff_v1/x.safetensors: HTTP 404 & more".into()));
        assert_eq!(failed.err().as_deref(), Some("models/diff_v1/x.safetensors: HTTP 404 & more"), "{}", J::KIND);
        for text in ["", "unrelated=1", "counts=3&sums=x&numbers=&shapes=&masses=1/2&level=1"] {
            let damaged = decode_answer::<J>(Parts { text: text.into(), arrays: vec![vec![1.0]] });
            assert!(damaged.err().is_some_and(|e| e.contains("could not be read")), "{}: {text:?}", J::KIND);
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
    let (pairs, _) = AccuracyChunk::write_output(vec![(3, 15), (15, 15)]);
    assert_eq!(AccuracyChunk::read_output(&Fields::parse(&crate::state::query::format(&pairs)), vec![]), Ok(vec![(3, 15), (15, 15)]));
    assert!(AccuracyChunk::read_output(&Fields::parse("counts=3"), vec![]).is_err());
    assert!(AccuracyChunk::read_output(&Fields::parse("counts=1.5/2"), vec![]).is_err());
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
    let (pairs, _) = SweepChunk::write_output(tricky.clone());
    assert_eq!(SweepChunk::read_output(&Fields::parse(&crate::state::query::format(&pairs)), vec![]), Ok(tricky), "bit for bit");
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
    assert!(decode_answer::<BlockJob>(answer.clone()).unwrap_err().contains("not pairs"));
    answer.arrays.pop();
    assert!(decode_answer::<BlockJob>(answer).unwrap_err().contains("five arrays"));
    let far = BlockJob { params: LabParams { n: 64, ..LabParams::default() }, rows: 0..5 };
    assert!(through_worker(&far, &[], &mut WorkerMemory::default()).unwrap_err().contains("not a block"));
}

/// Each part of the noise charts is the page's own `SlowCharts` point, bit for bit.
#[test]
fn noise_chart_parts_are_the_slow_charts_own_points() {
    let params = LabParams { n: 64, noise: 1.5, ..LabParams::default() };
    let mut chart = SlowCharts::new(&params, 0.7);
    let (mut masses, mut first) = (None, None);
    while masses.is_none() || first.is_none() {
        match chart.step(7) {
            Step::Masses(m) => masses = Some(m),
            Step::Noise(p) if first.is_none() => first = Some(p),
            Step::Done => break,
            _ => {}
        }
    }
    let job = |part| NoiseChartJob { params: params.clone(), lambda: 0.7, part };
    let level = through_worker(&job(ChartPart::Level(crate::engine::lab::noise_grid()[0])), &[], &mut WorkerMemory::default());
    assert_eq!(level, Ok(ChartPoint::Level(first.unwrap())));
    assert_eq!(through_worker(&job(ChartPart::Masses), &[], &mut WorkerMemory::default()), Ok(ChartPoint::Masses(masses.unwrap())));
    assert!(NoiseChartJob::read_output(&Fields::parse("level=1/2"), vec![]).is_err());
    assert!(NoiseChartJob::read_output(&Fields::parse("masses=1.5/2/3/4"), vec![]).is_err());
}

mod training {
    use super::*;
    use crate::core::char_vocab::CharVocab;
    use crate::engine::train::{RunSpec, TextData, TrainRun, PRESETS};
    use std::rc::Rc;

    fn data() -> (TextData, usize) {
        let text = "Now is the winter of our discontent made glorious summer by this sun of York. ".repeat(30);
        let vocab = CharVocab::of_text(&text);
        (TextData::from_text(&text, &vocab, PRESETS[0].context).unwrap(), vocab.size())
    }

    /// A job as the page sends it (text and arrays), through the worker's table and back.
    fn through(job: &TrainChunk) -> Result<ChunkOutput, String> {
        let parts = encode_parts(job);
        assert_eq!(decode_parts::<TrainChunk>(parts.clone()).as_ref(), Ok(job), "the job survives its message");
        decode_answer::<TrainChunk>(table::read_parts(parts)?.answer(&[], &mut WorkerMemory::default()))
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
            let mut losses = vec![];
            for steps in [0, 3, 1] {
                job.steps = steps;
                let out = through(&job).unwrap();
                losses.extend(out.losses.clone());
                assert_eq!((out.step, out.eval.as_ref().map(|e| e.step), out.probe.len()), (job.from + steps, Some(job.from + steps), 2), "{kind:?}");
                assert_eq!(out.probe[0].a2.is_some(), kind != AttentionKind::Baseline);
                job = TrainChunk { state: Some(out.state), from: out.step, ..job };
            }
            assert_eq!(losses, want, "{kind:?}");
            let resumed = TrainRun::from_arrays(spec, job.state.clone().unwrap(), 4).unwrap();
            assert_eq!(resumed.weights().to_bytes(), direct.weights().to_bytes(), "{kind:?}");
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
        for (key, _) in job.write() {
            let pairs: Pairs = std::iter::once(("_job".to_string(), "train".to_string())).chain(job.write().into_iter().filter(|(k, _)| *k != key)).collect();
            assert!(table::read_parts(Parts { text: crate::state::query::format(&pairs), arrays: parts.arrays.clone() }).is_err(), "train without {key}");
        }
        let refused = |p: Parts| decode_parts::<TrainChunk>(p).unwrap_err();
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
        assert!(decode_answer::<TrainChunk>(answer).unwrap_err().contains("could not be read"));
    }
}
