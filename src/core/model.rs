//! A decoder-only DIFF Transformer (paper §2.2, LLaMA-style pre-norm blocks):
//!
//! ```text
//! Y  = X + Attention(RMSNorm(X))
//! X' = Y + SwiGLU(RMSNorm(Y))
//! ```
//! token embedding in, L blocks, final RMSNorm and LM head out.
//!
//! Checkpoint naming (one safetensors file, a prefix per layer as LLaMA checkpoints do):
//!
//! | tensor | shape |
//! |---|---|
//! | `embed.weight` | `[vocab, E]` |
//! | `layers.{i}.attn_norm.weight` | `[E]` |
//! | `layers.{i}.attn.*` | the attention kind's official names (see the layer types) |
//! | `layers.{i}.ffn_norm.weight` | `[E]` |
//! | `layers.{i}.ffn.gate_proj.weight`, `up_proj.weight` | `[ffn_hidden, E]` |
//! | `layers.{i}.ffn.down_proj.weight` | `[E, ffn_hidden]` |
//! | `norm.weight` | `[E]` |
//! | `lm_head.weight` | `[vocab, E]` (absent when `tie_embeddings`) |

use super::analysis::{outlier_stats, OutlierStats};
use super::attention::{AttentionLayer, AttentionOptions, HeadMaps, KvRows, LambdaOverride, LambdaTrace, MapRequest, V1Choices};
use super::baseline::BaselineAttention;
use super::config::{AttentionKind, ModelConfig};
use super::diff_v1::DiffAttnV1;
use super::diff_v2::DiffAttnV2;
use super::init::{linear_weight, normal_matrix, seeded};
use super::linalg::{Mat, Weight};
use super::pass_cache::PassCache;
use super::rms_norm::RmsNorm;
use super::rope::Rope;
use super::swiglu::SwiGlu;
use super::weights::{Scope, TensorStore, WeightsError};
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug)]
pub struct Block {
    pub attn_norm: RmsNorm,
    pub attn: AttentionLayer,
    pub ffn_norm: RmsNorm,
    pub ffn: SwiGlu,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub config: ModelConfig,
    pub embed: Mat,
    pub blocks: Vec<Block>,
    pub norm: RmsNorm,
    /// `[vocab, E]`; a copy of `embed` when the embeddings are tied.
    pub lm_head: Weight,
}

/// What the page may ask of a forward pass beyond the logits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ForwardOptions {
    pub maps: MapRequest,
    pub keep_logits: bool,
    pub logit_quant_bits: Option<u32>,
    pub lambda: LambdaOverride,
    pub subln: Option<bool>,
    /// Leave the hidden-state statistics out of [`Model::extend`]'s pass (zeros): they
    /// sort every entry of the stream, and "Write on", which extends a pass by one row
    /// per character and never shows them, would spend a quarter of each character there.
    pub skip_hidden_stats: bool,
}

/// Statistics of the residual stream after a block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HiddenStats {
    pub mean: f32,
    pub rms: f32,
    pub outliers: OutlierStats,
}

/// Everything the visualiser shows of one layer.
#[derive(Clone, Debug)]
pub struct LayerTrace {
    pub lambda: LambdaTrace,
    pub maps: Vec<HeadMaps>,
    pub hidden: HiddenStats,
}

#[derive(Clone, Debug)]
pub struct ModelOutput {
    /// `[T, vocab]`.
    pub logits: Mat,
    pub layers: Vec<LayerTrace>,
    /// The residual stream entering each block (`[T, E]`), where the pass kept it (the
    /// CPU core does, the GPU path does not): [`Model::resume`] starts from it.
    pub residuals: Vec<Mat>,
    /// Each block's keys and values and the stream after the last block, where the pass
    /// kept them (the CPU core): [`Model::extend`] runs only a longer text's new rows.
    pub cache: PassCache,
}

/// Mean, RMS and outlier statistics of a hidden state (`[T, E]`).
pub fn hidden_stats(h: &Mat) -> HiddenStats {
    let n = h.len().max(1) as f32;
    HiddenStats { mean: h.sum() / n, rms: (h.iter().map(|v| v * v).sum::<f32>() / n).sqrt(), outliers: outlier_stats(h.iter().copied()) }
}

