//! One attention layer in the command-line tool's format (a safetensors file with the
//! official parameter names, `q_proj.weight` … under some prefix), opened in the page as
//! a one-layer view on a random or uploaded `x`. The file does not say its kind, its
//! head count or (for DIFF V1) its depth, so the reader does, as on the command line.
//! A whole-model checkpoint holds one such layer per block: each prefix can be picked.

use crate::core::attention::{AttentionLayer, AttentionOptions, LayerOutput, MapRequest, V1Choices};
use crate::core::config::{AttentionKind, AttnShape, KvPairing};
use crate::core::init::{normal_matrix, seeded};
use crate::core::lambda::lambda_init_for_depth;
use crate::core::linalg::Mat;
use crate::core::weights::TensorStore;
use crate::engine::model::weights_message;
use ndarray::{Axis, Ix2};

/// What the reader says of the layer (the tool's `--kind`, `--heads`, `--kv-heads`, `--depth`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerChoice {
    pub kind: AttentionKind,
    pub heads: usize,
    pub kv_heads: Option<usize>,
    pub depth: usize,
}

/// Longest `x` the page runs through one layer (its maps are T × T per head).
pub const MAX_TOKENS: usize = 512;

/// A layer read from a file, and what the file held besides it.
#[derive(Debug)]
pub struct LoadedLayer {
    pub layer: AttentionLayer,
    pub prefix: String,
    /// The layer's input width (the columns of `q_proj.weight`).
    pub width: usize,
    /// Every layer prefix the file holds (several for a whole-model checkpoint).
    pub prefixes: Vec<String>,
    /// Tensors the layer does not use.
    pub ignored: Vec<String>,
}

/// The prefixes under which `store` holds a `q_proj.weight`, in the file's order of names.
pub fn layer_prefixes(store: &TensorStore) -> Vec<String> {
    let mut found: Vec<String> = store.names().filter_map(|n| n.strip_suffix("q_proj.weight")).map(|p| p.trim_end_matches('.').to_string()).collect();
    found.sort_by_key(|p| (p.len(), p.clone()));
    found.dedup();
    found
}

/// The layer under `prefix` (`None`: the first the file holds) of file `name`; every
/// problem names the file and, from the loader, the tensor and the shape it expected.
pub fn load_layer(name: &str, bytes: &[u8], choice: LayerChoice, prefix: Option<&str>) -> Result<LoadedLayer, String> {
    let store = TensorStore::from_bytes(bytes).map_err(|e| format!("{name}: {}", weights_message(&e)))?;
    let prefixes = layer_prefixes(&store);
    let prefix = match prefix {
        Some(p) if prefixes.iter().any(|q| q == p) => p.to_string(),
        Some(p) => return Err(crate::tr!("file-no-layer-under", name = name, prefix = p, all = prefixes.join(", "))),
        None => prefixes.first().cloned().ok_or_else(|| crate::tr!("file-no-layer", name = name))?,
    };
    let vb = store.scope(&prefix);
    let q_name = vb.full_name("q_proj.weight");
    let width = match store.get(&q_name).map(|t| t.shape.clone()) {
        Some(shape) if shape.len() == 2 => shape[1],
        Some(shape) => return Err(crate::tr!("file-projection-shape", name = name, tensor = q_name.as_str(), shape = format!("{shape:?}"))),
        None => return Err(crate::tr!("file-not-f32", name = name, tensor = q_name.as_str())),
    };
    let shape = AttnShape::new(choice.kind, width, choice.heads, choice.kv_heads, None).map_err(|e| crate::tr!("file-heads-width", error = e.to_string(), heads = choice.heads, width = width))?;
    let v1 = V1Choices { lambda_init: lambda_init_for_depth(choice.depth), pairing: KvPairing::Flash, subln: true };
    let layer = AttentionLayer::load(&vb, choice.kind, shape, v1).map_err(|e| format!("{name}: {}", weights_message(&e)))?;
    let mut used = TensorStore::default();
    layer.write_to(&mut used, &prefix);
    let ignored = store.ignored(&used);
    Ok(LoadedLayer { layer, prefix, width, prefixes, ignored })
}

/// A standard-normal `x` of `tokens` × `width` (seeded: the same seed, the same `x`).
pub fn random_x(tokens: usize, width: usize, seed: u64) -> Mat {
    normal_matrix(&mut seeded(seed), tokens.clamp(1, MAX_TOKENS), width, 1.0)
}

