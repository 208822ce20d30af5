//! The command-line tool against a corpus of broken and extreme inputs: each case names
//! the exit status, a phrase the message must contain, and checks that nothing was left
//! in the output folder (no output, no partial file). The cases are the ones a tester
//! found: truncated, text and empty files, wrong dtype/shape/rank, missing and extra
//! tensors, NaN/Inf and overflowing values, invalid numbers, huge sizes, a FIFO, a
//! folder, an output that is an input, an unwritable output.

use difflens::core::attention::AttentionLayer;
use difflens::core::config::{AttentionKind, AttnShape};
use difflens::core::diff_v1::DiffAttnV1;
use difflens::core::init::{normal_matrix, seeded};
use difflens::core::weights::TensorStore;
use safetensors::tensor::TensorView;
use safetensors::Dtype;
use std::path::{Path, PathBuf};
use std::process::Command;

const E: usize = 32;

fn layer_store() -> TensorStore {
    let shape = AttnShape::new(AttentionKind::DiffV1, E, 2, None, None).unwrap();
    let mut s = TensorStore::default();
    AttentionLayer::V1(DiffAttnV1::random(&mut seeded(1), shape, 0.8)).write_to(&mut s, "");
    s
}

/// The store with `name` replaced by (`shape`, `data`), or removed when `None`.
fn edited(store: &TensorStore, name: &str, replacement: Option<(Vec<usize>, Vec<f32>)>) -> TensorStore {
    let mut out = TensorStore::default();
    for n in store.names() {
        if n != name {
            let t = store.get(n).unwrap();
            out.insert(n, t.shape.clone(), t.data.clone());
        }
    }
    if let Some((shape, data)) = replacement {
        out.insert(name, shape, data);
    }
    out
}

fn scaled(store: &TensorStore, name: &str, value: f32) -> TensorStore {
    let t = store.get(name).unwrap();
    edited(store, name, Some((t.shape.clone(), vec![value; t.data.len()])))
}

fn x_store(t: usize, e: usize, value: Option<f32>) -> TensorStore {
    let mut s = TensorStore::default();
    let data = match value {
        Some(v) => vec![v; t * e],
        None => normal_matrix(&mut seeded(2), t, e, 1.0).into_raw_vec_and_offset().0,
    };
    s.insert("x", vec![1, t, e], data);
    s
}

/// A safetensors file with `store`'s tensors plus one extra tensor of another dtype.
fn with_extra(store: &TensorStore, name: &str, dtype: Dtype, shape: Vec<usize>, bytes: &[u8]) -> Vec<u8> {
    let data: Vec<(String, Vec<usize>, Vec<u8>)> = store
        .names()
        .map(|n| {
            let t = store.get(n).unwrap();
            (n.to_string(), t.shape.clone(), t.data.iter().flat_map(|v| v.to_le_bytes()).collect())
        })
        .collect();
    let mut views: Vec<(String, TensorView)> = data.iter().map(|(n, s, b)| (n.clone(), TensorView::new(Dtype::F32, s.clone(), b).unwrap())).collect();
    views.push((name.to_string(), TensorView::new(dtype, shape, bytes).unwrap()));
    safetensors::serialize(views, &None).unwrap()
}

struct Case {
    name: &'static str,
    weights: Vec<u8>,
    input: Vec<u8>,
    args: Vec<&'static str>,
    /// `None`: the run succeeds; `Some(phrase)`: it fails and says this.
    fails_with: Option<&'static str>,
}

fn case(name: &'static str, weights: Vec<u8>, input: Vec<u8>, args: &[&'static str], fails_with: Option<&'static str>) -> Case {
    Case { name, weights, input, args: args.to_vec(), fails_with }
}

fn run(dir: &Path, args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_difflens-layer")).current_dir(dir).args(args).output().expect("the tool runs")
}

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("difflens-corpus-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n != "w.safetensors" && n != "x.safetensors").collect()
}

