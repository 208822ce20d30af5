
// Attention scores and row-wise softmax as softmax.wgsl (one workgroup per query row,
// ROW_WG invocations striding over the keys), for hardware GPUs and heads whose d,
// column offsets and strides are multiples of 4: the query row is staged once in
// workgroup memory, pre-scaled, and each key is read as vec4s (16-byte loads, a quarter
// of the load instructions). The reductions come from the file put before this one:
// reduce_tree.wgsl, or reduce_subgroups.wgsl where the device has subgroups. No −∞ or
// NaN is produced: masked keys are written as 0 and the max starts at a finite sentinel.

// Params, LOWEST, the uniform and `out` come from softmax_params.wgsl, put before this file.
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;  // [n_q, q_stride / 4]
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;  // [n_k, k_stride / 4]

var<workgroup> q_row: array<vec4<f32>, MAX_D / 4u>;

@compute @workgroup_size(ROW_WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, lanes: Lanes) {
    let i = wg.x;
    if (i >= p.n_q) { return; }
    let t = lid.x;
    let d4 = p.d / 4u;
    let qb = (i * p.q_stride + p.q_col) / 4u;
    for (var c = t; c < d4; c = c + ROW_WG) { q_row[c] = q[qb + c] * p.scale; }
    workgroupBarrier();

    var visible = p.n_k;
    if (p.causal == 1u) { visible = min(p.n_k, i + 1u); }
    let row = i * p.n_k;

    var m = LOWEST;
    for (var j = t; j < visible; j = j + ROW_WG) {
        let kb = (j * p.k_stride + p.k_col) / 4u;
        var a = vec4<f32>(0.0);
        for (var c = 0u; c < d4; c = c + 1u) { a = a + q_row[c] * k[kb + c]; }
        let s = (a.x + a.y) + (a.z + a.w);
        out[row + j] = s;
        m = max(m, s);
    }
    let top = row_max(m, t, lanes);

    var sum = 0.0;
    for (var j = t; j < visible; j = j + ROW_WG) {
        let e = exp(out[row + j] - top);
        out[row + j] = e;
        sum = sum + e;
    }
    let total = row_sum(sum, t, lanes);

    for (var j = t; j < p.n_k; j = j + ROW_WG) {
        if (j < visible) { out[row + j] = out[row + j] / total; } else { out[row + j] = 0.0; }
    }
}
