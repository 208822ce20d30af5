//! A whole DIFF Transformer for training: embedding, pre-norm blocks (attention, SwiGLU),
//! the final norm, the LM head and the cross-entropy, forward with what the backward
//! needs, and the backward into every parameter. The same model as `core::model` (a test
//! checks the logits against it), read from a [`Params`] table by checkpoint names.

use super::layer::{attention_backward, attention_forward, AttnCache, AttnSpec};
use super::ops::{cross_entropy, linear, linear_backward, rms_norm_backward, rms_norm_forward, swiglu_backward, swiglu_forward, SwiGluCache};
use super::params::Params;
use super::real::Real;
use crate::config::ModelConfig;
use ndarray::{Array2, ArrayView2, Axis};

/// B sequences of T tokens, one after another, and what each position should predict
/// (`None`: not scored; a text scores every position, the needle task only the answer).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub tokens: Vec<u32>,
    pub targets: Vec<Option<u32>>,
    pub seq_len: usize,
}

/// The model's shape: its config and each layer's attention.
#[derive(Clone, Debug)]
pub struct Net {
    pub config: ModelConfig,
    pub layers: Vec<AttnSpec>,
}

struct BlockCache<R> {
    h_in: Array2<R>,
    attn_inv: Vec<R>,
    attn: AttnCache<R>,
    h_mid: Array2<R>,
    ffn_inv: Vec<R>,
    ffn: SwiGluCache<R>,
}

/// One forward pass and what its backward needs.
pub struct Pass<R> {
    /// `[B·T, vocab]`.
    pub logits: Array2<R>,
    blocks: Vec<BlockCache<R>>,
    h_last: Array2<R>,
    norm_inv: Vec<R>,
    normed: Array2<R>,
    tokens: Vec<u32>,
}

impl<R: Real> Pass<R> {
    /// Layer `depth`'s attention cache (its maps and λ), for the page's probe figures.
    pub fn attention(&self, depth: usize) -> &AttnCache<R> {
        &self.blocks[depth].attn
    }
}

impl Net {
    /// The network of `config`, after checking that `params` holds every tensor it reads
    /// in the shape the config implies.
    pub fn new<R: Real>(config: &ModelConfig, params: &Params<R>) -> Result<Self, String> {
        let (e, v, f) = (config.dim, config.vocab_size, config.ffn_hidden);
        let layers = (0..config.n_layers).map(|d| AttnSpec::of_model(config, d)).collect::<Result<Vec<_>, _>>()?;
        params.expect("embed.weight", v, e)?;
        params.expect("norm.weight", 1, e)?;
        if !config.tie_embeddings {
            params.expect("lm_head.weight", v, e)?;
        }
        for (depth, spec) in layers.iter().enumerate() {
            spec.check(params, e)?;
            let p = |n: &str| format!("layers.{depth}.{n}");
            params.expect(&p("attn_norm.weight"), 1, e)?;
            params.expect(&p("ffn_norm.weight"), 1, e)?;
            params.expect(&p("ffn.gate_proj.weight"), f, e)?;
            params.expect(&p("ffn.up_proj.weight"), f, e)?;
            params.expect(&p("ffn.down_proj.weight"), e, f)?;
        }
        Ok(Self { config: config.clone(), layers })
    }