impl Model {
    /// Loads a whole model from one safetensors file in the naming above.
    pub fn load(config: ModelConfig, store: &TensorStore) -> Result<Self, WeightsError> {
        let shape = config.attn_shape()?;
        let (e, v, f) = (config.dim, config.vocab_size, config.ffn_hidden);
        let root = store.scope("");
        let norm = |vb: &Scope, name: &str| -> Result<RmsNorm, WeightsError> { Ok(RmsNorm::new(vb.vector(name, e)?, config.norm_eps)) };
        let mut blocks = Vec::with_capacity(config.n_layers);
        for depth in 0..config.n_layers {
            let vb = root.pp(&format!("layers.{depth}"));
            let at = vb.pp("attn");
            let attn = AttentionLayer::load(&at, config.attention, shape, V1Choices { lambda_init: config.lambda_init(depth), pairing: config.kv_pairing, subln: config.subln })?;
            let ffn = vb.pp("ffn");
            blocks.push(Block {
                attn_norm: norm(&vb, "attn_norm.weight")?,
                attn,
                ffn_norm: norm(&vb, "ffn_norm.weight")?,
                ffn: SwiGlu { gate: ffn.matrix("gate_proj.weight", f, e)?.into(), up: ffn.matrix("up_proj.weight", f, e)?.into(), down: ffn.matrix("down_proj.weight", e, f)?.into() },
            });
        }
        let embed = root.matrix("embed.weight", v, e)?;
        let lm_head = if config.tie_embeddings { embed.clone() } else { root.matrix("lm_head.weight", v, e)? };
        Ok(Self { norm: norm(&root, "norm.weight")?, embed, blocks, lm_head: lm_head.into(), config })
    }

