//! The GPU benchmarks (issue 17, `scripts/bench-gpu.sh`), natively on wgpu with whatever
//! adapter the machine has (Mesa's lavapipe here; a hardware GPU where there is one),
//! against the CPU core, in both row layouts (`gpu::layout`):
//! - the noise lab, N = 256 … 4096: a full recompute (both softmax maps, read back) and
//!   a λ-only update (pooled difference + metrics);
//! - a small DIFF V1 model (E = 128, 4 layers, 4 differential heads, SwiGLU 352,
//!   vocabulary 64), T = 128 … 2048: logits plus one head's maps;
//! - the softmax and the combine passes alone at N = 1024 … 4096, as achieved memory
//!   bandwidth: the bytes a pass must move at least (the map written; for the combine,
//!   two maps read and one written) over its time, and the fraction of the device's peak
//!   where the peak is known (a table of common GPUs below, or `DIFFLENS_PEAK_GBPS`).
//!
//! Times are wall-clock medians around a submission and the wait for it (natively the
//! device is polled), after a warm-up; a pass alone is dispatched as many times in one
//! submission as fill about 50 ms, so the submission's own cost is spread over them.
//! Prints Markdown tables.
//!
//! `cargo run --release --example bench_gpu -- [--max-n 4096] [--max-t 2048] [--runs 5]
//! [--tables lab,model,passes]`

use difflens::core::attention::MapRequest;
use difflens::core::config::ModelConfig;
use difflens::core::lab::{self, LabParams};
use difflens::core::model::{ForwardOptions, Model};
use difflens::engine::lab::{LabRun, MapKind};
use difflens::gpu::context::GpuContext;
use difflens::gpu::kernels::{grid_1d, storage, uniform, write_f32, Kernel, COMBINE_WGSL};
use difflens::gpu::lab::GpuLab;
use difflens::gpu::layout::RowLayout;
use difflens::gpu::model::GpuModel;
use difflens::gpu::params::{CombineParams, SoftmaxUniform};
use difflens::gpu::softmax::{Softmax, SoftmaxParams};
use std::time::Instant;

struct Options {
    max_n: usize,
    max_t: usize,
    runs: usize,
    /// Which tables: any of "lab", "model", "passes".
    tables: Vec<String>,
}

fn options() -> Options {
    let mut o = Options { max_n: 4096, max_t: 2048, runs: 5, tables: vec!["lab".into(), "model".into(), "passes".into()] };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = || pair.get(1).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{} needs a number", pair[0]));
        match pair[0].as_str() {
            "--max-n" => o.max_n = value(),
            "--max-t" => o.max_t = value(),
            "--runs" => o.runs = value().max(1),
            "--tables" => o.tables = pair.get(1).map(|v| v.split(',').map(str::to_string).collect()).unwrap_or_default(),
            other => panic!("unknown option {other} (--max-n, --max-t, --runs, --tables lab,model,passes)"),
        }
    }
    o
}

/// Median milliseconds of `runs` calls after a warm-up; a call over two seconds is not
/// repeated more than twice (the software adapter's largest sizes).
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let t0 = Instant::now();
    f();
    let runs = if t0.elapsed().as_secs_f64() > 2.0 { runs.min(3) } else { runs };
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Peak memory bandwidth in GB/s of GPUs we may be lent, by a part of the adapter's name
/// (the vendors' data sheets); `DIFFLENS_PEAK_GBPS` names it for any other.
fn peak_gbps(adapter: &str) -> Option<f64> {
    if let Some(v) = std::env::var("DIFFLENS_PEAK_GBPS").ok().and_then(|v| v.parse().ok()) {
        return Some(v);
    }
    const KNOWN: [(&str, f64); 10] = [
        ("H200", 4800.0),
        ("H100 PCIe", 2000.0),
        ("H100", 3350.0),
        ("A100-SXM4-80GB", 2039.0),
        ("A100", 1555.0),
        ("L40S", 864.0),
        ("RTX 4090", 1008.0),
        ("RTX 3090", 936.0),
        ("A10", 600.0),
        ("T4", 320.0),
    ];
    KNOWN.iter().find(|(name, _)| adapter.contains(name)).map(|(_, gbps)| *gbps)
}

fn sizes(from: usize, to: usize) -> Vec<usize> {
    std::iter::successors(Some(from), |n| Some(n * 2)).take_while(|n| *n <= to).collect()
}

fn layout_name(layout: RowLayout) -> &'static str {
    match layout {
        RowLayout::WorkgroupPerRow => "workgroup per row",
        RowLayout::InvocationPerRow => "invocation per row",
    }
}

