// Attention scores and row-wise softmax, as softmax.wgsl, but one invocation per query
// row: the layout for software adapters (SwiftShader, lavapipe/llvmpipe).
//
// A software adapter runs a workgroup's invocations as SIMD lanes on a CPU core and
// implements each barrier as a switch between coroutines, so softmax.wgsl's tree
// reductions (about 16 barriers per row) cost more than the arithmetic. Here nothing is
// shared: each invocation scores its own row eight keys at a time (vec4 loads, eight
// accumulators), keeps the max as it goes, then exponentiates and normalises in place.
// On SwiftShader this is much faster than softmax.wgsl (README, "Performance"); on a hardware GPU the
// workgroup-per-row kernel is the right one (coalesced row writes, many more threads).
//
// Needs d, the column offsets and the row strides to be multiples of 4 (vec4 bindings);
// the host falls back to softmax.wgsl otherwise. No −∞ or NaN is produced: masked keys
// are written as 0 and the running max starts at a finite sentinel.

// Params, LOWEST, the uniform and `out` come from softmax_params.wgsl, put before this file.
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;  // [n_q, q_stride / 4]
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;  // [n_k, k_stride / 4]

fn hsum(a: vec4<f32>) -> f32 {
    return (a.x + a.y) + (a.z + a.w);
}

fn key_base(j: u32) -> u32 {
    return (j * p.k_stride + p.k_col) / 4u;
}

@compute @workgroup_size(ROW_WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.n_q) { return; }
    let d4 = p.d / 4u;
    // The query row, pre-scaled, in registers.
    var qr: array<vec4<f32>, MAX_D / 4u>;
    let qb = (i * p.q_stride + p.q_col) / 4u;
    for (var c = 0u; c < d4; c = c + 1u) { qr[c] = q[qb + c] * p.scale; }

    var visible = p.n_k;
    if (p.causal == 1u) { visible = min(p.n_k, i + 1u); }
    let row = i * p.n_k;
    let ks = p.k_stride / 4u;

    // Scores, eight keys per step (eight accumulators rather than four: the key loads
    // dominate on SwiftShader, and more independent sums hide their latency).
    var m4 = vec4<f32>(LOWEST);
    var j = 0u;
    for (; j + 8u <= visible; j = j + 8u) {
        var a0 = vec4<f32>(0.0);
        var a1 = vec4<f32>(0.0);
        var a2 = vec4<f32>(0.0);
        var a3 = vec4<f32>(0.0);
        var a4 = vec4<f32>(0.0);
        var a5 = vec4<f32>(0.0);
        var a6 = vec4<f32>(0.0);
        var a7 = vec4<f32>(0.0);
        let kb = key_base(j);
        for (var c = 0u; c < d4; c = c + 1u) {
            let qc = qr[c];
            a0 = a0 + qc * k[kb + c];
            a1 = a1 + qc * k[kb + ks + c];
            a2 = a2 + qc * k[kb + 2u * ks + c];
            a3 = a3 + qc * k[kb + 3u * ks + c];
            a4 = a4 + qc * k[kb + 4u * ks + c];
            a5 = a5 + qc * k[kb + 5u * ks + c];
            a6 = a6 + qc * k[kb + 6u * ks + c];
            a7 = a7 + qc * k[kb + 7u * ks + c];
        }
        let lo = vec4<f32>(hsum(a0), hsum(a1), hsum(a2), hsum(a3));
        let hi = vec4<f32>(hsum(a4), hsum(a5), hsum(a6), hsum(a7));
        for (var u = 0u; u < 4u; u = u + 1u) {
            out[row + j + u] = lo[u];
            out[row + j + 4u + u] = hi[u];
        }
        m4 = max(m4, max(lo, hi));
    }
    var m = max(max(m4.x, m4.y), max(m4.z, m4.w));
    // The last visible keys, one at a time.
    for (; j < visible; j = j + 1u) {
        let kb = key_base(j);
        var a = vec4<f32>(0.0);
        for (var c = 0u; c < d4; c = c + 1u) { a = a + qr[c] * k[kb + c]; }
        let s = hsum(a);
        out[row + j] = s;
        m = max(m, s);
    }

    var sum = 0.0;
    for (j = 0u; j < visible; j = j + 1u) {
        let e = exp(out[row + j] - m);
        out[row + j] = e;
        sum = sum + e;
    }
    for (j = 0u; j < visible; j = j + 1u) { out[row + j] = out[row + j] / sum; }
    for (; j < p.n_k; j = j + 1u) { out[row + j] = 0.0; }
}
