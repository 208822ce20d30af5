// The λ-only update of the noise lab for software adapters, in one pass: pools
// d = A1 − λ·A2 ([n, n]) to [r, r] by max magnitude and writes each query's sums:
//   rows[i] = (Σ_signal a1, Σ_noise |a1|, Σ_signal d, Σ_noise |d|)
//
// One invocation per pixel row: it scans the rows of its block start to end, so every
// entry of A1 and A2 is read once, in order, with no barrier. That suits an adapter that
// runs invocations as SIMD lanes on a CPU core (see softmax_rows.wgsl); hardware GPUs use
// lab_lambda_wg.wgsl, whose coalesced reads and workgroup reductions suit them. Ties of
// magnitude go to the larger value, so the result does not depend on the scan order.
// Its parameters and buffers are lab_lambda_io.wgsl's, put before it.

fn wins(v: f32, best: f32) -> bool {
    return abs(v) > abs(best) || (abs(v) == abs(best) && v > best);
}

@compute @workgroup_size(ROW_WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let pi = gid.x;
    if (pi >= p.r) { return; }
    let r0 = pi * p.n / p.r;
    let r1 = (pi + 1u) * p.n / p.r;
    // Band edges c1 = (pj + 1)·n / r, stepped without a division per pixel.
    let step = p.n / p.r;
    let step_rem = p.n % p.r;
    for (var i = r0; i < r1; i = i + 1u) {
        let row = i * p.n;
        var signal = vec2<f32>(0.0);
        var noise = vec2<f32>(0.0);
        var c0 = 0u;
        var c1 = 0u;
        var rem = 0u;
        for (var pj = 0u; pj < p.r; pj = pj + 1u) {
            c1 = c1 + step;
            rem = rem + step_rem;
            if (rem >= p.r) { c1 = c1 + 1u; rem = rem - p.r; }
            // The block's best so far (over its earlier rows), starting at 0 as the CPU does.
            var best = 0.0;
            if (i > r0) { best = pooled[pi * p.r + pj]; }
            for (var j = c0; j < c1; j = j + 1u) {
                let x = a1[row + j];
                let v = vec2<f32>(x, x - p.lambda * a2[row + j]);
                if (is_signal[j] == 1u) { signal = signal + v; } else { noise = noise + abs(v); }
                if (wins(v.y, best)) { best = v.y; }
            }
            pooled[pi * p.r + pj] = best;
            c0 = c1;
        }
        rows[i] = vec4<f32>(signal.x, noise.x, signal.y, noise.y);
    }
}
