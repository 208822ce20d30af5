//! Benchmark (issue: WebGPU path), natively on wgpu (Mesa's lavapipe here, any adapter
//! elsewhere) against the CPU core:
//! - the noise lab, N ∈ {256, 1024, 2048}: a full recompute (both softmax maps, read
//!   back) and a λ-only update (pooled difference + metrics);
//! - a small DIFF V1 model (E = 128, 4 layers, 4 differential heads, SwiGLU 352,
//!   vocabulary 64), T ∈ {128, 512}: logits plus one head's maps.
//! Medians of 7 runs after a warm-up.
//!
//! `cargo run --release --example bench_gpu`

use difflens::core::attention::MapRequest;
use difflens::core::config::ModelConfig;
use difflens::core::lab::{self, LabParams};
use difflens::core::model::{ForwardOptions, Model};
use difflens::engine::lab::{LabRun, MapKind};
use difflens::gpu::context::GpuContext;
use difflens::gpu::lab::GpuLab;
use difflens::gpu::layout::RowLayout;
use difflens::gpu::model::GpuModel;
use std::time::Instant;

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..7)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[3]
}

fn main() {
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::all())).expect("a GPU adapter (lavapipe: Debian mesa-vulkan-drivers)");
    println!("adapter: {} ({})", ctx.adapter_name, if ctx.software { "software" } else { "hardware" });
    // The adapter's own row layout first, then the other one for comparison.
    let preferred = RowLayout::preferred(&ctx);
    let other = match preferred {
        RowLayout::WorkgroupPerRow => RowLayout::InvocationPerRow,
        RowLayout::InvocationPerRow => RowLayout::WorkgroupPerRow,
    };
    for layout in [preferred, other] {
        println!("row kernels: {layout:?}{}", if layout == preferred { " (what the app uses here)" } else { "" });
        let mut gpu = GpuLab::with_layout(&ctx, layout);
        for n in [256usize, 1024, 2048] {
            let params = LabParams { n, ..LabParams::default() };
            let inputs = lab::generate(&params);
            let px = n.min(384);
            let cpu_full = median_ms(|| {
                std::hint::black_box(LabRun::compute_cpu(&params));
            });
            let run = LabRun::compute_cpu(&params);
            let cpu_lambda = median_ms(|| {
                std::hint::black_box((run.pooled(MapKind::Diff, 0.5, px), run.metrics(0.5)));
            });
            let gpu_full = median_ms(|| {
                std::hint::black_box(pollster::block_on(gpu.load(&ctx, &inputs).unwrap().read(&ctx)).unwrap());
            });
            let gpu_lambda = median_ms(|| {
                std::hint::black_box(pollster::block_on(gpu.lambda_update(&ctx, 0.5, px).unwrap().read(&ctx, inputs.signal_keys.len())).unwrap());
            });
            println!(
                "N={n:5}: full recompute  CPU {cpu_full:8.1} ms  GPU {gpu_full:8.1} ms | λ-only  CPU {cpu_lambda:6.2} ms  GPU {gpu_lambda:6.2} ms | GPU full/λ = {:.0}x",
                gpu_full / gpu_lambda
            );
        }
    }
    let config = ModelConfig::from_json(r#"{"attention": "diff_v1", "vocab_size": 64, "dim": 128, "n_layers": 4, "n_heads": 4, "ffn_hidden": 352}"#).unwrap();
    let model = Model::random(config, 1).unwrap();
    let gpu_model = GpuModel::new(&ctx, &model);
    let maps = MapRequest::Only(vec![(3, 0)]);
    for t in [128usize, 512] {
        let tokens: Vec<u32> = (0..t).map(|i| (i * 31 % 64) as u32).collect();
        let opts = ForwardOptions {
            maps: maps.clone(),
            ..Default::default()
        };
        let cpu = median_ms(|| {
            std::hint::black_box(model.forward(&tokens, &opts).unwrap());
        });
        let gpu = median_ms(|| {
            std::hint::black_box(pollster::block_on(gpu_model.forward(&ctx, &tokens, &maps)).unwrap());
        });
        println!("small V1 model, T={t:4}: CPU {cpu:7.1} ms  GPU {gpu:7.1} ms");
    }
}
