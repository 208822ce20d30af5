//! Single GPU operations on host matrices: what the kernel tests and the page's
//! "verify" action call. They allocate per call; the resident runners ([`super::lab`])
//! do not.

use super::context::GpuContext;
use super::kernels::{grid_1d, staging, storage, uniform, write_f32, Kernel, COMBINE_WGSL, MATMUL_WGSL};
use super::params::{CombineParams, MatmulParams, SoftmaxUniform};
use super::readback::read_f32;
use super::sizes::MAX_D;
use super::softmax::{Softmax, SoftmaxParams};
use crate::core::linalg::Mat;
use ndarray::Array2;

/// The largest `n_q × n_k` map one storage binding may hold on this device.
pub fn fits(ctx: &GpuContext, n_q: usize, n_k: usize) -> Result<(), String> {
    let bytes = (n_q * n_k * 4) as u64;
    let limit = ctx.limits.max_storage_buffer_binding_size.min(ctx.limits.max_buffer_size);
    if bytes > limit {
        return Err(format!("a {n_q} × {n_k} map needs {} MiB, above this GPU's maxStorageBufferBindingSize/maxBufferSize of {} MiB", bytes >> 20, limit >> 20));
    }
    if n_q as u64 > ctx.limits.max_compute_workgroups_per_dimension as u64 {
        return Err(format!("{n_q} query rows exceed this GPU's maxComputeWorkgroupsPerDimension ({})", ctx.limits.max_compute_workgroups_per_dimension));
    }
    Ok(())
}

/// softmax(q·kᵀ·scale) row by row on the GPU, optionally causal (`[n_q, n_k]`), with the
/// kernels given (`Softmax::for_context` picks the adapter's layout; the tests pin each).
pub async fn softmax_map_with(ctx: &GpuContext, softmax: &Softmax, q: &Mat, k: &Mat, scale: f32, causal: bool) -> Result<Mat, String> {
    let (n_q, d) = q.dim();
    let n_k = k.nrows();
    fits(ctx, n_q, n_k)?;
    if d > MAX_D as usize || k.ncols() != d {
        return Err(format!("head size {d} is not supported (at most {MAX_D}, and q and k must agree)"));
    }
    let dev = &ctx.device;
    let (qb, kb, out) = (storage(dev, "q", q.len()), storage(dev, "k", k.len()), storage(dev, "scores", n_q * n_k));
    write_f32(&ctx.queue, &qb, q.as_standard_layout().as_slice().expect("a standard-layout array is contiguous"));
    write_f32(&ctx.queue, &kb, k.as_standard_layout().as_slice().expect("a standard-layout array is contiguous"));
    let p = SoftmaxParams::dense(n_q, n_k, d, causal, scale);
    let params = uniform(dev, "softmax params", &p.uniform());
    let (kernel, grid) = softmax.pick(&p);
    let group = kernel.bind::<SoftmaxUniform>(dev, &params, &[("q", &qb), ("k", &kb), ("out", &out)]);
    let mut encoder = dev.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        kernel.dispatch(&mut pass, &group, grid);
    }
    ctx.queue.submit([encoder.finish()]);
    let data = read_f32(dev, &ctx.queue, &out, &staging(dev, n_q * n_k), n_q * n_k).await?;
    Ok(Array2::from_shape_vec((n_q, n_k), data).expect("readback has the map's size"))
}

/// λ for the combine: one scalar (V1) or one value per row (V2).
pub enum Lambda<'a> {
    Scalar(f32),
    PerRow(&'a [f32]),
}

