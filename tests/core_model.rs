//! The whole model: loading by the documented names, the round trip through safetensors,
//! every loader error path, and that no malformed file panics.

use difflens::core::attention::{LambdaOverride, MapRequest};
use difflens::core::config::{AttentionKind, ModelConfig};
use difflens::core::model::{ForwardOptions, Model};
use difflens::core::weights::{TensorStore, WeightsError};

fn config(kind: AttentionKind) -> ModelConfig {
    let heads = if kind == AttentionKind::Baseline { 4 } else { 2 };
    ModelConfig::from_json(&format!(
        r#"{{"attention": "{}", "vocab_size": 23, "dim": 32, "n_layers": 2, "n_heads": {heads}, "ffn_hidden": 48}}"#,
        serde_json::to_value(kind).unwrap().as_str().unwrap()
    ))
    .unwrap()
}

const TOKENS: [u32; 9] = [1, 5, 22, 0, 7, 7, 3, 19, 2];

#[test]
fn every_kind_round_trips_through_safetensors() {
    for kind in [AttentionKind::Baseline, AttentionKind::DiffV1, AttentionKind::DiffV2] {
        let model = Model::random(config(kind), 7).unwrap();
        let bytes = model.to_store().to_bytes();
        let loaded = Model::load(config(kind), &TensorStore::from_bytes(&bytes).unwrap()).unwrap();
        let opts = ForwardOptions { maps: MapRequest::All, ..Default::default() };
        let (a, b) = (model.forward(&TOKENS, &opts).unwrap(), loaded.forward(&TOKENS, &opts).unwrap());
        assert_eq!(a.logits, b.logits, "{kind:?}: a saved model gives the same logits");
        assert_eq!(a.logits.dim(), (9, 23));
        assert_eq!(a.layers.len(), 2);
        let heads = if kind == AttentionKind::Baseline { 4 } else { 2 };
        assert_eq!(a.layers[1].maps.len(), heads);
        assert!(a.layers[0].hidden.outliers.top1 >= a.layers[0].hidden.outliers.median);
    }
}

#[test]
fn v1_lambda_follows_the_depth_schedule() {
    let model = Model::random(config(AttentionKind::DiffV1), 3).unwrap();
    let inits: Vec<f32> = model
        .blocks
        .iter()
        .map(|b| match &b.attn {
            difflens::core::AttentionLayer::V1(a) => a.lambda_init,
            _ => unreachable!(),
        })
        .collect();
    assert!((inits[0] - 0.2).abs() < 1e-6 && (inits[1] - 0.3555).abs() < 1e-3, "{inits:?}");
}

fn store_for(kind: AttentionKind) -> TensorStore {
    Model::random(config(kind), 1).unwrap().to_store()
}

fn load_err(kind: AttentionKind, edit: impl FnOnce(&mut TensorStore)) -> WeightsError {
    let mut s = store_for(kind);
    edit(&mut s);
    let bytes = s.to_bytes();
    match TensorStore::from_bytes(&bytes).and_then(|s| Model::load(config(kind), &s)) {
        Err(e) => e,
        Ok(_) => panic!("the edited file loaded"),
    }
}

/// A store without one tensor (rebuilt, since the store has no remove).
fn without(s: &TensorStore, name: &str) -> TensorStore {
    let mut out = TensorStore::default();
    for n in s.names().filter(|n| *n != name) {
        let t = s.get(n).unwrap();
        out.insert(n, t.shape.clone(), t.data.clone());
    }
    out
}

#[test]
fn a_missing_tensor_is_named_with_its_shape() {
    let err = load_err(AttentionKind::DiffV1, |s| *s = without(s, "layers.1.attn.lambda_k2"));
    assert_eq!(err, WeightsError::Missing { name: "layers.1.attn.lambda_k2".into(), expected: vec![8] });
    assert_eq!(err.to_string(), "tensor `layers.1.attn.lambda_k2` is missing (expected shape [8])");
}

