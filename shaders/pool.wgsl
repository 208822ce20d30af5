// Max-magnitude pooling of the difference map A1 − λ·A2 ([n, n]) to [r, r] for the
// heatmaps: pixel (pi, pj) covers rows [pi·n/r, (pi+1)·n/r) and the same columns, and
// keeps the entry of largest |value| with its sign, so single spikes survive (between
// equal magnitudes the larger value, as on the CPU, so the scan order does not matter). The
// difference is formed on the fly (fused combine): a λ change reads A1 and A2 once and
// writes only these r² values, which are all that is read back.

struct Params {
    n: u32,
    r: u32,
    lambda: f32,
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a1: array<f32>;
@group(0) @binding(2) var<storage, read> a2: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let pj = gid.x;
    let pi = gid.y;
    if (pi >= p.r || pj >= p.r) { return; }
    let r0 = pi * p.n / p.r;
    let r1 = (pi + 1u) * p.n / p.r;
    let c0 = pj * p.n / p.r;
    let c1 = (pj + 1u) * p.n / p.r;
    var best = 0.0;
    for (var i = r0; i < r1; i = i + 1u) {
        for (var j = c0; j < c1; j = j + 1u) {
            let v = a1[i * p.n + j] - p.lambda * a2[i * p.n + j];
            if (abs(v) > abs(best) || (abs(v) == abs(best) && v > best)) { best = v; }
        }
    }
    out[pi * p.r + pj] = best;
}
