
// The λ-only update of the noise lab for hardware GPUs, in one pass: pools
// d = A1 − λ·A2 ([n, n]) to [r, r] by max magnitude (pixel (pi, pj) covers rows
// [pi·n/r, (pi+1)·n/r) and the same columns, and keeps the entry of largest |d| with its
// sign, so single spikes survive) and writes each query's sums:
//   rows[i] = (Σ_signal a1, Σ_noise |a1|, Σ_signal d, Σ_noise |d|)
//
// One workgroup per pixel row: its ROW_WG invocations walk each query row of the band
// together, four adjacent keys each, so a row is read coalesced and A1 and A2 are read
// once for both results (a pooling pass and a sums pass would read them twice). A pixel's
// best is kept in workgroup memory as an ordered key (below) and merged with atomicMax,
// once per pixel an invocation's four keys touch; each row's sums are reduced with the
// file put before this one (reduce_tree.wgsl, or reduce_subgroups.wgsl where the device
// has subgroups). Ties of magnitude go to the larger value, so the result does not
// depend on the order the invocations merge in. Its parameters and buffers are
// lab_lambda_io.wgsl's, put before it.

var<workgroup> best: array<atomic<u32>, MAX_PX>;

// |v|'s bits (a non-negative float orders as its bits) above v's sign: the largest key
// is the largest magnitude and, between equal magnitudes, the positive value.
fn order_key(v: f32) -> u32 {
    return (bitcast<u32>(abs(v)) << 1u) | select(0u, 1u, v > 0.0);
}

fn from_key(k: u32) -> f32 {
    let m = bitcast<f32>(k >> 1u);
    return select(-m, m, (k & 1u) == 1u || k == 0u);
}

// The pixel column of key column j: the last pj whose band starts at or before j (a band
// is [pj·n/r, (pj+1)·n/r), as the CPU pools).
fn pixel_of(j: u32) -> u32 {
    return ((j + 1u) * p.r - 1u) / p.n;
}

@compute @workgroup_size(ROW_WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, lanes: Lanes) {
    let pi = wg.x;
    if (pi >= p.r) { return; }
    let t = lid.x;
    for (var pj = t; pj < p.r; pj = pj + ROW_WG) { atomicStore(&best[pj], 0u); }
    workgroupBarrier();

    let r0 = pi * p.n / p.r;
    let r1 = (pi + 1u) * p.n / p.r;
    for (var i = r0; i < r1; i = i + 1u) {
        let row = i * p.n;
        var acc = vec4<f32>(0.0);
        for (var j0 = 4u * t; j0 < p.n; j0 = j0 + 4u * ROW_WG) {
            var pj = pixel_of(j0);
            var k = 0u;
            for (var j = j0; j < min(j0 + 4u, p.n); j = j + 1u) {
                let x = a1[row + j];
                let d = x - p.lambda * a2[row + j];
                if (is_signal[j] == 1u) { acc = acc + vec4<f32>(x, 0.0, d, 0.0); } else { acc = acc + vec4<f32>(0.0, abs(x), 0.0, abs(d)); }
                let here = pixel_of(j);
                if (here != pj) {
                    atomicMax(&best[pj], k);
                    pj = here;
                    k = 0u;
                }
                k = max(k, order_key(d));
            }
            atomicMax(&best[pj], k);
        }
        let sums = row_sum4(acc, t, lanes);
        if (t == 0u) { rows[i] = sums; }
    }
    workgroupBarrier();
    for (var pj = t; pj < p.r; pj = pj + ROW_WG) { pooled[pi * p.r + pj] = from_key(atomicLoad(&best[pj])); }
}
