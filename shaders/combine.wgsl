// The differential combine D = A1 − λ·A2, elementwise over [rows, cols] maps. λ is one
// scalar (V1: per layer) or one value per row (V2: per token and head, read at
// lambdas[row · lambda_stride + lambda_col] from the [T, H] λ matrix), chosen by
// `per_row`. A 2-D dispatch covers maps of more than 65 535 × 256 entries.

struct Params {
    rows: u32,
    cols: u32,
    per_row: u32,
    lambda: f32,
    groups_x: u32,
    lambda_stride: u32,
    lambda_col: u32,
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a1: array<f32>;
@group(0) @binding(2) var<storage, read> a2: array<f32>;
@group(0) @binding(3) var<storage, read> lambdas: array<f32>; // [rows] when per_row
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_1D)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let idx = gid.x + gid.y * p.groups_x * 256u;
    if (idx >= p.rows * p.cols) { return; }
    var l = p.lambda;
    if (p.per_row == 1u) { l = lambdas[(idx / p.cols) * p.lambda_stride + p.lambda_col]; }
    out[idx] = a1[idx] - l * a2[idx];
}
