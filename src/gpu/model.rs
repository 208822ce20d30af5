//! The whole DIFF Transformer forward pass on the GPU, weights uploaded once and kept
//! resident. It mirrors `core::model` step by step (same pairing of sub-heads, same
//! norms, same order) and returns the core's result types, so the two are compared
//! directly. Heads are addressed in place inside the projections through offsets and
//! strides; the only T × T buffers are three scratch maps and the maps the caller asked
//! to keep.

use super::context::GpuContext;
use super::kernels::{grid_1d, staging, storage, uniform, write_f32, Kernel, COMBINE_WGSL, ELEMENTWISE_WGSL, MATMUL_WGSL, RMS_NORM_WGSL, ROPE_WGSL};
use super::layout::RowLayout;
use super::ops::fits;
use super::params::{CombineParams, ElementwiseOp, ElementwiseParams, MatmulParams, RmsNormParams, RopeParams, Uniform};
use super::readback::read_many;
use super::sizes::WG_1D;
use super::softmax::{Softmax, SoftmaxParams};
use crate::core::attention::{AttentionLayer, HeadMaps, LambdaOverride, LambdaTrace, MapRequest};
use crate::core::config::ModelConfig;
use crate::core::diff_v1::SUBLN_EPS;
use crate::core::head_layout::{HeadLayout, LambdaSource};
use crate::core::linalg::Mat;
use crate::core::model::{hidden_stats, ForwardOptions, LayerTrace, Model, ModelOutput};
use ndarray::Array2;

struct Kernels {
    matmul: Kernel,
    softmax: Softmax,
    combine: Kernel,
    rms: Kernel,
    rope: Kernel,
    elementwise: Kernel,
}

enum LayerKind {
    Baseline,
    V1 { lambda: f32, subln: wgpu::Buffer },
    V2 { w_lambda: wgpu::Buffer },
}

struct GpuLayer {
    kind: LayerKind,
    attn_norm: wgpu::Buffer,
    ffn_norm: wgpu::Buffer,
    wq: wgpu::Buffer,
    wk: wgpu::Buffer,
    wv: wgpu::Buffer,
    wo: wgpu::Buffer,
    gate: wgpu::Buffer,
    up: wgpu::Buffer,
    down: wgpu::Buffer,
    /// Which columns each head reads and writes, its sizes and its score scale.
    layout: HeadLayout,
    /// Widths of Q, K, V and of the concatenated head outputs.
    widths: (usize, usize, usize, usize),
}

pub struct GpuModel {
    config: ModelConfig,
    embed: Mat,
    layers: Vec<GpuLayer>,
    norm: wgpu::Buffer,
    lm_head: wgpu::Buffer,
    kernels: Kernels,
}

fn upload(ctx: &GpuContext, label: &str, data: &[f32]) -> wgpu::Buffer {
    let b = storage(&ctx.device, label, data.len());
    write_f32(&ctx.queue, &b, data);
    b
}

fn upload_mat(ctx: &GpuContext, label: &str, m: &Mat) -> wgpu::Buffer {
    upload(ctx, label, m.as_standard_layout().as_slice().expect("standard layout"))
}

impl GpuModel {
    /// Uploads every weight once; the softmax in the layout the adapter prefers.
    pub fn new(ctx: &GpuContext, model: &Model) -> Self {
        Self::with_layout(ctx, model, RowLayout::preferred(ctx))
    }