/// A1 − λ·A2 on the GPU.
pub async fn combine_maps(ctx: &GpuContext, a1: &Mat, a2: &Mat, lambda: Lambda<'_>) -> Result<Mat, String> {
    let (rows, cols) = a1.dim();
    fits(ctx, rows, cols)?;
    let dev = &ctx.device;
    let kernel = Kernel::new(dev, "combine", COMBINE_WGSL);
    let (b1, b2, out) = (storage(dev, "a1", a1.len()), storage(dev, "a2", a2.len()), storage(dev, "diff", a1.len()));
    write_f32(&ctx.queue, &b1, a1.as_standard_layout().as_slice().expect("a standard-layout array is contiguous"));
    write_f32(&ctx.queue, &b2, a2.as_standard_layout().as_slice().expect("a standard-layout array is contiguous"));
    let (per_row, scalar, rows_lambda) = match lambda {
        Lambda::Scalar(l) => (0u32, l, vec![0.0]),
        Lambda::PerRow(v) => (1u32, 0.0, v.to_vec()),
    };
    let lb = storage(dev, "lambdas", rows_lambda.len());
    write_f32(&ctx.queue, &lb, &rows_lambda);
    let grid = grid_1d(rows * cols);
    let params = uniform(dev, "combine params", &CombineParams { rows: rows as u32, cols: cols as u32, per_row, lambda: scalar, groups_x: grid.0, lambda_stride: 1, ..Default::default() });
    let group = kernel.bind::<CombineParams>(dev, &params, &[("a1", &b1), ("a2", &b2), ("lambdas", &lb), ("out", &out)]);
    let mut encoder = dev.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        kernel.dispatch(&mut pass, &group, grid);
    }
    ctx.queue.submit([encoder.finish()]);
    let data = read_f32(dev, &ctx.queue, &out, &staging(dev, rows * cols), rows * cols).await?;
    Ok(Array2::from_shape_vec((rows, cols), data).expect("readback has the map's size"))
}

/// C = A·B (`b_trans`: A·Bᵀ, B a Linear weight) on the GPU through the model's tiled
/// matmul, with every operand at an offset and a row stride wider than it (as the model
/// reads one head's columns in place), and `accumulate` adding into `c0`.
pub async fn matmul(ctx: &GpuContext, a: &Mat, b: &Mat, b_trans: bool, c0: Option<&Mat>) -> Result<Mat, String> {
    let (m, k) = a.dim();
    let n = if b_trans { b.nrows() } else { b.ncols() };
    fits(ctx, m, n)?;
    // Each operand padded: 3 columns before it, 5 after, and 7 values before the buffer's start.
    let (pad_l, pad_r, off) = (3usize, 5usize, 7usize);
    let padded = |x: &Mat| -> (Vec<f32>, usize) {
        let stride = x.ncols() + pad_l + pad_r;
        let mut v = vec![f32::NAN; off + x.nrows() * stride];
        for (r, row) in x.rows().into_iter().enumerate() {
            for (c, value) in row.iter().enumerate() {
                v[off + r * stride + pad_l + c] = *value;
            }
        }
        (v, stride)
    };
    let zeros = Array2::zeros((m, n));
    let (av, a_stride) = padded(a);
    let (bv, b_stride) = padded(b);
    let (cv, c_stride) = padded(c0.unwrap_or(&zeros));
    let dev = &ctx.device;
    let kernel = Kernel::new(dev, "matmul", MATMUL_WGSL);
    let buffer = |label: &str, v: &[f32]| {
        let buf = storage(dev, label, v.len());
        write_f32(&ctx.queue, &buf, v);
        buf
    };
    let (ab, bb, cb) = (buffer("a", &av), buffer("b", &bv), buffer("c", &cv));
    let u = |x: usize| x as u32;
    let p = MatmulParams {
        m: u(m),
        n: u(n),
        k: u(k),
        b_trans: b_trans as u32,
        a_off: u(off + pad_l),
        a_stride: u(a_stride),
        b_off: u(off + pad_l),
        b_stride: u(b_stride),
        c_off: u(off + pad_l),
        c_stride: u(c_stride),
        accumulate: c0.is_some() as u32,
        ..Default::default()
    };
    let params = uniform(dev, "matmul params", &p);
    let group = kernel.bind::<MatmulParams>(dev, &params, &[("a", &ab), ("b", &bb), ("c", &cb)]);
    let mut encoder = dev.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        kernel.dispatch(&mut pass, &group, p.grid());
    }
    ctx.queue.submit([encoder.finish()]);
    let data = read_f32(dev, &ctx.queue, &cb, &staging(dev, cv.len()), cv.len()).await?;
    let untouched = (0..cv.len()).filter(|i| *i < off || !((*i - off) % c_stride >= pad_l && (*i - off) % c_stride < pad_l + n)).all(|i| data[i].is_nan());
    if !untouched {
        return Err("the matmul wrote outside C's columns".into());
    }
    Ok(Array2::from_shape_fn((m, n), |(r, c)| data[off + r * c_stride + pad_l + c]))
}
