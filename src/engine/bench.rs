//! `#/bench`'s measurements: the CPU path's and the WebGPU path's benchmarks on the
//! shapes of the README's performance table, as JSON. The clock is the caller's (the
//! page's high-resolution one), so this compiles and runs natively too.
//!
//! Every timed run is preceded by the caller's `pause`, which lets the browser paint and
//! answers whether to go on: the page stops the benchmark when the reader leaves it,
//! instead of freezing the next page for seconds.

use crate::core::attention::{AttentionOptions, MapRequest};
use crate::core::baseline::BaselineAttention;
use crate::core::config::{AttentionKind, AttnShape, ModelConfig};
use crate::core::diff_v1::DiffAttnV1;
use crate::core::init::{normal_matrix, seeded};
use crate::core::lab::LabParams;
use crate::core::model::{ForwardOptions, Model};
use crate::engine::lab::{GpuSession, LabRun, MapKind};
use crate::gpu::context::GpuContext;
use crate::gpu::model::GpuModel;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// Yields to the caller between timed runs; resolves to false when the benchmark should stop.
pub type Pause<'a> = &'a dyn Fn() -> Pin<Box<dyn Future<Output = bool>>>;

/// The page left: the benchmark stopped before it finished.
#[derive(Debug, PartialEq)]
pub struct Stopped;

/// The median of `runs` timed calls after one warm-up, pausing before each call.
async fn median_ms(clock: &dyn Fn() -> f64, pause: Pause<'_>, runs: usize, mut f: impl FnMut()) -> Result<f64, Stopped> {
    if !pause().await {
        return Err(Stopped);
    }
    f();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        if !pause().await {
            return Err(Stopped);
        }
        let t0 = clock();
        f();
        times.push(clock() - t0);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// The CPU path's benchmarks (the README's shapes) as JSON; `clock` is in milliseconds.
pub async fn cpu_report(clock: &dyn Fn() -> f64, pause: Pause<'_>) -> Result<String, Stopped> {
    let (t, e, h) = (1024, 256, 4);
    let x = normal_matrix(&mut seeded(1), t, e, 1.0);
    let opts = AttentionOptions { maps: MapRequest::None, ..Default::default() };
    let v1 = DiffAttnV1::random(&mut seeded(2), AttnShape::new(AttentionKind::DiffV1, e, h, None, None).expect("the benchmark layer's shape is valid"), 0.8);
    let plain = BaselineAttention::random(&mut seeded(3), AttnShape::new(AttentionKind::Baseline, e, h, None, Some(e / h / 2)).expect("the benchmark layer's shape is valid"));
    let v1_ms = median_ms(clock, pause, 5, || {
        std::hint::black_box(v1.forward(&x.view(), &opts, 0));
    })
    .await?;
    let plain_ms = median_ms(clock, pause, 5, || {
        std::hint::black_box(plain.forward(&x.view(), &opts, 0));
    })
    .await?;
    let mut lab = Vec::new();
    for n in [256usize, 1024, 2048] {
        let params = LabParams { n, ..LabParams::default() };
        let full = median_ms(clock, pause, 3, || {
            std::hint::black_box(LabRun::compute_cpu(&params));
        })
        .await?;
        let run = LabRun::compute_cpu(&params);
        let lambda_only = median_ms(clock, pause, 5, || {
            std::hint::black_box((run.pooled(MapKind::Diff, 0.5, n.min(384)), run.metrics(0.5)));
        })
        .await?;
        lab.push(format!(r#"{{"n": {n}, "full_ms": {full:.2}, "lambda_update_ms": {lambda_only:.2}}}"#));
    }
    Ok(format!(r#"{{"v1_forward_ms": {v1_ms:.2}, "two_plain_attentions_ms": {:.2}, "ratio": {:.3}, "lab_cpu": [{}]}}"#, 2.0 * plain_ms, v1_ms / (2.0 * plain_ms), lab.join(", ")))
}

/// The small model of the README's table (random weights; sizes are what matter).
fn small_model() -> Model {
    let config = ModelConfig::from_json(r#"{"attention": "diff_v1", "vocab_size": 64, "dim": 128, "n_layers": 4, "n_heads": 4, "ffn_hidden": 352}"#).expect("valid config");
    Model::random(config, 1).expect("valid model")
}

async fn median_async_ms<F: Future<Output = ()>>(clock: &dyn Fn() -> f64, pause: Pause<'_>, runs: usize, mut f: impl FnMut() -> F) -> Result<f64, Stopped> {
    f().await;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        if !pause().await {
            return Err(Stopped);
        }
        let t0 = clock();
        f().await;
        times.push(clock() - t0);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// The same computations on WebGPU, when the page has a device, as JSON.
pub async fn gpu_report(ctx: Option<Rc<GpuContext>>, clock: &dyn Fn() -> f64, pause: Pause<'_>) -> Result<String, Stopped> {
    let Some(ctx) = ctx else { return Ok(r#""no WebGPU device""#.into()) };
    let session = Rc::new(GpuSession::new(ctx.clone()));
    let mut lab = Vec::new();
    for n in [256usize, 1024] {
        let params = LabParams { n, ..LabParams::default() };
        let full = median_async_ms(clock, pause, 3, || {
            let s = session.clone();
            let p = params.clone();
            async move {
                let _ = s.maps(&p, &|| Box::pin(async {})).await.map(|a| a.run_all());
            }
        })
        .await?;
        let lambda = median_async_ms(clock, pause, 5, || {
            let s = session.clone();
            async move {
                if let Ok(rb) = s.lambda_update(0.5, n.min(384)) {
                    let _ = rb.read(&s.ctx, 4).await;
                }
            }
        })
        .await?;
        lab.push(format!(r#"{{"n": {n}, "full_ms": {full:.1}, "lambda_update_ms": {lambda:.1}}}"#));
    }
    let model = small_model();
    let gpu_model = Rc::new(GpuModel::new(&ctx, &model));
    let mut models = Vec::new();
    for t in [128usize, 512] {
        let tokens: Vec<u32> = (0..t).map(|i| (i * 31 % 64) as u32).collect();
        let maps = MapRequest::Only(vec![(3, 0)]);
        let cpu = median_ms(clock, pause, 3, || {
            std::hint::black_box(model.forward(&tokens, &ForwardOptions { maps: maps.clone(), ..Default::default() }).ok());
        })
        .await?;
        let gpu = median_async_ms(clock, pause, 3, || {
            let (m, c, tk, mp) = (gpu_model.clone(), ctx.clone(), tokens.clone(), maps.clone());
            async move {
                let _ = m.forward(&c, &tk, &mp).await;
            }
        })
        .await?;
        models.push(format!(r#"{{"t": {t}, "cpu_ms": {cpu:.1}, "gpu_ms": {gpu:.1}}}"#));
    }
    Ok(format!(r#"{{"lab": [{}], "small_model": [{}]}}"#, lab.join(", "), models.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_benchmark_stops_at_the_first_pause_after_the_page_is_left() {
        let pauses = Cell::new(0);
        let pause = || -> Pin<Box<dyn Future<Output = bool>>> {
            pauses.set(pauses.get() + 1);
            let go_on = pauses.get() < 3;
            Box::pin(async move { go_on })
        };
        let clock = || 0.0;
        assert_eq!(pollster::block_on(cpu_report(&clock, &pause)), Err(Stopped));
        assert_eq!(pauses.get(), 3, "nothing ran after the pause that said stop");
    }
}
