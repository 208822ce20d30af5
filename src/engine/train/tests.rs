//! The training engine natively: matched presets, the data split and its errors, a run in
//! chunks equal to a run in one go, a run that learns, a NaN caught with its step, and
//! the verdict's statistics.

use super::*;
use crate::core::char_vocab::CharVocab;
use crate::core::config::AttentionKind;
use crate::core::init::seeded;
use rand::Rng;

/// A text with structure a small model learns fast: sentences of words from a short list.
fn words_text(chars: usize) -> String {
    const WORDS: [&str; 12] = ["the", "king", "shall", "speak", "and", "queen", "will", "not", "hear", "my", "lord", "good"];
    let mut rng = seeded(3);
    let mut text = String::new();
    while text.len() < chars {
        let n = rng.random_range(3..8);
        let sentence: Vec<&str> = (0..n).map(|_| WORDS[rng.random_range(0..WORDS.len())]).collect();
        text.push_str(&sentence.join(" "));
        text.push_str(". ");
    }
    text
}

/// A quick preset for tests: the small one, narrower and shorter.
fn quick() -> Preset {
    Preset { id: "test", dim: 32, context: 32, batch: 8, steps: 120, lr: 1e-2, eval_every: 20, ..PRESETS[0] }
}

#[test]
fn the_three_kinds_of_each_preset_are_matched_in_size() {
    for p in PRESETS {
        let counts: Vec<usize> = AttentionKind::ALL.iter().map(|&k| TrainRun::new(RunSpec { kind: k, seed: 1, preset: p, vocab: 77 }).parameter_count()).collect();
        let (lo, hi) = (*counts.iter().min().unwrap() as f64, *counts.iter().max().unwrap() as f64);
        assert!(hi / lo < 1.01, "{}: {counts:?}", p.id);
    }
}

#[test]
fn a_text_splits_or_says_why_not() {
    let text = words_text(5000);
    let vocab = CharVocab::of_text(&text);
    let data = TextData::from_text(&text, &vocab, 32).unwrap();
    assert_eq!(data.train.len() + data.held_out.len(), text.chars().count());
    assert_eq!(data.held_out.len(), text.chars().count() / 10);
    assert_eq!(TextData::from_text("the king", &vocab, 32), Err(DataError::TooShort { have: 8, need: 132 }));
    assert_eq!(TextData::from_text(&format!("{text}Été!"), &vocab, 32), Err(DataError::Unknown(vec!['É', 'é', '!'])));
    // The windows of a step depend on the seed and the step alone; targets are the next token.
    let a = data.batch(1, 7, 4, 32);
    assert_eq!(a, data.batch(1, 7, 4, 32));
    assert_ne!(a.tokens, data.batch(2, 7, 4, 32).tokens);
    assert_ne!(a.tokens, data.batch(1, 8, 4, 32).tokens);
    assert_eq!(a.tokens[1..32], a.targets[..31].iter().map(|t| t.unwrap()).collect::<Vec<_>>()[..]);
}

/// A run stepped in chunks, its state carried between them as a worker's job would, ends
/// with the same losses and weights, bit for bit, as a run stepped in one go.
#[test]
fn a_run_in_chunks_equals_a_run_in_one_go() {
    let text = words_text(6000);
    let vocab = CharVocab::of_text(&text);
    let data = TaskData::Text(TextData::from_text(&text, &vocab, 32).unwrap());
    let spec = RunSpec { kind: AttentionKind::DiffV1, seed: 4, preset: quick(), vocab: vocab.size() };
    let mut whole = TrainRun::new(spec);
    let straight: Vec<f32> = (0..9).map(|_| whole.train_step(&data).unwrap()).collect();
    let mut chunked = vec![];
    let mut run = TrainRun::new(spec);
    for _ in 0..3 {
        chunked.extend((0..3).map(|_| run.train_step(&data).unwrap()));
        let (state, steps) = run.state();
        run = TrainRun::resume(spec, &state, steps).unwrap();
    }
    assert_eq!(straight, chunked);
    assert_eq!(whole.weights().to_bytes(), run.weights().to_bytes());
    let (mut state, steps) = run.state();
    state.insert("adam.m.norm.weight", vec![3], vec![0.0; 3]);
    assert!(matches!(TrainRun::resume(spec, &state, steps), Err(RunError::State(e)) if e.contains("adam.m.norm.weight")));
}