    /// The same with the softmax preferring `layout` (the benchmarks time both).
    pub fn with_layout(ctx: &GpuContext, model: &Model, layout: RowLayout) -> Self {
        let d = &ctx.device;
        let kernels = Kernels {
            matmul: Kernel::new(d, "matmul", MATMUL_WGSL),
            softmax: Softmax::new(d, layout),
            combine: Kernel::new(d, "combine", COMBINE_WGSL),
            rms: Kernel::new(d, "rms_norm", RMS_NORM_WGSL),
            rope: Kernel::new(d, "rope", ROPE_WGSL),
            elementwise: Kernel::new(d, "elementwise", ELEMENTWISE_WGSL),
        };
        let layers = model
            .blocks
            .iter()
            .map(|b| {
                // The core's description of which columns each head reads and writes.
                let layout = b.attn.head_layout();
                let (wq, wk, wv, wo, kind) = match &b.attn {
                    AttentionLayer::Baseline(a) => (&a.wq, &a.wk, &a.wv, &a.wout, LayerKind::Baseline),
                    AttentionLayer::V1(a) => {
                        let kind = LayerKind::V1 { lambda: a.lambda_full(), subln: upload(ctx, "subln", a.subln.gain.as_slice().expect("norm gains are contiguous vectors")) };
                        (&a.wq, &a.wk, &a.wv, &a.wout, kind)
                    }
                    AttentionLayer::V2(a) => (&a.wq, &a.wk, &a.wv, &a.wo, LayerKind::V2 { w_lambda: upload_mat(ctx, "w_lambda", &a.w_lambda) }),
                };
                GpuLayer {
                    widths: (wq.nrows(), wk.nrows(), wv.nrows(), layout.out_width()),
                    kind,
                    attn_norm: upload(ctx, "attn_norm", b.attn_norm.gain.as_slice().expect("norm gains are contiguous vectors")),
                    ffn_norm: upload(ctx, "ffn_norm", b.ffn_norm.gain.as_slice().expect("norm gains are contiguous vectors")),
                    wq: upload_mat(ctx, "wq", wq),
                    wk: upload_mat(ctx, "wk", wk),
                    wv: upload_mat(ctx, "wv", wv),
                    wo: upload_mat(ctx, "wo", wo),
                    gate: upload_mat(ctx, "gate", &b.ffn.gate),
                    up: upload_mat(ctx, "up", &b.ffn.up),
                    down: upload_mat(ctx, "down", &b.ffn.down),
                    layout,
                }
            })
            .collect();
        Self {
            config: model.config.clone(),
            embed: model.embed.clone(),
            norm: upload(ctx, "norm", model.norm.gain.as_slice().expect("norm gains are contiguous vectors")),
            lm_head: upload_mat(ctx, "lm_head", &model.lm_head),
            layers,
            kernels,
        }
    }

    /// The forward pass of `tokens`; keeps the maps of the requested heads.
    pub async fn forward(&self, ctx: &GpuContext, tokens: &[u32], maps: &MapRequest) -> Result<ModelOutput, String> {
        self.forward_with(ctx, tokens, &ForwardOptions { maps: maps.clone(), ..Default::default() }).await
    }

