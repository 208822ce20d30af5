//! Attention layers against the independent f64 reference, and the invariants of §1 of
//! the reference text.
//!
//! Tolerances: the f32 path and the f64 reference differ only by rounding. With unit-
//! scale weights (std in^(−1/2)) every intermediate is O(1), and each output is a sum of
//! at most a few hundred products, so the accumulated f32 error stays below ~1e-5; maps
//! are probabilities whose error is a few ulps of 1 (≤ 1e-6). We assert 5e-5 on outputs
//! and 2e-6 on maps: tight enough that a wrong pairing, scale or norm fails by orders of
//! magnitude, loose enough for any summation order.

use crate::common;
use common::*;
use difflens::core::attention::{AttentionOptions, LambdaTrace, MapRequest};
use difflens::core::baseline::BaselineAttention;
use difflens::core::config::{AttentionKind, AttnShape, KvPairing};
use difflens::core::diff_v1::DiffAttnV1;
use difflens::core::diff_v2::DiffAttnV2;
use difflens::core::init::seeded;
use difflens::core::rope::Rope;
use proptest::prelude::*;

const OUT_TOL: f64 = 5e-5;
const MAP_TOL: f64 = 2e-6;

fn opts(causal: bool, rope: bool) -> AttentionOptions {
    AttentionOptions { causal, rope: rope.then_some(Rope::default()), maps: MapRequest::All, ..Default::default() }
}

fn v1_layer(e: usize, h: usize, kv: usize, seed: u64, pairing: KvPairing) -> DiffAttnV1 {
    let shape = AttnShape::new(AttentionKind::DiffV1, e, h, Some(kv), None).unwrap();
    let mut rng = seeded(seed);
    let mut layer = DiffAttnV1::random(&mut rng, shape, 0.356);
    layer.subln.gain = difflens::core::init::normal_vector(&mut rng, 2 * shape.head_dim, 1.0);
    layer.pairing = pairing;
    layer
}

#[allow(clippy::too_many_arguments)] // one case of the table: its shape, flags and seed
fn check_v1(t: usize, e: usize, h: usize, kv: usize, causal: bool, rope: bool, pairing: KvPairing, seed: u64) {
    let layer = v1_layer(e, h, kv, seed, pairing);
    let x = random_input(t, e, seed + 1);
    let got = layer.forward(&x.view(), &opts(causal, rope), 0);
    let want = v1_reference(&layer, &x, causal, rope.then_some(10_000.0));
    let err = max_abs_diff(&got.out, &want.out);
    assert!(err < OUT_TOL, "V1 output off by {err} (T={t} E={e} H={h} kv={kv} causal={causal} rope={rope} {pairing:?})");
    for (m, r) in got.maps.iter().zip(&want.maps) {
        let err = max_abs_diff(m.combined(), r);
        assert!(err < MAP_TOL, "V1 map of head {} off by {err}", m.head);
    }
}

fn check_v2(t: usize, e: usize, h: usize, kv: usize, causal: bool, rope: bool, seed: u64) {
    let shape = AttnShape::new(AttentionKind::DiffV2, e, h, Some(kv), None).unwrap();
    let layer = DiffAttnV2::random(&mut seeded(seed), shape);
    let x = random_input(t, e, seed + 1);
    let got = layer.forward(&x.view(), &opts(causal, rope), 0);
    let want = v2_reference(&layer, &x, causal, rope.then_some(10_000.0));
    let err = max_abs_diff(&got.out, &want.out);
    assert!(err < OUT_TOL, "V2 output off by {err} (T={t} E={e} H={h} kv={kv})");
    for (m, r) in got.maps.iter().zip(&want.maps) {
        assert!(max_abs_diff(m.combined(), r) < MAP_TOL, "V2 map of head {} off", m.head);
    }
}

