//! One run of the tool: read and check the files, plan the memory, run the layer on
//! each batch entry, check that every output is finite, write the result atomically.

use super::args::{Args, Kind};
use super::files::{read_regular, refuse_overwriting, write_atomic};
use super::memory::{Budget, Need};
use crate::core::attention::{AttentionLayer, AttentionOptions, LambdaTrace, MapRequest, V1Choices};
use crate::core::config::{AttentionKind, AttnShape, KvPairing};
use crate::core::lambda::lambda_init_for_depth;
use crate::core::rope::Rope;
use crate::core::weights::TensorStore;
use ndarray::{Array2, Axis, Ix3};
use safetensors::tensor::TensorView;
use safetensors::Dtype;
use std::collections::HashMap;
use std::path::Path;

/// What a successful run tells the user.
#[derive(Debug, Default)]
pub struct Report {
    /// Things worth knowing that did not stop the run (ignored tensors).
    pub notes: Vec<String>,
    pub summary: String,
}

fn load(path: &Path, flag: &str) -> Result<TensorStore, String> {
    let bytes = read_regular(path, flag)?;
    TensorStore::from_bytes(&bytes).map_err(|e| format!("{flag} {}: {e}", path.display()))
}

/// The input as a batch of `[T, E]` matrices.
fn batch(store: &TensorStore, path: &Path) -> Result<Vec<Array2<f32>>, String> {
    let name = path.display();
    let x = store.scope("").any("x").map_err(|e| format!("--input {name}: {e}; the input must hold `x` as [B, T, E] or [T, E]"))?;
    let x = match x.ndim() {
        2 => x.insert_axis(Axis(0)),
        3 => x,
        n => return Err(format!("--input {name}: `x` has shape {:?} (rank {n}); it must be [B, T, E] or [T, E]", x.shape())),
    };
    let x = x.into_dimensionality::<Ix3>().map_err(|e| e.to_string())?;
    if x.is_empty() {
        return Err(format!("--input {name}: `x` has shape {:?}: it needs at least one batch entry, one token and one channel", x.shape()));
    }
    Ok(x.outer_iter().map(|m| m.to_owned()).collect())
}

/// The width the checkpoint's layer takes (the columns of `q_proj.weight`), so an input of
/// the wrong width is named as such instead of as a mismatched norm deep inside.
fn layer_width(args: &Args, weights: &TensorStore) -> Option<(usize, String)> {
    let name = weights.scope(&args.prefix).full_name("q_proj.weight");
    let t = weights.get(&name)?;
    (t.shape.len() == 2).then(|| (t.shape[1], format!("{name} is {:?}", t.shape)))
}

fn layer(args: &Args, store: &TensorStore, embed_dim: usize) -> Result<AttentionLayer, String> {
    let vb = store.scope(&args.prefix);
    let kind = match args.kind {
        Kind::Baseline => AttentionKind::Baseline,
        Kind::V1 => AttentionKind::DiffV1,
        Kind::V2 => AttentionKind::DiffV2,
    };
    let failed = |e: crate::core::weights::WeightsError| format!("--weights {}: {e}", args.weights.display());
    let shape = AttnShape::new(kind, embed_dim, args.heads, args.kv_heads, None).map_err(|e| format!("{e} (from --heads {} and the input's width {embed_dim})", args.heads))?;
    let lambda_init = args.lambda_init.unwrap_or_else(|| lambda_init_for_depth(args.depth));
    let pairing = if args.naive_pairing { KvPairing::Naive } else { KvPairing::Flash };
    AttentionLayer::load(&vb, kind, shape, V1Choices { lambda_init, pairing, subln: !args.no_subln }).map_err(failed)
}

/// The heads whose maps are written, sorted, each once.
fn map_heads(args: &Args, h: usize) -> Result<Vec<usize>, String> {
    let mut heads = match (&args.map_heads, args.no_maps) {
        (_, true) => vec![],
        (Some(list), _) => list.clone(),
        (None, _) => (0..h).collect(),
    };
    heads.sort_unstable();
    heads.dedup();
    if let Some(bad) = heads.iter().find(|&&i| i >= h) {
        return Err(format!("--map-heads {bad}: the layer has {h} heads, numbered 0 to {}", h - 1));
    }
    Ok(heads)
}

fn largest(values: &[f32]) -> f32 {
    values.iter().fold(0.0f32, |m, v| m.max(v.abs()))
}

/// Why an output may not be finite: the largest magnitudes going in.
fn likely_cause(xs: &[Array2<f32>], weights: &TensorStore) -> String {
    let x = xs.iter().map(|m| largest(m.as_slice().unwrap_or(&[]))).fold(0.0, f32::max);
    let w = weights.names().filter_map(|n| weights.get(n).map(|t| (n, largest(&t.data)))).max_by(|a, b| a.1.total_cmp(&b.1));
    let w = w.map(|(n, v)| format!("the largest weight is {v:.3e} in `{n}`")).unwrap_or_default();
    format!("likely cause: values too large for f32 (the largest |x| is {x:.3e}, {w}; f32 overflows past 3.4e38, and λ's exp(λ_q·λ_k) overflows once λ_q·λ_k passes 88)")
}

fn check_finite(name: &str, values: &[f32], cause: impl Fn() -> String) -> Result<(), String> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(format!("the output `{name}` is not finite (entry {i} is {}); nothing was written. {}", values[i], cause())),
    }
}

