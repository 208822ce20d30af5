//! The WGSL kernels through wgpu on a real adapter (in CI: Mesa's lavapipe, from
//! Debian's `mesa-vulkan-drivers`), against the CPU core, on awkward shapes.
//!
//! A missing adapter fails these tests loudly; they never skip.
//!
//! Tolerances: maps are probabilities computed in f32 on both sides; the GPU's `exp`
//! and summation order differ from the CPU's by a few ulps of values ≤ 1, so 1e-5
//! absolute on maps (the bound) leaves two orders of magnitude of margin while
//! any indexing, masking or scaling error shows up at 1e-3 or more. Metrics are ratios
//! of sums of N² such values; we compare them relatively at 1e-4.

use difflens::core::init::{normal_matrix, seeded};
use difflens::core::lab::{self, LabParams};
use difflens::core::linalg::Mat;
use difflens::core::softmax::{apply_mask, softmax_rows};
use difflens::gpu::context::GpuContext;
use difflens::gpu::lab::{GpuLab, LambdaKernel};
use difflens::gpu::layout::RowLayout;
use difflens::gpu::ops::{combine_maps, softmax_map_with, Lambda};
use difflens::gpu::softmax::{Softmax, SoftmaxKernel, SoftmaxParams};
use difflens::viz::pooling::pool_max_magnitude;

const MAP_TOL: f32 = 1e-5;

fn ctx() -> GpuContext {
    pollster::block_on(GpuContext::request(wgpu::Backends::VULKAN))
        .unwrap_or_else(|e| panic!("no Vulkan adapter for the GPU tests ({e}); install Debian's mesa-vulkan-drivers (scripts/install-test-deps.sh does)"))
}

fn max_diff(a: &Mat, b: &Mat) -> f32 {
    assert_eq!(a.dim(), b.dim());
    // NaN-propagating: a NaN from the GPU fails the comparison instead of vanishing.
    difflens::core::analysis::max_abs_diff(a, b)
}

fn cpu_softmax(q: &Mat, k: &Mat, scale: f32, causal: bool) -> Mat {
    let mut s = q.dot(&k.t()) * scale;
    apply_mask(s.view_mut(), 0, causal);
    softmax_rows(s.view_mut());
    s
}

const LAYOUTS: [RowLayout; 2] = [RowLayout::WorkgroupPerRow, RowLayout::InvocationPerRow];

#[test]
fn softmax_kernels_match_the_core_on_awkward_shapes() {
    let ctx = ctx();
    for layout in LAYOUTS {
        let softmax = Softmax::new(&ctx.device, layout);
        // T = 1, T below / above / not a multiple of a workgroup or of the row kernel's
        // four keys per step, odd head sizes (the row kernel hands those to the other),
        // and the largest head size (d = 256).
        for (t, d, causal) in [(1, 8, true), (7, 3, true), (7, 3, false), (7, 4, true), (13, 16, false), (130, 256, true), (255, 32, true), (257, 32, false), (300, 64, true), (600, 17, false)] {
            let q = normal_matrix(&mut seeded(t as u64), t, d, 1.0);
            let k = normal_matrix(&mut seeded(t as u64 + 1), t, d, 1.5);
            let scale = (d as f32).powf(-0.5);
            let gpu = pollster::block_on(softmax_map_with(&ctx, &softmax, &q, &k, scale, causal)).unwrap();
            let cpu = cpu_softmax(&q, &k, scale, causal);
            let err = max_diff(&gpu, &cpu);
            assert!(err < MAP_TOL, "{layout:?} T={t} d={d} causal={causal}: max error {err}");
            if causal && t > 1 {
                assert_eq!(gpu[[0, t - 1]], 0.0, "causal maps are zero above the diagonal");
            }
        }
    }
}