fn lab_table(ctx: &GpuContext, layouts: &[RowLayout], o: &Options) {
    println!("\n### Noise lab: full recompute (A1 and A2, read back) and λ-only update (pooled to ≤ 384 px + metrics), ms\n");
    print!("| N | CPU full | CPU λ |");
    layouts.iter().for_each(|l| print!(" GPU full ({}) | GPU λ ({}) |", layout_name(*l), layout_name(*l)));
    println!();
    println!("|---|---|---|{}", "---|---|".repeat(layouts.len()));
    let mut labs: Vec<GpuLab> = layouts.iter().map(|l| GpuLab::with_layout(ctx, *l)).collect();
    for n in sizes(256, o.max_n) {
        let params = LabParams { n, ..LabParams::default() };
        let inputs = lab::generate(&params);
        let px = n.min(384);
        let cpu_full = median_ms(o.runs, || {
            std::hint::black_box(LabRun::compute_cpu(&params));
        });
        let run = LabRun::compute_cpu(&params);
        let cpu_lambda = median_ms(o.runs, || {
            std::hint::black_box((run.pooled(MapKind::Diff, 0.5, px), run.metrics(0.5)));
        });
        print!("| {n} | {cpu_full:.1} | {cpu_lambda:.2} |");
        for gpu in labs.iter_mut() {
            let full = median_ms(o.runs, || {
                std::hint::black_box(pollster::block_on(gpu.load(ctx, &inputs).unwrap().read(ctx, &|| Box::pin(async {}))).unwrap());
            });
            let lambda = median_ms(o.runs, || {
                std::hint::black_box(pollster::block_on(gpu.lambda_update(ctx, 0.5, px).unwrap().read(ctx, inputs.signal_keys.len())).unwrap());
            });
            print!(" {full:.1} | {lambda:.2} |");
        }
        println!();
    }
}

fn model_table(ctx: &GpuContext, layouts: &[RowLayout], o: &Options) {
    println!("\n### Model forward (DIFF V1, E = 128, 4 layers × 4 heads, SwiGLU 352): logits + one head's maps, read back, ms\n");
    print!("| T | CPU |");
    layouts.iter().for_each(|l| print!(" GPU ({}) |", layout_name(*l)));
    println!();
    println!("|---|---|{}", "---|".repeat(layouts.len()));
    let config = ModelConfig::from_json(r#"{"attention": "diff_v1", "vocab_size": 64, "dim": 128, "n_layers": 4, "n_heads": 4, "ffn_hidden": 352}"#).unwrap();
    let model = Model::random(config, 1).unwrap();
    let gpus: Vec<GpuModel> = layouts.iter().map(|l| GpuModel::with_layout(ctx, &model, *l)).collect();
    let maps = MapRequest::Only(vec![(3, 0)]);
    for t in sizes(128, o.max_t) {
        let tokens: Vec<u32> = (0..t).map(|i| (i * 31 % 64) as u32).collect();
        let opts = ForwardOptions { maps: maps.clone(), ..Default::default() };
        let cpu = median_ms(o.runs, || {
            std::hint::black_box(model.forward(&tokens, &opts).unwrap());
        });
        print!("| {t} | {cpu:.1} |");
        for g in &gpus {
            let ms = median_ms(o.runs, || {
                std::hint::black_box(pollster::block_on(g.forward(ctx, &tokens, &maps)).unwrap());
            });
            print!(" {ms:.1} |");
        }
        println!();
    }
}

/// Milliseconds per dispatch of `kernel`: as many dispatches in one submission as fill
/// about 50 ms (one on a slow adapter, dozens on a fast one), waited for.
fn pass_ms(ctx: &GpuContext, kernel: &Kernel, group: &wgpu::BindGroup, grid: (u32, u32), runs: usize) -> f64 {
    let submit = |reps: usize| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for _ in 0..reps {
                kernel.dispatch(&mut pass, group, grid);
            }
        }
        ctx.queue.submit([encoder.finish()]);
        ctx.device.poll(wgpu::PollType::wait_indefinitely()).expect("the GPU answers");
    };
    let one = median_ms(1, || submit(1));
    let reps = ((50.0 / one.max(1e-3)).ceil() as usize).clamp(1, 256);
    median_ms(runs, || submit(reps)) / reps as f64
}