    /// The forward pass with the reader's options, as `Model::forward` takes them: the
    /// maps to keep (and their attention logits, for Table 5), a λ override and V1's
    /// per-head norm switch. Quantised attention logits are the CPU core's alone (they
    /// need each head's absmax before its softmax): asking for them here is an error.
    pub async fn forward_with(&self, ctx: &GpuContext, tokens: &[u32], opts: &ForwardOptions) -> Result<ModelOutput, String> {
        if let Some(bits) = opts.logit_quant_bits {
            return Err(format!("{bits}-bit attention logits are computed on the CPU core only"));
        }
        let maps = &opts.maps;
        let (t, e, v, f) = (tokens.len(), self.config.dim, self.config.vocab_size, self.config.ffn_hidden);
        if t == 0 {
            return Err("the prompt is empty".into());
        }
        fits(ctx, t, t)?;
        fits(ctx, t, v.max(f).max(e))?;
        let dev = &ctx.device;
        let h = upload(ctx, "h", &self.embed(tokens)?);
        let max_w = |sel: fn(&GpuLayer) -> usize| self.layers.iter().map(sel).max().unwrap_or(1);
        let (qw, kw, vw, hw) = (max_w(|l| l.widths.0), max_w(|l| l.widths.1), max_w(|l| l.widths.2), max_w(|l| l.widths.3));
        let n_heads = self.config.n_heads;
        let n_layers = self.layers.len();
        let s = |label: &str, n: usize| storage(dev, label, n);
        let (xn, q, k, vb, heads, heads_n) = (s("xn", t * e), s("q", t * qw), s("k", t * kw), s("v", t * vw), s("heads", t * hw), s("heads_n", t * hw));
        let (a1, a2, dmap) = (s("a1", t * t), s("a2", t * t), s("d", t * t));
        let (gate, up, lam) = (s("gate", t * f), s("up", t * f), s("lambda", t * n_heads));
        let hidden_all = s("hidden", n_layers * t * e);
        let lam_all = s("lambda all", n_layers * t * n_heads);
        let logits = s("logits", t * v);
        let wanted: Vec<(usize, usize)> = (0..n_layers).flat_map(|l| (0..self.layers[l].layout.heads.len()).map(move |hh| (l, hh))).filter(|(l, hh)| maps.wants(*l, *hh)).collect();
        let kept = s("kept maps", wanted.len() * 3 * t * t);
        let logit_slots = if opts.keep_logits { wanted.len() * 2 } else { 0 };
        let kept_logits = s("kept logits", (logit_slots * t * t).max(1));
        let d0 = self.layers.first().map(|l| l.layout.d).unwrap_or(2);
        let rope_table = match self.config.rope {
            true => upload(ctx, "rope table", &rope_table(t, d0, self.config.rope_theta)),
            false => s("rope table", 1),
        };

        let mut rec = Recorder { ctx, k: &self.kernels, encoder: dev.create_command_encoder(&Default::default()), pass: None };
        // The model's RMSNorm over `width`-wide rows.
        let norm = |rows: usize, width: usize| RmsNormParams { rows: rows as u32, width: width as u32, eps: self.config.norm_eps, post_scale: 1.0, normalise: 1, ..Default::default() };
        for (li, layer) in self.layers.iter().enumerate() {
            let (lq, lk, lv, lh) = layer.widths;
            rec.rms(&h, &layer.attn_norm, &xn, norm(t, e));
            rec.linear(&xn, &layer.wq, &q, (t, e, lq), false);
            rec.linear(&xn, &layer.wk, &k, (t, e, lk), false);
            rec.linear(&xn, &layer.wv, &vb, (t, e, lv), false);
            if self.config.rope {
                rec.rope(&q, &rope_table, t, lq, layer.layout.d);
                rec.rope(&k, &rope_table, t, lk, layer.layout.d);
            }
            if let LayerKind::V2 { w_lambda } = &layer.kind {
                rec.linear(&xn, w_lambda, &lam, (t, e, n_heads), false);
                rec.elementwise(&lam, &lam, t * n_heads, ElementwiseOp::Sigmoid);
                if let Some((scale, shift)) = v2_override(&opts.lambda, li) {
                    rec.affine(&lam, t * n_heads, scale, shift);
                }
                rec.copy(&lam, 0, &lam_all, li * t * n_heads, t * n_heads);
            }
            let bufs = HeadBuffers { q: &q, k: &k, v: &vb, heads: &heads, a1: &a1, a2: &a2, diff: &dmap, lambda: &lam, kept: &kept, kept_logits: &kept_logits };
            self.record_heads(&mut rec, &bufs, (li, layer), t, opts, &wanted);
            let attn_out = match (&layer.kind, layer.layout.lambda) {
                (LayerKind::V1 { subln, .. }, LambdaSource::Reparam { init, subln: normalise }) => {
                    let normalise = opts.subln.unwrap_or(normalise);
                    let p = RmsNormParams { eps: SUBLN_EPS, post_scale: 1.0 - init, normalise: normalise as u32, ..norm(t * n_heads, layer.layout.dv) };
                    rec.rms(&heads, subln, &heads_n, p);
                    &heads_n
                }
                _ => &heads,
            };
            rec.linear(attn_out, &layer.wo, &h, (t, lh, e), true);
            rec.rms(&h, &layer.ffn_norm, &xn, norm(t, e));
            rec.linear(&xn, &layer.gate, &gate, (t, e, f), false);
            rec.linear(&xn, &layer.up, &up, (t, e, f), false);
            rec.elementwise(&gate, &up, t * f, ElementwiseOp::SwiGlu);
            rec.linear(&gate, &layer.down, &h, (t, f, e), true);
            rec.copy(&h, 0, &hidden_all, li * t * e, t * e);
        }
        rec.rms(&h, &self.norm, &xn, norm(t, e));
        rec.linear(&xn, &self.lm_head, &logits, (t, e, v), false);
        ctx.queue.submit([rec.finish()]);

        let sizes = [t * v, n_layers * t * e, n_layers * t * n_heads, wanted.len() * 3 * t * t, logit_slots * t * t];
        let stage = staging(dev, sizes.iter().sum());
        let mut parts = read_many(dev, &ctx.queue, &[(&logits, sizes[0]), (&hidden_all, sizes[1]), (&lam_all, sizes[2]), (&kept, sizes[3]), (&kept_logits, sizes[4])], &stage).await?;
        let (logits_kept, kept_v, lam_v, hidden_v, logits_v) = {
            let mut next = || parts.pop().expect("one readback part per buffer asked for");
            (next(), next(), next(), next(), next())
        };
        let read = ReadBack { t, wanted: &wanted, maps: &kept_v, logits: (!logits_kept.is_empty()).then_some(&logits_kept[..]), lambdas: &lam_v, hidden: &hidden_v };
        let layers = self.traces(&read, opts);
        Ok(ModelOutput { logits: mat(&logits_v, t, v), layers, residuals: vec![], cache: Default::default() })
    }