/// Every kind learns the word text: the held-out loss falls below the unigram entropy of
/// its characters, and λ is reported per layer for the DIFF kinds only.
#[test]
fn every_kind_learns_below_the_unigram_entropy() {
    let text = words_text(20_000);
    let vocab = CharVocab::of_text(&text);
    let text_data = TextData::from_text(&text, &vocab, 32).unwrap();
    let mut counts = vec![0usize; vocab.size()];
    text_data.train.iter().for_each(|&t| counts[t as usize] += 1);
    let n = text_data.train.len() as f64;
    let data = TaskData::Text(text_data);
    let unigram: f64 = counts.iter().filter(|&&c| c > 0).map(|&c| -(c as f64 / n) * (c as f64 / n).ln()).sum();
    for kind in AttentionKind::ALL {
        let mut run = TrainRun::new(RunSpec { kind, seed: 1, preset: quick(), vocab: vocab.size() });
        let start = run.evaluate(&data).unwrap();
        while !run.done() {
            run.train_step(&data).unwrap();
        }
        let end = run.evaluate(&data).unwrap();
        assert!((end.held_out as f64) < unigram * 0.8, "{kind:?}: {} → {} (unigram {unigram:.3})", start.held_out, end.held_out);
        assert_eq!(end.lambdas.len(), if kind == AttentionKind::Baseline { 0 } else { 2 }, "{kind:?}");
        let maps = run.probe(&data.probe(32));
        assert_eq!((maps.len(), maps[0].a1.dim(), maps[0].a2.is_some()), (2, (32, 32), kind != AttentionKind::Baseline));
        assert_eq!(run.block_losses(&data).len(), data.held_out_windows(32).len());
    }
}

#[test]
fn a_loss_that_is_not_a_number_stops_the_run_at_its_step() {
    let text = words_text(6000);
    let vocab = CharVocab::of_text(&text);
    let data = TaskData::Text(TextData::from_text(&text, &vocab, 32).unwrap());
    let spec = RunSpec { kind: AttentionKind::DiffV2, seed: 2, preset: quick(), vocab: vocab.size() };
    let mut run = TrainRun::new(spec);
    run.train_step(&data).unwrap();
    let (mut state, steps) = run.state();
    let t = state.get("norm.weight").unwrap().clone();
    state.insert("norm.weight", t.shape, vec![f32::NAN; t.data.len()]);
    let mut broken = TrainRun::resume(spec, &state, steps).unwrap();
    assert_eq!(broken.train_step(&data), Err(RunError::NotFinite { step: 1 }));
}

#[test]
fn the_verdict_claims_only_what_both_intervals_support() {
    let base: Vec<Vec<f32>> = (0..3).map(|s| (0..40).map(|b| 1.9 + 0.1 * ((b * 7 + s) % 5) as f32).collect()).collect();
    let shifted =
        |by: f32, noise: f32| base.iter().enumerate().map(|(s, row)| row.iter().enumerate().map(|(b, v)| v + by + noise * (((s * 13 + b * 5) % 7) as f32 - 3.0)).collect()).collect::<Vec<Vec<f32>>>();
    assert_eq!(compare(&shifted(-0.05, 0.001), &base).finding, Finding::Better);
    assert_eq!(compare(&shifted(0.05, 0.001), &base).finding, Finding::Worse);
    assert_eq!(compare(&shifted(0.0, 0.02), &base).finding, Finding::NotDistinguishable);
    let one = compare(&shifted(-0.05, 0.0)[..1], &base[..1]);
    assert_eq!((one.finding, one.seeds), (Finding::OneSeed, None));
    assert!((one.mean + 0.05).abs() < 1e-6 && one.blocks.0 < one.blocks.1 + 1e-9);
    // Seeds that disagree in sign hold zero however tight each one's blocks are.
    let mixed: Vec<Vec<f32>> = base.iter().zip([-0.03f32, 0.04, -0.01]).map(|(row, d)| row.iter().map(|v| v + d).collect()).collect();
    let c = compare(&mixed, &base);
    assert_eq!(c.finding, Finding::NotDistinguishable);
    assert_eq!(c.per_seed.len(), 3);
    let (lo, hi) = verdict::t_interval(&[1.0, 2.0, 3.0]).unwrap();
    assert!((lo - (2.0 - 4.303 / 3f64.sqrt())).abs() < 1e-9 && (hi - (2.0 + 4.303 / 3f64.sqrt())).abs() < 1e-9);
}

