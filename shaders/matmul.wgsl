// C = A·B (or A·Bᵀ) with tiles staged in workgroup memory: each element of A and B is
// read from global memory once per block instead of once per product.
// Offsets and row strides address sub-matrices in place (one head's columns of Q, K, V),
// so no copies are needed; `accumulate` adds into C (the residual stream).
//   A: [m, k] at a_off with row stride a_stride
//   B: [k, n] (b_trans = 0) or [n, k] (b_trans = 1: a PyTorch Linear weight [out, in])
//   C: [m, n] at c_off with row stride c_stride

struct Params {
    m: u32,
    n: u32,
    k: u32,
    b_trans: u32,
    a_off: u32,
    a_stride: u32,
    b_off: u32,
    b_stride: u32,
    c_off: u32,
    c_stride: u32,
    accumulate: u32,
    _pad: u32,
}


@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// Each workgroup of TILE × TILE invocations computes a BLOCK × BLOCK block of C
// (BLOCK = 4 · TILE), each invocation a 4 × 4 patch held in registers: per step of
// TILE along k, the block's A rows and B columns are staged in workgroup memory once
// (coalesced: the loads run along each matrix's contiguous axis) and every staged value
// is used four times from registers. Sixteen times fewer workgroups and barriers than
// one output per invocation: what hardware GPUs reward, and software adapters too (a
// barrier there is a switch between coroutines).

const BLOCK: u32 = 4u * TILE;
const WG_SIZE: u32 = TILE * TILE;
// Staged transposed: ta[k][row] and tb[k][col], so that an invocation reads its four
// rows (or columns) as one vec4.
var<workgroup> ta: array<vec4<f32>, TILE * TILE>;
var<workgroup> tb: array<vec4<f32>, TILE * TILE>;

fn a_at(row: u32, kk: u32) -> f32 {
    if (row < p.m && kk < p.k) { return a[p.a_off + row * p.a_stride + kk]; }
    return 0.0;
}

fn b_at(kk: u32, col: u32) -> f32 {
    if (col < p.n && kk < p.k) {
        if (p.b_trans == 1u) { return b[p.b_off + col * p.b_stride + kk]; }
        return b[p.b_off + kk * p.b_stride + col];
    }
    return 0.0;
}

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row0 = wg.y * BLOCK;
    let col0 = wg.x * BLOCK;
    let tid = lid.y * TILE + lid.x;
    var acc: array<vec4<f32>, 4>;
    let tiles = (p.k + TILE - 1u) / TILE;
    for (var t = 0u; t < tiles; t = t + 1u) {
        let k0 = t * TILE;
        // BLOCK × TILE values of A and TILE × BLOCK of B: four per invocation each. A is
        // read along k (its rows are contiguous); B along k when transposed (a Linear
        // weight's rows), else along its columns.
        for (var e = 0u; e < 4u; e = e + 1u) {
            let idx = tid + e * WG_SIZE;
            let ar = idx / TILE;
            let ak = idx % TILE;
            let va = a_at(row0 + ar, k0 + ak);
            var bk: u32;
            var bc: u32;
            if (p.b_trans == 1u) { bc = idx / TILE; bk = idx % TILE; } else { bk = idx / BLOCK; bc = idx % BLOCK; }
            let vb = b_at(k0 + bk, col0 + bc);
            // Scalar writes into the vec4 slots: ta[k][row] is ta[k · TILE + row / 4][row % 4].
            ta[ak * TILE + ar / 4u][ar % 4u] = va;
            tb[bk * TILE + bc / 4u][bc % 4u] = vb;
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TILE; kk = kk + 1u) {
            let av = ta[kk * TILE + lid.y];
            let bv = tb[kk * TILE + lid.x];
            acc[0] = acc[0] + av.x * bv;
            acc[1] = acc[1] + av.y * bv;
            acc[2] = acc[2] + av.z * bv;
            acc[3] = acc[3] + av.w * bv;
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i = i + 1u) {
        let row = row0 + lid.y * 4u + i;
        if (row >= p.m) { break; }
        for (var j = 0u; j < 4u; j = j + 1u) {
            let col = col0 + lid.x * 4u + j;
            if (col < p.n) {
                let ci = p.c_off + row * p.c_stride + col;
                if (p.accumulate == 1u) { c[ci] = c[ci] + acc[i][j]; } else { c[ci] = acc[i][j]; }
            }
        }
    }
}
