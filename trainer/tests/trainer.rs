//! The trainer's model is the core's model; training learns; the shipped checkpoints
//! are what their cards say.

use candle_core::{Device, Tensor};
use difflens::core::config::{AttentionKind, KvPairing, ModelConfig};
use difflens::core::model::{ForwardOptions, Model};
use difflens_trainer::card::ModelCard;
use difflens_trainer::configs::model_config;
use difflens_trainer::eval::{load_final, training_length_accuracy};
use difflens_trainer::model::CandleModel;
use difflens_trainer::train::{mean_loss, train, TrainOptions};
use std::path::Path;

const KINDS: [AttentionKind; 3] = [AttentionKind::Baseline, AttentionKind::DiffV1, AttentionKind::DiffV2];

/// Same weights, same logits: candle (training) against the core (the page), 1e-4.
#[test]
fn the_training_model_matches_the_core() {
    let grouped = |kind| ModelConfig { n_kv_heads: Some(model_config(kind).n_heads / 2), kv_pairing: KvPairing::Naive, subln: false, ..model_config(kind) };
    for config in KINDS.into_iter().flat_map(|kind| [model_config(kind), grouped(kind)]) {
        let kind = (config.attention, config.n_kv_heads);
        let core = Model::random(config.clone(), 5).unwrap();
        let candle = CandleModel::from_store(&core.to_store(), config).unwrap();
        let tokens: Vec<u32> = (0..23).map(|i| (i * 13 % 76) as u32).collect();
        let want = core.forward(&tokens, &ForwardOptions::default()).unwrap().logits;
        let got = candle.forward(&Tensor::new(tokens.as_slice(), &Device::Cpu).unwrap().unsqueeze(0).unwrap()).unwrap().squeeze(0).unwrap().to_vec2::<f32>().unwrap();
        let err = want.rows().into_iter().zip(&got).flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()).collect::<Vec<_>>()).fold(0.0f32, f32::max);
        assert!(err < 1e-4, "{kind:?}: logits differ by {err}");
    }
}

#[test]
fn a_short_training_run_lowers_the_loss() {
    for kind in [AttentionKind::DiffV1, AttentionKind::DiffV2] {
        let opts = TrainOptions { kind, warmup: 10, steps: 40, batch: 16, lr: 3e-3, seed: 7, log_every: 1000 };
        let (model, report) = train(&opts).unwrap();
        let initial = CandleModel::from_store(&report.checkpoints[0].weights, model_config(kind)).unwrap();
        let (before, after) = (mean_loss(&initial, 99, 4, 16).unwrap(), mean_loss(&model, 99, 4, 16).unwrap());
        assert!(after < before - 0.2, "{kind:?}: loss {before} → {after}");
        assert_eq!(report.checkpoints.iter().map(|c| c.step).collect::<Vec<_>>(), vec![0, 5, 10, 18, 50]);
    }
}

/// Every shipped model reaches its card's accuracy on the card's evaluation prompts, so
/// a checkpoint that disagrees with its card fails CI. Evaluation is deterministic (the
/// same core code, seeded prompts); the 0.01 tolerance only absorbs a platform's float
/// summation order flipping a near-tie.
#[test]
fn shipped_checkpoints_match_their_cards() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/models");
    let mut checked = 0;
    for kind in ["baseline", "diff_v1", "diff_v2"] {
        let dir = models.join(kind);
        let card = ModelCard::read(&dir).unwrap_or_else(|e| panic!("www/models/{kind}/card.json: {e}"));
        let eval = card.eval.as_ref().unwrap_or_else(|| panic!("{kind}: the card has no evaluation"));
        let claimed = eval["accuracy_at_training_length"].as_f64().unwrap();
        let (model, _) = load_final(&dir).unwrap();
        let measured = training_length_accuracy(&model, 100, None);
        assert!((measured - claimed).abs() <= 0.01, "{kind}: card says {claimed}, the shipped checkpoint gets {measured}");
        for c in &card.checkpoints {
            assert!(dir.join(&c.file).exists(), "{kind}: checkpoint {} is missing", c.file);
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(!name.ends_with(".safetensors") || card.checkpoints.iter().any(|c| c.file == name), "{kind}: {name} is shipped but not in the card");
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
    let total: u64 = walk(&models);
    assert!(total <= 6 * 1024 * 1024, "shipped models take {total} bytes (budget 6 MB)");
}

fn walk(dir: &Path) -> u64 {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).map(|p| if p.is_dir() { walk(&p) } else { p.metadata().unwrap().len() }).sum()
}

/// The page's live Tables 2, 3 and 5 (`engine::evidence`) are the evaluation's (the
/// README's numbers), computed on the same prompts of the shipped models: accuracy counts
/// equal, Table 3's weights within 1e-6 (sums of the same f32s, in f64), Table 5 equal.
#[test]
fn the_page_computes_the_papers_tables_as_the_evaluation_does() {
    use difflens::engine::explorer::evidence::{AccuracyRun, DepthSweep, Magnitudes, DEPTHS};
    use difflens_trainer::configs::TRAIN_CONTEXT;
    use difflens_trainer::eval::{accuracy, attention_weights, magnitudes, prompts};
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/models");
    let loaded: Vec<_> = ["baseline", "diff_v1", "diff_v2"].iter().map(|k| load_final(&models.join(k)).unwrap().0).collect();
    let all: Vec<&Model> = loaded.iter().collect();
    for (context, bits) in [(TRAIN_CONTEXT, None), (4 * TRAIN_CONTEXT, Some(4))] {
        let batch = prompts(context, 4, 2, None, 12);
        let mut run = AccuracyRun::new(batch.clone(), vec![ForwardOptions { logit_quant_bits: bits, ..Default::default() }; 3]);
        while run.step(&all).unwrap() {}
        for (m, model) in all.iter().enumerate() {
            assert_eq!(run.accuracy(m), accuracy(model, &batch, bits), "model {m}, context {context}, bits {bits:?}");
        }
    }
    let count = 4;
    let mut sweep = DepthSweep::new(DEPTHS.iter().map(|&d| (d, prompts(TRAIN_CONTEXT, 4, 1, Some(d), count))).collect(), vec![ForwardOptions::default(); 3]);
    while sweep.step(&all).unwrap() {}
    for (m, model) in all.iter().enumerate() {
        let (by_depth, _) = attention_weights(model, count);
        for ((depth, net), want) in sweep.curve(m).iter().zip(&by_depth) {
            assert_eq!(*depth, want.depth);
            assert!((net.answer - want.answer).abs() < 1e-6 && (net.noise - want.noise).abs() < 1e-6, "model {m} depth {depth}: {net:?} vs {want:?}");
        }
        let opts = ForwardOptions { maps: difflens::core::attention::MapRequest::All, keep_logits: true, ..Default::default() };
        let outputs: Vec<_> = prompts(TRAIN_CONTEXT, 4, 2, None, 3).iter().map(|p| model.forward(&p.tokens, &opts).unwrap()).collect();
        let (logits, top1, median) = magnitudes(model, 3);
        assert_eq!(Magnitudes::of(&outputs), Magnitudes { logits, hidden_top1: top1, hidden_median: median }, "model {m}");
    }
}