#[test]
fn a_wrong_shape_is_named_with_both_shapes() {
    let err = load_err(AttentionKind::DiffV2, |s| s.insert("layers.0.attn.lambda_proj.weight", vec![3, 32], vec![0.0; 96]));
    assert_eq!(err, WeightsError::Shape { name: "layers.0.attn.lambda_proj.weight".into(), expected: vec![2, 32], found: vec![3, 32] });
}

#[test]
fn non_finite_weights_are_refused() {
    let err = load_err(AttentionKind::Baseline, |s| s.insert("norm.weight", vec![32], vec![f32::NAN; 32]));
    assert_eq!(err, WeightsError::NonFinite { name: "norm.weight".into() });
}

#[test]
fn half_precision_checkpoints_load() {
    use safetensors::tensor::TensorView;
    let values = [1.5f32, -2.0, 0.25];
    let f16: Vec<u8> = values.iter().flat_map(|v| half::f16::from_f32(*v).to_le_bytes()).collect();
    let bf16: Vec<u8> = values.iter().flat_map(|v| half::bf16::from_f32(*v).to_le_bytes()).collect();
    let i64s = vec![0u8; 24];
    let views = vec![("a", TensorView::new(safetensors::Dtype::F16, vec![3], &f16).unwrap()), ("b", TensorView::new(safetensors::Dtype::BF16, vec![3], &bf16).unwrap())];
    let store = TensorStore::from_bytes(&safetensors::serialize(views, &None).unwrap()).unwrap();
    assert_eq!(store.get("a").unwrap().data, values);
    assert_eq!(store.get("b").unwrap().data, values);
    let bad = safetensors::serialize(vec![("ids", TensorView::new(safetensors::Dtype::I64, vec![3], &i64s).unwrap())], &None).unwrap();
    // An I64 tensor does not reject the file; it is an error only when a model asks for it.
    let store = TensorStore::from_bytes(&bad).expect("the file itself is readable");
    assert!(matches!(store.scope("").vector("ids", 3), Err(WeightsError::Dtype { name, .. }) if name == "ids"));
    assert_eq!(store.ignored(&TensorStore::default()), vec!["ids (tensor `ids` has dtype I64; DiffLens reads F32, F16 and BF16)".to_string()]);
}

#[test]
fn no_truncation_or_corruption_panics() {
    let bytes = store_for(AttentionKind::DiffV1).to_bytes();
    for len in (0..bytes.len()).step_by(7).chain([bytes.len() - 1]) {
        assert!(TensorStore::from_bytes(&bytes[..len]).is_err(), "a file cut at {len} bytes was accepted");
    }
    // Flip bytes across the header (the part that can lie about shapes and offsets).
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize + 8;
    for i in (0..header_len).step_by(3) {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        if let Ok(s) = TensorStore::from_bytes(&b) {
            let _ = Model::load(config(AttentionKind::DiffV1), &s); // an error or a model, never a panic
        }
    }
    assert!(matches!(TensorStore::from_bytes(b"garbage"), Err(WeightsError::Format(_))));
}