    fn head_name(&self) -> &'static str {
        if self.config.tie_embeddings {
            "embed.weight"
        } else {
            "lm_head.weight"
        }
    }

    /// Checks a batch against the model: whole sequences, ids inside the vocabulary.
    pub fn check(&self, batch: &Batch) -> Result<(), String> {
        let (n, t, v) = (batch.tokens.len(), batch.seq_len, self.config.vocab_size as u32);
        if t == 0 || n == 0 || !n.is_multiple_of(t) || batch.targets.len() != n {
            return Err(format!("a batch needs whole sequences: {n} tokens, {} targets, sequences of {t}", batch.targets.len()));
        }
        match batch.tokens.iter().chain(batch.targets.iter().flatten()).find(|&&id| id >= v) {
            Some(id) => Err(format!("token id {id} is outside the vocabulary ({v})")),
            None => Ok(()),
        }
    }

    /// The forward pass of a checked batch's tokens.
    pub fn forward<R: Real>(&self, params: &Params<R>, tokens: &[u32], seq_len: usize) -> Pass<R> {
        let eps = R::of_f32(self.config.norm_eps);
        let embed = params.mat("embed.weight");
        let mut h = Array2::zeros((tokens.len(), self.config.dim));
        for (mut row, &id) in h.rows_mut().into_iter().zip(tokens) {
            row.assign(&embed.row(id as usize));
        }
        let mut blocks = Vec::with_capacity(self.layers.len());
        for (depth, spec) in self.layers.iter().enumerate() {
            let p = |n: &str| format!("layers.{depth}.{n}");
            let (xn, attn_inv) = rms_norm_forward(&h.view(), &params.vector(&p("attn_norm.weight")), eps);
            let (out, attn) = attention_forward(spec, params, xn, seq_len);
            let h_mid = &h + &out;
            let (fx, ffn_inv) = rms_norm_forward(&h_mid.view(), &params.vector(&p("ffn_norm.weight")), eps);
            let w = |n: &str| params.mat(&p(n));
            let (f_out, ffn) = swiglu_forward(fx, &w("ffn.gate_proj.weight"), &w("ffn.up_proj.weight"), &w("ffn.down_proj.weight"));
            let h_out = &h_mid + &f_out;
            blocks.push(BlockCache { h_in: std::mem::replace(&mut h, h_out), attn_inv, attn, h_mid, ffn_inv, ffn });
        }
        let (normed, norm_inv) = rms_norm_forward(&h.view(), &params.vector("norm.weight"), eps);
        let logits = linear(&normed.view(), &params.mat(self.head_name()));
        Pass { logits, blocks, h_last: h, norm_inv, normed, tokens: tokens.to_vec() }
    }

    /// The gradients of every parameter for the logits' gradient `d_logits`.
    pub fn backward<R: Real>(&self, params: &Params<R>, pass: &Pass<R>, d_logits: &ArrayView2<R>) -> Params<R> {
        let mut grads = params.zeros_like();
        let head = self.head_name();
        let d_normed = linear_backward(d_logits, &pass.normed.view(), &params.mat(head), grads.mat_mut(head));
        let mut dh = rms_norm_backward(&d_normed.view(), &pass.h_last.view(), &params.vector("norm.weight"), &pass.norm_inv, grads.vector_mut("norm.weight"));
        for (depth, (spec, c)) in self.layers.iter().zip(&pass.blocks).enumerate().rev() {
            let p = |n: &str| format!("layers.{depth}.{n}");
            let names = [p("ffn.gate_proj.weight"), p("ffn.up_proj.weight"), p("ffn.down_proj.weight")];
            let (d_fx, d_w) = swiglu_backward(&dh.view(), &c.ffn, [&params.mat(&names[0]), &params.mat(&names[1]), &params.mat(&names[2])]);
            for (name, d) in names.iter().zip(&d_w) {
                let mut g = grads.mat_mut(name);
                g += d;
            }
            dh += &rms_norm_backward(&d_fx.view(), &c.h_mid.view(), &params.vector(&p("ffn_norm.weight")), &c.ffn_inv, grads.vector_mut(&p("ffn_norm.weight")));
            let d_xn = attention_backward(spec, params, &c.attn, &dh.view(), &mut grads);
            dh += &rms_norm_backward(&d_xn.view(), &c.h_in.view(), &params.vector(&p("attn_norm.weight")), &c.attn_inv, grads.vector_mut(&p("attn_norm.weight")));
        }
        let mut d_embed = grads.mat_mut("embed.weight");
        for (row, &id) in dh.axis_iter(Axis(0)).zip(&pass.tokens) {
            let mut target = d_embed.row_mut(id as usize);
            target += &row;
        }
        grads
    }

    /// The batch's mean loss and the gradient of every parameter.
    pub fn loss_and_grad<R: Real>(&self, params: &Params<R>, batch: &Batch) -> Result<(R, Params<R>), String> {
        self.check(batch)?;
        let pass = self.forward(params, &batch.tokens, batch.seq_len);
        let (loss, d_logits) = cross_entropy(&pass.logits.view(), &batch.targets);
        Ok((loss, self.backward(params, &pass, &d_logits.view())))
    }

    /// The batch's mean loss alone.
    pub fn loss<R: Real>(&self, params: &Params<R>, batch: &Batch) -> Result<R, String> {
        self.check(batch)?;
        let pass = self.forward(params, &batch.tokens, batch.seq_len);
        Ok(cross_entropy(&pass.logits.view(), &batch.targets).0)
    }
}
