// The noise lab's per-query sums, one workgroup per row:
//   out[i] = (Σ_signal a1, Σ_noise |a1|, Σ_signal d, Σ_noise |d|)
// with a1 = A1 (standard attention) and d = A1 − λ·A2, formed on the fly. The host adds
// the N rows in f64 and forms SNR and masses exactly as the CPU core does.
// ROW_WG (64) invocations per row: one wavefront on most GPUs, and few barriers for software
// rasterisers (SwiftShader pays dearly for each).

struct Params {
    n: u32,
    lambda: f32,
    _pad1: u32,
    _pad2: u32,
}


@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a1: array<f32>;
@group(0) @binding(2) var<storage, read> a2: array<f32>;
@group(0) @binding(3) var<storage, read> is_signal: array<u32>; // [n]
@group(0) @binding(4) var<storage, read_write> out: array<vec4<f32>>; // [n]

var<workgroup> red: array<vec4<f32>, ROW_WG>;

@compute @workgroup_size(ROW_WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let i = wg.x;
    if (i >= p.n) { return; }
    let t = lid.x;
    var acc = vec4<f32>(0.0);
    for (var j = t; j < p.n; j = j + ROW_WG) {
        let x = a1[i * p.n + j];
        let y = x - p.lambda * a2[i * p.n + j];
        if (is_signal[j] == 1u) {
            acc = acc + vec4<f32>(x, 0.0, y, 0.0);
        } else {
            acc = acc + vec4<f32>(0.0, abs(x), 0.0, abs(y));
        }
    }
    red[t] = acc;
    workgroupBarrier();
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = red[t] + red[t + stride]; }
        workgroupBarrier();
    }
    if (t == 0u) { out[i] = red[0]; }
}