#[test]
fn v1_matches_f64_reference() {
    check_v1(17, 64, 4, 4, true, true, KvPairing::Flash, 1);
    check_v1(17, 64, 4, 4, false, false, KvPairing::Flash, 2);
    check_v1(1, 32, 2, 2, true, true, KvPairing::Flash, 3);
    check_v1(70, 32, 2, 2, true, true, KvPairing::Flash, 4); // spans two row blocks
}

#[test]
fn v1_grouped_kv_pairings_match_their_official_files() {
    check_v1(9, 64, 4, 2, true, true, KvPairing::Flash, 5);
    check_v1(9, 64, 4, 2, true, true, KvPairing::Naive, 6);
    check_v1(9, 64, 4, 1, false, true, KvPairing::Naive, 7);
}

#[test]
fn naive_pairing_gives_both_maps_the_same_key_when_n_rep_is_two() {
    let layer = v1_layer(64, 4, 2, 8, KvPairing::Naive);
    assert_eq!(layer.kv_heads_for(0), (0, 0, 0));
    assert_eq!(layer.kv_heads_for(1), (1, 1, 0));
    let flash = v1_layer(64, 4, 2, 8, KvPairing::Flash);
    assert_eq!(flash.kv_heads_for(0), (0, 1, 0));
    assert_eq!(flash.kv_heads_for(3), (2, 3, 1));
}

#[test]
fn v2_matches_f64_reference() {
    check_v2(17, 64, 4, 4, true, true, 10);
    check_v2(13, 64, 4, 2, false, true, 11);
    check_v2(1, 32, 2, 1, true, false, 12);
    check_v2(65, 32, 2, 2, true, true, 13);
}

#[test]
fn baseline_matches_f64_reference() {
    let shape = AttnShape::new(AttentionKind::Baseline, 64, 8, Some(4), None).unwrap();
    let layer = BaselineAttention::random(&mut seeded(20), shape);
    for (t, causal) in [(1, true), (19, true), (19, false)] {
        let x = random_input(t, 64, 21);
        let got = layer.forward(&x.view(), &opts(causal, true), 0);
        let want = baseline_reference(&layer, &x, causal, Some(10_000.0));
        assert!(max_abs_diff(&got.out, &want.out) < OUT_TOL);
        for (m, r) in got.maps.iter().zip(&want.maps) {
            assert!(max_abs_diff(&m.a1, r) < MAP_TOL);
        }
    }
}

#[test]
fn per_head_norm_ablation_changes_the_output() {
    let mut layer = v1_layer(32, 2, 2, 30, KvPairing::Flash);
    let x = random_input(5, 32, 31);
    let with = layer.forward(&x.view(), &opts(true, true), 0).out;
    layer.use_subln = false;
    let without = layer.forward(&x.view(), &opts(true, true), 0).out;
    assert!(max_abs_diff(&without, &to64(&with)) > 1e-3);
    let want = v1_reference(&layer, &x, true, Some(10_000.0));
    assert!(max_abs_diff(&without, &want.out) < OUT_TOL);
}

/// Row sums, the causal zero pattern, and λ = 0, on any shape.
fn check_invariants(t: usize, d: usize, h: usize, kv: usize, causal: bool, lambda: f32) {
    let e = 2 * h * d;
    let layer = v1_layer(e, h, kv, (t * 31 + d) as u64, KvPairing::Flash);
    let x = random_input(t, e, 99);
    let out = layer.forward_with_lambda(&x.view(), &opts(causal, true), 0, lambda);
    assert_eq!(out.lambda, LambdaTrace::Scalar(lambda));
    for m in &out.maps {
        let (a1, a2, diff) = (&m.a1, m.a2.as_ref().unwrap(), m.diff.as_ref().unwrap());
        for i in 0..t {
            assert!((a1.row(i).sum() - 1.0).abs() < 1e-5, "A1 row {i} sums to {}", a1.row(i).sum());
            assert!((a2.row(i).sum() - 1.0).abs() < 1e-5);
            assert!((diff.row(i).sum() - (1.0 - lambda)).abs() < 1e-5, "diff row sums to 1 − λ");
            for j in 0..t {
                if causal && j > i {
                    assert_eq!((a1[[i, j]], a2[[i, j]], diff[[i, j]]), (0.0, 0.0, 0.0), "causal maps are zero above the diagonal");
                }
                if lambda == 0.0 {
                    assert_eq!(diff[[i, j]], a1[[i, j]], "λ = 0 gives branch-1 softmax attention");
                }
            }
        }
    }
}

