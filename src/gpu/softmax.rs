//! The attention softmax in either row layout ([`RowLayout`]): one workgroup per query
//! row (`shaders/softmax_vec4.wgsl` for vec4-aligned heads, with subgroup reductions where
//! the device has them; `shaders/softmax.wgsl` for any head) or `shaders/softmax_rows.wgsl`
//! (one invocation per row, vec4 loads, for software adapters, where it is several times
//! faster: README, "Performance").

use super::context::GpuContext;
use super::kernels::{Kernel, SOFTMAX_ROWS_WGSL, SOFTMAX_VEC4_SUBGROUPS_WGSL, SOFTMAX_VEC4_WGSL, SOFTMAX_WGSL};
use super::layout::RowLayout;
use super::params::SoftmaxUniform;

/// One softmax(q·kᵀ·scale) over heads read in place from wider matrices.
#[derive(Clone, Copy, Debug)]
pub struct SoftmaxParams {
    pub n_q: usize,
    pub n_k: usize,
    pub d: usize,
    pub causal: bool,
    pub scale: f32,
    /// Where one head's columns start in Q and K, and the matrices' row strides.
    pub q_col: usize,
    pub q_stride: usize,
    pub k_col: usize,
    pub k_stride: usize,
}

impl SoftmaxParams {
    /// Queries and keys of `d` columns each, stored densely.
    pub fn dense(n_q: usize, n_k: usize, d: usize, causal: bool, scale: f32) -> Self {
        Self { n_q, n_k, d, causal, scale, q_col: 0, q_stride: d, k_col: 0, k_stride: d }
    }

    /// The shaders' `Params`.
    pub fn uniform(&self) -> SoftmaxUniform {
        let u = |x: usize| x as u32;
        SoftmaxUniform {
            n_q: u(self.n_q),
            n_k: u(self.n_k),
            d: u(self.d),
            causal: self.causal as u32,
            scale: self.scale,
            q_col: u(self.q_col),
            q_stride: u(self.q_stride),
            k_col: u(self.k_col),
            k_stride: u(self.k_stride),
            ..Default::default()
        }
    }

    /// Whether heads can be read as vec4s (what the row kernel needs).
    fn vec4_aligned(&self) -> bool {
        [self.d, self.q_col, self.q_stride, self.k_col, self.k_stride].iter().all(|x| x.is_multiple_of(4))
    }
}

/// Which kernel a softmax runs (the kernel tests and the GPU benchmark name it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftmaxKernel {
    /// `softmax.wgsl`: scalar loads, tree reductions; any head.
    Workgroup,
    /// `softmax_vec4.wgsl` after `reduce_tree.wgsl`: vec4 loads.
    WorkgroupVec4,
    /// `softmax_vec4.wgsl` after `reduce_subgroups.wgsl`: vec4 loads, subgroup reductions.
    WorkgroupVec4Subgroups,
    /// `softmax_rows.wgsl`: one invocation per row, for software adapters.
    Rows,
}

pub struct Softmax {
    per_workgroup: Kernel,
    /// For vec4-aligned heads in the workgroup layout, with subgroup reductions where
    /// the device has the `subgroups` feature (see `GpuContext::request`).
    per_workgroup_vec4: Option<(Kernel, SoftmaxKernel)>,
    /// Compiled only where it is preferred.
    per_invocation: Option<Kernel>,
}

impl Softmax {
    /// The layout this context's adapter prefers.
    pub fn for_context(ctx: &GpuContext) -> Self {
        Self::new(&ctx.device, RowLayout::preferred(ctx))
    }

    /// Prefers `layout` (the tests pin each one), with subgroup reductions where the
    /// device has them.
    pub fn new(device: &wgpu::Device, layout: RowLayout) -> Self {
        Self::with_subgroups(device, layout, device.features().contains(wgpu::Features::SUBGROUP))
    }

    /// As [`Softmax::new`], choosing the reductions (the tests run both on one device);
    /// `subgroups` needs the device's `subgroups` feature.
    pub fn with_subgroups(device: &wgpu::Device, layout: RowLayout, subgroups: bool) -> Self {
        let vec4 = match layout {
            RowLayout::InvocationPerRow => None,
            _ if subgroups => Some((Kernel::new(device, "softmax vec4 subgroups", SOFTMAX_VEC4_SUBGROUPS_WGSL), SoftmaxKernel::WorkgroupVec4Subgroups)),
            _ => Some((Kernel::new(device, "softmax vec4", SOFTMAX_VEC4_WGSL), SoftmaxKernel::WorkgroupVec4)),
        };
        Self {
            per_workgroup: Kernel::new(device, "softmax", SOFTMAX_WGSL),
            per_workgroup_vec4: vec4,
            per_invocation: (layout == RowLayout::InvocationPerRow).then(|| Kernel::new(device, "softmax rows", SOFTMAX_ROWS_WGSL)),
        }
    }

    /// The layout `p` runs in: the preferred one, unless its heads are not vec4-aligned.
    pub fn layout(&self, p: &SoftmaxParams) -> RowLayout {
        match &self.per_invocation {
            Some(_) if p.vec4_aligned() => RowLayout::InvocationPerRow,
            _ => RowLayout::WorkgroupPerRow,
        }
    }

    /// The kernel `p` runs.
    pub fn kernel(&self, p: &SoftmaxParams) -> SoftmaxKernel {
        match (self.layout(p), &self.per_workgroup_vec4) {
            (RowLayout::InvocationPerRow, _) => SoftmaxKernel::Rows,
            (_, Some((_, which))) if p.vec4_aligned() => *which,
            _ => SoftmaxKernel::Workgroup,
        }
    }

    /// The kernel for `p` and its workgroup grid; bind it with `[params, q, k, out]`.
    pub fn pick(&self, p: &SoftmaxParams) -> (&Kernel, (u32, u32)) {
        let kernel = match (self.kernel(p), &self.per_invocation, &self.per_workgroup_vec4) {
            (SoftmaxKernel::Rows, Some(rows), _) => rows,
            (SoftmaxKernel::WorkgroupVec4 | SoftmaxKernel::WorkgroupVec4Subgroups, _, Some((vec4, _))) => vec4,
            _ => &self.per_workgroup,
        };
        (kernel, self.layout(p).grid(p.n_q))
    }
}
