// Interleaved rotary embedding in place: for every token t and every d-wide head of the
// row, dims 2i and 2i+1 rotate by the angle t·θ^(−2i/d). The cos/sin table ([T, d/2, 2])
// is computed on the host in f32 exactly as the CPU core does, because GPU sin/cos lose
// accuracy far from 0 (angles reach T radians).

struct Params {
    t: u32,
    width: u32,
    d: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> table: array<f32>;
@group(0) @binding(2) var<storage, read_write> x: array<f32>;

@compute @workgroup_size(WG_1D)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let pairs_per_row = p.width / 2u;
    let idx = gid.x;
    if (idx >= p.t * pairs_per_row) { return; }
    let row = idx / pairs_per_row;
    let pair = idx % pairs_per_row;
    let i = pair % (p.d / 2u);
    let cos_v = table[(row * (p.d / 2u) + i) * 2u];
    let sin_v = table[(row * (p.d / 2u) + i) * 2u + 1u];
    let at = row * p.width + 2u * pair;
    let a = x[at];
    let b = x[at + 1u];
    x[at] = a * cos_v - b * sin_v;
    x[at + 1u] = a * sin_v + b * cos_v;
}
