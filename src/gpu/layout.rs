//! How a row-wise kernel (a softmax, a row's sums) is laid over the device. Hardware
//! GPUs want one workgroup per row: the row is read and written coalesced and reduced
//! as a tree in workgroup memory. Software adapters (SwiftShader, lavapipe/llvmpipe,
//! WARP) run a workgroup's invocations as SIMD lanes on a CPU core and implement each
//! barrier as a switch between coroutines; for them one invocation per row, with no
//! barriers at all, is several times faster (README, "Performance"). Each row kernel exists in
//! both layouts, computes the same thing, and is tested against the core in both.

use super::context::GpuContext;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLayout {
    WorkgroupPerRow,
    InvocationPerRow,
}

use super::sizes::ROW_WG;

impl RowLayout {
    /// The layout that suits this context's adapter.
    pub fn preferred(ctx: &GpuContext) -> Self {
        if ctx.software {
            Self::InvocationPerRow
        } else {
            Self::WorkgroupPerRow
        }
    }

    /// The workgroup grid that covers `rows` rows.
    pub fn grid(self, rows: usize) -> (u32, u32) {
        match self {
            Self::WorkgroupPerRow => (rows as u32, 1),
            Self::InvocationPerRow => ((rows as u32).div_ceil(ROW_WG), 1),
        }
    }
}