    /// A seeded two-layer model of `kind` small enough for any test (vocabulary 76, the
    /// shipped models' size, so prompts of the retrieval task fit it). Public for the
    /// app crate's tests too; nothing in a build calls it, so the linker drops it.
    #[doc(hidden)]
    pub fn tiny(kind: AttentionKind, seed: u64) -> Self {
        let config = ModelConfig::from_json(&format!(r#"{{"attention":"{}","vocab_size":76,"dim":32,"n_layers":2,"n_heads":2,"ffn_hidden":16}}"#, kind.slug())).expect("a valid config");
        Self::random(config, seed).expect("a valid shape")
    }

    /// A seeded model with random weights (and unit norm gains).
    pub fn random(config: ModelConfig, seed: u64) -> Result<Self, WeightsError> {
        let shape = config.attn_shape()?;
        let mut rng = seeded(seed);
        let (e, f) = (config.dim, config.ffn_hidden);
        let unit = || RmsNorm::unit(e, config.norm_eps);
        let blocks = (0..config.n_layers)
            .map(|depth| {
                let attn = match config.attention {
                    AttentionKind::Baseline => AttentionLayer::Baseline(BaselineAttention::random(&mut rng, shape)),
                    AttentionKind::DiffV1 => {
                        let mut a = DiffAttnV1::random(&mut rng, shape, config.lambda_init(depth));
                        a.use_subln = config.subln;
                        a.pairing = config.kv_pairing;
                        AttentionLayer::V1(a)
                    }
                    AttentionKind::DiffV2 => AttentionLayer::V2(DiffAttnV2::random(&mut rng, shape)),
                };
                let ffn = SwiGlu { gate: linear_weight(&mut rng, f, e).into(), up: linear_weight(&mut rng, f, e).into(), down: linear_weight(&mut rng, e, f).into() };
                Block { attn_norm: unit(), attn, ffn_norm: unit(), ffn }
            })
            .collect();
        let embed = normal_matrix(&mut rng, config.vocab_size, e, 1.0);
        let lm_head = if config.tie_embeddings { embed.clone() } else { linear_weight(&mut rng, config.vocab_size, e) };
        Ok(Self { norm: unit(), embed, blocks, lm_head: lm_head.into(), config })
    }

    /// The attention settings this model's config implies.
    pub fn attention_options(&self, opts: &ForwardOptions) -> AttentionOptions {
        AttentionOptions {
            causal: self.config.causal,
            rope: self.config.rope.then_some(Rope { theta: self.config.rope_theta }),
            maps: opts.maps.clone(),
            keep_logits: opts.keep_logits,
            logit_quant_bits: opts.logit_quant_bits,
            lambda: opts.lambda.clone(),
            subln: opts.subln,
        }
    }

    /// Token embeddings `[T, E]`; a token id beyond the vocabulary is an error, not a panic.
    pub fn embed_tokens(&self, tokens: &[u32]) -> Result<Mat, WeightsError> {
        let e = self.config.dim;
        let mut x = Array2::zeros((tokens.len(), e));
        for (t, &id) in tokens.iter().enumerate() {
            if id as usize >= self.config.vocab_size {
                return Err(WeightsError::Config(format!("token id {id} is outside the vocabulary ({})", self.config.vocab_size)));
            }
            x.row_mut(t).assign(&self.embed.row(id as usize));
        }
        Ok(x)
    }

    pub fn forward(&self, tokens: &[u32], opts: &ForwardOptions) -> Result<ModelOutput, WeightsError> {
        let x = self.embed_tokens(tokens)?;
        Ok(self.forward_embedded(x, opts))
    }

    /// The forward pass from embeddings `[T, E]`.
    pub fn forward_embedded(&self, h: Mat, opts: &ForwardOptions) -> ModelOutput {
        self.forward_blocks(h, 0, Vec::with_capacity(self.blocks.len()), Vec::with_capacity(self.blocks.len()), Vec::with_capacity(self.blocks.len()), opts)
    }

    /// `earlier`'s pass again from block `from` on, with `opts`; the blocks before it are
    /// taken as they were. Equal to a whole pass with `opts` when `opts` asks nothing
    /// else of those blocks (a V1 λ moved in block `from` or later: what a λ drag does,
    /// so it need not recompute the layers below the slider). `None` when `earlier` did
    /// not keep its residual stream or has no block `from`.
    pub fn resume(&self, earlier: &ModelOutput, from: usize, opts: &ForwardOptions) -> Option<ModelOutput> {
        let h = earlier.residuals.get(from)?.clone();
        let layers = earlier.layers.get(..from)?.to_vec();
        let kv = earlier.cache.kv.get(..from).map(<[KvRows]>::to_vec).unwrap_or_default();
        Some(self.forward_blocks(h, from, layers, earlier.residuals[..from].to_vec(), kv, opts))
    }

    /// Blocks `from..` on the residual stream `h`, after the `layers`, `residuals` and
    /// keys and values of the blocks before.
    fn forward_blocks(&self, mut h: Mat, from: usize, mut layers: Vec<LayerTrace>, mut residuals: Vec<Mat>, mut kv: Vec<KvRows>, opts: &ForwardOptions) -> ModelOutput {
        let attn_opts = self.attention_options(opts);
        for (i, block) in self.blocks.iter().enumerate().skip(from) {
            residuals.push(h.clone());
            let mut rows = KvRows::default();
            h = self.block_after(block, i, h, &attn_opts, &mut rows, |attn, after| layers.push(LayerTrace { lambda: attn.lambda, maps: attn.maps, hidden: hidden_stats(after) }));
            kv.push(rows);
        }
        // A resumed pass without the blocks below's keys and values keeps none.
        let cache = if kv.len() == self.blocks.len() { PassCache { kv, last: h.clone() } } else { PassCache::default() };
        ModelOutput { logits: self.head(h), layers, residuals, cache }
    }

    /// One block on the rows `h` that follow those in `kv` (all rows when `kv` is
    /// empty): returns the stream after it, and hands `trace` the attention's output and
    /// that stream.
    pub(crate) fn block_after(&self, block: &Block, depth: usize, mut h: Mat, attn_opts: &AttentionOptions, kv: &mut KvRows, trace: impl FnOnce(super::attention::LayerOutput, &Mat)) -> Mat {
        let mut a_in = h.clone();
        block.attn_norm.apply(a_in.view_mut());
        let attn = block.attn.forward_after(&a_in.view(), attn_opts, depth, kv);
        h += &attn.out;
        let mut f_in = h.clone();
        block.ffn_norm.apply(f_in.view_mut());
        h += &block.ffn.forward(&f_in.view());
        trace(attn, &h);
        h
    }

    /// The final norm and the LM head: logits `[T, vocab]` from the stream after the last block.
    pub(crate) fn head(&self, mut h: Mat) -> Mat {
        self.norm.apply(h.view_mut());
        self.lm_head.times(&h.view())
    }

    /// Writes the model in the documented naming (what the trainer ships).
    pub fn to_store(&self) -> TensorStore {
        let mut s = TensorStore::default();
        put_matrix(&mut s, "embed.weight", &self.embed);
        if !self.config.tie_embeddings {
            put_matrix(&mut s, "lm_head.weight", &self.lm_head);
        }
        put_vector(&mut s, "norm.weight", &self.norm.gain);
        for (i, b) in self.blocks.iter().enumerate() {
            let p = |n: &str| format!("layers.{i}.{n}");
            put_vector(&mut s, &p("attn_norm.weight"), &b.attn_norm.gain);
            put_vector(&mut s, &p("ffn_norm.weight"), &b.ffn_norm.gain);
            put_matrix(&mut s, &p("ffn.gate_proj.weight"), &b.ffn.gate);
            put_matrix(&mut s, &p("ffn.up_proj.weight"), &b.ffn.up);
            put_matrix(&mut s, &p("ffn.down_proj.weight"), &b.ffn.down);
            b.attn.write_to(&mut s, &p("attn"));
        }
        s
    }
}

pub(crate) fn put_matrix(s: &mut TensorStore, name: &str, m: &Mat) {
    s.insert(name, m.shape().to_vec(), m.iter().copied().collect());
}

pub(crate) fn put_vector(s: &mut TensorStore, name: &str, v: &Array1<f32>) {
    s.insert(name, vec![v.len()], v.to_vec());
}
