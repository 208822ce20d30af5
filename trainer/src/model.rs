//! The DIFF Transformer in candle, for training. It mirrors `difflens::core::model`
//! operation by operation and reads each layer's heads from the core's description
//! (`HeadLayout`: which columns each map uses, the scale, where λ comes from), so the
//! sub-head pairing cannot drift; its parameters carry the core's checkpoint names, so a
//! trained model loads into the page unchanged. A test checks the logits against the
//! core (1e-4), with full and grouped KV heads.

use candle_core::{DType, Device, Result, Tensor, Var, D};
use difflens::core::config::{AttentionKind, ModelConfig};
use difflens::core::diff_v1::SUBLN_EPS;
use difflens::core::head_layout::{HeadLayout, HeadSlices, LambdaSource};
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

/// The columns of `x` [b, t, W] starting at `starts`, `width` each, as [b, heads, t, width]
/// (a reshape when they tile `x` in order, a gather otherwise).
fn gather_heads(x: &Tensor, starts: &[usize], width: usize) -> Result<Tensor> {
    let (b, t, w) = x.dims3()?;
    let in_order = starts.len() * width == w && starts.iter().enumerate().all(|(i, s)| *s == i * width);
    let picked = match in_order {
        true => x.clone(),
        false => {
            let cols: Vec<u32> = starts.iter().flat_map(|s| (*s..*s + width).map(|c| c as u32)).collect();
            x.index_select(&Tensor::new(cols.as_slice(), x.device())?, 2)?
        }
    };
    picked.reshape((b, t, starts.len(), width))?.transpose(1, 2)?.contiguous()
}

/// What every layer's scores share: the (masked, scaled) softmax and the RoPE tables.
struct Scores<'a> {
    softmax: &'a dyn Fn(&Tensor, &Tensor) -> Result<Tensor>,
    cos: &'a Tensor,
    sin: &'a Tensor,
}

impl Scores<'_> {
    /// softmax(rope(Q)·rope(K)ᵀ) for the heads reading queries at `q` and keys at `k`.
    fn map(&self, layout: &HeadLayout, (q, qs): (&Tensor, &[usize]), k_rotated: &Tensor) -> Result<Tensor> {
        (self.softmax)(&self.rotated(layout, q, qs)?, k_rotated)
    }

    fn rotated(&self, layout: &HeadLayout, x: &Tensor, starts: &[usize]) -> Result<Tensor> {
        rope(&gather_heads(x, starts, layout.d)?, self.cos, self.sin)
    }
}

/// Every head of one layer as the core's layout describes it, from the projections
/// `[q, k, v]`: branch 1's map, or for a differential head A1 − λ·A2. Returns the heads'
/// outputs [b, H, t, dv], in the order the layout writes them.
fn attend(layout: &HeadLayout, scores: &Scores, [q, k, v]: [Tensor; 3], lambda: Option<Tensor>) -> Result<Tensor> {
    if !layout.heads.iter().enumerate().all(|(h, s)| s.out == h * layout.dv) {
        return Err(candle_core::Error::Msg("the trainer writes heads in order; this layout interleaves them".into()));
    }
    let starts = |pick: &dyn Fn(&HeadSlices) -> usize| layout.heads.iter().map(pick).collect::<Vec<_>>();
    let (q1, k1) = (starts(&|s| s.q1), starts(&|s| s.k1));
    let k1_rotated = scores.rotated(layout, &k, &k1)?;
    let a1 = scores.map(layout, (&q, &q1), &k1_rotated)?;
    let v = gather_heads(&v, &starts(&|s| s.v), layout.dv)?;
    let Some(lambda) = lambda else { return a1.matmul(&v) };
    let second = |s: &HeadSlices| s.branch2.expect("a layout with a λ has a second branch");
    let (q2, k2) = (starts(&|s| second(s).0), starts(&|s| second(s).1));
    // V2's two branches read one key head: rotate it once.
    let k2_rotated = if k2 == k1 { k1_rotated } else { scores.rotated(layout, &k, &k2)? };
    let a2 = scores.map(layout, (&q, &q2), &k2_rotated)?;
    (a1 - a2.broadcast_mul(&lambda)?)?.matmul(&v)
}