#[test]
fn vec4_workgroup_softmax_matches_the_core_with_tree_and_subgroup_reductions() {
    let ctx = ctx();
    // lavapipe has subgroups (through Vulkan 1.1), so both reductions run here.
    assert!(ctx.device.features().contains(wgpu::Features::SUBGROUP), "the test device should have the subgroups feature");
    for (subgroups, want) in [(false, SoftmaxKernel::WorkgroupVec4), (true, SoftmaxKernel::WorkgroupVec4Subgroups)] {
        let softmax = Softmax::with_subgroups(&ctx.device, RowLayout::WorkgroupPerRow, subgroups);
        // Rows shorter than a workgroup, not a multiple of it, and the largest head size.
        for (t, d, causal) in [(1, 4, true), (5, 8, false), (63, 16, true), (65, 64, false), (200, 256, true), (333, 32, true)] {
            let q = normal_matrix(&mut seeded(t as u64 + 40), t, d, 1.0);
            let k = normal_matrix(&mut seeded(t as u64 + 41), t, d, 2.0);
            let scale = (d as f32).powf(-0.5);
            assert_eq!(softmax.kernel(&SoftmaxParams::dense(t, t, d, causal, scale)), want);
            let gpu = pollster::block_on(softmax_map_with(&ctx, &softmax, &q, &k, scale, causal)).unwrap();
            let err = max_diff(&gpu, &cpu_softmax(&q, &k, scale, causal));
            assert!(err < MAP_TOL, "{want:?} T={t} d={d} causal={causal}: max error {err}");
        }
        // Unaligned heads go to the scalar kernel.
        assert_eq!(softmax.kernel(&SoftmaxParams::dense(9, 9, 6, false, 0.5)), SoftmaxKernel::Workgroup);
    }
    assert_eq!(
        Softmax::new(&ctx.device, RowLayout::WorkgroupPerRow).kernel(&SoftmaxParams::dense(9, 9, 8, false, 0.5)),
        SoftmaxKernel::WorkgroupVec4Subgroups,
        "subgroups are used where the device has them"
    );
    assert_eq!(Softmax::new(&ctx.device, RowLayout::InvocationPerRow).kernel(&SoftmaxParams::dense(9, 9, 8, false, 0.5)), SoftmaxKernel::Rows);
}

#[test]
fn the_row_kernel_is_used_only_where_heads_are_vec4_aligned() {
    let ctx = ctx();
    let rows = Softmax::new(&ctx.device, RowLayout::InvocationPerRow);
    let wide = Softmax::new(&ctx.device, RowLayout::WorkgroupPerRow);
    let aligned = SoftmaxParams { q_col: 8, q_stride: 64, k_col: 4, k_stride: 32, ..SoftmaxParams::dense(9, 9, 16, true, 0.25) };
    assert_eq!(rows.layout(&aligned), RowLayout::InvocationPerRow);
    assert_eq!(wide.layout(&aligned), RowLayout::WorkgroupPerRow);
    for odd in [SoftmaxParams { d: 6, ..aligned }, SoftmaxParams { q_col: 2, ..aligned }, SoftmaxParams { k_stride: 30, ..aligned }] {
        assert_eq!(rows.layout(&odd), RowLayout::WorkgroupPerRow, "{odd:?}");
    }
    // lavapipe is a software adapter: the context says so, and so prefers the row kernel.
    assert!(ctx.software, "lavapipe should be recognised as a software adapter");
    assert_eq!(Softmax::for_context(&ctx).layout(&aligned), RowLayout::InvocationPerRow);
}

#[test]
fn softmax_kernels_survive_extreme_logits() {
    let ctx = ctx();
    let q = normal_matrix(&mut seeded(5), 9, 4, 60.0);
    let k = normal_matrix(&mut seeded(6), 9, 4, 60.0);
    for layout in LAYOUTS {
        let gpu = pollster::block_on(softmax_map_with(&ctx, &Softmax::new(&ctx.device, layout), &q, &k, 0.5, true)).unwrap();
        assert!(gpu.iter().all(|v| v.is_finite()), "{layout:?}: no NaN or infinity from huge logits");
        assert!(max_diff(&gpu, &cpu_softmax(&q, &k, 0.5, true)) < MAP_TOL, "{layout:?}");
    }
}