    /// Every head of one layer: both softmaxes, the combine with λ, the product with V
    /// into the heads' buffer, and a copy of the maps (and logits) the reader asked for.
    fn record_heads(&self, rec: &mut Recorder, b: &HeadBuffers, (li, layer): (usize, &GpuLayer), t: usize, opts: &ForwardOptions, wanted: &[(usize, usize)]) {
        let (lq, lk, lv, lh) = layer.widths;
        let n_heads = self.config.n_heads;
        let (d, dv, scale) = (layer.layout.d, layer.layout.dv, layer.layout.scale);
        for (hi, plan) in layer.layout.heads.iter().enumerate() {
            let head = |q_col, k_col| SoftmaxParams { n_q: t, n_k: t, d, causal: self.config.causal, scale, q_col, q_stride: lq, k_col, k_stride: lk };
            rec.softmax(b.q, b.k, b.a1, head(plan.q1, plan.k1));
            let combined = match (plan.branch2, &layer.kind) {
                (Some((q2, k2)), kind) => {
                    rec.softmax(b.q, b.k, b.a2, head(q2, k2));
                    match kind {
                        LayerKind::V1 { lambda, .. } => rec.combine(b.a1, b.a2, b.diff, t, opts.lambda.apply(li, *lambda), None),
                        _ => rec.combine(b.a1, b.a2, b.diff, t, 0.0, Some((b.lambda, n_heads, hi))),
                    }
                    b.diff
                }
                (None, _) => b.a1,
            };
            let u = |x: usize| x as u32;
            let pv = MatmulParams { m: u(t), n: u(dv), k: u(t), a_stride: u(t), b_off: u(plan.v), b_stride: u(lv), c_off: u(plan.out), c_stride: u(lh), ..Default::default() };
            rec.matmul(combined, b.v, b.heads, pv);
            if let Some(slot) = wanted.iter().position(|w| *w == (li, hi)) {
                for (m, src) in [b.a1, b.a2, b.diff].into_iter().enumerate() {
                    rec.copy(src, 0, b.kept, (slot * 3 + m) * t * t, t * t);
                }
                if opts.keep_logits {
                    // Q·Kᵀ of each branch; the host scales it and clears the masked part.
                    let branches = std::iter::once((plan.q1, plan.k1)).chain(plan.branch2);
                    for (branch, (qc, kc)) in branches.enumerate() {
                        let p = MatmulParams {
                            m: u(t),
                            n: u(t),
                            k: u(d),
                            b_trans: 1,
                            a_off: u(qc),
                            a_stride: u(lq),
                            b_off: u(kc),
                            b_stride: u(lk),
                            c_off: u((slot * 2 + branch) * t * t),
                            c_stride: u(t),
                            ..Default::default()
                        };
                        rec.matmul(b.q, b.k, b.kept_logits, p);
                    }
                }
            }
        }
    }

    /// The token ids' embedding rows, one after another; an id past the vocabulary is an
    /// error (checked before the row is read).
    fn embed(&self, tokens: &[u32]) -> Result<Vec<f32>, String> {
        let v = self.config.vocab_size;
        let mut x = Vec::with_capacity(tokens.len() * self.config.dim);
        for &id in tokens {
            if id as usize >= v {
                return Err(format!("token id {id} is outside the vocabulary ({v})"));
            }
            x.extend(self.embed.row(id as usize).iter());
        }
        Ok(x)
    }

