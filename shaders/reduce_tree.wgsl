// A workgroup's row reductions as trees in workgroup memory: log2(ROW_WG) barriers each.
// Put before a row kernel whose entry point takes `lanes: Lanes` (beside its own
// workgroup and invocation ids: a browser's uniformity analysis treats every member of
// a built-in struct as varying, so the workgroup id stays a parameter of its own) and
// calls `row_max`, `row_sum` or `row_sum4` (four sums at once) from uniform control
// flow; every invocation gets the whole row's result. (reduce_subgroups.wgsl is the same contract with subgroup
// operations.)

struct Lanes {
    // Unused here: a struct needs a member.
    @builtin(local_invocation_index) index: u32,
}

var<workgroup> red: array<f32, ROW_WG>;

fn row_max(v: f32, t: u32, lanes: Lanes) -> f32 {
    red[t] = v;
    workgroupBarrier();
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = max(red[t], red[t + stride]); }
        workgroupBarrier();
    }
    let r = red[0];
    // Nobody writes `red` again until everyone has read it.
    workgroupBarrier();
    return r;
}

fn row_sum(v: f32, t: u32, lanes: Lanes) -> f32 {
    red[t] = v;
    workgroupBarrier();
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red[t] = red[t] + red[t + stride]; }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}

var<workgroup> red4: array<vec4<f32>, ROW_WG>;

fn row_sum4(v: vec4<f32>, t: u32, lanes: Lanes) -> vec4<f32> {
    red4[t] = v;
    workgroupBarrier();
    for (var stride = ROW_WG / 2u; stride > 0u; stride = stride / 2u) {
        if (t < stride) { red4[t] = red4[t] + red4[t + stride]; }
        workgroupBarrier();
    }
    let r = red4[0];
    workgroupBarrier();
    return r;
}
