//! The DIFF Transformer in candle, for training. It mirrors `difflens::core::model`
//! operation by operation (sub-head pairing, RoPE pairs, norms, the (1 − λ_init)
//! factor), and its parameters carry the core's checkpoint names, so a trained model
//! loads into the page unchanged. A test checks the logits against the core (1e-4).

use candle_core::{DType, Device, Result, Tensor, Var, D};
use difflens::core::config::{AttentionKind, ModelConfig};
use difflens::core::diff_v1::SUBLN_EPS;
use difflens::core::weights::TensorStore;
use std::collections::BTreeMap;

pub struct CandleModel {
    pub config: ModelConfig,
    pub vars: BTreeMap<String, Var>,
    device: Device,
}

fn rms_norm(x: &Tensor, gain: &Tensor, eps: f64) -> Result<Tensor> {
    let scale = (x.sqr()?.mean_keepdim(D::Minus1)? + eps)?.sqrt()?.recip()?;
    x.broadcast_mul(&scale)?.broadcast_mul(gain)
}

/// y = x·Wᵀ for W [out, in].
fn linear(x: &Tensor, w: &Tensor) -> Result<Tensor> {
    x.broadcast_matmul(&w.t()?)
}

fn sigmoid(x: &Tensor) -> Result<Tensor> {
    (x.neg()?.exp()? + 1.0)?.recip()
}

/// Interleaved RoPE on [b, heads, t, d] with cos/sin tables [t, d/2].
fn rope(x: &Tensor, cos: &Tensor, sin: &Tensor) -> Result<Tensor> {
    let (b, n, t, d) = x.dims4()?;
    let pairs = x.reshape((b, n, t, d / 2, 2))?;
    let x0 = pairs.narrow(4, 0, 1)?.squeeze(4)?;
    let x1 = pairs.narrow(4, 1, 1)?.squeeze(4)?;
    let o0 = (x0.broadcast_mul(cos)? - x1.broadcast_mul(sin)?)?;
    let o1 = (x0.broadcast_mul(sin)? + x1.broadcast_mul(cos)?)?;
    Tensor::stack(&[o0, o1], 4)?.reshape((b, n, t, d))
}

impl CandleModel {
    /// Every tensor of the store becomes a trainable variable under the same name.
    pub fn from_store(store: &TensorStore, config: ModelConfig) -> Result<Self> {
        assert_eq!(config.n_kv_heads.unwrap_or(config.n_heads), config.n_heads, "the trainer uses full (non-grouped) KV heads");
        let device = Device::Cpu;
        let mut vars = BTreeMap::new();
        for name in store.names() {
            let t = store.get(name).expect("listed");
            vars.insert(name.to_string(), Var::from_tensor(&Tensor::from_vec(t.data.clone(), t.shape.clone(), &device)?)?);
        }
        Ok(Self { config, vars, device })
    }

    pub fn to_store(&self) -> Result<TensorStore> {
        let mut store = TensorStore::default();
        for (name, var) in &self.vars {
            store.insert(name.clone(), var.dims().to_vec(), var.as_tensor().flatten_all()?.to_vec1::<f32>()?);
        }
        Ok(store)
    }

    pub fn all_vars(&self) -> Vec<Var> {
        self.vars.values().cloned().collect()
    }

    fn w(&self, name: &str) -> Tensor {
        self.vars.get(name).unwrap_or_else(|| panic!("missing parameter {name}")).as_tensor().clone()
    }

    /// cos/sin [t, d/2] in f32 exactly as the core computes them.
    fn rope_tables(&self, t: usize, d: usize) -> Result<(Tensor, Tensor)> {
        let inv = difflens::core::rope::inv_freq(self.config.rope_theta, d);
        let (mut c, mut s) = (Vec::with_capacity(t * d / 2), Vec::with_capacity(t * d / 2));
        for pos in 0..t {
            for f in &inv {
                let (sn, cs) = (pos as f32 * f).sin_cos();
                c.push(cs);
                s.push(sn);
            }
        }
        Ok((Tensor::from_vec(c, (t, d / 2), &self.device)?, Tensor::from_vec(s, (t, d / 2), &self.device)?))
    }

