//! `#/bench`: the CPU path's benchmarks, run in the browser (wasm) with the same shapes
//! as the native ones, so the README can compare them. Results appear as JSON in
//! `#bench-result`; the browser benchmark script reads them.

use crate::core::attention::{AttentionOptions, MapRequest};
use crate::core::baseline::BaselineAttention;
use crate::core::config::{AttentionKind, AttnShape};
use crate::core::diff_v1::DiffAttnV1;
use crate::core::init::{normal_matrix, seeded};
use crate::core::lab::LabParams;
use crate::engine::lab::{LabRun, MapKind};
use leptos::prelude::*;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..runs).map(|_| { let t0 = now_ms(); f(); now_ms() - t0 }).collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn run_all() -> String {
    let (t, e, h) = (1024, 256, 4);
    let x = normal_matrix(&mut seeded(1), t, e, 1.0);
    let opts = AttentionOptions { maps: MapRequest::None, ..Default::default() };
    let v1 = DiffAttnV1::random(&mut seeded(2), AttnShape::new(AttentionKind::DiffV1, e, h, None, None).unwrap(), 0.8);
    let plain = BaselineAttention::random(&mut seeded(3), AttnShape::new(AttentionKind::Baseline, e, h, None, Some(e / h / 2)).unwrap());
    let v1_ms = median_ms(5, || { std::hint::black_box(v1.forward(&x.view(), &opts, 0)); });
    let plain_ms = median_ms(5, || { std::hint::black_box(plain.forward(&x.view(), &opts, 0)); });
    let lab: Vec<String> = [256usize, 1024, 2048]
        .into_iter()
        .map(|n| {
            let params = LabParams { n, ..LabParams::default() };
            let full = median_ms(3, || { std::hint::black_box(LabRun::compute_cpu(&params)); });
            let run = LabRun::compute_cpu(&params);
            let lambda_only = median_ms(5, || { std::hint::black_box((run.pooled(MapKind::Diff, 0.5, n.min(384)), run.metrics(0.5))); });
            format!(r#"{{"n": {n}, "full_ms": {full:.2}, "lambda_update_ms": {lambda_only:.2}}}"#)
        })
        .collect();
    format!(r#"{{"v1_forward_ms": {v1_ms:.2}, "two_plain_attentions_ms": {:.2}, "ratio": {:.3}, "lab_cpu": [{}]}}"#, 2.0 * plain_ms, v1_ms / (2.0 * plain_ms), lab.join(", "))
}

#[component]
pub fn BenchPage() -> impl IntoView {
    let result = RwSignal::new(None::<String>);
    // Start after the first paint so the page shows that it is working.
    set_timeout(move || result.set(Some(run_all())), std::time::Duration::from_millis(50));
    view! {
        <section class="page">
            <h2>"Benchmarks"</h2>
            <p class="explain">"The CPU path (WebAssembly) on the shapes of the README's performance table. Takes a few seconds."</p>
            <pre id="bench-result">{move || result.get().unwrap_or_else(|| "running…".into())}</pre>
        </section>
    }
}