    /// Each layer's λ (as applied), kept maps and attention logits, and hidden-state
    /// statistics from the read-back buffers.
    fn traces(&self, read: &ReadBack, opts: &ForwardOptions) -> Vec<LayerTrace> {
        let (t, e, n_heads) = (read.t, self.config.dim, self.config.n_heads);
        self.layers
            .iter()
            .enumerate()
            .map(|(li, layer)| {
                let lambda = match &layer.kind {
                    LayerKind::Baseline => LambdaTrace::None,
                    LayerKind::V1 { lambda, .. } => LambdaTrace::Scalar(opts.lambda.apply(li, *lambda)),
                    LayerKind::V2 { .. } => LambdaTrace::PerToken(mat(&read.lambdas[li * t * n_heads..(li + 1) * t * n_heads], t, n_heads)),
                };
                let diff = !matches!(layer.kind, LayerKind::Baseline);
                let maps = read
                    .wanted
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.0 == li)
                    .map(|(slot, &(_, hi))| {
                        let m = |k: usize| mat(&read.maps[(slot * 3 + k) * t * t..(slot * 3 + k + 1) * t * t], t, t);
                        let logits = |b: usize| read.logits.map(|l| self.scaled_logits(&l[(slot * 2 + b) * t * t..(slot * 2 + b + 1) * t * t], t, layer.layout.scale));
                        HeadMaps { layer: li, head: hi, a1: m(0), a2: diff.then(|| m(1)), diff: diff.then(|| m(2)), logits1: logits(0), logits2: if diff { logits(1) } else { None } }
                    })
                    .collect();
                LayerTrace { lambda, maps, hidden: hidden_stats(&mat(&read.hidden[li * t * e..(li + 1) * t * e], t, e)) }
            })
            .collect()
    }

    /// Q·Kᵀ as read back, times the score scale, the masked entries 0 (as the core keeps them).
    fn scaled_logits(&self, raw: &[f32], t: usize, scale: f32) -> Array2<f32> {
        let causal = self.config.causal;
        Array2::from_shape_fn((t, t), |(i, j)| if causal && j > i { 0.0 } else { raw[i * t + j] * scale })
    }
}

/// The read-back parts of one forward pass, by what they hold.
/// The buffers one layer's heads read and write.
struct HeadBuffers<'a> {
    q: &'a wgpu::Buffer,
    k: &'a wgpu::Buffer,
    v: &'a wgpu::Buffer,
    heads: &'a wgpu::Buffer,
    a1: &'a wgpu::Buffer,
    a2: &'a wgpu::Buffer,
    diff: &'a wgpu::Buffer,
    lambda: &'a wgpu::Buffer,
    kept: &'a wgpu::Buffer,
    kept_logits: &'a wgpu::Buffer,
}

struct ReadBack<'a> {
    t: usize,
    /// The (layer, head) of each kept map slot.
    wanted: &'a [(usize, usize)],
    maps: &'a [f32],
    logits: Option<&'a [f32]>,
    lambdas: &'a [f32],
    hidden: &'a [f32],
}

/// DIFF V2's λ override for `layer` as `a · scale + shift` on the per-token λ, or `None`
/// when the learnt λ stands (the core applies `LambdaOverride::apply` token by token).
fn v2_override(lambda: &LambdaOverride, layer: usize) -> Option<(f32, f32)> {
    match lambda {
        LambdaOverride::Learnt => None,
        LambdaOverride::PerLayer(v) => v.get(layer).copied().flatten().map(|c| (0.0, c)),
        LambdaOverride::Scale(s) => Some((*s, 0.0)),
        LambdaOverride::Constant(c) => Some((0.0, *c)),
    }
}

fn mat(data: &[f32], r: usize, c: usize) -> Array2<f32> {
    Array2::from_shape_vec((r, c), data.to_vec()).expect("a read-back part has the size it was asked for")
}