    /// Logits [b, t, vocab] for token ids [b, t] (u32).
    pub fn forward(&self, tokens: &Tensor) -> Result<Tensor> {
        let (b, t) = tokens.dims2()?;
        let cfg = &self.config;
        let shape = cfg.attn_shape().map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        let d = shape.head_dim;
        let e = cfg.dim;
        let mut h = self.w("embed.weight").index_select(&tokens.flatten_all()?, 0)?.reshape((b, t, e))?;
        let mask = if cfg.causal {
            let m: Vec<f32> = (0..t).flat_map(|i| (0..t).map(move |j| if j > i { f32::NEG_INFINITY } else { 0.0 })).collect();
            Some(Tensor::from_vec(m, (t, t), &self.device)?)
        } else {
            None
        };
        let (cos, sin) = self.rope_tables(t, d)?;
        let scale = difflens::core::head_layout::score_scale(d) as f64;
        let eps = cfg.norm_eps as f64;
        let softmax = |q: &Tensor, k: &Tensor| -> Result<Tensor> {
            let mut s = (q.matmul(&k.t()?)? * scale)?;
            if let Some(m) = &mask {
                s = s.broadcast_add(m)?;
            }
            candle_nn::ops::softmax(&s, D::Minus1)
        };
        let heads = |x: Tensor, n: usize, width: usize| -> Result<Tensor> { x.reshape((b, t, n, width))?.transpose(1, 2)?.contiguous() };
        let hh = shape.n_heads;
        for layer in 0..cfg.n_layers {
            let p = |n: &str| format!("layers.{layer}.{n}");
            let xn = rms_norm(&h, &self.w(&p("attn_norm.weight")), eps)?;
            let attn = |n: &str| self.w(&p(&format!("attn.{n}")));
            let out = match cfg.attention {
                AttentionKind::Baseline => {
                    let q = rope(&heads(linear(&xn, &attn("q_proj.weight"))?, hh, d)?, &cos, &sin)?;
                    let k = rope(&heads(linear(&xn, &attn("k_proj.weight"))?, hh, d)?, &cos, &sin)?;
                    let v = heads(linear(&xn, &attn("v_proj.weight"))?, hh, d)?;
                    let o = softmax(&q, &k)?.matmul(&v)?;
                    linear(&o.transpose(1, 2)?.reshape((b, t, hh * d))?, &attn("out_proj.weight"))?
                }
                AttentionKind::DiffV1 => {
                    let q = rope(&heads(linear(&xn, &attn("q_proj.weight"))?, 2 * hh, d)?, &cos, &sin)?;
                    let k = rope(&heads(linear(&xn, &attn("k_proj.weight"))?, 2 * hh, d)?, &cos, &sin)?;
                    let v = heads(linear(&xn, &attn("v_proj.weight"))?, hh, 2 * d)?;
                    let a = softmax(&q, &k)?.reshape((b, hh, 2, t, t))?;
                    let (a1, a2) = (a.narrow(2, 0, 1)?.squeeze(2)?, a.narrow(2, 1, 1)?.squeeze(2)?);
                    let lambda_init = cfg.lambda_init(layer) as f64;
                    let dot = |x: &str, y: &str| (attn(x) * attn(y))?.sum_all()?.exp();
                    let lambda = ((dot("lambda_q1", "lambda_k1")? - dot("lambda_q2", "lambda_k2")?)? + lambda_init)?;
                    let o = (a1 - a2.broadcast_mul(&lambda)?)?.matmul(&v)?;
                    let o = if cfg.subln { rms_norm(&o, &attn("subln.weight"), SUBLN_EPS as f64)? } else { o };
                    let o = (o * (1.0 - lambda_init))?;
                    linear(&o.transpose(1, 2)?.reshape((b, t, hh * 2 * d))?, &attn("out_proj.weight"))?
                }
                AttentionKind::DiffV2 => {
                    let q = rope(&heads(linear(&xn, &attn("q_proj.weight"))?, 2 * hh, d)?, &cos, &sin)?;
                    let k = rope(&heads(linear(&xn, &attn("k_proj.weight"))?, hh, d)?, &cos, &sin)?;
                    let v = heads(linear(&xn, &attn("v_proj.weight"))?, hh, d)?;
                    // Query heads 2h and 2h+1 share KV head h.
                    let k2 = k.unsqueeze(2)?.broadcast_as((b, hh, 2, t, d))?.reshape((b, 2 * hh, t, d))?;
                    let a = softmax(&q, &k2)?.reshape((b, hh, 2, t, t))?;
                    let (a1, a2) = (a.narrow(2, 0, 1)?.squeeze(2)?, a.narrow(2, 1, 1)?.squeeze(2)?);
                    let lambda = sigmoid(&linear(&xn, &attn("lambda_proj.weight"))?)?.transpose(1, 2)?.unsqueeze(3)?;
                    let o = (a1 - a2.broadcast_mul(&lambda)?)?.matmul(&v)?;
                    linear(&o.transpose(1, 2)?.reshape((b, t, hh * d))?, &attn("o_proj.weight"))?
                }
            };
            h = (h + out)?;
            let fx = rms_norm(&h, &self.w(&p("ffn_norm.weight")), eps)?;
            let g = linear(&fx, &self.w(&p("ffn.gate_proj.weight")))?;
            let swish = (&g * sigmoid(&g)?)?;
            let gated = (swish * linear(&fx, &self.w(&p("ffn.up_proj.weight")))?)?;
            h = (h + linear(&gated, &self.w(&p("ffn.down_proj.weight")))?)?;
        }
        let hn = rms_norm(&h, &self.w("norm.weight"), eps)?;
        let head = if cfg.tie_embeddings { self.w("embed.weight") } else { self.w("lm_head.weight") };
        linear(&hn, &head)?.to_dtype(DType::F32)
    }
}
