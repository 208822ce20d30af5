//! `--grad-of FILE`: the gradients of Σ out ⊙ d_out for a `d_out` shaped like `out`, with
//! respect to the input (`grad.x`) and every tensor the layer reads (`grad.<name>`, named
//! as in the checkpoint), from the core's training code (`core::train`), computed in
//! f64 and written as f32, so a PyTorch autograd run on the same files can be compared
//! entry by entry.

use super::args::{Args, Kind};
use crate::core::attention::AttentionLayer;
use crate::core::config::AttentionKind;
use crate::core::train::{attention_backward, attention_forward, AttnSpec, Params};
use crate::core::weights::TensorStore;
use ndarray::Array2;

/// A tensor to write: its name, shape and values.
pub type Named = (String, Vec<usize>, Vec<f32>);

/// `d_out` from its file, as `[B·T, E]`; it must have `out`'s shape (`[B, T, E]`, or
/// `[T, E]` for one batch entry).
fn d_out(store: &TensorStore, flag: &str, (b, t, e): (usize, usize, usize)) -> Result<Array2<f64>, String> {
    let d = store.scope("").any("d_out").map_err(|e| format!("{flag}: {e}; the file must hold `d_out`, shaped like `out` ([{b}, {t}, {e}])"))?;
    let fits = d.shape() == [b, t, e] || (b == 1 && d.shape() == [t, e]);
    if !fits {
        return Err(format!("{flag}: `d_out` has shape {:?}, but `out` is [{b}, {t}, {e}]", d.shape()));
    }
    Ok(Array2::from_shape_vec((b * t, e), d.iter().map(|&v| v as f64).collect()).expect("the shape was checked"))
}

/// The gradients as named tensors: `grad.x` in `x`'s shape, then one per parameter.
pub fn gradients(args: &Args, layer: &AttentionLayer, xs: &[Array2<f32>], grad_file: &TensorStore, flag: &str) -> Result<Vec<Named>, String> {
    let (b, (t, e)) = (xs.len(), xs[0].dim());
    let kind = match args.kind {
        Kind::Baseline => AttentionKind::Baseline,
        Kind::V1 => AttentionKind::DiffV1,
        Kind::V2 => AttentionKind::DiffV2,
    };
    let spec = AttnSpec { kind, layout: layer.head_layout(), causal: !args.bidirectional, rope_theta: (!args.no_rope).then_some(args.rope_theta), prefix: args.prefix.clone() };
    let mut used = TensorStore::default();
    layer.write_to(&mut used, &args.prefix);
    let params: Params<f64> = Params::from_store(&used);
    let x = Array2::from_shape_vec((b * t, e), xs.iter().flat_map(|m| m.iter().map(|&v| v as f64)).collect()).expect("every entry is [T, E]");
    let d_out = d_out(grad_file, flag, (b, t, e))?;
    let (_, cache) = attention_forward(&spec, &params, x, t);
    let mut grads = params.zeros_like();
    let dx = attention_backward(&spec, &params, &cache, &d_out.view(), &mut grads);
    let narrow = |m: ndarray::ArrayView2<f64>| m.iter().map(|&v| v as f32).collect::<Vec<f32>>();
    let mut out = vec![("grad.x".to_string(), vec![b, t, e], narrow(dx.view()))];
    for name in spec.parameter_names() {
        let shape = used.get(&name).map(|t| t.shape.clone()).unwrap_or_default();
        out.push((format!("grad.{name}"), shape, narrow(grads.mat(&name))));
    }
    Ok(out)
}
