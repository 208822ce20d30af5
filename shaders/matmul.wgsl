// C = A·B (or A·Bᵀ) with TILE × TILE tiles staged in workgroup memory: each element of A
// and B is read from global memory once per tile instead of once per product.
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

var<workgroup> ta: array<array<f32, TILE>, TILE>;
var<workgroup> tb: array<array<f32, TILE>, TILE>;

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row = wg.y * TILE + lid.y;
    let col = wg.x * TILE + lid.x;
    var acc = 0.0;
    let tiles = (p.k + TILE - 1u) / TILE;
    for (var t = 0u; t < tiles; t = t + 1u) {
        let ka = t * TILE + lid.x;
        var va = 0.0;
        if (row < p.m && ka < p.k) { va = a[p.a_off + row * p.a_stride + ka]; }
        ta[lid.y][lid.x] = va;
        let kb = t * TILE + lid.y;
        var vb = 0.0;
        if (col < p.n && kb < p.k) {
            if (p.b_trans == 1u) { vb = b[p.b_off + col * p.b_stride + kb]; } else { vb = b[p.b_off + kb * p.b_stride + col]; }
        }
        tb[lid.y][lid.x] = vb;
        workgroupBarrier();
        for (var i = 0u; i < TILE; i = i + 1u) { acc = acc + ta[lid.y][i] * tb[i][lid.x]; }
        workgroupBarrier();
    }
    if (row < p.m && col < p.n) {
        let ci = p.c_off + row * p.c_stride + col;
        if (p.accumulate == 1u) { c[ci] = c[ci] + acc; } else { c[ci] = acc; }
    }
}
