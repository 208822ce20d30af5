//! What the three attention kinds share: the per-head kernel that turns queries and keys
//! into softmax maps, combines them (A1 − λ·A2 for differential heads) and applies them
//! to the values, plus the types a layer hands back to the visualiser.
//!
//! Rows are processed in blocks of [`ROW_BLOCK`] queries, so a head never holds more than
//! `ROW_BLOCK × T` scores at once: the only `T × T` buffers are the maps the caller asked
//! for through [`MapRequest`].

use super::analysis::quantize_absmax;
use super::baseline::BaselineAttention;
use super::diff_v1::DiffAttnV1;
use super::diff_v2::DiffAttnV2;
use super::linalg::{times, times_t, Mat};
use super::model::{put_matrix, put_vector};
use super::rope::Rope;
use super::softmax::{apply_mask, softmax_rows};
use super::weights::TensorStore;
use ndarray::{s, Array2, ArrayView2, Axis};

/// Queries per block: large enough for an efficient GEMM, small enough that the
/// working set stays `64 × T` instead of `T × T`.
pub const ROW_BLOCK: usize = 64;

/// Which heads' `T × T` maps a forward pass keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum MapRequest {
    #[default]
    None,
    All,
    /// `(layer, head)` pairs; heads count differential heads for V1/V2.
    Only(Vec<(usize, usize)>),
}

impl MapRequest {
    pub fn wants(&self, layer: usize, head: usize) -> bool {
        match self {
            MapRequest::None => false,
            MapRequest::All => true,
            MapRequest::Only(list) => list.contains(&(layer, head)),
        }
    }
}

/// Settings of one attention call that are not weights.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionOptions {
    /// Causal (key j > query i excluded) or bidirectional.
    pub causal: bool,
    /// Rotary embedding on q and k, or none.
    pub rope: Option<Rope>,
    pub maps: MapRequest,
    /// Keep the scaled pre-softmax logits of the requested heads too (masked entries 0).
    pub keep_logits: bool,
    /// Absmax-quantise the scaled attention logits to this many bits before the softmax
    /// (the paper's Figure 8); `None` leaves them in f32.
    pub logit_quant_bits: Option<u32>,
    /// λ set by the reader instead of the learnt one (the explorer's override).
    pub lambda: LambdaOverride,
    /// DIFF V1's per-head norm forced on or off (the paper's ablation); `None`: as loaded.
    pub subln: Option<bool>,
}

/// A λ the reader sets instead of the learnt one. λ = 0 makes a differential head the
/// softmax attention of its first branch.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum LambdaOverride {
    #[default]
    Learnt,
    /// Each layer's λ (`None`: the learnt one); for V2 every token's λ in that layer.
    PerLayer(Vec<Option<f32>>),
    /// Every learnt λ times this factor.
    Scale(f32),
    /// Every λ of every layer.
    Constant(f32),
}

impl LambdaOverride {
    /// The first of `layers` layers whose λ differs between `self` and `other` (`None`:
    /// the same everywhere). A factor or a constant changes every layer.
    pub fn first_difference(&self, other: &Self, layers: usize) -> Option<usize> {
        let per_layer = |o: &Self, l: usize| match o {
            LambdaOverride::Learnt => Some(None),
            LambdaOverride::PerLayer(v) => Some(v.get(l).copied().flatten()),
            _ => None,
        };
        if self == other {
            return None;
        }
        (0..layers).find(|&l| match (per_layer(self, l), per_layer(other, l)) {
            (Some(a), Some(b)) => a.map(f32::to_bits) != b.map(f32::to_bits),
            _ => true,
        })
    }

    /// The λ of `layer` whose learnt value is `learnt`.
    pub fn apply(&self, layer: usize, learnt: f32) -> f32 {
        match self {
            LambdaOverride::Learnt => learnt,
            LambdaOverride::PerLayer(v) => v.get(layer).copied().flatten().unwrap_or(learnt),
            LambdaOverride::Scale(s) => s * learnt,
            LambdaOverride::Constant(c) => *c,
        }
    }
}

impl Default for AttentionOptions {
    fn default() -> Self {
        Self { causal: true, rope: Some(Rope::default()), maps: MapRequest::None, keep_logits: false, logit_quant_bits: None, lambda: LambdaOverride::Learnt, subln: None }
    }
}

/// The maps of one head, as the visualiser shows them.
#[derive(Clone, Debug)]
pub struct HeadMaps {
    pub layer: usize,
    pub head: usize,
    /// softmax(Q1K1ᵀ/√d): the only map of a baseline head.
    pub a1: Mat,
    /// softmax(Q2K2ᵀ/√d); `None` for the baseline.
    pub a2: Option<Mat>,
    /// A1 − λ·A2 (λ per row for V2); `None` for the baseline, whose combined map is A1.
    pub diff: Option<Mat>,
    pub logits1: Option<Mat>,
    pub logits2: Option<Mat>,
}

