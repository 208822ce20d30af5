//! The noise-floor lab on the GPU, with its buffers resident: a new problem uploads Q
//! and the two K matrices and runs both softmaxes once; moving λ reruns only the combine,
//! the heatmap pooling and the metric reductions (one kernel, one pass over the maps),
//! and reads back r² pooled values and N row sums instead of N² entries.

use super::context::GpuContext;
use super::kernels::{staging, storage, uniform, write_f32, write_uniform, Kernel, LAB_LAMBDA_ROWS_WGSL, LAB_LAMBDA_WG_SUBGROUPS_WGSL, LAB_LAMBDA_WG_WGSL};
use super::layout::RowLayout;
use super::ops::fits;
use super::params::{LabLambdaParams, SoftmaxUniform};
pub use super::readback::Pace;
use super::readback::{read_many, read_many_paced};
use super::sizes::MAX_PX;
use super::softmax::{Softmax, SoftmaxParams};
use crate::core::lab::{LabInputs, LabMaps, LabMetrics};
use ndarray::Array2;

struct Resident {
    n: usize,
    a1: wgpu::Buffer,
    a2: wgpu::Buffer,
    pooled: wgpu::Buffer,
    /// The λ update's metric sums, a vec4 per query row.
    sums: wgpu::Buffer,
    /// For the one-off map readback (N² floats).
    maps_staging: wgpu::Buffer,
    /// For the λ readbacks (px² + 4N floats); the caller keeps one in flight at a time.
    lambda_staging: wgpu::Buffer,
    lambda_params: wgpu::Buffer,
    lambda_group: wgpu::BindGroup,
}

/// Which kernel makes the λ-only update (the pooled difference map and the metric sums,
/// in one pass that reads A1 and A2 once); the tests and the GPU benchmark name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LambdaKernel {
    /// `lab_lambda_wg.wgsl` after `reduce_tree.wgsl`: a workgroup per pixel row.
    Workgroup,
    /// `lab_lambda_wg.wgsl` after `reduce_subgroups.wgsl`.
    WorkgroupSubgroups,
    /// `lab_lambda_rows.wgsl`: an invocation per pixel row, for software adapters.
    Rows,
}

impl LambdaKernel {
    /// The kernel for `layout`, with subgroup reductions where `subgroups` says.
    pub fn of(layout: RowLayout, subgroups: bool) -> Self {
        match layout {
            RowLayout::InvocationPerRow => Self::Rows,
            RowLayout::WorkgroupPerRow if subgroups => Self::WorkgroupSubgroups,
            RowLayout::WorkgroupPerRow => Self::Workgroup,
        }
    }

    fn compile(self, device: &wgpu::Device) -> Kernel {
        match self {
            Self::Workgroup => Kernel::new(device, "lab λ workgroups", LAB_LAMBDA_WG_WGSL),
            Self::WorkgroupSubgroups => Kernel::new(device, "lab λ workgroups, subgroups", LAB_LAMBDA_WG_SUBGROUPS_WGSL),
            Self::Rows => Kernel::new(device, "lab λ rows", LAB_LAMBDA_ROWS_WGSL),
        }
    }

    /// The workgroup grid for `px` pixel rows.
    fn grid(self, px: usize) -> (u32, u32) {
        match self {
            Self::Rows => RowLayout::InvocationPerRow.grid(px),
            _ => RowLayout::WorkgroupPerRow.grid(px),
        }
    }
}

/// The readback of a freshly loaded problem's maps. It holds its own buffer handles, so
/// awaiting it borrows nothing: a newer problem may be loaded meanwhile.
pub struct MapsReadback {
    n: usize,
    a1: wgpu::Buffer,
    a2: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl MapsReadback {
    /// Both maps, decoded a piece at a time with `pace()` awaited between pieces.
    pub async fn read(self, ctx: &GpuContext, pace: Pace<'_>) -> Result<LabMaps, String> {
        let n = self.n;
        let mut parts = read_many_paced(&ctx.device, &ctx.queue, &[(&self.a1, n * n), (&self.a2, n * n)], &self.staging, pace).await?;
        let a2 = parts.pop().expect("two parts");
        let a1 = parts.pop().expect("two parts");
        let shape = |v| Array2::from_shape_vec((n, n), v).expect("readback has the map's size");
        Ok(LabMaps { a1: shape(a1), a2: shape(a2) })
    }
}

/// The readback of one λ update: the pooled difference map and the metric sums, one
/// vec4 per query row.
pub struct LambdaReadback {
    n: usize,
    px: usize,
    lambda: f32,
    pooled: wgpu::Buffer,
    sums: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl LambdaReadback {
    /// The pooled A1 − λ·A2 (`px × px`) and the metrics, summed in f64 on the host.
    pub async fn read(self, ctx: &GpuContext, n_signal: usize) -> Result<(Vec<f32>, LabMetrics), String> {
        let mut parts = read_many(&ctx.device, &ctx.queue, &[(&self.pooled, self.px * self.px), (&self.sums, 4 * self.n)], &self.staging).await?;
        let partial = parts.pop().expect("two parts");
        let pooled = parts.pop().expect("two parts");
        let mut sums = [0.0f64; 4];
        for part in partial.chunks_exact(4) {
            for (s, v) in sums.iter_mut().zip(part) {
                *s += *v as f64;
            }
        }
        Ok((pooled, LabMetrics::from_sums(self.n, n_signal, self.n, sums, self.lambda)))
    }
}

pub struct GpuLab {
    softmax: Softmax,
    lambda: Kernel,
    lambda_kernel: LambdaKernel,
    resident: Option<Resident>,
}

impl GpuLab {
    /// Compiles the pipelines once, the row kernels in the layout the adapter prefers.
    pub fn new(ctx: &GpuContext) -> Self {
        Self::with_layout(ctx, RowLayout::preferred(ctx))
    }