/// The board through rounds of chunk jobs run as a worker would: every run reaches its
/// last step, a failed run is marked and the others go on, a stale answer is ignored, and
/// the verdict and the CSV follow.
#[test]
fn a_board_runs_every_kind_and_seed_to_the_end() {
    use crate::engine::jobs::{Job, Training};
    let text = words_text(8000);
    let vocab = CharVocab::of_text(&text);
    let preset = Preset { steps: 6, eval_every: 4, ..PRESETS[0] };
    let data = TaskData::Text(TextData::from_text(&text, &vocab, preset.context).unwrap());
    let mut board = Board::new(preset, &AttentionKind::ALL, 2, data, vocab.size());
    assert_eq!(board.runs.len(), 6);
    let mut rounds = 0;
    while !board.finished() {
        let jobs = board.next_jobs();
        rounds += 1;
        for job in &jobs {
            // The second seed's V1 run loses its worker in the second round.
            let answer = if rounds == 2 && job.spec.kind == AttentionKind::DiffV1 && job.spec.seed == 2 {
                Err("the worker stopped".to_string())
            } else {
                Training(job.clone()).run(&[], &mut Default::default())
            };
            board.take(job, answer.clone());
            board.take(job, answer);
        }
        assert!(rounds < 10);
    }
    assert_eq!(rounds, 3, "start, 4 steps, 2 steps");
    let failed: Vec<_> = board.runs.iter().filter(|r| r.failure.is_some()).map(|r| (r.spec.kind, r.spec.seed)).collect();
    assert_eq!(failed, vec![(AttentionKind::DiffV1, 2)]);
    for r in board.runs.iter().filter(|r| r.failure.is_none()) {
        assert_eq!((r.step, r.losses.len(), r.evals.len(), r.snapshots.len()), (6, 6, 3, 3), "{:?}", r.spec);
        assert!(r.weights().is_some() && r.blocks.is_some());
    }
    let verdicts = board.verdicts();
    assert_eq!(verdicts.iter().map(|(k, c)| (*k, c.per_seed.len())).collect::<Vec<_>>(), vec![(AttentionKind::DiffV1, 1), (AttentionKind::DiffV2, 2)]);
    assert_eq!(verdicts[0].1.finding, Finding::OneSeed);
    assert_eq!(board.final_losses(AttentionKind::Baseline).len(), 2);
    assert_eq!(board.progress(), (6 * 5, 36));
    assert_eq!(board.csv().lines().count(), 1 + 5 * (3 + 6) + 1, "the failed run has its untrained evaluation");
    // The bands: the baseline's two seeds over all six steps; V1's failed seed holds its
    // band at the step it reached (none).
    let band = board.loss_band(AttentionKind::Baseline, 3);
    assert_eq!(band.len(), 6);
    assert!(band.iter().all(|&(_, mean, lo, hi)| lo <= mean && mean <= hi));
    assert_eq!(band[0].0, 1.0);
    assert!(board.loss_band(AttentionKind::DiffV1, 3).is_empty());
    assert_eq!(board.held_out_band(AttentionKind::DiffV2).iter().map(|b| b.0).collect::<Vec<_>>(), vec![0.0, 4.0, 6.0]);
    assert_eq!(board.lambda_curves(AttentionKind::DiffV2).len(), 2, "one curve a layer");
    assert!(board.lambda_curves(AttentionKind::Baseline).is_empty());
}