impl HeadMaps {
    /// The map that multiplies V: A1 − λA2, or A1 for a baseline head.
    pub fn combined(&self) -> &Mat {
        self.diff.as_ref().unwrap_or(&self.a1)
    }
}

/// The λ a layer used.
#[derive(Clone, Debug, PartialEq)]
pub enum LambdaTrace {
    /// Baseline softmax attention has no λ.
    None,
    /// V1: one scalar per layer, shared by all heads.
    Scalar(f32),
    /// V2: `[T, H]`, one value per token and differential head.
    PerToken(Mat),
}

/// The rotated keys and the values of every row a layer has run, `[T, ·]` each: what a
/// pass over a longer text with the same beginning reuses instead of projecting those
/// rows again (a key/value cache). Empty before the first row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KvRows {
    pub k: Mat,
    pub v: Mat,
}

impl KvRows {
    pub fn rows(&self) -> usize {
        self.k.nrows()
    }

    /// Appends the rows that follow.
    pub fn append(&mut self, k: Mat, v: Mat) {
        if self.rows() == 0 {
            (self.k, self.v) = (k, v);
        } else {
            self.k = ndarray::concatenate![Axis(0), self.k, k];
            self.v = ndarray::concatenate![Axis(0), self.v, v];
        }
    }

    /// The first `n` rows.
    pub fn prefix(&self, n: usize) -> Self {
        Self { k: self.k.slice(s![..n, ..]).to_owned(), v: self.v.slice(s![..n, ..]).to_owned() }
    }
}

/// What one attention layer returns: its output and what the page shows of it.
#[derive(Clone, Debug)]
pub struct LayerOutput {
    /// `[T, E]`, after the output projection.
    pub out: Mat,
    pub lambda: LambdaTrace,
    pub maps: Vec<HeadMaps>,
}

/// The λ applied to the second map, for each query row.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RowLambda<'a> {
    Scalar(f32),
    PerRow(&'a [f32]),
}

impl RowLambda<'_> {
    fn at(&self, row: usize) -> f32 {
        match self {
            RowLambda::Scalar(l) => *l,
            RowLambda::PerRow(v) => v[row],
        }
    }
}

/// One head's inputs: branch 1, the optional branch 2 (differential heads), the values.
pub(crate) struct HeadInputs<'a> {
    pub q1: ArrayView2<'a, f32>,
    pub k1: ArrayView2<'a, f32>,
    pub branch2: Option<(ArrayView2<'a, f32>, ArrayView2<'a, f32>, RowLambda<'a>)>,
    pub v: ArrayView2<'a, f32>,
    /// d^(−1/2), d the q/k head size.
    pub scale: f32,
    /// The position of the first query: 0 for a whole pass; the rows already run when
    /// only appended rows are queried (the keys and values then hold every row).
    pub first_query: usize,
}

/// Which maps of the head to keep, decided by the caller from its [`MapRequest`].
pub(crate) struct Keep {
    pub maps: bool,
    pub logits: bool,
}

/// The output of one head (`[T, dv]`) and, when asked, its maps.
pub(crate) struct HeadResult {
    pub out: Mat,
    pub a1: Option<Mat>,
    pub a2: Option<Mat>,
    pub diff: Option<Mat>,
    pub logits1: Option<Mat>,
    pub logits2: Option<Mat>,
}

/// Scaled logits of a block of queries against keys `[0, kv_len)`.
fn block_logits(q: &ArrayView2<f32>, k: &ArrayView2<f32>, rows: (usize, usize), kv_len: usize, scale: f32) -> Mat {
    let mut scores = times_t(&q.slice(s![rows.0..rows.1, ..]), &k.slice(s![..kv_len, ..]));
    scores.mapv_inplace(|v| v * scale);
    scores
}

/// Largest |logit| over the entries the mask lets through: the absmax of quantisation.
fn logit_absmax(q: &ArrayView2<f32>, k: &ArrayView2<f32>, scale: f32, causal: bool) -> f32 {
    let t = q.nrows();
    let mut absmax = 0.0f32;
    for start in (0..t).step_by(ROW_BLOCK) {
        let end = (start + ROW_BLOCK).min(t);
        let kv_len = if causal { end } else { t };
        let scores = block_logits(q, k, (start, end), kv_len, scale);
        for (r, row) in scores.rows().into_iter().enumerate() {
            let visible = if causal { start + r + 1 } else { kv_len };
            absmax = row.iter().take(visible).fold(absmax, |m, v| m.max(v.abs()));
        }
    }
    absmax
}

/// Logits → (quantised) → masked softmax, for one branch and one block of rows.
struct Branch<'a> {
    q: ArrayView2<'a, f32>,
    k: ArrayView2<'a, f32>,
    absmax: Option<f32>,
}