#[test]
fn combine_kernel_handles_scalar_and_per_row_lambda() {
    let ctx = ctx();
    let a1 = normal_matrix(&mut seeded(7), 33, 33, 1.0);
    let a2 = normal_matrix(&mut seeded(8), 33, 33, 1.0);
    for lambda in [-0.7f32, 0.0, 1.6] {
        let gpu = pollster::block_on(combine_maps(&ctx, &a1, &a2, Lambda::Scalar(lambda))).unwrap();
        assert!(max_diff(&gpu, &(&a1 - &(&a2 * lambda))) < 1e-6);
    }
    let per_row: Vec<f32> = (0..33).map(|i| i as f32 / 32.0).collect();
    let gpu = pollster::block_on(combine_maps(&ctx, &a1, &a2, Lambda::PerRow(&per_row))).unwrap();
    let mut want = a1.clone();
    for (i, mut row) in want.rows_mut().into_iter().enumerate() {
        row.zip_mut_with(&a2.row(i), |a, b| *a -= per_row[i] * b);
    }
    assert!(max_diff(&gpu, &want) < 1e-6);
}

/// Every λ-update kernel: the workgroup one with either reduction (lavapipe has
/// subgroups), and the software adapters' one.
fn every_lab(ctx: &GpuContext) -> Vec<(GpuLab, LambdaKernel)> {
    [(RowLayout::WorkgroupPerRow, false, LambdaKernel::Workgroup), (RowLayout::WorkgroupPerRow, true, LambdaKernel::WorkgroupSubgroups), (RowLayout::InvocationPerRow, false, LambdaKernel::Rows)]
        .into_iter()
        .map(|(layout, subgroups, want)| {
            let lab = GpuLab::with_subgroups(ctx, layout, subgroups);
            assert_eq!(lab.lambda_kernel(), want);
            (lab, want)
        })
        .collect()
}

#[test]
fn resident_lab_matches_the_core_and_lambda_only_updates_agree() {
    let ctx = ctx();
    assert_eq!(GpuLab::with_layout(&ctx, RowLayout::WorkgroupPerRow).lambda_kernel(), LambdaKernel::WorkgroupSubgroups, "subgroups are used where the device has them");
    for (mut gpu_lab, kernel) in every_lab(&ctx) {
        // 1030: its 2 × 4.2 MB of maps are decoded in 4 MB pieces, one holding the end of A1
        // and the start of A2. Pooled to the heatmap's 384 pixels (bands of one key at
        // N ≤ 384, of 2 or 3 at 1030), and to 7 (bands of many rows and keys, each pixel
        // merged from every invocation of its workgroup).
        for n in [2usize, 5, 100, 257, 1030] {
            let params = LabParams { n, seed: n as u64, ..LabParams::default() };
            let inputs = lab::generate(&params);
            let cpu = lab::maps(&inputs);
            let maps = pollster::block_on(gpu_lab.load(&ctx, &inputs).unwrap().read(&ctx, &|| Box::pin(async {}))).unwrap();
            assert!(max_diff(&maps.a1, &cpu.a1) < MAP_TOL && max_diff(&maps.a2, &cpu.a2) < MAP_TOL, "{kernel:?} N={n}");
            for (lambda, px) in [(-0.5f32, 384), (0.0, 384), (0.8, 384), (1.4, 384), (0.8, 7)] {
                // One invocation per pixel row scans a whole band: at N = 1030 and 7
                // pixels, 150 000 entries, past the 65 535 loop iterations after which
                // llvmpipe ends a shader's loops (its results then miss part of the
                // band). The app pools to 384 pixels: 45 000 at N = 4096.
                if kernel == LambdaKernel::Rows && px < 384 && n > 300 {
                    continue;
                }
                let px = n.min(px);
                let (pooled, metrics) = pollster::block_on(gpu_lab.lambda_update(&ctx, lambda, px).unwrap().read(&ctx, inputs.signal_keys.len())).unwrap();
                let want = pool_max_magnitude(n, px, |i, j| cpu.a1[[i, j]] - lambda * cpu.a2[[i, j]]);
                let err = difflens::core::analysis::max_abs_diff(&pooled, &want);
                assert!(err < MAP_TOL, "{kernel:?} N={n} px={px} λ={lambda}: pooled difference off by {err}");
                let cm = lab::metrics(&inputs, &cpu, lambda);
                for (g, c) in [(metrics.standard.snr, cm.standard.snr), (metrics.differential.snr, cm.differential.snr), (metrics.differential.noise_mass, cm.differential.noise_mass)] {
                    assert!((g - c).abs() <= 1e-4 * c.abs().max(1e-12), "{kernel:?} N={n} λ={lambda}: {g} vs {c}");
                }
            }
        }
        let err = gpu_lab.lambda_update(&ctx, 0.5, 5000).err().expect("a pooled map wider than the kernels keep is refused");
        assert!(err.contains("1024"), "{err}");
    }
}

