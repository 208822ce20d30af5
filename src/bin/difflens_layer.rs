//! `difflens-layer`: runs one attention layer from a PyTorch checkpoint on an input and
//! writes the output and the heads' maps, so a researcher can check a checkpoint of
//! the official `MultiheadDiffAttn` (or a DIFF V2 / baseline layer) against DiffLens.
//!
//! ```text
//! difflens-layer --weights layer.safetensors --input x.safetensors --out result.safetensors \
//!     --kind v1 --heads 4 [--kv-heads 2] [--depth 3 | --lambda-init 0.8] [--bidirectional] [--no-rope]
//!     [--no-maps | --map-heads 0,2] [--max-memory 4]
//! ```
//! Input: key `x`, shape `[B, T, E]` or `[T, E]`. Output: `out` (`[B, T, E]`), `A1`,
//! `A2`, `A_diff` (`[B, H, T, T]`, or the `--map-heads` only) and `lambda_full`
//! (V1: `[1]`; V2: `[B, T, H]`). The work is in `difflens::cli`.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use difflens::cli;
    match cli::run(<cli::Args as clap::Parser>::parse()) {
        Ok(report) => {
            for note in &report.notes {
                eprintln!("note: {note}");
            }
            eprintln!("{}", report.summary);
            std::process::ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("difflens-layer: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
