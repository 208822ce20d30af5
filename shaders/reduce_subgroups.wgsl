// A workgroup's row reductions with subgroup operations, where the device has them (the
// host checks its `subgroups` feature; naga takes the built-ins without WGSL's
// `enable subgroups;`, which it does not parse yet): each subgroup reduces in registers, its first
// lane puts the result in workgroup memory, and after one barrier every invocation folds
// the few subgroups' results (one on a 64-wide GPU, two on a 32-wide one). Two barriers
// instead of log2(ROW_WG) + 2. Same contract as reduce_tree.wgsl; any subgroup size and
// any mapping of invocations to subgroups is fine, since only `subgroup_id` indexes.

struct Lanes {
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_id) sg: u32,
    @builtin(num_subgroups) n_sg: u32,
}

var<workgroup> red: array<f32, ROW_WG>;

fn row_max(v: f32, t: u32, lanes: Lanes) -> f32 {
    let s = subgroupMax(v);
    if (lanes.lane == 0u) { red[lanes.sg] = s; }
    workgroupBarrier();
    var r = red[0];
    for (var g = 1u; g < lanes.n_sg; g = g + 1u) { r = max(r, red[g]); }
    workgroupBarrier();
    return r;
}

fn row_sum(v: f32, t: u32, lanes: Lanes) -> f32 {
    let s = subgroupAdd(v);
    if (lanes.lane == 0u) { red[lanes.sg] = s; }
    workgroupBarrier();
    var r = red[0];
    for (var g = 1u; g < lanes.n_sg; g = g + 1u) { r = r + red[g]; }
    workgroupBarrier();
    return r;
}

var<workgroup> red4: array<vec4<f32>, ROW_WG>;

fn row_sum4(v: vec4<f32>, t: u32, lanes: Lanes) -> vec4<f32> {
    let s = subgroupAdd(v);
    if (lanes.lane == 0u) { red4[lanes.sg] = s; }
    workgroupBarrier();
    var r = red4[0];
    for (var g = 1u; g < lanes.n_sg; g = g + 1u) { r = r + red4[g]; }
    workgroupBarrier();
    return r;
}
