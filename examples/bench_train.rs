//! Benchmark (issue 43): one training step of each kind at the training page's sizes,
//! native, release, one thread, on the page's Shakespeare excerpt (`www/train-text/`):
//! the median of 9 steps after 3 warm-up steps, and characters per second (a step reads
//! batch × context characters). The page runs the same code compiled to wasm in a worker;
//! `tests/e2e/bench-train.mjs` times it there.
//!
//! Then the needle task: each kind fine-tuned from its shipped warm-up checkpoint for the
//! needle preset's steps, three seeds, evaluated every 10 steps: the first step at which
//! the held-out retrieval accuracy reaches 90 % and the time it took (native: the page's
//! worker is about 3.5 times slower per step).
//!
//! `cargo run --release --example bench_train`

use difflens::core::char_vocab::CharVocab;
use difflens::core::config::AttentionKind;
use difflens::engine::model::{load_checkpoint, CardInfo};
use difflens::engine::train::needle::{VOCAB, WARMUP_CHECKPOINT};
use difflens::engine::train::{RunSpec, TaskData, TextData, TrainRun, NEEDLE, PRESETS};
use std::time::Instant;

fn main() {
    let read = |name: &str| std::fs::read_to_string(format!("{}/www/{name}", env!("CARGO_MANIFEST_DIR"))).expect("the shipped texts");
    let vocab = CharVocab::from_json(&read("text-models/vocab.json")).expect("the shipped vocabulary");
    for preset in PRESETS {
        let data = TaskData::Text(TextData::split(&read("train-text/train.txt"), &read("train-text/held_out.txt"), &vocab, preset.context).expect("the excerpt fits"));
        for kind in AttentionKind::ALL {
            let mut run = TrainRun::new(RunSpec { kind, seed: 1, preset, vocab: vocab.size() });
            for _ in 0..3 {
                run.train_step(&data).expect("a finite loss");
            }
            let mut times: Vec<f64> = (0..9)
                .map(|_| {
                    let t = Instant::now();
                    run.train_step(&data).expect("a finite loss");
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let ms = times[4];
            let chars = (preset.batch * preset.context) as f64 / (ms / 1000.0);
            println!("{:6} {:9}: {:7.1} ms a step, {:8.0} characters per second, {} parameters", preset.id, kind.slug(), ms, chars, run.parameter_count());
        }
    }
    needle(&read);
}

/// Steps to 90 % held-out retrieval accuracy on the needle task, per kind and seed.
fn needle(read: &dyn Fn(&str) -> String) {
    for kind in AttentionKind::ALL {
        let card = CardInfo::parse("card.json", &read(&format!("models/{}/card.json", kind.slug()))).expect("the shipped card");
        let file = format!("{}/www/models/{}/{}", env!("CARGO_MANIFEST_DIR"), kind.slug(), card.checkpoints[WARMUP_CHECKPOINT].file);
        let model = load_checkpoint(&card.config, &std::fs::read(file).expect("the shipped checkpoint")).expect("it loads");
        for seed in 1..=3 {
            let mut run = TrainRun::start_from(RunSpec { kind, seed, preset: NEEDLE, vocab: VOCAB }, &model.to_store()).expect("the needle size");
            let (t0, mut reached, mut last) = (Instant::now(), None, 0.0);
            while !run.done() {
                for _ in 0..10 {
                    run.train_step(&TaskData::Needle).expect("a finite loss");
                }
                last = run.evaluate(&TaskData::Needle).expect("finite").accuracy.unwrap_or(0.0);
                if last >= 0.9 && reached.is_none() {
                    reached = Some((run.step(), t0.elapsed().as_secs_f64()));
                }
            }
            let when = reached.map_or_else(|| "never".to_string(), |(step, s)| format!("step {step} ({s:.1} s)"));
            println!("needle {:9} seed {seed}: 90 % at {when}; {:.0} % after {} steps, {:.1} s", kind.slug(), 100.0 * last, run.step(), t0.elapsed().as_secs_f64());
        }
    }
}
