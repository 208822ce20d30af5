//! Finite-difference checks in f64 of every operation's backward and of whole models,
//! the training forward against the core's, AdamW, and matched initialisations.
//!
//! Tolerance: central differences with h = 1e-5 in f64 are exact to about 1e-9 for these
//! smooth functions (truncation ~h², rounding ~1e-16/h); an analytic gradient within
//! 1e-6 of them (relative to the larger of 1 and the gradient) is right, and a wrong
//! term of any size shows as 1e-3 or more.

use super::attend::{head_backward, head_forward, Branch2, HeadIn};
use super::ops::*;
use super::*;
use crate::config::{AttentionKind, KvPairing, ModelConfig};
use crate::init::{normal_matrix, seeded};
use crate::model::{ForwardOptions, Model};
use ndarray::{Array1, Array2};

const H: f64 = 1e-5;
const TOL: f64 = 1e-6;

fn random(rows: usize, cols: usize, seed: u64) -> Array2<f64> {
    normal_matrix(&mut seeded(seed), rows, cols, 1.0).mapv(f64::from)
}

/// Checks `analytic` against central differences of `f` at every entry of `x`.
fn check(what: &str, x: &Array2<f64>, analytic: &Array2<f64>, f: impl Fn(&Array2<f64>) -> f64) {
    assert_eq!(x.dim(), analytic.dim(), "{what}: gradient shape");
    for (idx, &a) in analytic.indexed_iter() {
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[idx] += H;
        minus[idx] -= H;
        let numeric = (f(&plus) - f(&minus)) / (2.0 * H);
        assert!((a - numeric).abs() <= TOL * a.abs().max(1.0), "{what}{idx:?}: analytic {a:.9} numeric {numeric:.9}");
    }
}

/// Σ y ⊙ dy: the scalar whose gradient a backward with upstream `dy` computes.
fn dot(y: &Array2<f64>, dy: &Array2<f64>) -> f64 {
    (y * dy).sum()
}

#[test]
fn rms_norm_backward_matches_differences() {
    let (x, g, dy) = (random(3, 6, 1), random(1, 6, 2), random(3, 6, 3));
    let eps = 1e-5;
    let f = |x: &Array2<f64>, g: &Array2<f64>| dot(&rms_norm_forward(&x.view(), &g.row(0), eps).0, &dy);
    let (_, inv) = rms_norm_forward(&x.view(), &g.row(0), eps);
    let mut dg = Array2::zeros((1, 6));
    let dx = rms_norm_backward(&dy.view(), &x.view(), &g.row(0), &inv, dg.row_mut(0));
    check("rms dx", &x, &dx, |x| f(x, &g));
    check("rms dg", &g, &dg, |g| f(&x, g));
}

#[test]
fn linear_and_swiglu_backward_match_differences() {
    let (x, wg, wu, wd, dy) = (random(4, 5, 1), random(3, 5, 2), random(3, 5, 3), random(5, 3, 4), random(4, 5, 5));
    let mut dw = Array2::zeros((3, 5));
    let dx = linear_backward(&random(4, 3, 9).view(), &x.view(), &wg.view(), dw.view_mut());
    check("linear dx", &x, &dx, |x| dot(&linear(&x.view(), &wg.view()), &random(4, 3, 9)));
    check("linear dw", &wg, &dw, |w| dot(&linear(&x.view(), &w.view()), &random(4, 3, 9)));
    let f = |x: &Array2<f64>, w: [&Array2<f64>; 3]| dot(&swiglu_forward(x.clone(), &w[0].view(), &w[1].view(), &w[2].view()).0, &dy);
    let (_, cache) = swiglu_forward(x.clone(), &wg.view(), &wu.view(), &wd.view());
    let (dx, [dg, du, dd]) = swiglu_backward(&dy.view(), &cache, [&wg.view(), &wu.view(), &wd.view()]);
    check("swiglu dx", &x, &dx, |x| f(x, [&wg, &wu, &wd]));
    check("swiglu d gate", &wg, &dg, |w| f(&x, [w, &wu, &wd]));
    check("swiglu d up", &wu, &du, |w| f(&x, [&wg, w, &wd]));
    check("swiglu d down", &wd, &dd, |w| f(&x, [&wg, &wu, w]));
}

