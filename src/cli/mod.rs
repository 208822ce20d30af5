//! The `difflens-layer` command (native only): runs one attention layer from a
//! PyTorch-style checkpoint on an input and writes the output and the heads' maps.
//!
//! It lives in the library, not in the binary, so tests can check every argument and
//! every plan without starting a process per case; the binary only prints.
//! What it promises: every refusal names its input and the way out; nothing it writes is
//! ever left half-written; an answer that is not finite is an error, not exit 0.

mod args;
mod files;
mod grad;
mod memory;
mod run;

pub use args::{Args, Kind};
pub use files::{read_regular, refuse_overwriting, write_atomic};
pub use memory::{Budget, Need};
pub use run::{run, Report};