    /// The row kernels in `layout`, with subgroup reductions where the device has them.
    pub fn with_layout(ctx: &GpuContext, layout: RowLayout) -> Self {
        Self::with_subgroups(ctx, layout, ctx.device.features().contains(wgpu::Features::SUBGROUP))
    }

    /// As [`GpuLab::with_layout`], choosing the reductions (the tests run both on one
    /// device); `subgroups` needs the device's `subgroups` feature.
    pub fn with_subgroups(ctx: &GpuContext, layout: RowLayout, subgroups: bool) -> Self {
        let d = &ctx.device;
        let lambda_kernel = LambdaKernel::of(layout, subgroups);
        Self { softmax: Softmax::with_subgroups(d, layout, subgroups), lambda: lambda_kernel.compile(d), lambda_kernel, resident: None }
    }

    /// The kernel a λ update runs.
    pub fn lambda_kernel(&self) -> LambdaKernel {
        self.lambda_kernel
    }

    /// Uploads a problem and computes A1 and A2 on the GPU; they stay resident.
    /// Fails (naming the limit) when an N × N map does not fit this device.
    pub fn load(&mut self, ctx: &GpuContext, inputs: &LabInputs) -> Result<MapsReadback, String> {
        let (n, d) = inputs.q.dim();
        fits(ctx, n, n)?;
        let dev = &ctx.device;
        let upload = |label: &str, m: &ndarray::Array2<f32>| {
            let b = storage(dev, label, m.len());
            write_f32(&ctx.queue, &b, m.as_slice().expect("lab matrices are row-major"));
            b
        };
        let (q, k1, k2) = (upload("q", &inputs.q), upload("k1", &inputs.k1), upload("k2", &inputs.k2));
        let mask: Vec<u8> = inputs.is_signal().into_iter().flat_map(|m| u32::from(m).to_le_bytes()).collect();
        let mask_buf = storage(dev, "signal mask", n);
        ctx.queue.write_buffer(&mask_buf, 0, &mask);
        let (a1, a2) = (storage(dev, "A1", n * n), storage(dev, "A2", n * n));
        let pooled = storage(dev, "pooled", n * n);
        let sums = storage(dev, "metric sums", 4 * n);
        let softmax = SoftmaxParams::dense(n, n, d, false, inputs.scale());
        let softmax_params = uniform(dev, "softmax params", &softmax.uniform());
        let lambda_params = uniform(dev, "lab λ params", &LabLambdaParams::default());

        let mut encoder = dev.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            let (kernel, grid) = self.softmax.pick(&softmax);
            for (k, out) in [(&k1, &a1), (&k2, &a2)] {
                let group = kernel.bind::<SoftmaxUniform>(dev, &softmax_params, &[("q", &q), ("k", k), ("out", out)]);
                kernel.dispatch(&mut pass, &group, grid);
            }
        }
        ctx.queue.submit([encoder.finish()]);
        let lambda_group = self.lambda.bind::<LabLambdaParams>(dev, &lambda_params, &[("a1", &a1), ("a2", &a2), ("is_signal", &mask_buf), ("pooled", &pooled), ("rows", &sums)]);
        let resident = Resident { n, lambda_group, maps_staging: staging(dev, 2 * n * n), lambda_staging: staging(dev, n * n + 4 * n), a1, a2, pooled, sums, lambda_params };
        let readback = MapsReadback { n, a1: resident.a1.clone(), a2: resident.a2.clone(), staging: resident.maps_staging.clone() };
        self.resident = Some(resident);
        Ok(readback)
    }

    /// The λ-only update: pool A1 − λ·A2 to `px × px` (at most [`MAX_PX`], and at most
    /// N) and reduce the metrics (forming the difference on the fly) in one pass over
    /// the maps; the readback moves px² + 4N floats, not N², and nothing is allocated.
    pub fn lambda_update(&self, ctx: &GpuContext, lambda: f32, px: usize) -> Result<LambdaReadback, String> {
        let r = self.resident.as_ref().ok_or_else(|| "no lab problem is loaded on the GPU".to_string())?;
        if px > MAX_PX as usize {
            return Err(format!("a pooled map of {px} × {px} pixels is more than the GPU kernels keep ({MAX_PX} × {MAX_PX})"));
        }
        let (n, px) = (r.n, px.clamp(1, r.n));
        write_uniform(&ctx.queue, &r.lambda_params, &LabLambdaParams { n: n as u32, r: px as u32, lambda, ..Default::default() });
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.lambda.dispatch(&mut pass, &r.lambda_group, self.lambda_kernel.grid(px));
        }
        ctx.queue.submit([encoder.finish()]);
        Ok(LambdaReadback { n, px, lambda, pooled: r.pooled.clone(), sums: r.sums.clone(), staging: r.lambda_staging.clone() })
    }
}