#[test]
fn every_broken_input_is_refused_by_name_and_leaves_nothing_behind() {
    let good = layer_store();
    let w = good.to_bytes();
    let x = x_store(5, E, None).to_bytes();
    let base = ["--kind", "v1", "--heads", "2"];
    let mut cases = vec![
        case("good", w.clone(), x.clone(), &base, None),
        case("truncated weights", w[..w.len() / 2].to_vec(), x.clone(), &base, Some("damaged safetensors file")),
        case("text as weights", b"q_proj.weight = [[1, 2], [3, 4]]\n".to_vec(), x.clone(), &base, Some("not a safetensors file")),
        case("html as input", w.clone(), b"<!doctype html><html><body>404</body></html>".to_vec(), &base, Some("not a safetensors file")),
        case("empty weights", vec![], x.clone(), &base, Some("0 bytes long")),
        case("I64 input", w.clone(), with_extra(&TensorStore::default(), "x", Dtype::I64, vec![1, 1, 4], &[0u8; 32]), &base, Some("dtype I64")),
        case("wrong shape", edited(&good, "k_proj.weight", Some((vec![E, E / 2], vec![0.1; E * E / 2]))).to_bytes(), x.clone(), &base, Some("k_proj.weight` has shape [32, 16], expected [32, 32]")),
        case(
            "rank 4 input",
            w.clone(),
            {
                let mut s = TensorStore::default();
                s.insert("x", vec![1, 1, 5, E], vec![0.0; 5 * E]);
                s.to_bytes()
            },
            &base,
            Some("rank 4"),
        ),
        case("missing tensor", edited(&good, "lambda_q1", None).to_bytes(), x.clone(), &base, Some("`lambda_q1` is missing")),
        case(
            "missing x",
            w.clone(),
            {
                let mut s = TensorStore::default();
                s.insert("y", vec![5, E], vec![0.0; 5 * E]);
                s.to_bytes()
            },
            &base,
            Some("no tensor `x` (the file holds y)"),
        ),
        case("extra I64 tensor", with_extra(&good, "num_batches_tracked", Dtype::I64, vec![1], &[0u8; 8]), x.clone(), &base, None),
        case("NaN weight", scaled(&good, "v_proj.weight", f32::NAN).to_bytes(), x.clone(), &base, Some("`v_proj.weight` holds a NaN")),
        case("Inf input", w.clone(), x_store(5, E, Some(f32::INFINITY)).to_bytes(), &base, Some("`x` holds a NaN or an infinity")),
        case("weights of 1e38", scaled(&good, "v_proj.weight", 1e38).to_bytes(), x.clone(), &base, Some("is not finite")),
        case("input of 1e30", w.clone(), x_store(5, E, Some(1e30)).to_bytes(), &base, Some("is not finite")),
        case("λ vectors of 10", scaled(&scaled(&good, "lambda_q1", 10.0), "lambda_k1", 10.0).to_bytes(), x.clone(), &base, Some("`lambda_full` is not finite")),
        case("input too wide", w.clone(), x_store(5, 2 * E, None).to_bytes(), &base, Some("is 64 wide (its last dimension) but the layer in --weights takes 32")),
        case("map head out of range", w.clone(), x.clone(), &["--kind", "v1", "--heads", "2", "--map-heads", "0,2"], Some("numbered 0 to 1")),
        case("kv heads do not divide", w.clone(), x.clone(), &["--kind", "v1", "--heads", "2", "--kv-heads", "3"], Some("kv")),
    ];
    for (flag, value, phrase) in [
        ("--lambda-init", "NaN", "not a finite number"),
        ("--lambda-init", "inf", "not a finite number"),
        ("--rope-theta", "NaN", "not a finite number"),
        ("--rope-theta", "0", "must be a positive number"),
        ("--rope-theta", "-5", "must be a positive number"),
        ("--heads", "-1", "must be a whole number from 1"),
        ("--heads", "9223372036854775808", "out of range"),
        ("--heads", "0", "out of range"),
        ("--depth", "-3", "whole number from 0"),
        ("--max-memory", "-1", "positive number of GiB"),
    ] {
        let args: Vec<&'static str> = if flag == "--heads" { vec!["--kind", "v1", flag, value] } else { vec!["--kind", "v1", "--heads", "2", flag, value] };
        cases.push(Case { name: "invalid number", weights: w.clone(), input: x.clone(), args, fails_with: Some(phrase) });
    }

    let mut tried = 0;
    for c in &cases {
        let dir = folder("case");
        std::fs::write(dir.join("w.safetensors"), &c.weights).unwrap();
        std::fs::write(dir.join("x.safetensors"), &c.input).unwrap();
        let mut args: Vec<String> = ["--weights", "w.safetensors", "--input", "x.safetensors", "--out", "o.safetensors"].map(String::from).to_vec();
        args.extend(c.args.iter().map(|a| a.to_string()));
        let out = run(&dir, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        tried += 1;
        match c.fails_with {
            None => {
                assert!(out.status.success(), "{}: {stderr}", c.name);
                assert_eq!(leftovers(&dir), vec!["o.safetensors"], "{}", c.name);
            }
            Some(phrase) => {
                // clap refuses an invalid number before the run, with its usage status 2.
                let status = if c.name == "invalid number" { 2 } else { 1 };
                assert_eq!(out.status.code(), Some(status), "{}: {stderr}", c.name);
                assert!(stderr.contains(phrase), "{}: expected “{phrase}” in: {stderr}", c.name);
                assert!(!stderr.contains("panicked"), "{}: {stderr}", c.name);
                assert!(leftovers(&dir).is_empty(), "{}: left {:?}", c.name, leftovers(&dir));
            }
        }
        if c.name == "extra I64 tensor" {
            assert!(stderr.contains("ignored 1 tensor(s) the layer does not use: num_batches_tracked"), "{stderr}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(tried, cases.len());
}

/// The files of one good run, in a fresh folder.
fn good_folder(name: &str, t: usize) -> PathBuf {
    let dir = folder(name);
    std::fs::write(dir.join("w.safetensors"), layer_store().to_bytes()).unwrap();
    std::fs::write(dir.join("x.safetensors"), x_store(t, E, None).to_bytes()).unwrap();
    dir
}

fn args(rest: &[&str]) -> Vec<String> {
    ["--weights", "w.safetensors", "--input", "x.safetensors", "--kind", "v1", "--heads", "2"].iter().chain(rest).map(|s| s.to_string()).collect()
}

#[test]
fn paths_that_are_not_files_or_would_destroy_an_input_are_refused() {
    let dir = good_folder("paths", 5);
    let input_before = std::fs::read(dir.join("x.safetensors")).unwrap();
    for (rest, phrase) in [
        (vec!["--out", "./x.safetensors"], "same file as --input"),
        (vec!["--out", "w.safetensors"], "same file as --weights"),
        (vec!["--out", "."], "is a directory"),
        (vec!["--out", "/dev/null"], "not a regular file"),
        (vec!["--out", "no/such/folder/o.safetensors"], "cannot write"),
    ] {
        let out = run(&dir, &args(&rest));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{rest:?}: {stderr}");
        assert!(stderr.contains(phrase), "{rest:?}: expected “{phrase}” in {stderr}");
    }
    assert_eq!(std::fs::read(dir.join("x.safetensors")).unwrap(), input_before, "the input is untouched");
    assert!(leftovers(&dir).is_empty());

    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let mut with_fifo = args(&["--out", "o.safetensors"]);
    with_fifo[1] = "pipe".into();
    let out = run(&dir, &with_fifo);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(1) && stderr.contains("--weights pipe is not a regular file"), "{stderr}");
    let mut with_folder = args(&["--out", "o.safetensors"]);
    with_folder[3] = ".".into();
    let stderr = String::from_utf8_lossy(&run(&dir, &with_folder).stderr).into_owned();
    assert!(stderr.contains("--input . is a directory"), "{stderr}");
}

#[test]
fn a_long_input_is_planned_before_it_is_allocated() {
    // T = 8192: the maps of one head alone (A1, A2, A_diff, kept while written) are 1.5 GiB.
    let dir = good_folder("memory", 8192);
    let out = run(&dir, &args(&["--out", "o.safetensors", "--max-memory", "0.5"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("needs about") && stderr.contains("512 MiB is available (--max-memory)") && stderr.contains("--no-maps"), "{stderr}");
    assert!(leftovers(&dir).is_empty());

    // Without maps it streams in row blocks and runs in the same budget.
    let out = run(&dir, &args(&["--out", "o.safetensors", "--max-memory", "0.5", "--no-maps"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let result = TensorStore::from_bytes(&std::fs::read(dir.join("o.safetensors")).unwrap()).unwrap();
    assert_eq!(result.get("out").unwrap().shape, vec![1, 8192, E]);
    assert!(result.get("A1").is_none(), "no maps were written");

    // One head's maps only, on a shorter input: A1 is [B, 1, T, T] and the file says which head.
    let dir = good_folder("one-head", 16);
    let out = run(&dir, &args(&["--out", "o.safetensors", "--map-heads", "1"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(dir.join("o.safetensors")).unwrap();
    let result = TensorStore::from_bytes(&bytes).unwrap();
    assert_eq!(result.get("A1").unwrap().shape, vec![1, 1, 16, 16]);
    let (_, meta) = safetensors::SafeTensors::read_metadata(&bytes).unwrap();
    assert_eq!(meta.metadata().as_ref().and_then(|m| m.get("map_heads")).map(String::as_str), Some("1"));
}
