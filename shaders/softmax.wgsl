// Attention scores and row-wise softmax: out[i, j] = softmax_j(q_i · k_j · scale),
// with keys after the query masked when `causal` (query i sees keys 0 ..= i: queries and keys are the same tokens).
//
// One workgroup per query row; ROW_WG invocations (64: one wavefront on most GPUs) stride over
// the keys, so the row is read coalesced and every reduction (max, then sum) is a tree
// in workgroup memory with few barriers (software rasterisers pay dearly for each).
// Masked entries are written as 0 and skipped: no −∞ or NaN is ever produced, since
// WGSL implementations may assume neither occurs. The running max starts at a finite
// sentinel for the same reason.

// Params, LOWEST, the uniform and `out` come from softmax_params.wgsl, put before this file.
@group(0) @binding(1) var<storage, read> q: array<f32>;        // [n_q, q_stride]
@group(0) @binding(2) var<storage, read> k: array<f32>;        // [n_k, k_stride]

var<workgroup> q_row: array<f32, MAX_D>;
var<workgroup> red: array<f32, ROW_WG>;

fn reduce_max(t: u32) -> f32 {
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = max(red[t], red[t + stride]); }
        workgroupBarrier();
    }
    return red[0];
}

fn reduce_sum(t: u32) -> f32 {
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = red[t] + red[t + stride]; }
        workgroupBarrier();
    }
    return red[0];
}

@compute @workgroup_size(ROW_WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let i = wg.x;
    if (i >= p.n_q) { return; }
    let t = lid.x;
    for (var c = t; c < p.d; c = c + ROW_WG) { q_row[c] = q[i * p.q_stride + p.q_col + c]; }
    workgroupBarrier();

    var visible = p.n_k;
    if (p.causal == 1u) { visible = min(p.n_k, i + 1u); }
    let row = i * p.n_k;

    var m = LOWEST;
    for (var j = t; j < visible; j = j + ROW_WG) {
        var s = 0.0;
        for (var c = 0u; c < p.d; c = c + 1u) { s = s + q_row[c] * k[j * p.k_stride + p.k_col + c]; }
        s = s * p.scale;
        out[row + j] = s;
        m = max(m, s);
    }
    red[t] = m;
    workgroupBarrier();
    let row_max = reduce_max(t);
    workgroupBarrier();

    var sum = 0.0;
    for (var j = t; j < visible; j = j + ROW_WG) {
        let e = exp(out[row + j] - row_max);
        out[row + j] = e;
        sum = sum + e;
    }
    red[t] = sum;
    workgroupBarrier();
    let total = reduce_sum(t);

    for (var j = t; j < p.n_k; j = j + ROW_WG) {
        if (j < visible) { out[row + j] = out[row + j] / total; } else { out[row + j] = 0.0; }
    }
}
