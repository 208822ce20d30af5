//! Benchmark (issue: WebGPU path): the noise lab natively on wgpu (Mesa's lavapipe here,
//! any adapter elsewhere) against the CPU core, N ∈ {256, 1024, 2048}: a full recompute
//! (both softmax maps, read back) and a λ-only update (pooled difference + metrics).
//! Medians of 7 runs after a warm-up.
//!
//! `cargo run --release --example bench_gpu_lab`

use difflens::core::lab::{self, LabParams};
use difflens::engine::lab::{LabRun, MapKind};
use difflens::gpu::context::GpuContext;
use difflens::gpu::lab::GpuLab;
use std::time::Instant;

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..7).map(|_| { let t0 = Instant::now(); f(); t0.elapsed().as_secs_f64() * 1e3 }).collect();
    t.sort_by(f64::total_cmp);
    t[3]
}

fn main() {
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::all())).expect("a GPU adapter (lavapipe: Debian mesa-vulkan-drivers)");
    println!("adapter: {}", ctx.adapter_name);
    let mut gpu = GpuLab::new(&ctx);
    for n in [256usize, 1024, 2048] {
        let params = LabParams { n, ..LabParams::default() };
        let inputs = lab::generate(&params);
        let px = n.min(384);
        let cpu_full = median_ms(|| { std::hint::black_box(LabRun::compute_cpu(&params)); });
        let run = LabRun::compute_cpu(&params);
        let cpu_lambda = median_ms(|| { std::hint::black_box((run.pooled(MapKind::Diff, 0.5, px), run.metrics(0.5))); });
        let gpu_full = median_ms(|| { std::hint::black_box(pollster::block_on(gpu.load(&ctx, &inputs).unwrap().read(&ctx)).unwrap()); });
        let gpu_lambda = median_ms(|| { std::hint::black_box(pollster::block_on(gpu.lambda_update(&ctx, 0.5, px).unwrap().read(&ctx, inputs.signal_keys.len())).unwrap()); });
        println!("N={n:5}: full recompute  CPU {cpu_full:8.1} ms  GPU {gpu_full:8.1} ms | λ-only  CPU {cpu_lambda:6.2} ms  GPU {gpu_lambda:6.2} ms | GPU full/λ = {:.0}x", gpu_full / gpu_lambda);
    }
}