#[test]
fn rope_backward_is_the_inverse_rotation() {
    let (x, dy) = (random(6, 8, 1), random(6, 8, 2));
    let table = rope_table::<f64>(10_000.0, 4, 3);
    let rotated = |x: &Array2<f64>| {
        let mut y = x.clone();
        rope(&mut y, 4, 3, &table, false);
        y
    };
    let mut dx = dy.clone();
    rope(&mut dx, 4, 3, &table, true);
    check("rope dx", &x, &dx, |x| dot(&rotated(x), &dy));
    let mut back = rotated(&x);
    rope(&mut back, 4, 3, &table, true);
    // The angles' sin and cos are the core's f32 values, widened: sin² + cos² is 1 only
    // to f32's precision, so rotating back restores x to about 1e-7.
    assert!((back - &x).iter().all(|d| d.abs() < 1e-6), "rotating back restores the input");
}

#[test]
fn cross_entropy_gradient_matches_differences() {
    let logits = random(4, 7, 1);
    let targets = [Some(3), None, Some(0), Some(6)];
    let (loss, grad) = cross_entropy(&logits.view(), &targets);
    check("ce d logits", &logits, &grad, |l| cross_entropy(&l.view(), &targets).0);
    assert!(grad.row(1).iter().all(|&g| g == 0.0), "an unscored row has no gradient");
    // Uniform logits cost ln(vocab) per scored row.
    let (flat, _) = cross_entropy(&Array2::<f64>::zeros((2, 7)).view(), &[Some(1), Some(2)]);
    assert!((flat - 7f64.ln()).abs() < 1e-12 && loss > 0.0);
}

/// One head, causal or not, with or without a second branch: every input's gradient.
#[test]
fn attention_head_backward_matches_differences() {
    let (t, d, dv) = (5, 4, 6);
    let [q1, k1, q2, k2] = [1, 2, 3, 4].map(|s| random(t, d, s));
    let (v, d_out, lambda) = (random(t, dv, 5), random(t, dv, 6), random(1, t, 7).mapv(|l| 0.3 + 0.2 * l));
    for (causal, diff) in [(true, false), (true, true), (false, true)] {
        let run = |q1: &Array2<f64>, k1: &Array2<f64>, q2: &Array2<f64>, k2: &Array2<f64>, v: &Array2<f64>, lambda: &Array2<f64>| {
            let branch2 = diff.then(|| Branch2 { q: q2.view(), k: k2.view(), lambda: lambda.as_slice().unwrap() });
            let head = HeadIn { q1: q1.view(), k1: k1.view(), branch2, v: v.view(), scale: 0.5, causal };
            let (out, maps) = head_forward(&head);
            (dot(&out, &d_out), head_backward(&head, &maps, &d_out.view()))
        };
        let (_, g) = run(&q1, &k1, &q2, &k2, &v, &lambda);
        let what = |n: &str| format!("head (causal {causal}, diff {diff}) {n}");
        check(&what("dq1"), &q1, &g.q1, |x| run(x, &k1, &q2, &k2, &v, &lambda).0);
        check(&what("dk1"), &k1, &g.k1, |x| run(&q1, x, &q2, &k2, &v, &lambda).0);
        check(&what("dv"), &v, &g.v, |x| run(&q1, &k1, &q2, &k2, x, &lambda).0);
        if diff {
            check(&what("dq2"), &q2, g.q2.as_ref().unwrap(), |x| run(&q1, &k1, x, &k2, &v, &lambda).0);
            check(&what("dk2"), &k2, g.k2.as_ref().unwrap(), |x| run(&q1, &k1, &q2, x, &v, &lambda).0);
            let dl = Array1::from(g.lambda.clone()).insert_axis(ndarray::Axis(0));
            check(&what("dλ"), &lambda, &dl, |x| run(&q1, &k1, &q2, &k2, &v, x).0);
        }
    }
}

