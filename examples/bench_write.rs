//! Benchmark (issue 46): "Write on" natively, the three shipped text models writing
//! together, round-robin, 400 characters each after a line of Hamlet, as the text page
//! writes them (each character one row appended to a kept pass; the window refilled every
//! 32 characters once full). Median of 5 runs, characters per second per model. The
//! page runs the same code compiled to wasm; `tests/e2e/bench-text.mjs` times it there.
//!
//! `cargo run --release --example bench_write`

use difflens::core::attention::LambdaOverride;
use difflens::core::model::Model;
use difflens::engine::model::library::ModelLibrary;
use difflens::engine::text::session::load;
use difflens::engine::text::writer::{Sampling, Writer, MAX_WRITTEN};
use difflens::engine::text::FOLDER;
use std::time::Instant;

fn main() {
    let www = format!("{}/www", env!("CARGO_MANIFEST_DIR"));
    let models = pollster::block_on(load(&ModelLibrary::in_folder(FOLDER), 4, |path: String| {
        let www = www.clone();
        async move { std::fs::read(format!("{www}/{path}")).map_err(|e| format!("{path}: {e}")) }
    }))
    .expect("the shipped text models load");
    let with: Vec<(&Model, LambdaOverride)> = models.models.iter().map(|m| (&**m, LambdaOverride::Learnt)).collect();
    let mut rates: Vec<f64> = (0..5)
        .map(|_| {
            let mut writer = Writer::new("To be, or not to be, that is the question:", 3, Sampling { temperature: 0.8, top_k: 10, seed: 1 });
            let t = Instant::now();
            writer.write_while(&with, &models.vocab, || true).expect("the models write");
            MAX_WRITTEN as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    println!("Write on, three models together: {:.0} characters per second per model (median of 5; {:.0}–{:.0})", rates[2], rates[0], rates[4]);
}