#[test]
fn lambda_zero_is_branch_one_softmax_attention() {
    check_invariants(7, 4, 2, 2, true, 0.0);
}

#[test]
fn v2_rows_sum_to_one_minus_their_own_lambda() {
    let shape = AttnShape::new(AttentionKind::DiffV2, 32, 2, Some(1), None).unwrap();
    let layer = DiffAttnV2::random(&mut seeded(40), shape);
    let x = random_input(11, 32, 41);
    let out = layer.forward(&x.view(), &opts(true, true), 0);
    let LambdaTrace::PerToken(lam) = &out.lambda else { panic!("V2 has per-token λ") };
    assert_eq!(lam.dim(), (11, 2));
    assert!(lam.iter().all(|l| *l > 0.0 && *l < 1.0), "sigmoid keeps λ in (0, 1)");
    for m in &out.maps {
        for i in 0..11 {
            assert!((m.combined().row(i).sum() - (1.0 - lam[[i, m.head]])).abs() < 1e-5);
        }
    }
}

#[test]
fn only_the_requested_maps_are_kept() {
    let layer = v1_layer(64, 4, 4, 50, KvPairing::Flash);
    let x = random_input(6, 64, 51);
    let o = AttentionOptions { maps: MapRequest::Only(vec![(0, 2)]), keep_logits: true, ..opts(true, true) };
    let out = layer.forward(&x.view(), &o, 0);
    assert_eq!(out.maps.len(), 1);
    assert_eq!(out.maps[0].head, 2);
    let logits = out.maps[0].logits1.as_ref().expect("logits were asked for");
    assert_eq!(logits[[0, 5]], 0.0, "masked logits read as 0");
    let none = layer.forward(&x.view(), &AttentionOptions { maps: MapRequest::None, ..opts(true, true) }, 0);
    assert!(none.maps.is_empty());
    assert!(max_abs_diff(&none.out, &to64(&out.out)) == 0.0, "keeping maps does not change the output");
}

#[test]
fn quantised_logits_perturb_the_maps_less_with_more_bits() {
    let layer = v1_layer(32, 2, 2, 60, KvPairing::Flash);
    let x = random_input(24, 32, 61);
    let exact = layer.forward(&x.view(), &opts(true, true), 0);
    let err = |bits| {
        let o = AttentionOptions { logit_quant_bits: Some(bits), ..opts(true, true) };
        let q = layer.forward(&x.view(), &o, 0);
        max_abs_diff(&q.maps[0].a1, &to64(&exact.maps[0].a1))
    };
    let (e4, e8, e16) = (err(4), err(8), err(16));
    assert!(e4 > e8 && e8 > e16, "4-bit {e4}, 8-bit {e8}, 16-bit {e16}");
    assert!(e16 < 1e-3 && e4 > 1e-3);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_on_any_shape(t in 1usize..12, d_half in 1usize..4, h_pow in 0u32..3, kv_div in 0u32..2, causal: bool, lambda in -1.0f32..2.0) {
        let h = 1usize << h_pow;
        let kv = (h >> kv_div).max(1);
        check_invariants(t, 2 * d_half, h, kv, causal, lambda);
    }

    #[test]
    fn v1_and_v2_match_the_reference_on_any_shape(t in 1usize..10, h_pow in 0u32..3, causal: bool, rope: bool, seed in 0u64..1000) {
        let h = 1usize << h_pow;
        check_v1(t, 8 * h, h, h, causal, rope, KvPairing::Flash, seed);
        check_v2(t, 8 * h, h, (h / 2).max(1), causal, rope, seed);
    }
}
