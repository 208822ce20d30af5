//! The attention softmax in either row layout ([`RowLayout`]): `shaders/softmax.wgsl`
//! (one workgroup per query row) or `shaders/softmax_rows.wgsl` (one invocation per row,
//! vec4 loads, for software adapters, where it is several times faster: README,
//! "Performance").

use super::context::GpuContext;
use super::kernels::{Kernel, SOFTMAX_ROWS_WGSL, SOFTMAX_WGSL};
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
        SoftmaxUniform { n_q: u(self.n_q), n_k: u(self.n_k), d: u(self.d), causal: self.causal as u32, scale: self.scale, q_col: u(self.q_col), q_stride: u(self.q_stride), k_col: u(self.k_col), k_stride: u(self.k_stride), ..Default::default() }
    }

    /// Whether heads can be read as vec4s (what the row kernel needs).
    fn vec4_aligned(&self) -> bool {
        [self.d, self.q_col, self.q_stride, self.k_col, self.k_stride].iter().all(|x| x.is_multiple_of(4))
    }
}

pub struct Softmax {
    per_workgroup: Kernel,
    /// Compiled only where it is preferred.
    per_invocation: Option<Kernel>,
}

impl Softmax {
    /// The layout this context's adapter prefers.
    pub fn for_context(ctx: &GpuContext) -> Self {
        Self::new(&ctx.device, RowLayout::preferred(ctx))
    }

    /// Prefers `layout` (the tests pin each one).
    pub fn new(device: &wgpu::Device, layout: RowLayout) -> Self {
        Self {
            per_workgroup: Kernel::new(device, "softmax", SOFTMAX_WGSL),
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

    /// The kernel for `p` and its workgroup grid; bind it with `[params, q, k, out]`.
    pub fn pick(&self, p: &SoftmaxParams) -> (&Kernel, (u32, u32)) {
        let layout = self.layout(p);
        let kernel = match (layout, &self.per_invocation) {
            (RowLayout::InvocationPerRow, Some(rows)) => rows,
            _ => &self.per_workgroup,
        };
        (kernel, layout.grid(p.n_q))
    }
}
