//! Benchmark (issue 43): one training step of each kind at the training page's sizes,
//! native, release, one thread, on the page's Shakespeare excerpt (`www/train-text/`):
//! the median of 9 steps after 3 warm-up steps, and characters per second (a step reads
//! batch × context characters). The page runs the same code compiled to wasm in a worker;
//! `tests/e2e/bench-train.mjs` times it there.
//!
//! `cargo run --release --example bench_train`

use difflens::core::char_vocab::CharVocab;
use difflens::core::config::AttentionKind;
use difflens::engine::train::{RunSpec, TaskData, TextData, TrainRun, PRESETS};
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
}