fn config(kind: AttentionKind, extra: &str) -> ModelConfig {
    ModelConfig::from_json(&format!(r#"{{"attention":"{}","vocab_size":11,"dim":16,"n_layers":2,"n_heads":2,"ffn_hidden":12{extra}}}"#, kind.slug())).expect("a valid config")
}

/// The configs every whole-model check runs: each kind, grouped KV heads with both V1
/// pairings, V1 without its norm, tied embeddings, and bidirectional attention without RoPE.
fn configs() -> Vec<ModelConfig> {
    let mut all: Vec<ModelConfig> = AttentionKind::ALL.iter().map(|&k| config(k, "")).collect();
    all.push(config(AttentionKind::DiffV1, r#","n_kv_heads":1"#));
    all.push(ModelConfig { kv_pairing: KvPairing::Naive, ..config(AttentionKind::DiffV1, r#","n_kv_heads":1"#) });
    all.push(config(AttentionKind::DiffV1, r#","subln":false,"tie_embeddings":true"#));
    all.push(config(AttentionKind::DiffV2, r#","n_kv_heads":1,"causal":false,"rope":false"#));
    all.push(config(AttentionKind::Baseline, r#","n_kv_heads":1,"tie_embeddings":true"#));
    all
}

fn batch(seq_len: usize, seqs: usize, vocab: u32) -> Batch {
    let tokens: Vec<u32> = (0..seq_len * seqs).map(|i| (i as u32 * 7 + 3) % vocab).collect();
    let targets = (0..seq_len * seqs).map(|i| (i % 3 != 1).then_some((i as u32 * 5 + 1) % vocab)).collect();
    Batch { tokens, targets, seq_len }
}

/// Every parameter of whole models, every attention configuration: the loss's gradient
/// against central differences.
#[test]
fn whole_model_gradients_match_differences() {
    for config in configs() {
        let params: Params<f64> = Params::from_store(&Model::random(config.clone(), 5).unwrap().to_store());
        let net = Net::new(&config, &params).unwrap();
        let b = batch(5, 2, 11);
        let (_, grads) = net.loss_and_grad(&params, &b).unwrap();
        for name in params.names() {
            let x = params.mat(name).to_owned();
            check(&format!("{:?} {name}", config.attention), &x, &grads.mat(name).to_owned(), |x| {
                let mut p = params.clone();
                p.mat_mut(name).assign(x);
                net.loss(&p, &b).unwrap()
            });
        }
    }
}

/// One attention layer alone (what `difflens-layer --grad-of` runs): the input's and every
/// tensor's gradient of Σ out ⊙ d_out.
#[test]
fn layer_gradients_match_differences() {
    for config in configs() {
        let spec = AttnSpec { prefix: "layers.1.attn".into(), ..AttnSpec::of_model(&config, 1).unwrap() };
        let params: Params<f64> = Params::from_store(&Model::random(config.clone(), 8).unwrap().to_store());
        let (x, d_out) = (random(8, 16, 1), random(8, 16, 2));
        let out = |p: &Params<f64>, x: &Array2<f64>| dot(&attention_forward(&spec, p, x.clone(), 4).0, &d_out);
        let (_, cache) = attention_forward(&spec, &params, x.clone(), 4);
        let mut grads = params.zeros_like();
        let dx = attention_backward(&spec, &params, &cache, &d_out.view(), &mut grads);
        check(&format!("{:?} layer dx", config.attention), &x, &dx, |x| out(&params, x));
        for name in spec.parameter_names() {
            check(&format!("{:?} layer {name}", config.attention), &params.mat(&name).to_owned(), &grads.mat(&name).to_owned(), |w| {
                let mut p = params.clone();
                p.mat_mut(&name).assign(w);
                out(&p, &x)
            });
        }
    }
}

/// The training forward is the viewer's model: the same logits in f32 (to 1e-5, the
/// distance between the core's polynomial exponential and the library's).
#[test]
fn training_forward_equals_the_core_model() {
    for config in configs() {
        let model = Model::random(config.clone(), 3).unwrap();
        let params: Params<f32> = Params::from_store(&model.to_store());
        let net = Net::new(&config, &params).unwrap();
        let tokens: Vec<u32> = (0..9).map(|i| (i * 4 + 1) % 11).collect();
        let core = model.forward(&tokens, &ForwardOptions::default()).unwrap().logits;
        let trained = net.forward(&params, &tokens, 9).logits;
        let worst = (&core - &trained).iter().fold(0.0f32, |m, d| m.max(d.abs()));
        assert!(worst < 1e-5, "{:?}: logits differ by {worst}", config.attention);
    }
}

#[test]
fn a_bad_batch_or_a_missing_tensor_is_an_error() {
    let config = config(AttentionKind::DiffV2, "");
    let store = Model::random(config.clone(), 1).unwrap().to_store();
    let params: Params<f32> = Params::from_store(&store);
    let net = Net::new(&config, &params).unwrap();
    let mut bad = batch(4, 1, 11);
    bad.tokens[2] = 11;
    assert!(net.loss(&params, &bad).unwrap_err().contains("outside the vocabulary"));
    assert!(net.loss(&params, &Batch { seq_len: 3, ..batch(4, 1, 11) }).unwrap_err().contains("whole sequences"));
    let mut other = config.clone();
    other.ffn_hidden = 13;
    assert!(Net::new(&other, &params).unwrap_err().contains("ffn.gate_proj.weight"));
}

/// One AdamW step by hand: m̂ = g and v̂ = g², so θ moves by lr·g/(|g| + ε), after the decay.
#[test]
fn adam_first_step_moves_by_the_learning_rate() {
    let mut store = crate::weights::TensorStore::default();
    store.insert("w", vec![3], vec![1.0, -2.0, 0.5]);
    let mut params: Params<f64> = Params::from_store(&store);
    let mut grads = params.zeros_like();
    grads.vector_mut("w").assign(&ndarray::arr1(&[0.5, -4.0, 0.0]));
    let settings = AdamSettings { weight_decay: 0.1, ..Default::default() };
    let mut adam = Adam::new(&params, settings);
    adam.step(&mut params, &grads, 0.01);
    let want = [1.0 * (1.0 - 0.001) - 0.01 * 0.5 / (0.5 + 1e-8), -2.0 * (1.0 - 0.001) + 0.01 * 4.0 / (4.0 + 1e-8), 0.5 * (1.0 - 0.001)];
    for (got, want) in params.vector("w").iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    assert_eq!(adam.steps(), 1);
}

/// A baseline and a V1 model of one seed share every tensor of the same name and shape;
/// another seed changes them all.
#[test]
fn matched_initialisations_share_what_they_can() {
    let (b, v1, v2) = (config(AttentionKind::Baseline, ""), config(AttentionKind::DiffV1, ""), config(AttentionKind::DiffV2, ""));
    let (sb, s1, s2) = (matched_init(&b, 4).unwrap(), matched_init(&v1, 4).unwrap(), matched_init(&v2, 4).unwrap());
    let mut shared = 0;
    for name in sb.names() {
        for other in [&s1, &s2] {
            if let Some(t) = other.get(name).filter(|t| t.shape == sb.get(name).unwrap().shape) {
                assert_eq!(t.data, sb.get(name).unwrap().data, "{name}");
                shared += 1;
            }
        }
    }
    assert!(shared >= 2 * 10 + 4, "the embedding, head, norms and feed-forwards of both, and V1's projections: {shared}");
    let again = matched_init(&b, 5).unwrap();
    assert!(sb.names().filter(|n| !n.ends_with("norm.weight")).all(|n| sb.get(n).unwrap().data != again.get(n).unwrap().data));
    assert!(s1.get("layers.0.attn.lambda_q1").unwrap().data.iter().all(|v| v.abs() < 0.6), "λ vectors start near 0");
}

/// A few dozen AdamW steps on a fixed batch drive every kind's loss down by half: the
/// gradient and the optimiser together train.
#[test]
fn training_steps_lower_the_loss() {
    for kind in AttentionKind::ALL {
        let config = config(kind, "");
        let mut params: Params<f32> = matched_params(&config, 1).unwrap();
        let net = Net::new(&config, &params).unwrap();
        let b = batch(8, 2, 11);
        let mut adam = Adam::new(&params, AdamSettings::default());
        let first = net.loss(&params, &b).unwrap();
        for _ in 0..40 {
            let (_, g) = net.loss_and_grad(&params, &b).unwrap();
            adam.step(&mut params, &g, 1e-2);
        }
        let last = net.loss(&params, &b).unwrap();
        assert!(last < first * 0.5, "{kind:?}: {first} → {last}");
    }
}