impl Branch<'_> {
    /// Rows `rows` of the queries (local), whose first query stands at `q0 + rows.0`.
    fn probs(&self, rows: (usize, usize), q0: usize, kv_len: usize, opts: &AttentionOptions, scale: f32, logits_out: Option<&mut Mat>) -> Mat {
        let mut scores = block_logits(&self.q, &self.k, rows, kv_len, scale);
        if let (Some(bits), Some(absmax)) = (opts.logit_quant_bits, self.absmax) {
            scores.mapv_inplace(|v| quantize_absmax(v, absmax, bits));
        }
        apply_mask(scores.view_mut(), q0 + rows.0, opts.causal);
        if let Some(out) = logits_out {
            let mut dst = out.slice_mut(s![rows.0..rows.1, ..kv_len]);
            dst.zip_mut_with(&scores, |d, s| *d = if s.is_finite() { *s } else { 0.0 });
        }
        softmax_rows(scores.view_mut());
        scores
    }
}

/// Runs one head: both softmaxes, the combine, and the product with V, block by block.
/// The maps are `[queries, keys]`: `T × T` for a whole pass, the appended rows only
/// when `first_query > 0`.
pub(crate) fn run_head(inputs: &HeadInputs, opts: &AttentionOptions, keep: &Keep) -> HeadResult {
    let (t, keys, q0) = (inputs.q1.nrows(), inputs.k1.nrows(), inputs.first_query);
    let full = || Some(Array2::<f32>::zeros((t, keys)));
    let absmax = |q: &ArrayView2<f32>, k: &ArrayView2<f32>| opts.logit_quant_bits.map(|_| logit_absmax(q, k, inputs.scale, opts.causal));
    let branch1 = Branch { q: inputs.q1, k: inputs.k1, absmax: absmax(&inputs.q1, &inputs.k1) };
    let branch2 = inputs.branch2.as_ref().map(|(q2, k2, lambda)| (Branch { q: *q2, k: *k2, absmax: absmax(q2, k2) }, *lambda));
    let is_diff = branch2.is_some();

    let mut result = HeadResult {
        out: Array2::zeros((t, inputs.v.ncols())),
        a1: if keep.maps { full() } else { None },
        a2: if keep.maps && is_diff { full() } else { None },
        diff: if keep.maps && is_diff { full() } else { None },
        logits1: if keep.logits { full() } else { None },
        logits2: if keep.logits && is_diff { full() } else { None },
    };

    for start in (0..t).step_by(ROW_BLOCK) {
        let end = (start + ROW_BLOCK).min(t);
        // Causal rows in this block see no key beyond their last query: skip those columns.
        let kv_len = if opts.causal { q0 + end } else { keys };
        let rows = (start, end);
        let p1 = branch1.probs(rows, q0, kv_len, opts, inputs.scale, result.logits1.as_mut());
        if let Some(a1) = result.a1.as_mut() {
            a1.slice_mut(s![start..end, ..kv_len]).assign(&p1);
        }
        let combined = match &branch2 {
            None => p1,
            Some((branch, lambda)) => {
                let p2 = branch.probs(rows, q0, kv_len, opts, inputs.scale, result.logits2.as_mut());
                if let Some(a2) = result.a2.as_mut() {
                    a2.slice_mut(s![start..end, ..kv_len]).assign(&p2);
                }
                let mut d = p1;
                for (r, (mut row1, row2)) in d.axis_iter_mut(Axis(0)).zip(p2.axis_iter(Axis(0))).enumerate() {
                    let l = lambda.at(start + r);
                    row1.zip_mut_with(&row2, |a, b| *a -= l * b);
                }
                if let Some(diff) = result.diff.as_mut() {
                    diff.slice_mut(s![start..end, ..kv_len]).assign(&d);
                }
                d
            }
        };
        let out_rows = times(&combined.view(), &inputs.v.slice(s![..kv_len, ..]));
        result.out.slice_mut(s![start..end, ..]).assign(&out_rows);
    }
    result
}

/// One attention layer of any kind.
#[derive(Clone, Debug)]
pub enum AttentionLayer {
    Baseline(BaselineAttention),
    V1(DiffAttnV1),
    V2(DiffAttnV2),
}

/// What a DIFF V1 checkpoint does not record: λ_init (from the layer's depth, or set),
/// how KV heads pair with sub-heads, and whether each head's output is RMS-normed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V1Choices {
    pub lambda_init: f32,
    pub pairing: super::config::KvPairing,
    pub subln: bool,
}

