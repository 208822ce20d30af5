// The three softmax kernels' parameters, sentinel and shared bindings, put before each
// of them (softmax.wgsl, softmax_rows.wgsl, softmax_vec4.wgsl), so the three bind one
// block (`gpu::params::SoftmaxUniform`) and one output; each declares its own q and k,
// read as f32 or as vec4.

struct Params {
    n_q: u32,
    n_k: u32,
    d: u32,
    causal: u32,
    scale: f32,
    /// Where one head's columns start in Q and K, and their row strides, so heads are
    /// read in place from the projections.
    q_col: u32,
    q_stride: u32,
    k_col: u32,
    k_stride: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

/// The running max's start: finite, since WGSL implementations may assume no −∞ or NaN.
const LOWEST: f32 = -3.0e38;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(3) var<storage, read_write> out: array<f32>; // [n_q, n_k]