/// With a strong signal and little noise, the noise sums are ~1e-5 of the signal's: a
/// kernel that took them as (all − signal) would lose them to f32 cancellation.
#[test]
fn lambda_update_sums_stay_exact_when_the_signal_dominates() {
    let ctx = ctx();
    let params = LabParams { n: 256, n_signal: 8, signal: 14.0, noise: 0.3, seed: 4, ..LabParams::default() };
    let inputs = lab::generate(&params);
    let cpu = lab::maps(&inputs);
    for (mut gpu_lab, kernel) in every_lab(&ctx) {
        pollster::block_on(gpu_lab.load(&ctx, &inputs).unwrap().read(&ctx, &|| Box::pin(async {}))).unwrap();
        for lambda in [0.0f32, 0.9] {
            let (_, gpu) = pollster::block_on(gpu_lab.lambda_update(&ctx, lambda, 256).unwrap().read(&ctx, inputs.signal_keys.len())).unwrap();
            let want = lab::metrics(&inputs, &cpu, lambda);
            assert!(want.standard.noise_mass < 1e-4 * want.standard.signal_mass, "the signal dominates: {want:?}");
            for (g, c) in [(gpu.standard.noise_mass, want.standard.noise_mass), (gpu.differential.noise_mass, want.differential.noise_mass), (gpu.differential.snr, want.differential.snr)] {
                assert!((g - c).abs() <= 1e-4 * c.abs(), "{kernel:?} λ={lambda}: {g} vs {c}");
            }
        }
    }
}

#[test]
fn maps_beyond_the_device_limits_are_refused_with_the_limit_named() {
    let ctx = ctx();
    let limit = ctx.limits.max_storage_buffer_binding_size.min(ctx.limits.max_buffer_size);
    let n = ((limit / 4) as f64).sqrt() as usize + 1;
    let err = difflens::gpu::ops::fits(&ctx, n, n).unwrap_err();
    assert!(err.contains("maxStorageBufferBindingSize"), "{err}");
}

/// The model's tiled matmul on shapes that fill no block evenly (and ones under one
/// block), plain and transposed, overwriting and accumulating, every operand read in
/// place at an offset and a wider stride: equal to ndarray's product within f32
/// rounding of k-term sums (|entries| ≤ 4, k ≤ 150: 1e-4 absolute), and nothing written
/// outside C (`ops::matmul` checks the padding stays NaN).
#[test]
fn tiled_matmul_matches_the_cpu_on_awkward_shapes() {
    use difflens::gpu::ops::matmul;
    let ctx = ctx();
    let mut rng = seeded(41);
    for (m, k, n) in [(1, 1, 1), (3, 5, 7), (17, 16, 15), (64, 64, 64), (65, 33, 130), (130, 150, 67), (200, 8, 3)] {
        let a = normal_matrix(&mut rng, m, k, 1.0);
        let b = normal_matrix(&mut rng, k, n, 1.0);
        let bt = b.t().as_standard_layout().to_owned();
        let c0 = normal_matrix(&mut rng, m, n, 1.0);
        let want = a.dot(&b);
        for (label, got) in [("A·B", pollster::block_on(matmul(&ctx, &a, &b, false, None))), ("A·(Bᵀ)ᵀ", pollster::block_on(matmul(&ctx, &a, &bt, true, None)))] {
            let got = got.unwrap_or_else(|e| panic!("{m}×{k}×{n} {label}: {e}"));
            assert!(max_diff(&got, &want) < 1e-4, "{m}×{k}×{n} {label}: {}", max_diff(&got, &want));
        }
        let acc = pollster::block_on(matmul(&ctx, &a, &bt, true, Some(&c0))).unwrap();
        assert!(max_diff(&acc, &(&c0 + &want)) < 1e-4, "{m}×{k}×{n} accumulate: {}", max_diff(&acc, &(&c0 + &want)));
    }
}