impl AttentionLayer {
    /// One layer of `kind` with the official parameter names under `vb` (`v1` is used
    /// by DIFF V1 only).
    pub fn load(vb: &super::weights::Scope, kind: super::config::AttentionKind, shape: super::config::AttnShape, v1: V1Choices) -> Result<Self, super::weights::WeightsError> {
        use super::config::AttentionKind;
        Ok(match kind {
            AttentionKind::Baseline => AttentionLayer::Baseline(BaselineAttention::load(vb, shape)?),
            AttentionKind::DiffV1 => AttentionLayer::V1(DiffAttnV1::load(vb, shape, v1.lambda_init, v1.pairing, v1.subln)?),
            AttentionKind::DiffV2 => AttentionLayer::V2(DiffAttnV2::load(vb, shape)?),
        })
    }

    /// `x` is the layer input `[T, E]` (already normalised by the block); `layer` is its
    /// index, used to match the [`MapRequest`].
    pub fn forward(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize) -> LayerOutput {
        self.forward_after(x, opts, layer, &mut KvRows::default())
    }

    /// `x` holds the rows that follow the `kv.rows()` rows already run (all of them when
    /// `kv` is empty); their keys and values are appended to `kv`, and the output, maps
    /// and λ are those of the rows of `x` (maps `[rows of x, all rows]`). Causal passes
    /// without quantised logits only, when `kv` is not empty: the rows before would
    /// otherwise depend on the rows after.
    pub fn forward_after(&self, x: &ArrayView2<f32>, opts: &AttentionOptions, layer: usize, kv: &mut KvRows) -> LayerOutput {
        match self {
            AttentionLayer::Baseline(a) => a.forward_after(x, opts, layer, kv),
            AttentionLayer::V1(a) => a.forward_after(x, opts, layer, opts.lambda.apply(layer, a.lambda_full()), kv),
            AttentionLayer::V2(a) => a.forward_after(x, opts, layer, a.lambdas(x).mapv(|l| opts.lambda.apply(layer, l)), kv),
        }
    }

    /// Which columns of Q, K and V each head reads, and where its output goes.
    pub fn head_layout(&self) -> crate::head_layout::HeadLayout {
        match self {
            AttentionLayer::Baseline(a) => a.head_layout(),
            AttentionLayer::V1(a) => a.head_layout(),
            AttentionLayer::V2(a) => a.head_layout(),
        }
    }

    /// Writes the layer's tensors under their official names, below `prefix`.
    pub fn write_to(&self, s: &mut TensorStore, prefix: &str) {
        let p = |n: &str| if prefix.is_empty() { n.to_string() } else { format!("{prefix}.{n}") };
        match self {
            AttentionLayer::Baseline(b) => {
                for (n, m) in [("q_proj", &b.wq), ("k_proj", &b.wk), ("v_proj", &b.wv), ("out_proj", &b.wout)] {
                    put_matrix(s, &p(&format!("{n}.weight")), m);
                }
            }
            AttentionLayer::V1(b) => {
                for (n, m) in [("q_proj", &b.wq), ("k_proj", &b.wk), ("v_proj", &b.wv), ("out_proj", &b.wout)] {
                    put_matrix(s, &p(&format!("{n}.weight")), m);
                }
                let l = &b.lambda;
                for (n, v) in [("lambda_q1", &l.q1), ("lambda_k1", &l.k1), ("lambda_q2", &l.q2), ("lambda_k2", &l.k2), ("subln.weight", &b.subln.gain)] {
                    put_vector(s, &p(n), v);
                }
            }
            AttentionLayer::V2(b) => {
                for (n, m) in [("q_proj", &b.wq), ("k_proj", &b.wk), ("v_proj", &b.wv), ("o_proj", &b.wo), ("lambda_proj", &b.w_lambda)] {
                    put_matrix(s, &p(&format!("{n}.weight")), m);
                }
            }
        }
    }

    /// Heads the visualiser can pick (differential heads for V1 and V2).
    pub fn n_heads(&self) -> usize {
        match self {
            AttentionLayer::Baseline(a) => a.n_heads,
            AttentionLayer::V1(a) => a.n_heads,
            AttentionLayer::V2(a) => a.n_heads,
        }
    }
}

/// Collects a head's kept maps into the public type.
pub(crate) fn head_maps(layer: usize, head: usize, r: &mut HeadResult) -> Option<HeadMaps> {
    let a1 = r.a1.take()?;
    Some(HeadMaps { layer, head, a1, a2: r.a2.take(), diff: r.diff.take(), logits1: r.logits1.take(), logits2: r.logits2.take() })
}

/// Applies RoPE (when enabled) to a `[T, n·d]` projection whose first row stands at
/// position `first`.
pub(crate) fn rotate(mut x: Mat, head_dim: usize, opts: &AttentionOptions, first: usize) -> Mat {
    if let Some(rope) = opts.rope {
        rope.apply_from(x.view_mut(), head_dim, first);
    }
    x
}
