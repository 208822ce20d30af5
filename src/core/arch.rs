//! Architecture arithmetic (the lesson's step 5, exercises 2 and 5): parameter counts of
//! baseline, DIFF V1 and DIFF V2 attention blocks and whole models, and KV-cache bytes.
//!
//! The config describes the baseline: `heads` query heads of size `head_dim`, `kv_heads`
//! KV heads. The DIFF variants are the ones the papers compare against it:
//! - V1 at parameter parity: heads/2 differential heads with sub-heads of `head_dim`
//!   (so Q, K, V and the output keep the baseline's widths), plus per layer the four λ
//!   vectors (4·d) and the per-head norm's shared gain (2d), as in the official module.
//! - V2: 2·heads query heads of `head_dim`, KV heads unchanged, W_o as the baseline's,
//!   plus `lambda_proj` [heads, E].

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchConfig {
    pub hidden: usize,
    pub heads: usize,
    pub head_dim: usize,
    pub kv_heads: usize,
    pub layers: usize,
    /// SwiGLU hidden width (three matrices of hidden × ffn_hidden).
    pub ffn_hidden: usize,
    pub vocab: usize,
    /// Bytes per cached K or V element (2 for fp16/bf16).
    pub cache_bytes_per_value: usize,
    pub tied_embeddings: bool,
}

impl Default for ArchConfig {
    /// The lesson's 7B-class config (LLaMA-7B sizes: FFN 11008, vocabulary 32000).
    fn default() -> Self {
        Self { hidden: 4096, heads: 32, head_dim: 128, kv_heads: 32, layers: 32, ffn_hidden: 11008, vocab: 32000, cache_bytes_per_value: 2, tied_embeddings: false }
    }
}

/// Parameter count of one attention block, by matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttentionParams {
    pub q: u128,
    pub k: u128,
    pub v: u128,
    pub out: u128,
    /// V1: λ_q1, λ_k1, λ_q2, λ_k2 (4·d); V2: `lambda_proj` (heads·E).
    pub lambda: u128,
    /// V1's per-head RMSNorm gain, shared by the heads (2d).
    pub head_norm: u128,
}

impl AttentionParams {
    pub fn total(&self) -> u128 {
        self.q + self.k + self.v + self.out + self.lambda + self.head_norm
    }
}

/// The three attention kinds of one config.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Variant {
    Baseline,
    DiffV1,
    DiffV2,
}

impl ArchConfig {
    /// Counts are exact in u128: every size is at most 10⁶ in the calculator, so the
    /// largest product (10⁶ layers of 10⁶ × 10⁶ × 10⁶ matrices) is about 10²⁴.
    fn u(x: usize) -> u128 {
        x as u128
    }

    pub fn attention_params(&self, variant: Variant) -> AttentionParams {
        let (e, d) = (Self::u(self.hidden), Self::u(self.head_dim));
        let (q_width, kv_width) = (Self::u(self.heads) * d, Self::u(self.kv_heads) * d);
        let base = AttentionParams { q: e * q_width, k: e * kv_width, v: e * kv_width, out: q_width * e, lambda: 0, head_norm: 0 };
        match variant {
            Variant::Baseline => base,
            Variant::DiffV1 => AttentionParams { lambda: 4 * d, head_norm: 2 * d, ..base },
            Variant::DiffV2 => AttentionParams { q: 2 * e * q_width, lambda: Self::u(self.heads) * e, ..base },
        }
    }

    /// SwiGLU: gate, up and down projections.
    pub fn ffn_params(&self) -> u128 {
        3 * Self::u(self.hidden) * Self::u(self.ffn_hidden)
    }

    /// Embedding, L blocks (attention, FFN, two RMSNorm gains), final norm, LM head.
    pub fn model_params(&self, variant: Variant) -> u128 {
        let e = Self::u(self.hidden);
        let block = self.attention_params(variant).total() + self.ffn_params() + 2 * e;
        let embeddings = Self::u(self.vocab) * e * if self.tied_embeddings { 1 } else { 2 };
        embeddings + Self::u(self.layers) * block + e
    }

    /// KV-cache bytes stored per token, all layers. V1 caches K (2·H_kv/2 sub-heads of d)
    /// and V (H_kv/2 heads of 2d): the same widths as the baseline; V2 keeps the
    /// baseline's KV heads, so its cache equals the baseline's too.
    pub fn kv_cache_bytes_per_token(&self, _variant: Variant) -> u128 {
        2 * Self::u(self.kv_heads) * Self::u(self.head_dim) * Self::u(self.cache_bytes_per_value) * Self::u(self.layers)
    }

    /// Cache bytes read per decoded token. V1's kernels run one attention per softmax
    /// branch over the whole V cache (its value heads are 2d wide), so they read the V
    /// cache twice; V2 runs the 2H query heads against the cache once.
    pub fn kv_cache_bytes_read_per_token(&self, variant: Variant) -> u128 {
        let stored = self.kv_cache_bytes_per_token(variant);
        match variant {
            Variant::DiffV1 => stored / 2 * 3,
            _ => stored,
        }
    }
}