impl CandleModel {
    /// Every tensor of the store becomes a trainable variable under the same name.
    pub fn from_store(store: &TensorStore, config: ModelConfig) -> Result<Self> {
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

    /// Layer `layer`'s projection weight `which` (q, k, v or o) under the kind's
    /// checkpoint name.
    fn proj(&self, layer: usize, which: &str) -> Tensor {
        let out = if self.config.attention == AttentionKind::DiffV2 { "o_proj" } else { "out_proj" };
        let name = if which == "o" { out.to_string() } else { format!("{which}_proj") };
        self.w(&format!("layers.{layer}.attn.{name}.weight"))
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

    /// Layer `layer`'s attention on the normed input `xn` [b, t, E], as the core's head
    /// layout for that layer describes it.
    fn attention(&self, layer: usize, xn: &Tensor, scores: &Scores) -> Result<Tensor> {
        let (b, t, _) = xn.dims3()?;
        let attn = |n: &str| self.w(&format!("layers.{layer}.attn.{n}"));
        let layout = HeadLayout::of_layer(&self.config, layer).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        let lambda = match layout.lambda {
            LambdaSource::None => None,
            LambdaSource::Reparam { init, .. } => {
                let dot = |x: &str, y: &str| (attn(x) * attn(y))?.sum_all()?.exp();
                Some(((dot("lambda_q1", "lambda_k1")? - dot("lambda_q2", "lambda_k2")?)? + init as f64)?)
            }
            // [b, t, H] → [b, H, t, 1]: one λ per token (row) and head.
            LambdaSource::PerToken => Some(sigmoid(&linear(xn, &attn("lambda_proj.weight"))?)?.transpose(1, 2)?.unsqueeze(3)?),
        };
        let qkv = [linear(xn, &self.proj(layer, "q"))?, linear(xn, &self.proj(layer, "k"))?, linear(xn, &self.proj(layer, "v"))?];
        let heads = attend(&layout, scores, qkv, lambda)?;
        let heads = match layout.lambda {
            LambdaSource::Reparam { init, subln } => {
                let normed = if subln { rms_norm(&heads, &attn("subln.weight"), SUBLN_EPS as f64)? } else { heads };
                (normed * (1.0 - init as f64))?
            }
            _ => heads,
        };
        linear(&heads.transpose(1, 2)?.reshape((b, t, layout.out_width()))?, &self.proj(layer, "o"))
    }

    /// Logits [b, t, vocab] for token ids [b, t] (u32).
    pub fn forward(&self, tokens: &Tensor) -> Result<Tensor> {
        let (b, t) = tokens.dims2()?;
        let cfg = &self.config;
        // Every layer shares its head size and score scale (only λ's source varies with depth).
        let first = HeadLayout::of_layer(cfg, 0).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        let (d, scale) = (first.d, first.scale as f64);
        let e = cfg.dim;
        let mut h = self.w("embed.weight").index_select(&tokens.flatten_all()?, 0)?.reshape((b, t, e))?;
        let mask = if cfg.causal {
            let m: Vec<f32> = (0..t).flat_map(|i| (0..t).map(move |j| if j > i { f32::NEG_INFINITY } else { 0.0 })).collect();
            Some(Tensor::from_vec(m, (t, t), &self.device)?)
        } else {
            None
        };
        let (cos, sin) = self.rope_tables(t, d)?;
        let eps = cfg.norm_eps as f64;
        let softmax = |q: &Tensor, k: &Tensor| -> Result<Tensor> {
            let mut s = (q.matmul(&k.t()?)? * scale)?;
            if let Some(m) = &mask {
                s = s.broadcast_add(m)?;
            }
            candle_nn::ops::softmax(&s, D::Minus1)
        };
        let scores = Scores { softmax: &softmax, cos: &cos, sin: &sin };
        for layer in 0..cfg.n_layers {
            let p = |n: &str| format!("layers.{layer}.{n}");
            let xn = rms_norm(&h, &self.w(&p("attn_norm.weight")), eps)?;
            let out = self.attention(layer, &xn, &scores)?;
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
