//! The command line, with every number checked where clap parses it: a negative,
//! huge, NaN or infinite value is refused with the flag and the allowed range named.

use crate::core::config::MAX_SIZE;
use clap::{Parser, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    Baseline,
    V1,
    V2,
}

#[derive(Parser, Debug)]
#[command(name = "difflens-layer", about = "Run one (differential) attention layer from a safetensors checkpoint")]
pub struct Args {
    /// Checkpoint with the layer's state dict (official parameter names).
    #[arg(long)]
    pub weights: PathBuf,
    /// Input file holding `x`, [B, T, E] or [T, E].
    #[arg(long)]
    pub input: PathBuf,
    /// Where to write `out`, `A1`, `A2`, `A_diff` and `lambda_full` (written whole or not at all).
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "v1")]
    pub kind: Kind,
    /// Heads: differential heads for V1/V2, softmax heads for the baseline.
    #[arg(long, allow_negative_numbers = true, value_parser = count)]
    pub heads: usize,
    #[arg(long, allow_negative_numbers = true, value_parser = count)]
    pub kv_heads: Option<usize>,
    /// Prefix of the layer's names in the checkpoint (e.g. `layers.0.attn`).
    #[arg(long, default_value = "")]
    pub prefix: String,
    /// V1: layer depth (0-based) for λ_init = 0.8 − 0.6·exp(−0.3·depth).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = depth, conflicts_with = "lambda_init")]
    pub depth: usize,
    /// V1: a constant λ_init instead of the depth schedule.
    #[arg(long, allow_negative_numbers = true, value_parser = finite)]
    pub lambda_init: Option<f32>,
    /// Attend in both directions (default: causal).
    #[arg(long)]
    pub bidirectional: bool,
    #[arg(long)]
    pub no_rope: bool,
    #[arg(long, default_value_t = 10_000.0, allow_negative_numbers = true, value_parser = positive)]
    pub rope_theta: f32,
    /// V1: the naive file's KV pairing instead of the flash files' (matters when kv-heads < heads).
    #[arg(long)]
    pub naive_pairing: bool,
    /// V1: drop the per-head RMSNorm (the paper's ablation).
    #[arg(long)]
    pub no_subln: bool,
    /// Write only `out` and `lambda_full`: no T × T maps, so any T whose `x` and `out` fit runs.
    #[arg(long, conflicts_with = "map_heads")]
    pub no_maps: bool,
    /// Write the maps of these heads only (0-based, comma-separated, e.g. `0,3`).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true, value_parser = index)]
    pub map_heads: Option<Vec<usize>>,
    /// File holding `d_out`, shaped like `out`: also write the gradients of Σ out ⊙ d_out
    /// as `grad.x` and `grad.<parameter name>` (names as in the checkpoint).
    #[arg(long)]
    pub grad_of: Option<PathBuf>,
    /// Memory this run may use, in GiB (default: what the machine and its limits allow).
    #[arg(long, allow_negative_numbers = true, value_parser = gib)]
    pub max_memory: Option<f64>,
}

fn whole(text: &str, lo: usize, hi: usize) -> Result<usize, String> {
    let range = || format!("must be a whole number from {lo} to {hi}");
    let v: u128 = text.trim().parse().map_err(|_| format!("`{text}` {}", range()))?;
    if v < lo as u128 || v > hi as u128 {
        return Err(format!("{v} is out of range: it {}", range()));
    }
    Ok(v as usize)
}

fn count(text: &str) -> Result<usize, String> {
    whole(text, 1, MAX_SIZE)
}

fn index(text: &str) -> Result<usize, String> {
    whole(text, 0, MAX_SIZE - 1)
}

fn depth(text: &str) -> Result<usize, String> {
    whole(text, 0, MAX_SIZE)
}

fn number(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
    if !v.is_finite() {
        return Err(format!("`{text}` is not a finite number"));
    }
    Ok(v)
}

fn finite(text: &str) -> Result<f32, String> {
    let v = number(text)?;
    if v.abs() > 1e6 {
        return Err(format!("{v} is too large: λ_init is a number near 0.2–0.8 (the paper's schedule)"));
    }
    Ok(v as f32)
}

fn positive(text: &str) -> Result<f32, String> {
    let v = number(text)?;
    // Checked as the f32 it becomes: 1e-300 is positive as f64 but 0 as f32.
    let single = v as f32;
    if !(single > 0.0 && single.is_finite()) {
        return Err(format!("{v} must be a positive number (RoPE divides by powers of it)"));
    }
    Ok(single)
}

fn gib(text: &str) -> Result<f64, String> {
    let v = number(text)?;
    if !(v > 0.0 && v <= 1e6) {
        return Err(format!("{v} must be a positive number of GiB"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_refused_with_their_range() {
        assert_eq!(count("4"), Ok(4));
        assert!(count("-1").unwrap_err().contains("from 1 to"));
        assert!(count("9223372036854775808").unwrap_err().contains("out of range"));
        assert!(count("0").is_err() && index("0") == Ok(0));
        assert!(finite("NaN").unwrap_err().contains("finite"));
        assert!(finite("inf").is_err() && finite("1e30").is_err());
        assert!(positive("0").is_err() && positive("-5").is_err() && positive("NaN").is_err() && positive("1e39").is_err() && positive("1e-300").is_err());
        assert_eq!(positive("10000"), Ok(10_000.0));
    }
}