/// cos/sin of every (position, pair) in f32, exactly as `core::rope` computes them.
fn rope_table(t: usize, d: usize, theta: f32) -> Vec<f32> {
    let inv_freq = crate::core::rope::inv_freq(theta, d);
    (0..t)
        .flat_map(|pos| {
            inv_freq
                .iter()
                .flat_map(move |f| {
                    let (s, c) = (pos as f32 * f).sin_cos();
                    [c, s]
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Records the forward pass: consecutive dispatches share one compute pass (closed only
/// for buffer copies), each dispatch with its own small uniform buffer, since queued
/// uniform writes all land before the submission runs.
struct Recorder<'a> {
    ctx: &'a GpuContext,
    k: &'a Kernels,
    encoder: wgpu::CommandEncoder,
    pass: Option<wgpu::ComputePass<'static>>,
}

impl Recorder<'_> {
    /// One dispatch; `buffers` are named as the shader names its bindings (checked).
    fn run<P: Uniform>(&mut self, kernel: &Kernel, params: &P, buffers: &[(&str, &wgpu::Buffer)], grid: (u32, u32)) {
        let params = uniform(&self.ctx.device, "params", params);
        let group = kernel.bind::<P>(&self.ctx.device, &params, buffers);
        let pass = self.pass.get_or_insert_with(|| self.encoder.begin_compute_pass(&Default::default()).forget_lifetime());
        kernel.dispatch(pass, &group, grid);
    }

    fn finish(mut self) -> wgpu::CommandBuffer {
        self.pass = None;
        self.encoder.finish()
    }

    /// C (+)= A · B as `p` lays them out.
    fn matmul(&mut self, a: &wgpu::Buffer, b: &wgpu::Buffer, c: &wgpu::Buffer, p: MatmulParams) {
        self.run(&self.k.matmul, &p, &[("a", a), ("b", b), ("c", c)], p.grid());
    }

    /// y (+)= x · Wᵀ for a PyTorch Linear weight W [out, in]; x is [rows, in].
    fn linear(&mut self, x: &wgpu::Buffer, w: &wgpu::Buffer, y: &wgpu::Buffer, (rows, inp, out): (usize, usize, usize), accumulate: bool) {
        self.matmul(x, w, y, MatmulParams::linear(rows, inp, out, accumulate));
    }

    fn softmax(&mut self, q: &wgpu::Buffer, k: &wgpu::Buffer, out: &wgpu::Buffer, p: SoftmaxParams) {
        let (kernel, grid) = self.k.softmax.pick(&p);
        self.run(kernel, &p.uniform(), &[("q", q), ("k", k), ("out", out)], grid);
    }

    fn combine(&mut self, a1: &wgpu::Buffer, a2: &wgpu::Buffer, out: &wgpu::Buffer, t: usize, lambda: f32, per_row: Option<(&wgpu::Buffer, usize, usize)>) {
        let grid = grid_1d(t * t);
        let (lb, per_row, lambda_stride, lambda_col) = match per_row {
            Some((b, stride, col)) => (b, 1u32, stride as u32, col as u32),
            None => (a1, 0, 0, 0),
        };
        let p = CombineParams { rows: t as u32, cols: t as u32, per_row, lambda, groups_x: grid.0, lambda_stride, lambda_col, ..Default::default() };
        self.run(&self.k.combine, &p, &[("a1", a1), ("a2", a2), ("lambdas", lb), ("out", out)], grid);
    }

    fn rms(&mut self, x: &wgpu::Buffer, gain: &wgpu::Buffer, y: &wgpu::Buffer, p: RmsNormParams) {
        self.run(&self.k.rms, &p, &[("x", x), ("gain", gain), ("y", y)], (p.rows, 1));
    }

    fn rope(&mut self, x: &wgpu::Buffer, table: &wgpu::Buffer, t: usize, width: usize, d: usize) {
        let p = RopeParams { t: t as u32, width: width as u32, d: d as u32, ..Default::default() };
        self.run(&self.k.rope, &p, &[("table", table), ("x", x)], (((t * width / 2) as u32).div_ceil(WG_1D), 1));
    }

    /// a = a · scale + shift, in place.
    fn affine(&mut self, a: &wgpu::Buffer, len: usize, scale: f32, shift: f32) {
        let grid = grid_1d(len);
        let dummy = storage(&self.ctx.device, "unused", 1);
        let p = ElementwiseParams { len: len as u32, op: ElementwiseOp::Affine as u32, groups_x: grid.0, scale, shift, ..Default::default() };
        self.run(&self.k.elementwise, &p, &[("a", a), ("b", &dummy)], grid);
    }

    fn elementwise(&mut self, a: &wgpu::Buffer, b: &wgpu::Buffer, len: usize, op: ElementwiseOp) {
        let grid = grid_1d(len);
        // Binding `a` twice (read_write and read) is not allowed: σ ignores `b`, so give it a fresh dummy.
        let dummy;
        let b = if std::ptr::eq(a, b) {
            dummy = storage(&self.ctx.device, "unused", 1);
            &dummy
        } else {
            b
        };
        let p = ElementwiseParams { len: len as u32, op: op as u32, groups_x: grid.0, ..Default::default() };
        self.run(&self.k.elementwise, &p, &[("a", a), ("b", b)], grid);
    }

    fn copy(&mut self, src: &wgpu::Buffer, src_off: usize, dst: &wgpu::Buffer, dst_off: usize, count: usize) {
        self.pass = None;
        self.encoder.copy_buffer_to_buffer(src, (src_off * 4) as u64, dst, (dst_off * 4) as u64, (count * 4) as u64);
    }
}
