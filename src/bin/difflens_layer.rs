//! `difflens-layer`: runs one attention layer from a PyTorch checkpoint on an input and
//! writes the output and every head's maps, so a researcher can check a checkpoint of
//! the official `MultiheadDiffAttn` (or a DIFF V2 / baseline layer) against DiffLens.
//!
//! ```text
//! difflens-layer --weights layer.safetensors --input x.safetensors --out result.safetensors \
//!     --kind v1 --heads 4 [--kv-heads 2] [--depth 3 | --lambda-init 0.8] [--bidirectional] [--no-rope]
//! ```
//! Input: key `x`, shape `[B, T, E]` or `[T, E]`. Output: `out` (`[B, T, E]`), `A1`,
//! `A2`, `A_diff` (`[B, H, T, T]`) and `lambda_full` (V1: `[1]`; V2: `[B, T, H]`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    match cli::run(<cli::Args as clap::Parser>::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("difflens-layer: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::{Parser, ValueEnum};
    use difflens::core::attention::{AttentionLayer, AttentionOptions, LambdaTrace, MapRequest};
    use difflens::core::baseline::BaselineAttention;
    use difflens::core::config::{AttentionKind, AttnShape, KvPairing};
    use difflens::core::diff_v1::DiffAttnV1;
    use difflens::core::diff_v2::DiffAttnV2;
    use difflens::core::lambda::lambda_init_for_depth;
    use difflens::core::rope::Rope;
    use difflens::core::weights::TensorStore;
    use ndarray::{Array2, Axis, Ix3};
    use std::path::PathBuf;

    #[derive(Clone, Copy, Debug, ValueEnum)]
    pub enum Kind {
        Baseline,
        V1,
        V2,
    }

    #[derive(Parser, Debug)]
    #[command(about = "Run one (differential) attention layer from a safetensors checkpoint")]
    pub struct Args {
        /// Checkpoint with the layer's state dict (official parameter names).
        #[arg(long)]
        pub weights: PathBuf,
        /// Input file holding `x`, [B, T, E] or [T, E].
        #[arg(long)]
        pub input: PathBuf,
        /// Where to write `out`, `A1`, `A2`, `A_diff` and `lambda_full`.
        #[arg(long)]
        pub out: PathBuf,
        #[arg(long, value_enum, default_value = "v1")]
        pub kind: Kind,
        /// Heads: differential heads for V1/V2, softmax heads for the baseline.
        #[arg(long)]
        pub heads: usize,
        #[arg(long)]
        pub kv_heads: Option<usize>,
        /// Prefix of the layer's names in the checkpoint (e.g. `layers.0.attn`).
        #[arg(long, default_value = "")]
        pub prefix: String,
        /// V1: layer depth (0-based) for λ_init = 0.8 − 0.6·exp(−0.3·depth).
        #[arg(long, default_value_t = 0, conflicts_with = "lambda_init")]
        pub depth: usize,
        /// V1: a constant λ_init instead of the depth schedule.
        #[arg(long)]
        pub lambda_init: Option<f32>,
        /// Attend in both directions (default: causal).
        #[arg(long)]
        pub bidirectional: bool,
        #[arg(long)]
        pub no_rope: bool,
        #[arg(long, default_value_t = 10_000.0)]
        pub rope_theta: f32,
        /// V1: the naive file's KV pairing instead of the flash files' (matters when kv-heads < heads).
        #[arg(long)]
        pub naive_pairing: bool,
        /// V1: drop the per-head RMSNorm (the paper's ablation).
        #[arg(long)]
        pub no_subln: bool,
    }

    fn read(path: &PathBuf) -> Result<TensorStore, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        TensorStore::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The input as a batch of `[T, E]` matrices.
    fn batch(store: &TensorStore) -> Result<Vec<Array2<f32>>, String> {
        let x = store.scope("").any("x").map_err(|e| e.to_string())?;
        let x = match x.ndim() {
            2 => x.insert_axis(Axis(0)),
            3 => x,
            n => return Err(format!("`x` must be [B, T, E] or [T, E], found rank {n}")),
        };
        let x = x.into_dimensionality::<Ix3>().map_err(|e| e.to_string())?;
        Ok(x.outer_iter().map(|m| m.to_owned()).collect())
    }

    fn layer(args: &Args, store: &TensorStore, embed_dim: usize) -> Result<AttentionLayer, String> {
        let vb = store.scope(&args.prefix);
        let kind = match args.kind {
            Kind::Baseline => AttentionKind::Baseline,
            Kind::V1 => AttentionKind::DiffV1,
            Kind::V2 => AttentionKind::DiffV2,
        };
        let shape = AttnShape::new(kind, embed_dim, args.heads, args.kv_heads, None).map_err(|e| e.to_string())?;
        let layer = match args.kind {
            Kind::Baseline => AttentionLayer::Baseline(BaselineAttention::load(&vb, shape).map_err(|e| e.to_string())?),
            Kind::V1 => {
                let lambda_init = args.lambda_init.unwrap_or_else(|| lambda_init_for_depth(args.depth));
                let pairing = if args.naive_pairing { KvPairing::Naive } else { KvPairing::Flash };
                AttentionLayer::V1(DiffAttnV1::load(&vb, shape, lambda_init, pairing, !args.no_subln).map_err(|e| e.to_string())?)
            }
            Kind::V2 => AttentionLayer::V2(DiffAttnV2::load(&vb, shape).map_err(|e| e.to_string())?),
        };
        Ok(layer)
    }

    pub fn run(args: Args) -> Result<(), String> {
        let weights = read(&args.weights)?;
        let xs = batch(&read(&args.input)?)?;
        let (t, e) = xs.first().map(|x| x.dim()).unwrap_or((0, 0));
        if t == 0 || e == 0 {
            return Err("`x` is empty: it needs at least one batch entry, one token and one channel".into());
        }
        let layer = layer(&args, &weights, e)?;
        let opts = AttentionOptions {
            causal: !args.bidirectional,
            rope: (!args.no_rope).then_some(Rope { theta: args.rope_theta }),
            maps: MapRequest::All,
            ..Default::default()
        };
        let h = layer.n_heads();
        let mut out = TensorStore::default();
        let (mut y, mut a1, mut a2, mut diff, mut lambdas) = (vec![], vec![], vec![], vec![], vec![]);
        for x in &xs {
            let r = layer.forward(&x.view(), &opts, 0);
            y.extend(r.out.iter().copied());
            for m in &r.maps {
                a1.extend(m.a1.iter().copied());
                a2.extend(m.a2.as_ref().unwrap_or(&m.a1).iter().copied());
                diff.extend(m.combined().iter().copied());
            }
            match r.lambda {
                LambdaTrace::None => {}
                LambdaTrace::Scalar(l) if lambdas.is_empty() => lambdas.push(l),
                LambdaTrace::Scalar(_) => {}
                LambdaTrace::PerToken(m) => lambdas.extend(m.iter().copied()),
            }
        }
        let b = xs.len();
        out.insert("out", vec![b, t, e], y);
        out.insert("A1", vec![b, h, t, t], a1);
        out.insert("A2", vec![b, h, t, t], a2);
        out.insert("A_diff", vec![b, h, t, t], diff);
        match args.kind {
            Kind::V1 => out.insert("lambda_full", vec![1], lambdas),
            Kind::V2 => out.insert("lambda_full", vec![b, t, h], lambdas),
            Kind::Baseline => {}
        }
        std::fs::write(&args.out, out.to_bytes()).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
        eprintln!("wrote {} (B={b}, T={t}, E={e}, H={h})", args.out.display());
        Ok(())
    }
}