#[test]
fn configs_are_validated() {
    let bad = |json: &str| ModelConfig::from_json(json).unwrap_err().to_string();
    assert!(bad("{").starts_with("model config:"));
    assert!(bad(r#"{"attention": "diff_v1", "vocab_size": 5, "dim": 30, "n_layers": 1, "n_heads": 4, "ffn_hidden": 8}"#).contains("not divisible by 8"));
    assert!(bad(r#"{"attention": "diff_v2", "vocab_size": 5, "dim": 32, "n_layers": 1, "n_heads": 4, "n_kv_heads": 3, "ffn_hidden": 8}"#).contains("multiple of n_kv_heads"));
    assert!(bad(r#"{"attention": "baseline", "vocab_size": 5, "dim": 32, "n_layers": 1, "n_heads": 4, "ffn_hidden": 8, "typo": 1}"#).contains("unknown field"));
}

#[test]
fn tokens_outside_the_vocabulary_are_an_error() {
    let model = Model::random(config(AttentionKind::DiffV2), 2).unwrap();
    let err = model.forward(&[1, 23], &ForwardOptions::default()).unwrap_err();
    assert!(err.to_string().contains("token id 23"));
}

#[test]
fn tied_embeddings_need_no_lm_head() {
    let mut cfg = config(AttentionKind::Baseline);
    cfg.tie_embeddings = true;
    let model = Model::random(cfg.clone(), 4).unwrap();
    let store = model.to_store();
    assert!(store.get("lm_head.weight").is_none());
    assert!(Model::load(cfg, &store).is_ok());
}

/// A pass resumed from block `from` after a λ moved there equals a whole pass with the
/// new λ, bit for bit (the same operations on the same inputs), maps and all; the
/// blocks below keep what they had.
#[test]
fn a_pass_resumed_at_the_moved_layer_equals_a_whole_pass() {
    let cfg = ModelConfig { n_layers: 3, ..config(AttentionKind::DiffV1) };
    let model = Model::random(cfg, 11).unwrap();
    let opts = |lambda: Vec<Option<f32>>| ForwardOptions { maps: MapRequest::All, keep_logits: true, lambda: LambdaOverride::PerLayer(lambda), ..Default::default() };
    let earlier = model.forward(&TOKENS, &opts(vec![])).unwrap();
    assert_eq!(earlier.residuals.len(), 3, "the CPU pass keeps the stream entering each block");
    for from in 0..3 {
        let mut moved = vec![None; 3];
        moved[from] = Some(-0.7);
        let whole = model.forward(&TOKENS, &opts(moved.clone())).unwrap();
        let resumed = model.resume(&earlier, from, &opts(moved)).unwrap();
        assert_eq!(resumed.logits, whole.logits, "from block {from}");
        assert_ne!(resumed.logits, earlier.logits, "the moved λ changes the logits");
        for (r, w) in resumed.layers.iter().zip(&whole.layers) {
            assert_eq!(r.lambda, w.lambda);
            assert_eq!(r.hidden, w.hidden);
            for (a, b) in r.maps.iter().zip(&w.maps) {
                assert_eq!((&a.a1, &a.a2, &a.diff, &a.logits1, &a.logits2), (&b.a1, &b.a2, &b.diff, &b.logits1, &b.logits2));
            }
        }
        assert_eq!(resumed.residuals, whole.residuals);
    }
    assert!(model.resume(&earlier, 3, &opts(vec![])).is_none(), "there is no block 3");
    let without = difflens::core::model::ModelOutput { residuals: vec![], ..earlier };
    assert!(model.resume(&without, 1, &opts(vec![])).is_none(), "a pass that kept no stream (the GPU's) cannot be resumed");
}

#[test]
fn the_first_layer_whose_lambda_differs() {
    use LambdaOverride::*;
    assert_eq!(Learnt.first_difference(&PerLayer(vec![None, Some(1.0)]), 3), Some(1));
    assert_eq!(PerLayer(vec![None, Some(1.0)]).first_difference(&PerLayer(vec![None, Some(1.5), Some(2.0)]), 3), Some(1));
    assert_eq!(PerLayer(vec![None, None, Some(2.0)]).first_difference(&PerLayer(vec![None, None, Some(2.5)]), 3), Some(2));
    assert_eq!(Learnt.first_difference(&PerLayer(vec![None, None]), 3), None, "no λ set is the learnt λ");
    assert_eq!(Learnt.first_difference(&Scale(0.5), 3), Some(0), "a factor moves every layer");
    assert_eq!(Constant(0.0).first_difference(&Constant(0.0), 3), None);
    assert_eq!(Constant(0.0).first_difference(&Constant(1.0), 3), Some(0));
}
