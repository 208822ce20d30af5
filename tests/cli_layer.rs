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
