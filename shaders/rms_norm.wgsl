// RMSNorm per row: y = x · rsqrt(mean(x²) + eps) · g · post_scale, one workgroup of ROW_WG
// per row with a tree reduction. Rows are contiguous `width`-wide chunks, so the same
// kernel serves the block norms ([T, E]) and V1's per-head norm ([T·H, 2d], one gain
// shared by the heads, post_scale = 1 − λ_init). With `normalise` = 0 it only scales
// (the ablation without the per-head norm).

struct Params {
    rows: u32,
    width: u32,
    eps: f32,
    post_scale: f32,
    normalise: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}


@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gain: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

var<workgroup> red: array<f32, ROW_WG>;

@compute @workgroup_size(ROW_WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let r = wg.x;
    if (r >= p.rows) { return; }
    let t = lid.x;
    let base = r * p.width;
    var s = 0.0;
    for (var c = t; c < p.width; c = c + ROW_WG) { let v = x[base + c]; s = s + v * v; }
    red[t] = s;
    workgroupBarrier();
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = red[t] + red[t + stride]; }
        workgroupBarrier();
    }
    var scale = p.post_scale;
    if (p.normalise == 1u) { scale = scale / sqrt(red[0] / f32(p.width) + p.eps); }
    for (var c = t; c < p.width; c = c + ROW_WG) {
        var g = 1.0;
        if (p.normalise == 1u) { g = gain[c]; }
        y[base + c] = x[base + c] * scale * g;
    }
}
