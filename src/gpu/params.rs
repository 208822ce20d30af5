//! The uniform parameters of every kernel, one `#[repr(C)]` struct per WGSL `Params`
//! struct, field for field. Each is uploaded as its bytes (`bytemuck`), and a test
//! (`tests/gpu_params.rs`) checks that its size and every field's name and offset are
//! what naga reads from the shader, so the two sides cannot drift apart.

use bytemuck::{Pod, Zeroable};

/// A kernel's uniform block, the shader file(s) that declare it as `Params` (bound at 0),
/// and the names of the buffers bound after it, in binding order.
pub trait Uniform: Pod {
    const WGSL: &'static [&'static str];
    const BINDINGS: &'static [&'static str];
    /// Field names and byte offsets, in declaration order.
    fn fields() -> Vec<(&'static str, usize)>;
}

macro_rules! uniform {
    ($(#[$doc:meta])* $name:ident in [$($wgsl:expr),+] binds [$($binding:literal),*] { $($field:ident: $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
        pub struct $name {
            $(pub $field: $ty),*
        }

        impl Uniform for $name {
            const WGSL: &'static [&'static str] = &[$($wgsl),+];
            const BINDINGS: &'static [&'static str] = &[$($binding),*];
            fn fields() -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), std::mem::offset_of!($name, $field))),*]
            }
        }
    };
}

uniform! {
    /// `softmax.wgsl`, `softmax_rows.wgsl` and `softmax_vec4.wgsl` (after either reduction
    /// file): one head's scores and softmax, read in place from Q and K (columns from
    /// `q_col`/`k_col`, rows `q_stride`/`k_stride` apart).
    SoftmaxUniform in [super::kernels::SOFTMAX_WGSL, super::kernels::SOFTMAX_ROWS_WGSL, super::kernels::SOFTMAX_VEC4_WGSL, super::kernels::SOFTMAX_VEC4_SUBGROUPS_WGSL] binds ["q", "k", "out"] {
        n_q: u32, n_k: u32, d: u32, causal: u32, scale: f32,
        q_col: u32, q_stride: u32, k_col: u32, k_stride: u32, _pad0: u32, _pad1: u32, _pad2: u32,
    }
}

uniform! {
    /// `combine.wgsl`: A1 − λ·A2, λ one scalar or (`per_row`) one value per row.
    CombineParams in [super::kernels::COMBINE_WGSL] binds ["a1", "a2", "lambdas", "out"] {
        rows: u32, cols: u32, per_row: u32, lambda: f32, groups_x: u32, lambda_stride: u32, lambda_col: u32, _pad0: u32,
    }
}

uniform! {
    /// `elementwise.wgsl`: `op` is an [`ElementwiseOp`].
    ElementwiseParams in [super::kernels::ELEMENTWISE_WGSL] binds ["a", "b"] {
        len: u32, op: u32, groups_x: u32, _pad: u32, scale: f32, shift: f32, _pad1: u32, _pad2: u32,
    }
}

/// What `elementwise.wgsl` computes in place on `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ElementwiseOp {
    /// a = silu(a) · b (SwiGLU's gate times its up projection).
    SwiGlu = 0,
    /// a = σ(a) (DIFF V2's per-token λ).
    Sigmoid = 1,
    /// a = a · scale + shift (the reader's λ override: scale 0 pins every λ to shift).
    Affine = 2,
}

uniform! {
    /// The lab's λ-only update, pooling A1 − λ·A2 to r × r by max magnitude and each
    /// query row's signal and noise sums in one pass: `lab_lambda_wg.wgsl` (hardware
    /// GPUs; the reductions' file before it) and `lab_lambda_rows.wgsl` (software
    /// adapters) share this block and these bindings.
    LabLambdaParams in [super::kernels::LAB_LAMBDA_WG_WGSL, super::kernels::LAB_LAMBDA_WG_SUBGROUPS_WGSL, super::kernels::LAB_LAMBDA_ROWS_WGSL] binds ["a1", "a2", "is_signal", "pooled", "rows"] {
        n: u32, r: u32, lambda: f32, _pad0: u32,
    }
}

uniform! {
    /// `matmul.wgsl`: C[c_off.., (m, n)] (+)= A[a_off.., (m, k)] · B ([k, n], or [n, k]
    /// when `b_trans`), each matrix `*_stride` floats per row.
    MatmulParams in [super::kernels::MATMUL_WGSL] binds ["a", "b", "c"] {
        m: u32, n: u32, k: u32, b_trans: u32, a_off: u32, a_stride: u32, b_off: u32, b_stride: u32, c_off: u32, c_stride: u32, accumulate: u32, _pad: u32,
    }
}

uniform! {
    /// `rms_norm.wgsl`: y = x / rms(x) · gain · post_scale per row (`normalise` = 0:
    /// y = x · post_scale, V1's norm ablation).
    RmsNormParams in [super::kernels::RMS_NORM_WGSL] binds ["x", "gain", "y"] {
        rows: u32, width: u32, eps: f32, post_scale: f32, normalise: u32, _pad0: u32, _pad1: u32, _pad2: u32,
    }
}

uniform! {
    /// `rope.wgsl`: interleaved RoPE on `t` rows of `width`, heads of `d`.
    RopeParams in [super::kernels::ROPE_WGSL] binds ["table", "x"] {
        t: u32, width: u32, d: u32, _pad: u32,
    }
}

impl MatmulParams {
    /// y (+)= x · Wᵀ for a PyTorch Linear weight W [out, in], all dense.
    pub fn linear(rows: usize, inp: usize, out: usize, accumulate: bool) -> Self {
        let u = |x: usize| x as u32;
        Self { m: u(rows), n: u(out), k: u(inp), b_trans: 1, a_stride: u(inp), b_stride: u(inp), c_stride: u(out), accumulate: accumulate as u32, ..Default::default() }
    }

    /// Workgroups of the shader's output blocks: 4 · TILE square, a 4 × 4 patch per
    /// invocation of a TILE × TILE workgroup.
    pub fn grid(&self) -> (u32, u32) {
        let block = 4 * super::sizes::TILE;
        (self.n.div_ceil(block), self.m.div_ceil(block))
    }
}
