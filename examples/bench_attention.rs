//! Benchmark (issue: core math): one DIFF V1 layer forward at T = 1024, E = 256, H = 4,
//! against two plain softmax attentions of the same shape (H = 4 heads of d = 32 each:
//! together the same 8 maps, the same projection sizes and the same P·V work), so the
//! ratio isolates what differential attention adds (the combine and the per-head norm).
//! Native, release, one thread (matrixmultiply is single-threaded without its
//! `threading` feature). Prints the median of 9 runs after one warm-up.
//!
//! `cargo run --release --example bench_attention`

use difflens::core::attention::{AttentionOptions, MapRequest};
use difflens::core::baseline::BaselineAttention;
use difflens::core::config::{AttentionKind, AttnShape};
use difflens::core::diff_v1::DiffAttnV1;
use difflens::core::init::{normal_matrix, seeded};
use std::time::Instant;

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let (t, e, h) = (1024, 256, 4);
    let x = normal_matrix(&mut seeded(1), t, e, 1.0);
    let opts = AttentionOptions { maps: MapRequest::None, ..Default::default() };
    let v1 = DiffAttnV1::random(&mut seeded(2), AttnShape::new(AttentionKind::DiffV1, e, h, None, None).unwrap(), 0.8);
    let plain_shape = AttnShape::new(AttentionKind::Baseline, e, h, None, Some(e / h / 2)).unwrap();
    let plain = BaselineAttention::random(&mut seeded(3), plain_shape);
    let v1_ms = median_ms(|| {
        std::hint::black_box(v1.forward(&x.view(), &opts, 0));
    });
    let plain_ms = median_ms(|| {
        std::hint::black_box(plain.forward(&x.view(), &opts, 0));
    });
    let with_maps = AttentionOptions { maps: MapRequest::All, ..Default::default() };
    let v1_maps_ms = median_ms(|| {
        std::hint::black_box(v1.forward(&x.view(), &with_maps, 0));
    });
    println!("DIFF V1 layer forward, T={t} E={e} H={h}, causal, RoPE: median {v1_ms:.1} ms (keeping all maps: {v1_maps_ms:.1} ms)");
    println!("one plain softmax attention (H={h}, d={}): median {plain_ms:.1} ms; two: {:.1} ms", e / h / 2, 2.0 * plain_ms);
    println!("ratio V1 / two plain attentions: {:.2}x (target <= 1.3x)", v1_ms / (2.0 * plain_ms));
}
