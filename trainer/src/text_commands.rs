//! The text models' subcommands: what each reads, runs and writes.

use crate::text::card::{sha256_hex, write_training, CorpusInfo};
use crate::text::configs::text_config;
use crate::text::corpus::{self, Corpus};
use crate::text::train::{self as text_train, TextTrainOptions};
use difflens::core::char_vocab::CharVocab;
use std::path::Path;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn read_corpus() -> Result<Corpus> {
    let dir = corpus::default_plays_dir();
    corpus::read(&dir).map_err(|e| format!("cannot read the plays under {} ({e}); run scripts/fetch-corpus.sh first", dir.display()).into())
}

/// The shipped vocabulary, `vocab.json` under `models`.
pub fn read_vocab(models: &Path) -> Result<CharVocab> {
    Ok(CharVocab::from_json(&std::fs::read_to_string(models.join("vocab.json"))?)?)
}

pub fn corpus(out: &Path) -> Result<()> {
    let corpus = read_corpus()?;
    std::fs::create_dir_all(out)?;
    let vocab = CharVocab::of_text(&corpus.train_text());
    // Plain copies to read or grep; the trainer reads the plays themselves.
    let plain = corpus::default_plays_dir().join("../../..");
    std::fs::write(plain.join("train.txt"), corpus.train_text())?;
    std::fs::write(plain.join("held_out.txt"), corpus.held_out_text())?;
    std::fs::write(out.join("vocab.json"), vocab.to_json() + "\n")?;
    let info = CorpusInfo::of(&corpus);
    println!("{}", serde_json::to_string_pretty(&info)?);
    println!("vocabulary: {} characters + unknown; vocab.json sha256 {}", vocab.size() - 1, sha256_hex(vocab.to_json().as_bytes()));
    let held: usize = info.held_out_chars;
    println!("held out: {:.1}% of the characters", 100.0 * held as f64 / (held + info.train_chars) as f64);
    Ok(())
}

/// The start of `text` up to `max` characters, cut after the last full line.
fn up_to_line(text: &str, max: usize) -> &str {
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let cut = text[..end].rfind('\n').map_or(end, |i| i + 1);
    &text[..cut]
}

/// The training page's texts (`www/train-text/`): whole training plays up to
/// `train_chars` characters, and the first held-out play's start.
pub fn train_text(out: &Path, train_chars: usize, held_out_chars: usize) -> Result<()> {
    let corpus = read_corpus()?;
    let (mut train, mut names) = (String::new(), vec![]);
    for play in &corpus.train {
        if train.chars().count() + play.text.chars().count() > train_chars && !train.is_empty() {
            break;
        }
        train.push_str(&play.text);
        names.push(play.name.as_str());
    }
    let held = up_to_line(&corpus.held_out[0].text, held_out_chars);
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("train.txt"), &train)?;
    std::fs::write(out.join("held_out.txt"), held)?;
    println!("train.txt: {} characters ({}), sha256 {}", train.chars().count(), names.join(", "), sha256_hex(train.as_bytes()));
    println!("held_out.txt: {} characters (the start of {}), sha256 {}", held.chars().count(), corpus.held_out[0].name, sha256_hex(held.as_bytes()));
    Ok(())
}

pub fn train(opts: &TextTrainOptions, out: &Path) -> Result<()> {
    let corpus = read_corpus()?;
    let vocab = read_vocab(out)?;
    let (train_tokens, held_out) = (vocab.encode(&corpus.train_text()), vocab.encode(&corpus.held_out_text()));
    let report = text_train::train(opts, vocab.size(), &train_tokens, &held_out)?;
    let command = format!(
        "difflens-trainer text-train --kind {} --steps {} --batch {} --lr {} --seed {}{}",
        opts.kind.slug(),
        opts.steps,
        opts.batch,
        opts.lr,
        opts.seed,
        if opts.final_only { " --final-only" } else { "" }
    );
    write_training(out, opts, text_config(opts.kind, vocab.size()), &report, CorpusInfo::of(&corpus), &command)
}

pub fn eval(models: &Path, seeds: &Path) -> Result<()> {
    let corpus = read_corpus()?;
    let vocab = read_vocab(models)?;
    let summary = crate::text::eval::evaluate_all(models, seeds, &corpus, &vocab)?;
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(())
}