mod needle_task {
    use super::*;
    use crate::core::retrieval::{PAD, VOCAB_SIZE};
    use crate::engine::model::{load_checkpoint, CardInfo};
    use crate::engine::train::needle::{self, WARMUP_CHECKPOINT};

    fn shipped_warm_up(kind: AttentionKind) -> crate::core::model::Model {
        let dir = format!("{}/www/models/{}", env!("CARGO_MANIFEST_DIR"), kind.slug());
        let card = CardInfo::parse("card.json", &std::fs::read_to_string(format!("{dir}/card.json")).unwrap()).unwrap();
        let at = &card.checkpoints[WARMUP_CHECKPOINT];
        assert_eq!(at.label, "after the copy warm-up");
        load_checkpoint(&card.config, &std::fs::read(format!("{dir}/{}", at.file)).unwrap()).unwrap()
    }

    /// A step's prompts depend on the seed and the step only; each is scored at its
    /// answers alone, and padded after them.
    #[test]
    fn needle_batches_are_the_seed_s_and_scored_on_the_answers() {
        let a = needle::batch(3, 7, 16);
        assert_eq!(a, needle::batch(3, 7, 16));
        assert_ne!(a.tokens, needle::batch(4, 7, 16).tokens);
        assert_ne!(a.tokens, needle::batch(3, 8, 16).tokens);
        let scored = a.targets.iter().filter(|t| t.is_some()).count();
        assert!((16..=32).contains(&scored), "one or two questions a prompt: {scored}");
        for row in 0..16 {
            let (tokens, targets) = (&a.tokens[row * a.seq_len..(row + 1) * a.seq_len], &a.targets[row * a.seq_len..(row + 1) * a.seq_len]);
            let last = targets.iter().rposition(Option::is_some).unwrap();
            assert_eq!(Some(tokens[last + 1]), targets[last], "row {row}: the answer follows its question");
            assert!(tokens[last + 2..].iter().all(|&t| t == PAD), "row {row}: a prompt ends at its last answer");
            assert!(tokens[..=last + 1].iter().all(|&t| t != PAD), "row {row}: no padding before its last answer");
        }
        assert_eq!(needle::held_out_blocks().len() * 8, needle::FINAL_PROMPTS);
    }

    /// A needle run starts from the shipped weights exactly, and fine-tuning teaches
    /// retrieval: the held-out accuracy climbs and the loss falls within 60 steps, for
    /// every kind.
    #[test]
    fn a_needle_run_learns_retrieval_from_the_shipped_warm_up() {
        for kind in AttentionKind::ALL {
            let model = shipped_warm_up(kind);
            assert_eq!(model.config, NEEDLE.config(kind, VOCAB_SIZE), "{kind:?}: the needle preset is the shipped size");
            let spec = RunSpec { kind, seed: 1, preset: NEEDLE, vocab: VOCAB_SIZE };
            let mut run = TrainRun::start_from(spec, &model.to_store()).unwrap();
            assert_eq!(run.weights().to_bytes(), TrainRun::start_from(spec, &run.weights()).unwrap().weights().to_bytes());
            let store = model.to_store();
            let w = run.weights();
            assert!(w.names().all(|n| w.get(n).unwrap().data == store.get(n).unwrap().data), "{kind:?}: the shipped weights");
            let before = run.evaluate(&TaskData::Needle).unwrap();
            let t0 = std::time::Instant::now();
            for _ in 0..60 {
                run.train_step(&TaskData::Needle).unwrap();
            }
            let after = run.evaluate(&TaskData::Needle).unwrap();
            eprintln!("{kind:?}: accuracy {:?} → {:?}, loss {} → {}, {:.1} ms a step", before.accuracy, after.accuracy, before.held_out, after.held_out, t0.elapsed().as_secs_f64() * 1e3 / 60.0);
            assert!(after.accuracy.unwrap() > before.accuracy.unwrap() + 0.2, "{kind:?}: {before:?} → {after:?}");
            assert!(after.held_out < before.held_out, "{kind:?}");
        }
    }
}