struct Outputs {
    tensors: Vec<super::grad::Named>,
    map_heads: Vec<usize>,
}

fn write(path: &Path, outputs: &Outputs) -> Result<(), String> {
    let views: Vec<(&str, TensorView)> =
        outputs.tensors.iter().map(|(name, shape, data)| (name.as_str(), TensorView::new(Dtype::F32, shape.clone(), bytemuck::cast_slice(data)).expect("shape matches data"))).collect();
    let heads: Vec<String> = outputs.map_heads.iter().map(|h| h.to_string()).collect();
    let meta = (!heads.is_empty()).then(|| HashMap::from([("map_heads".to_string(), heads.join(","))]));
    write_atomic(path, |temp| safetensors::serialize_to_file(views, &meta, temp).map_err(|e| format!("cannot write --out {}: {e}", path.display())))
}

pub fn run(args: Args) -> Result<Report, String> {
    let mut inputs = vec![("--input", args.input.as_path()), ("--weights", args.weights.as_path())];
    inputs.extend(args.grad_of.as_deref().map(|g| ("--grad-of", g)));
    refuse_overwriting(&args.out, &inputs)?;
    let grad_file = args.grad_of.as_ref().map(|path| load(path, "--grad-of").map(|f| (f, format!("--grad-of {}", path.display())))).transpose()?;
    let weights = load(&args.weights, "--weights")?;
    let xs = batch(&load(&args.input, "--input")?, &args.input)?;
    let (t, e) = xs[0].dim();
    let b = xs.len();
    if let Some((width, why)) = layer_width(&args, &weights) {
        if width != e {
            return Err(format!("`x` in --input {} is {e} wide (its last dimension) but the layer in --weights takes {width} ({why})", args.input.display()));
        }
    }
    let layer = layer(&args, &weights, e)?;
    let h = layer.n_heads();
    let heads = map_heads(&args, h)?;
    let held = weights.names().filter_map(|n| weights.get(n)).map(|t| t.data.len() as u128 * 4).sum::<u128>();
    let need = Need::of(held, (b, t, e), h, heads.len());
    if let Some(budget) = args.max_memory.map(Budget::given).or_else(Budget::of_machine) {
        need.fits(&budget)?;
    }

    let opts = AttentionOptions {
        causal: !args.bidirectional,
        rope: (!args.no_rope).then_some(Rope { theta: args.rope_theta }),
        maps: MapRequest::Only(heads.iter().map(|&h| (0, h)).collect()),
        ..Default::default()
    };
    let cause = || likely_cause(&xs, &weights);
    let (mut y, mut a1, mut a2, mut diff, mut lambdas) = (vec![], vec![], vec![], vec![], vec![]);
    for x in &xs {
        let r = layer.forward(&x.view(), &opts, 0);
        let lambda: &[f32] = match &r.lambda {
            LambdaTrace::None => &[],
            LambdaTrace::Scalar(l) => std::slice::from_ref(l),
            LambdaTrace::PerToken(m) => m.as_slice().unwrap_or(&[]),
        };
        check_finite("lambda_full", lambda, cause)?;
        check_finite("out", r.out.as_slice().unwrap_or(&[]), cause)?;
        y.extend(r.out.iter().copied());
        for m in &r.maps {
            a1.extend(m.a1.iter().copied());
            a2.extend(m.a2.as_ref().unwrap_or(&m.a1).iter().copied());
            diff.extend(m.combined().iter().copied());
        }
        match r.lambda {
            LambdaTrace::PerToken(m) => lambdas.extend(m.iter().copied()),
            LambdaTrace::Scalar(l) if lambdas.is_empty() => lambdas.push(l),
            _ => {}
        }
    }
    for (name, values) in [("A1", &a1), ("A2", &a2), ("A_diff", &diff)] {
        check_finite(name, values, cause)?;
    }
    let hm = heads.len();
    let mut tensors = vec![("out".to_string(), vec![b, t, e], y)];
    if hm > 0 {
        tensors.extend([("A1", vec![b, hm, t, t], a1), ("A2", vec![b, hm, t, t], a2), ("A_diff", vec![b, hm, t, t], diff)].map(|(n, s, v)| (n.to_string(), s, v)));
    }
    match args.kind {
        Kind::V1 => tensors.push(("lambda_full".to_string(), vec![1], lambdas)),
        Kind::V2 => tensors.push(("lambda_full".to_string(), vec![b, t, h], lambdas)),
        Kind::Baseline => {}
    }
    if let Some((file, flag)) = &grad_file {
        for (name, shape, values) in super::grad::gradients(&args, &layer, &xs, file, flag)? {
            check_finite(&name, &values, cause)?;
            tensors.push((name, shape, values));
        }
    }
    write(&args.out, &Outputs { tensors, map_heads: if hm < h { heads.clone() } else { vec![] } })?;

    let mut used = TensorStore::default();
    layer.write_to(&mut used, &args.prefix);
    let ignored = weights.ignored(&used);
    let mut report = Report { summary: format!("wrote {} (B={b}, T={t}, E={e}, H={h}, maps of {hm} heads)", args.out.display()), ..Default::default() };
    if !ignored.is_empty() {
        report.notes.push(format!("--weights {}: ignored {} tensor(s) the layer does not use: {}", args.weights.display(), ignored.len(), ignored.join(", ")));
    }
    Ok(report)
}
