//! Workgroup sizes and array bounds shared by the host and the shaders: defined here
//! once, and given to every shader as WGSL constants ([`wgsl_header`]), so a dispatch
//! grid and the `@workgroup_size` it assumes cannot disagree.

/// Invocations per workgroup of the 1-D elementwise kernels (combine, elementwise,
/// rope): a multiple of every GPU's SIMD width, and WebGPU's default limit.
pub const WG_1D: u32 = 256;
/// Invocations per workgroup of the row kernels: one workgroup per row (tree reductions
/// in workgroup memory) or, for software adapters, one invocation per row.
pub const ROW_WG: u32 = 64;
/// Side of the matmul's 2-D workgroups and shared-memory tiles.
pub const TILE: u32 = 16;
/// The largest head size the softmax kernels hold in registers or workgroup memory.
pub const MAX_D: u32 = 256;
/// The widest pooled map the lab's λ kernel keeps a row of in workgroup memory (the
/// heatmaps draw 384 pixels at most).
pub const MAX_PX: u32 = 1024;

/// The constants above as WGSL, put before every shader's source.
pub fn wgsl_header() -> String {
    format!("const WG_1D: u32 = {WG_1D}u;\nconst ROW_WG: u32 = {ROW_WG}u;\nconst TILE: u32 = {TILE}u;\nconst MAX_D: u32 = {MAX_D}u;\nconst MAX_PX: u32 = {MAX_PX}u;\n")
}

/// A shader's source as it is compiled: the shared constants, then the file.
pub fn wgsl(source: &str) -> String {
    format!("{}{source}", wgsl_header())
}