fn bandwidth_table(ctx: &GpuContext, layouts: &[RowLayout], o: &Options) {
    let peak = peak_gbps(&ctx.adapter_name);
    println!(
        "\n### Softmax and combine passes alone: achieved memory bandwidth, GB/s{}\n",
        match peak {
            Some(p) => format!(" (and the fraction of this device's peak of {p:.0} GB/s)"),
            None if ctx.software => " (a software adapter: it runs on the CPU's memory, so no GPU peak applies)".into(),
            None => " (this adapter's peak is not in the table: set DIFFLENS_PEAK_GBPS to get the fraction)".into(),
        }
    );
    print!("| N (d = 32) |");
    layouts.iter().for_each(|l| print!(" softmax ({}) |", layout_name(*l)));
    println!(" combine A1 − λ·A2 |");
    println!("|---|{}---|", "---|".repeat(layouts.len()));
    let rate = |bytes: f64, ms: f64| {
        let gbps = bytes / ms / 1e6;
        match peak {
            Some(p) => format!("{gbps:.0} ({:.0}%) in {ms:.2} ms", 100.0 * gbps / p),
            None => format!("{gbps:.2} in {ms:.2} ms"),
        }
    };
    let dev = &ctx.device;
    let combine = Kernel::new(dev, "combine", COMBINE_WGSL);
    let d = 32usize;
    for n in sizes(1024, o.max_n) {
        let (q, k) = (storage(dev, "q", n * d), storage(dev, "k", n * d));
        let fill: Vec<f32> = (0..n * d).map(|i| ((i * 7919 % 1000) as f32 / 1000.0) - 0.5).collect();
        write_f32(&ctx.queue, &q, &fill);
        write_f32(&ctx.queue, &k, &fill);
        let (a1, a2, out) = (storage(dev, "a1", n * n), storage(dev, "a2", n * n), storage(dev, "out", n * n));
        print!("| {n} |");
        // The least a softmax moves: its map written, Q and K read once.
        let softmax_bytes = 4.0 * (n * n + 2 * n * d) as f64;
        for layout in layouts {
            let softmax = Softmax::new(dev, *layout);
            let p = SoftmaxParams::dense(n, n, d, false, 1.0 / (d as f32).sqrt());
            let params = uniform(dev, "softmax params", &p.uniform());
            let (kernel, grid) = softmax.pick(&p);
            let group = kernel.bind::<SoftmaxUniform>(dev, &params, &[("q", &q), ("k", &k), ("out", &a1)]);
            print!(" {} |", rate(softmax_bytes, pass_ms(ctx, kernel, &group, grid, o.runs)));
        }
        let lambdas = storage(dev, "lambdas", 1);
        let grid = grid_1d(n * n);
        let params = uniform(dev, "combine params", &CombineParams { rows: n as u32, cols: n as u32, per_row: 0, lambda: 0.8, groups_x: grid.0, lambda_stride: 1, ..Default::default() });
        let group = combine.bind::<CombineParams>(dev, &params, &[("a1", &a1), ("a2", &a2), ("lambdas", &lambdas), ("out", &out)]);
        println!(" {} |", rate(12.0 * (n * n) as f64, pass_ms(ctx, &combine, &group, grid, o.runs)));
    }
}

fn main() {
    let o = options();
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::all())).expect("a GPU adapter (lavapipe: Debian mesa-vulkan-drivers)");
    let preferred = RowLayout::preferred(&ctx);
    let other = match preferred {
        RowLayout::WorkgroupPerRow => RowLayout::InvocationPerRow,
        RowLayout::InvocationPerRow => RowLayout::WorkgroupPerRow,
    };
    println!("## GPU benchmarks on {} ({} adapter; the app uses \"{}\" here)", ctx.adapter_name, if ctx.software { "software" } else { "hardware" }, layout_name(preferred));
    let aligned = SoftmaxParams::dense(8, 8, 32, false, 1.0);
    let subgroups = ctx.device.features().contains(wgpu::Features::SUBGROUP);
    println!(
        "\nThe workgroup layout's softmax for vec4-aligned heads: {:?} (the device {} the subgroups feature).",
        Softmax::new(&ctx.device, RowLayout::WorkgroupPerRow).kernel(&aligned),
        if subgroups { "has" } else { "lacks" }
    );
    println!("The workgroup layout's λ update of the lab: {:?}.", GpuLab::with_layout(&ctx, RowLayout::WorkgroupPerRow).lambda_kernel());
    println!("\nMedians of {} runs after a warm-up (3 where one run takes over 2 s); CPU: the core, one thread.", o.runs);
    let layouts = [preferred, other];
    let wanted = |t: &str| o.tables.iter().any(|x| x == t);
    if wanted("lab") {
        lab_table(&ctx, &layouts, &o);
    }
    if wanted("model") {
        model_table(&ctx, &layouts, &o);
    }
    if wanted("passes") {
        bandwidth_table(&ctx, &layouts, &o);
    }
}
