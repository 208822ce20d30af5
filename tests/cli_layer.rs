//! The `difflens-layer` tool end to end: checkpoint and input files in, maps out, and
//! the results equal the core's forward pass.

use difflens::core::attention::{AttentionLayer, AttentionOptions, MapRequest};
use difflens::core::config::{AttentionKind, AttnShape};
use difflens::core::diff_v1::DiffAttnV1;
use difflens::core::diff_v2::DiffAttnV2;
use difflens::core::init::{normal_matrix, seeded};
use difflens::core::lambda::lambda_init_for_depth;
use difflens::core::weights::TensorStore;
use std::process::Command;

fn tool(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_difflens-layer")).args(args).output().expect("the tool runs")
}

fn files(dir: &std::path::Path, layer: &AttentionLayer, x: &[f32], shape: Vec<usize>) -> (String, String, String) {
    let mut w = TensorStore::default();
    layer.write_to(&mut w, "");
    let mut input = TensorStore::default();
    input.insert("x", shape, x.to_vec());
    let (wp, ip, op) = (dir.join("w.safetensors"), dir.join("x.safetensors"), dir.join("o.safetensors"));
    std::fs::write(&wp, w.to_bytes()).unwrap();
    std::fs::write(&ip, input.to_bytes()).unwrap();
    (wp.display().to_string(), ip.display().to_string(), op.display().to_string())
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("difflens-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn v1_layer_from_a_checkpoint_matches_the_core() {
    let dir = temp_dir("v1");
    let shape = AttnShape::new(AttentionKind::DiffV1, 32, 2, None, None).unwrap();
    let layer = DiffAttnV1::random(&mut seeded(1), shape, lambda_init_for_depth(3));
    let x = normal_matrix(&mut seeded(2), 2 * 5, 32, 1.0); // B = 2, T = 5
    let wrapped = AttentionLayer::V1(layer.clone());
    let (w, i, o) = files(&dir, &wrapped, x.as_slice().unwrap(), vec![2, 5, 32]);
    let run = tool(&["--weights", &w, "--input", &i, "--out", &o, "--kind", "v1", "--heads", "2", "--depth", "3"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let result = TensorStore::from_bytes(&std::fs::read(&o).unwrap()).unwrap();
    assert_eq!(result.get("A_diff").unwrap().shape, vec![2, 2, 5, 5]);
    assert_eq!(result.get("lambda_full").unwrap().data, vec![layer.lambda_full()]);
    let opts = AttentionOptions { maps: MapRequest::All, ..Default::default() };
    let second = x.slice(ndarray::s![5..10, ..]);
    let want = layer.forward(&second, &opts, 0);
    let out = &result.get("out").unwrap().data;
    assert_eq!(&out[5 * 32..], want.out.as_slice().unwrap(), "batch entry 1 equals the core's forward");
    let a2 = &result.get("A2").unwrap().data;
    let head1 = (2 + 1) * 25; // batch 1, head 1
    assert_eq!(&a2[head1..head1 + 25], want.maps[1].a2.as_ref().unwrap().as_slice().unwrap());
}

#[test]
fn v2_writes_per_token_lambda() {
    let dir = temp_dir("v2");
    let shape = AttnShape::new(AttentionKind::DiffV2, 16, 2, Some(1), None).unwrap();
    let layer = AttentionLayer::V2(DiffAttnV2::random(&mut seeded(3), shape));
    let x = normal_matrix(&mut seeded(4), 7, 16, 1.0);
    let (w, i, o) = files(&dir, &layer, x.as_slice().unwrap(), vec![7, 16]);
    let run = tool(&["--weights", &w, "--input", &i, "--out", &o, "--kind", "v2", "--heads", "2", "--kv-heads", "1", "--bidirectional"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let result = TensorStore::from_bytes(&std::fs::read(&o).unwrap()).unwrap();
    assert_eq!(result.get("lambda_full").unwrap().shape, vec![1, 7, 2]);
    let a1 = &result.get("A1").unwrap().data;
    assert!(a1[1] > 0.0, "bidirectional: query 0 sees key 1");
}

#[test]
fn a_mismatched_checkpoint_fails_with_the_tensor_name() {
    let dir = temp_dir("bad");
    let shape = AttnShape::new(AttentionKind::DiffV1, 32, 2, None, None).unwrap();
    let layer = AttentionLayer::V1(DiffAttnV1::random(&mut seeded(5), shape, 0.8));
    let x = vec![0.5f32; 3 * 32];
    let (w, i, o) = files(&dir, &layer, &x, vec![3, 32]);
    let run = tool(&["--weights", &w, "--input", &i, "--out", &o, "--kind", "v1", "--heads", "4"]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("tensor `subln.weight` has shape [16], expected [8]"), "{err}");
    let run = tool(&["--weights", &i, "--input", &i, "--out", &o, "--kind", "v2", "--heads", "2"]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("q_proj.weight` is missing"));
}

/// Σ out ⊙ d_out of the core's own forward (f32), summed in f64.
fn weighted_out(layer: &AttentionLayer, xs: &[ndarray::Array2<f32>], d_out: &[f32]) -> f64 {
    let opts = AttentionOptions::default();
    let out: Vec<f32> = xs.iter().flat_map(|x| layer.forward(&x.view(), &opts, 0).out.into_iter()).collect();
    out.iter().zip(d_out).map(|(&o, &d)| o as f64 * d as f64).sum()
}

/// `--grad-of`: for each kind, `grad.x` and the gradient of the tensor that makes λ equal
/// central differences of the core's forward (f32, h = 1e-2: rounding of about 1e-6 in the
/// sum becomes 1e-4 in a difference, so 2e-3 separates right from wrong), and every tensor
/// the layer reads has its gradient, in its shape.
#[test]
fn grad_of_writes_the_gradients_of_input_and_weights() {
    let dir = temp_dir("grad");
    let (b, t, e) = (2, 4, 16);
    let cases: [(AttentionLayer, AttentionKind, &str, &[&str]); 3] = [
        (
            AttentionLayer::Baseline(difflens::core::baseline::BaselineAttention::random(&mut seeded(6), AttnShape::new(AttentionKind::Baseline, e, 2, None, None).unwrap())),
            AttentionKind::Baseline,
            "q_proj.weight",
            &[],
        ),
        (
            AttentionLayer::V1(DiffAttnV1::random(&mut seeded(7), AttnShape::new(AttentionKind::DiffV1, e, 2, None, None).unwrap(), 0.2)),
            AttentionKind::DiffV1,
            "lambda_q1",
            &["lambda_k2", "subln.weight"],
        ),
        (AttentionLayer::V2(DiffAttnV2::random(&mut seeded(8), AttnShape::new(AttentionKind::DiffV2, e, 2, None, None).unwrap())), AttentionKind::DiffV2, "lambda_proj.weight", &["o_proj.weight"]),
    ];
    for (layer, ak, probe, also) in cases {
        let kind = ["baseline", "v1", "v2"][AttentionKind::ALL.iter().position(|k| *k == ak).unwrap()];
        let x = normal_matrix(&mut seeded(9), b * t, e, 1.0);
        let (w, i, o) = files(&dir, &layer, x.as_slice().unwrap(), vec![b, t, e]);
        let d_out: Vec<f32> = normal_matrix(&mut seeded(10), b * t, e, 1.0).into_iter().collect();
        let mut grad_file = TensorStore::default();
        grad_file.insert("d_out", vec![b, t, e], d_out.clone());
        let g = dir.join("d.safetensors");
        std::fs::write(&g, grad_file.to_bytes()).unwrap();
        let _ = std::fs::remove_file(&o);
        let run = tool(&["--weights", &w, "--input", &i, "--out", &o, "--kind", kind, "--heads", "2", "--grad-of", g.to_str().unwrap()]);
        assert!(run.status.success(), "{kind}: {}", String::from_utf8_lossy(&run.stderr));
        let result = TensorStore::from_bytes(&std::fs::read(&o).unwrap()).unwrap();
        let mut weights = TensorStore::default();
        layer.write_to(&mut weights, "");
        for name in ["q_proj.weight", "k_proj.weight", "v_proj.weight"].iter().chain(also) {
            assert_eq!(result.get(&format!("grad.{name}")).unwrap_or_else(|| panic!("{kind}: grad.{name}")).shape, weights.get(name).unwrap().shape, "{kind} {name}");
        }
        let xs: Vec<_> = (0..b).map(|k| x.slice(ndarray::s![k * t..(k + 1) * t, ..]).to_owned()).collect();
        let h = 1e-2f32;
        let grad_x = &result.get("grad.x").unwrap().data;
        assert_eq!(result.get("grad.x").unwrap().shape, vec![b, t, e]);
        for (k, &analytic) in grad_x.iter().enumerate() {
            let moved = |by: f32| {
                let mut xs = xs.clone();
                xs[k / (t * e)].as_slice_mut().unwrap()[k % (t * e)] += by;
                weighted_out(&layer, &xs, &d_out)
            };
            let numeric = (moved(h) - moved(-h)) / (2.0 * h as f64);
            assert!((analytic as f64 - numeric).abs() < 2e-3, "{kind} grad.x[{k}]: {analytic} vs {numeric}");
        }
        let grad_w = &result.get(&format!("grad.{probe}")).unwrap().data;
        for (k, &analytic) in grad_w.iter().enumerate() {
            let moved = |by: f32| {
                let mut store = weights.clone();
                let mut data = store.get(probe).unwrap().data.clone();
                data[k] += by;
                store.insert(probe, store.get(probe).unwrap().shape.clone(), data);
                let shape = AttnShape::new(ak, e, 2, None, None).unwrap();
                let moved_layer = AttentionLayer::load(&store.scope(""), ak, shape, difflens::core::attention::V1Choices { lambda_init: 0.2, pairing: Default::default(), subln: true }).unwrap();
                weighted_out(&moved_layer, &xs, &d_out)
            };
            let numeric = (moved(h) - moved(-h)) / (2.0 * h as f64);
            assert!((analytic as f64 - numeric).abs() < 2e-3 * numeric.abs().max(1.0), "{kind} grad.{probe}[{k}]: {analytic} vs {numeric}");
        }
    }
}
