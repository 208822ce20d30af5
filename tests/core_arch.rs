//! Parameter counts and KV-cache sizes against hand-computed values.

use difflens::core::arch::{ArchConfig, Variant};
use difflens::core::config::ModelConfig;
use difflens::core::model::Model;

#[test]
fn the_7b_config_matches_hand_counts() {
    let c = ArchConfig::default();
    // 4 · 4096²
    assert_eq!(c.attention_params(Variant::Baseline).total(), 67_108_864);
    // + λ vectors 4·128 + shared norm gain 2·128
    assert_eq!(c.attention_params(Variant::DiffV1).total(), 67_109_632);
    // + one more 4096² for the doubled queries + lambda_proj 32·4096
    assert_eq!(c.attention_params(Variant::DiffV2).total(), 84_017_152);
    assert_eq!(c.ffn_params(), 135_266_304);
    // LLaMA-7B's published count.
    assert_eq!(c.model_params(Variant::Baseline), 6_738_415_616);
    assert_eq!(c.model_params(Variant::DiffV1) - c.model_params(Variant::Baseline), 32 * 768);
    assert_eq!(c.model_params(Variant::DiffV2) - c.model_params(Variant::Baseline), 32 * (16_777_216 + 131_072));
}

#[test]
fn gqa_v2_cache_equals_the_baseline() {
    let c = ArchConfig { kv_heads: 8, ..ArchConfig::default() };
    // 2 (K and V) · 8 heads · 128 · 2 bytes · 32 layers
    assert_eq!(c.kv_cache_bytes_per_token(Variant::Baseline), 131_072);
    assert_eq!(c.kv_cache_bytes_per_token(Variant::DiffV2), 131_072);
    assert_eq!(c.kv_cache_bytes_read_per_token(Variant::DiffV2), 131_072);
    assert_eq!(c.kv_cache_bytes_read_per_token(Variant::DiffV1), 196_608, "V1 reads V twice");
}

fn small() -> ArchConfig {
    ArchConfig { hidden: 64, heads: 4, head_dim: 16, kv_heads: 2, layers: 2, ffn_hidden: 128, vocab: 50, cache_bytes_per_value: 2, tied_embeddings: true }
}

#[test]
fn a_small_config_matches_hand_counts() {
    let c = small();
    assert_eq!(c.attention_params(Variant::Baseline).total(), 4096 + 2048 + 2048 + 4096);
    assert_eq!(c.attention_params(Variant::DiffV1).total(), 12_288 + 64 + 32);
    assert_eq!(c.attention_params(Variant::DiffV2).total(), 8192 + 2048 + 2048 + 4096 + 256);
    assert_eq!(c.model_params(Variant::Baseline), 50 * 64 + 2 * (12_288 + 24_576 + 128) + 64);
}

/// The arithmetic agrees with the tensors a real model of that shape holds.
#[test]
fn counts_match_the_core_models_tensors() {
    let c = small();
    for (variant, kind, heads) in [(Variant::Baseline, "baseline", 4), (Variant::DiffV1, "diff_v1", 2), (Variant::DiffV2, "diff_v2", 4)] {
        let json = format!(
            r#"{{"attention": "{kind}", "vocab_size": 50, "dim": 64, "n_layers": 2, "n_heads": {heads}, "n_kv_heads": {}, "head_dim": 16, "ffn_hidden": 128, "tie_embeddings": true}}"#,
            heads / 2
        );
        let model = Model::random(ModelConfig::from_json(&json).unwrap(), 0).unwrap();
        let store = model.to_store();
        let count: u128 = store.names().map(|n| store.get(n).unwrap().data.len() as u128).sum();
        assert_eq!(count, c.model_params(variant), "{kind}");
    }
}
