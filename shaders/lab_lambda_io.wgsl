// The lab's λ-only update's parameters and buffers, put before both of its kernels
// (lab_lambda_rows.wgsl for software adapters, lab_lambda_wg.wgsl for hardware GPUs),
// so the two bind one block and the same buffers (`gpu::params::LabLambdaParams`).
struct Params {
    n: u32,
    r: u32,
    lambda: f32,
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a1: array<f32>;
@group(0) @binding(2) var<storage, read> a2: array<f32>;
@group(0) @binding(3) var<storage, read> is_signal: array<u32>;       // [n]
@group(0) @binding(4) var<storage, read_write> pooled: array<f32>;    // [r, r]
@group(0) @binding(5) var<storage, read_write> rows: array<vec4<f32>>; // [n]