/// `x` from file `name`: [T, E] or [1, T, E], E the layer's width, T at most `MAX_TOKENS`.
pub fn read_x(name: &str, bytes: &[u8], width: usize) -> Result<Mat, String> {
    let store = TensorStore::from_bytes(bytes).map_err(|e| format!("{name}: {}", weights_message(&e)))?;
    let x = store.scope("").any("x").map_err(|e| format!("{name}: {}", weights_message(&e)))?;
    let shape = x.shape().to_vec();
    let x = match shape.len() {
        3 if shape[0] == 1 => x.index_axis_move(Axis(0), 0),
        2 => x,
        _ => return Err(crate::tr!("file-x-shape", name = name, shape = format!("{shape:?}"))),
    };
    let x = x.into_dimensionality::<Ix2>().map_err(|e| format!("{name}: {e}"))?;
    match x.dim() {
        (_, e) if e != width => Err(crate::tr!("file-x-width", name = name, wide = e, width = width)),
        (0, _) => Err(crate::tr!("file-x-empty", name = name)),
        (t, _) if t > MAX_TOKENS => Err(crate::tr!("file-x-long", name = name, tokens = t, max = MAX_TOKENS)),
        _ => Ok(x),
    }
}

/// The layer on `x`, causal with RoPE as the tool's defaults, every head's maps kept.
pub fn run_layer(layer: &LoadedLayer, x: &Mat) -> LayerOutput {
    layer.layer.forward(&x.view(), &AttentionOptions { maps: MapRequest::All, ..Default::default() }, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(kind: &str) -> Vec<u8> {
        std::fs::read(format!("{}/www/models/{kind}/step-03200.safetensors", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    const V1: LayerChoice = LayerChoice { kind: AttentionKind::DiffV1, heads: 2, kv_heads: None, depth: 1 };

    #[test]
    fn a_layer_of_a_whole_model_opens_as_the_model_runs_it() {
        let bytes = shipped("diff_v1");
        let got = load_layer("final.safetensors", &bytes, V1, Some("layers.1.attn")).unwrap();
        assert_eq!(got.prefixes, ["layers.0.attn", "layers.1.attn", "layers.2.attn"]);
        assert_eq!((got.prefix.as_str(), got.width), ("layers.1.attn", 64));
        assert!(got.ignored.iter().any(|n| n.starts_with("layers.0.")) && !got.ignored.iter().any(|n| n.starts_with("layers.1.attn.")), "{:?}", got.ignored);
        // The same layer as the loaded model holds it: the same outputs on the same x.
        let dir = format!("{}/www/models/diff_v1", env!("CARGO_MANIFEST_DIR"));
        let config = crate::core::config::ModelConfig::from_json(&std::fs::read_to_string(format!("{dir}/config.json")).unwrap()).unwrap();
        let model = crate::engine::model::load_checkpoint(&config, &bytes).unwrap();
        let x = random_x(20, 64, 3);
        let (mine, theirs) = (run_layer(&got, &x), model.blocks[1].attn.forward(&x.view(), &AttentionOptions { maps: MapRequest::All, ..Default::default() }, 0));
        assert_eq!(mine.out, theirs.out);
        assert_eq!(mine.maps.len(), 2);
        assert_eq!(random_x(20, 64, 3), x, "seeded");
    }

    #[test]
    fn wrong_choices_and_files_name_what_is_wrong() {
        let bytes = shipped("diff_v1");
        let err = load_layer("f.safetensors", &bytes, LayerChoice { heads: 3, ..V1 }, None).unwrap_err();
        assert!(err.contains("from 3 heads and the layer's width 64"), "{err}");
        let err = load_layer("f.safetensors", &bytes, LayerChoice { kind: AttentionKind::DiffV2, heads: 2, ..V1 }, None).unwrap_err();
        assert!(err.starts_with("f.safetensors: ") && err.contains("layers.0.attn."), "a V1 layer read as V2 names the tensor: {err}");
        assert!(load_layer("f", &bytes, V1, Some("layers.9.attn")).unwrap_err().contains("holds no layer under “layers.9.attn” (it holds layers.0.attn, layers.1.attn, layers.2.attn)"));
        assert!(load_layer("junk.bin", b"not a safetensors file", V1, None).unwrap_err().starts_with("junk.bin: "));
    }

    #[test]
    fn an_uploaded_x_is_checked() {
        let mut store = TensorStore::default();
        store.insert("x", vec![1, 5, 64], vec![0.5; 320]);
        let ok = read_x("x.safetensors", &store.to_bytes(), 64).unwrap();
        assert_eq!(ok.dim(), (5, 64));
        assert_eq!(read_x("x.safetensors", &store.to_bytes(), 32).unwrap_err(), "x.safetensors: `x` is 64 wide but the layer takes 32");
        let mut batch = TensorStore::default();
        batch.insert("x", vec![2, 5, 64], vec![0.5; 640]);
        assert!(read_x("b", &batch.to_bytes(), 64).unwrap_err().contains("[T, E] or [1, T, E]"));
        let mut nan = TensorStore::default();
        nan.insert("x", vec![1, 64], [vec![f32::NAN], vec![0.0; 63]].concat());
        let err = read_x("n", &nan.to_bytes(), 64).unwrap_err();
        assert!(err.contains("NaN or an infinity"), "the store refuses it: {err}");
        let err = read_x("e", &TensorStore::default().to_bytes(), 64).unwrap_err();
        assert!(err.starts_with("e: ") && err.contains('x'), "{err}");
    }
}
