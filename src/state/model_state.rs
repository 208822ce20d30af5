//! The model explorer's state in the URL: the view (three models side by side, or one),
//! which model and checkpoint, which prompt, the attention logits' precision, and which
//! layer and heads are on screen.

use super::query::read_clamped as read;
use super::table::{accepts, read_link, read_row, write_link, Accepts, Choice, Field, InLink, Knob, Text};
use serde::{Deserialize, Serialize};

pub use crate::core::attention::LambdaOverride;
pub use crate::core::config::AttentionKind;
use crate::core::retrieval::parse as parse_prompt;
/// Context lengths offered: the training length and 2× and 4× it.
pub const CONTEXTS: [usize; 3] = [64, 128, 256];
/// Attention-logit precisions offered (the paper's Figure 8): f32, or absmax to these bits.
pub const BITS: [u32; 3] = [8, 6, 4];

/// DIFF V1's λ override: the range of each layer's slider (the shipped V1 learnt −2.6
/// in layer 0, so the range holds it with room either side).
pub const V1_LAMBDA_RANGE: (f32, f32) = (-3.0, 3.0);
/// DIFF V2's λ override: a factor on every per-token λ, or one value for all of them
/// (sigmoid keeps the learnt ones in 0…1; above 1 shows what too much λ does).
pub const V2_SCALE_RANGE: (f32, f32) = (0.0, 3.0);
pub const V2_PIN_RANGE: (f32, f32) = (0.0, 2.0);

/// What the reader did to DIFF V2's per-token λ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum V2Lambda {
    #[default]
    Learnt,
    Scale(f32),
    Pin(f32),
}

impl V2Lambda {
    /// The factor, while every λ is scaled.
    pub fn scale(self) -> Option<f32> {
        if let V2Lambda::Scale(f) = self {
            Some(f)
        } else {
            None
        }
    }

    /// The value, while every λ is pinned to one.
    pub fn pin(self) -> Option<f32> {
        if let V2Lambda::Pin(v) = self {
            Some(v)
        } else {
            None
        }
    }
}

/// Where the reader wants the explorer's forward passes to run (`on=` in the link).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ComputeOn {
    /// WebGPU on a hardware GPU, the CPU core on a software adapter or none.
    #[default]
    Auto,
    Gpu,
    Cpu,
}

impl ComputeOn {
    pub const ALL: [ComputeOn; 3] = [ComputeOn::Auto, ComputeOn::Gpu, ComputeOn::Cpu];

    pub fn from_slug(slug: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.slug() == slug)
    }

    pub fn slug(self) -> &'static str {
        match self {
            ComputeOn::Auto => "auto",
            ComputeOn::Gpu => "gpu",
            ComputeOn::Cpu => "cpu",
        }
    }
}

/// The explorer's two views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    /// The three shipped models side by side on one prompt (the default).
    #[default]
    Compare,
    /// One model, every checkpoint of its training.
    Single,
}

impl View {
    pub const ALL: [View; 2] = [View::Compare, View::Single];

    pub fn from_slug(slug: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.slug() == slug)
    }

    pub fn slug(self) -> &'static str {
        match self {
            View::Compare => "compare",
            View::Single => "single",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelState {
    pub view: View,
    /// The single view's model.
    pub kind: AttentionKind,
    /// Index into the card's checkpoints (0 = untrained … 4 = final).
    pub checkpoint: usize,
    pub needles: usize,
    pub queries: usize,
    pub context: usize,
    /// Depth of the first queried needle in percent, or `None` for random.
    pub depth: Option<u32>,
    pub seed: u64,
    pub layer: usize,
    pub head: usize,
    /// The query row the row chart shows, if one was picked on a map (else the "→" row).
    pub row: Option<usize>,
    /// Absmax-quantise attention logits to this many bits; `None`: f32.
    pub bits: Option<u32>,
    /// The compare view's head per model (in `AttentionKind::ALL` order); `None`: the head
    /// with the most net weight on the asked needle.
    pub picks: [Option<usize>; 3],
    /// DIFF V1: each layer's λ set by the reader (`None`: learnt).
    pub v1_lambdas: Vec<Option<f32>>,
    /// DIFF V1's per-head norm (off: the paper's ablation).
    pub v1_norm: bool,
    pub v2_lambda: V2Lambda,
    /// A prompt the reader typed (words of the vocabulary); `None`: the generated one.
    pub text: Option<String>,
    /// Where the forward passes run.
    pub on: ComputeOn,
}

/// DIFF V1's per-layer λ from a link: comma-separated, an empty entry for a learnt λ
/// ("`,0.3,`": layer 1 set to 0.3), each clamped into its range.
fn read_layers(raw: &str, notices: &mut Vec<String>) -> Vec<Option<f32>> {
    let mut layers: Vec<Option<f32>> = raw
        .split(',')
        .take(64)
        .enumerate()
        .map(|(l, v)| {
            let v = v.trim();
            if v.is_empty() || v == "learnt" {
                return None;
            }
            match v.parse::<f32>() {
                Ok(x) if x.is_finite() => {
                    let mut x = x;
                    read(&crate::tr!("note-v1-lambda-key", layer = l), v, V1_LAMBDA_RANGE, &mut x, notices);
                    Some(x)
                }
                _ => {
                    notices.push(crate::tr!("note-v1-lambda-nan", layer = l, raw = v));
                    None
                }
            }
        })
        .collect();
    while layers.last() == Some(&None) {
        layers.pop();
    }
    layers
}

fn write_layers(layers: &[Option<f32>]) -> String {
    layers.iter().map(|l| l.map(|v| format!("{v}")).unwrap_or_default()).collect::<Vec<_>>().join(",")
}

/// The index of `kind` in `AttentionKind::ALL` (the order of columns and picks).
pub fn column_of(kind: AttentionKind) -> usize {
    AttentionKind::ALL.iter().position(|k| *k == kind).expect("ALL lists every kind")
}

impl Default for ModelState {
    fn default() -> Self {
        // DIFF V2's head 2 of the last layer is the one that finds the asked needle (0.97 of
        // its net weight on the needle, the rest of the context cancelled: README, Table 3
        // per layer), so a fresh visit opens on the picture the page is about.
        Self {
            view: View::Compare,
            kind: AttentionKind::DiffV2,
            checkpoint: 4,
            needles: 4,
            queries: 1,
            context: 64,
            depth: Some(50),
            seed: 1,
            layer: 2,
            head: 2,
            row: None,
            bits: None,
            picks: [None; 3],
            v1_lambdas: vec![],
            v1_norm: true,
            v2_lambda: V2Lambda::Learnt,
            text: None,
            on: ComputeOn::Auto,
        }
    }
}

/// A row of the explorer's table (named so that its closures know their state).
pub type ModelKnob = Knob<ModelState>;

/// The explorer's whole-number sliders. Layer and head are also checked against the
/// loaded model (`clamp_to_model`). A move keeps queries ≤ needles; moving a knob of
/// the generated prompt leaves a typed prompt for a generated one.
pub const CHECKPOINT: ModelKnob = ModelKnob::new("ckpt", "mknob-ckpt", (0.0, 4.0), 1.0, |s| s.checkpoint as f64, |s, v| s.checkpoint = v as usize).integer().after(ModelState::keep_queries);
pub const NEEDLES: ModelKnob = ModelKnob::new("n", "mknob-needles", (1.0, 6.0), 1.0, |s| s.needles as f64, |s, v| s.needles = v as usize).integer().id("needles").after(ModelState::new_prompt);
pub const QUERIES: ModelKnob = ModelKnob::new("r", "mknob-queries", (1.0, 2.0), 1.0, |s| s.queries as f64, |s, v| s.queries = v as usize).integer().id("queries").after(ModelState::new_prompt);
/// In percent; the link may also say `depth=random`.
pub const DEPTH: ModelKnob = ModelKnob::new("depth", "mknob-depth", (0.0, 100.0), 25.0, |s| s.depth.unwrap_or(50) as f64, |s, v| s.depth = Some(v as u32)).integer().after(ModelState::new_prompt);
pub const LAYER: ModelKnob = ModelKnob::new("layer", "mknob-layer", (0.0, 63.0), 1.0, |s| s.layer as f64, |s, v| s.layer = v as usize).integer().after(ModelState::keep_queries);
pub const HEAD: ModelKnob = ModelKnob::new("head", "mknob-head", (0.0, 63.0), 1.0, |s| s.head as f64, |s, v| s.head = v as usize).integer().after(ModelState::keep_queries);

type ModelChoice = Choice<ModelState>;
type ModelText = Text<ModelState>;

/// The compare view's head pick for column `col` (`head_diff_v1=2`, or `auto`).
fn read_pick(s: &mut ModelState, col: usize, raw: &str, notices: &mut Vec<String>) {
    if raw == "auto" {
        s.picks[col] = None;
    } else {
        let mut h = 0usize;
        read(&format!("head_{}", AttentionKind::ALL[col].slug()), raw, (HEAD.min as usize, HEAD.max as usize), &mut h, notices);
        s.picks[col] = Some(h);
    }
}

/// The context length, snapped to the nearest offered one (with a notice if it moved).
fn read_context(s: &mut ModelState, raw: &str, notices: &mut Vec<String>) {
    let mut c = s.context;
    read("ctx", raw, (CONTEXTS[0], CONTEXTS[2]), &mut c, notices);
    s.context = *CONTEXTS.iter().min_by_key(|x| x.abs_diff(c)).expect("CONTEXTS is not empty");
    if s.context != c {
        notices.push(crate::tr!("note-ctx", raw = c.to_string(), context = s.context));
    }
}

/// The logits' precision from a link: `32` (f32) or one of [`BITS`]; false for anything else.
fn set_bits(s: &mut ModelState, raw: &str) -> bool {
    match raw.parse::<u32>() {
        Ok(32) => s.bits = None,
        Ok(b) if BITS.contains(&b) => s.bits = Some(b),
        _ => return false,
    }
    true
}

/// DIFF V1's per-head norm from a link: `on` or `off`; false for anything else.
fn set_v1_norm(s: &mut ModelState, raw: &str) -> bool {
    match raw {
        "on" | "off" => s.v1_norm = raw == "on",
        _ => return false,
    }
    true
}

/// Names as a choice row lists them.
pub(crate) fn slugs<const N: usize>(names: [&str; N]) -> Vec<String> {
    names.map(String::from).to_vec()
}

/// The explorer's link, in the order it is written.
const TABLE: [Field<ModelState>; 21] = [
    Field::Choice(ModelChoice::new(
        "view",
        || slugs(View::ALL.map(View::slug)),
        |s| s.view.slug().into(),
        |s, raw| View::from_slug(raw).map(|v| s.view = v).is_some(),
        |s, raw| crate::tr!("note-view", raw = raw, view = s.view.slug()),
    )),
    Field::Choice(ModelChoice::new(
        "model",
        || slugs(AttentionKind::ALL.map(AttentionKind::slug)),
        |s| s.kind.slug().into(),
        |s, raw| AttentionKind::from_slug(raw).map(|k| s.kind = k).is_some(),
        |s, raw| crate::tr!("note-model", raw = raw, all = AttentionKind::ALL.map(AttentionKind::slug).join(", "), kind = s.kind.slug()),
    )),
    Field::Number(CHECKPOINT),
    Field::Number(NEEDLES),
    Field::Number(QUERIES),
    Field::Text(ModelText::new("ctx", read_context, |s| Some(s.context.to_string())).examples(&["64", "128", "256"], &["4096", "1", "100"])),
    Field::Text(
        ModelText::new("depth", |s, raw, n| if raw == "random" { s.depth = None } else { DEPTH.read(s, raw, n) }, |s| Some(s.depth.map_or("random".into(), |d| d.to_string())))
            .examples(&["0", "25", "50", "75", "100", "random"], &["101", "-25"]),
    ),
    Field::Number(ModelKnob::new("seed", "mknob-seed", (0.0, u32::MAX as f64), 1.0, |s| s.seed as f64, |s, v| s.seed = v as u64).integer()),
    Field::Number(LAYER),
    Field::Number(HEAD),
    Field::Text(ModelText::new("row", |s, raw, n| s.row = read_row(raw, 4096, n), |s| s.row.map(|r| r.to_string())).examples(&["0", "3"], &["x"])),
    Field::Choice(
        ModelChoice::new("bits", || std::iter::once(32).chain(BITS).map(|b| b.to_string()).collect(), |s| s.bits.unwrap_or(32).to_string(), set_bits, |_, raw| crate::tr!("note-bits", raw = raw))
            .in_link(InLink::When(|s| s.bits.is_some())),
    ),
    Field::Text(ModelText::new("v1_lambda", |s, raw, n| s.v1_lambdas = read_layers(raw, n), |s| s.v1_lambdas.iter().any(Option::is_some).then(|| write_layers(&s.v1_lambdas)))),
    Field::Choice(
        ModelChoice::new("v1_norm", || slugs(["on", "off"]), |s| if s.v1_norm { "on" } else { "off" }.into(), set_v1_norm, |_, raw| crate::tr!("note-v1-norm", raw = raw))
            .in_link(InLink::When(|s| !s.v1_norm)),
    ),
    Field::Text(ModelText::new(
        "prompt",
        |s, raw, n| match parse_prompt(raw) {
            Ok(_) => s.text = Some(raw.split_whitespace().collect::<Vec<_>>().join(" ")),
            Err(e) => n.push(crate::tr!("note-prompt", error = e.to_string())),
        },
        |s| s.text.clone(),
    )),
    Field::Choice(
        ModelChoice::new(
            "on",
            || slugs(ComputeOn::ALL.map(ComputeOn::slug)),
            |s| s.on.slug().into(),
            |s, raw| ComputeOn::from_slug(raw).map(|on| s.on = on).is_some(),
            |_, raw| crate::tr!("note-on", raw = raw),
        )
        .in_link(InLink::AwayFromDefault),
    ),
    Field::Number(
        ModelKnob::new("v2_scale", "v2-scale", (V2_SCALE_RANGE.0 as f64, V2_SCALE_RANGE.1 as f64), 0.05, |s| s.v2_lambda.scale().unwrap_or(1.0) as f64, |s, v| s.v2_lambda = V2Lambda::Scale(v as f32))
            .in_link(InLink::When(|s| matches!(s.v2_lambda, V2Lambda::Scale(_)))),
    ),
    Field::Number(
        ModelKnob::new("v2_pin", "v2-pin", (V2_PIN_RANGE.0 as f64, V2_PIN_RANGE.1 as f64), 0.01, |s| s.v2_lambda.pin().unwrap_or(1.0) as f64, |s, v| s.v2_lambda = V2Lambda::Pin(v as f32))
            .in_link(InLink::When(|s| matches!(s.v2_lambda, V2Lambda::Pin(_)))),
    ),
    Field::Text(ModelText::new("head_baseline", |s, raw, n| read_pick(s, 0, raw, n), |s| s.picks[0].map(|h| h.to_string()))),
    Field::Text(ModelText::new("head_diff_v1", |s, raw, n| read_pick(s, 1, raw, n), |s| s.picks[1].map(|h| h.to_string()))),
    Field::Text(ModelText::new("head_diff_v2", |s, raw, n| read_pick(s, 2, raw, n), |s| s.picks[2].map(|h| h.to_string()))),
];

impl ModelState {
    /// A downloaded explorer figure's file name without extension: the model, the figure,
    /// the layer and head it shows, then the prompt (context, seed; "typed" for a typed
    /// one) and the logits' precision when quantised.
    pub fn file_stem(&self, model: &str, figure: &str, layer: usize, head: usize) -> String {
        let prompt = if self.text.is_some() { "typed".to_string() } else { format!("ctx{}-seed{}", self.context, self.seed) };
        let bits = self.bits.map(|b| format!("-{b}bit")).unwrap_or_default();
        format!("difflens-explorer-{model}-{figure}-layer{layer}-head{head}-{prompt}{bits}")
    }

    /// Reads a link; every adjusted or ignored value gets a notice. Layer and head are
    /// checked against the loaded model later (`clamp_to_model`).
    /// What each key of the link accepts (the browser tests' random links).
    pub fn link_rows() -> Vec<Accepts> {
        accepts(&TABLE)
    }

    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        let (mut s, mut notices) = read_link(&TABLE, params);
        if s.queries > s.needles {
            notices.push(crate::tr!("note-queries", queries = s.queries, needles = s.needles));
            s.queries = s.needles;
        }
        // Links made before the compare view named one model and no view: they open on it.
        if params.iter().any(|(k, _)| k == "model") && !params.iter().any(|(k, _)| k == "view") {
            s.view = View::Single;
        }
        (s, notices)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        write_link(&TABLE, self)
    }

    /// Queries never outnumber needles.
    fn keep_queries(&mut self) {
        self.queries = self.queries.min(self.needles);
    }

    /// A knob of the generated prompt moved: queries kept ≤ needles, and a typed prompt
    /// left for a generated one.
    fn new_prompt(&mut self) {
        self.keep_queries();
        self.text = None;
    }

    /// Everything that decides what a forward pass computes (the prompt, the precision,
    /// the λ overrides): a page reruns its models when this changes, not for a new layer.
    #[allow(clippy::type_complexity)]
    pub fn run_key(&self) -> (usize, usize, usize, Option<u32>, u64, Option<u32>, Vec<Option<f32>>, bool, V2Lambda, Option<String>, ComputeOn) {
        (self.needles, self.queries, self.context, self.depth, self.seed, self.bits, self.v1_lambdas.clone(), self.v1_norm, self.v2_lambda, self.text.clone(), self.on)
    }

    /// Whether `self` differs from `other` in the λ overrides alone (a drag of a λ
    /// slider): its link may wait for the drag to settle.
    pub fn only_lambdas_differ(&self, other: &Self) -> bool {
        let lambdas = |s: &Self| (s.v1_lambdas.clone(), s.v2_lambda);
        let without = |s: &Self| Self { v1_lambdas: vec![], v2_lambda: V2Lambda::Learnt, ..s.clone() };
        lambdas(self) != lambdas(other) && without(self) == without(other)
    }

    /// The λ this state sets for a model of `kind` (learnt unless the reader moved it).
    pub fn lambda_override(&self, kind: AttentionKind) -> LambdaOverride {
        match (kind, self.v2_lambda) {
            (AttentionKind::DiffV1, _) if self.v1_lambdas.iter().any(Option::is_some) => LambdaOverride::PerLayer(self.v1_lambdas.clone()),
            (AttentionKind::DiffV2, V2Lambda::Scale(f)) => LambdaOverride::Scale(f),
            (AttentionKind::DiffV2, V2Lambda::Pin(v)) => LambdaOverride::Constant(v),
            _ => LambdaOverride::Learnt,
        }
    }

    /// DIFF V1's per-head norm as this state sets it (`None`: as loaded).
    pub fn subln_override(&self, kind: AttentionKind) -> Option<bool> {
        (kind == AttentionKind::DiffV1 && !self.v1_norm).then_some(false)
    }

    /// Sets (or with `None` returns to learnt) DIFF V1's λ of `layer`, clamped.
    pub fn set_v1_lambda(&mut self, layer: usize, value: Option<f32>) {
        if self.v1_lambdas.len() <= layer {
            self.v1_lambdas.resize(layer + 1, None);
        }
        self.v1_lambdas[layer] = value.map(|v| v.clamp(V1_LAMBDA_RANGE.0, V1_LAMBDA_RANGE.1));
        while self.v1_lambdas.last() == Some(&None) {
            self.v1_lambdas.pop();
        }
    }

    /// The head on screen for `kind` in the compare view: the pick, else `best`.
    pub fn head_for(&self, kind: AttentionKind, best: usize) -> usize {
        self.picks[column_of(kind)].unwrap_or(best)
    }

    /// Keeps a compare-view pick inside its model's `heads`; a notice for each moved.
    pub fn clamp_pick(&mut self, kind: AttentionKind, heads: usize) -> Option<String> {
        let slot = &mut self.picks[column_of(kind)];
        let h = (*slot).filter(|h| *h >= heads)?;
        *slot = None;
        Some(crate::tr!("note-pick", head = h, kind = kind.slug()))
    }

    /// Keeps layer and head inside the loaded model and the picked row inside the
    /// prompt (`tokens` long); returns a notice for each value it moved.
    pub fn clamp_to_model(&mut self, layers: usize, heads: usize, tokens: usize) -> Vec<String> {
        let mut notes = vec![];
        let (l, h) = (self.layer.min(layers.saturating_sub(1)), self.head.min(heads.saturating_sub(1)));
        if (l, h) != (self.layer, self.head) {
            notes.push(crate::tr!("note-layer-head", layer = self.layer, head = self.head, shown_layer = l, shown_head = h));
        }
        (self.layer, self.head) = (l, h);
        if let Some(r) = self.row.filter(|r| *r >= tokens) {
            notes.push(crate::tr!("note-row-prompt", row = r, tokens = tokens));
            self.row = None;
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_accepts_what_it_says() {
        assert_eq!(super::super::table::check_accepts(&TABLE), Vec::<String>::new());
    }
    use crate::state::query;

    #[test]
    fn a_lambda_drag_alone_is_told_apart_from_other_changes() {
        let s = ModelState::default();
        let mut dragged = s.clone();
        dragged.set_v1_lambda(1, Some(2.0));
        assert!(dragged.only_lambdas_differ(&s) && s.only_lambdas_differ(&dragged));
        let pinned = ModelState { v2_lambda: V2Lambda::Pin(0.0), ..s.clone() };
        assert!(pinned.only_lambdas_differ(&s));
        assert!(!s.only_lambdas_differ(&s), "no change is not a drag");
        let reseeded = ModelState { seed: 9, ..dragged.clone() };
        assert!(!reseeded.only_lambdas_differ(&s), "a λ and a seed together are not a drag");
    }

    #[test]
    fn a_figure_file_says_the_model_head_and_prompt() {
        let s = ModelState { context: 256, seed: 7, ..ModelState::default() };
        assert_eq!(s.file_stem("diff_v1", "A1", 2, 3), "difflens-explorer-diff_v1-A1-layer2-head3-ctx256-seed7");
        let typed = ModelState { text: Some("a b".into()), bits: Some(4), ..s };
        assert_eq!(typed.file_stem("diff_v2", "A2", 0, 1), "difflens-explorer-diff_v2-A2-layer0-head1-typed-4bit");
    }

    #[test]
    fn round_trips_and_clamps() {
        let s = ModelState {
            view: View::Single,
            kind: AttentionKind::DiffV2,
            checkpoint: 2,
            needles: 6,
            queries: 2,
            context: 128,
            depth: None,
            seed: 5,
            layer: 1,
            head: 3,
            row: Some(40),
            bits: Some(4),
            picks: [None, Some(1), Some(0)],
            v1_lambdas: vec![None, Some(-0.5), Some(0.25)],
            v1_norm: false,
            v2_lambda: V2Lambda::Pin(0.0),
            text: Some("sun Bern is 15 . ? Bern →".into()),
            on: ComputeOn::Cpu,
        };
        assert_eq!(ModelState::from_params(&query::parse(&query::format(&s.to_params()))), (s, vec![]));
        let (odd, notices) = ModelState::from_params(&query::parse("view=grid&bits=5&head_diff_v1=99&head_baseline=auto&on=tpu"));
        assert_eq!((odd.view, odd.bits, odd.picks, odd.on), (View::Compare, None, [None, Some(63), None], ComputeOn::Auto));
        assert_eq!(notices.len(), 4, "{notices:?}");
        assert!(notices[3].contains("on=tpu is not auto, gpu or cpu"), "{notices:?}");
        assert!(!ModelState::default().to_params().iter().any(|(k, _)| k == "on"), "auto is the default and stays out of links");
        let (typed, notices) = ModelState::from_params(&query::parse("prompt=Paris%20is%2015&n=3"));
        assert!(typed.text.is_none() && notices[0].contains("“Paris”"), "{notices:?}");
        let mut knobbed = ModelState { text: Some("x".into()), ..ModelState::default() };
        NEEDLES.set(&mut knobbed, 2.0);
        assert_eq!(knobbed.text, None, "a prompt knob returns to generated prompts");
        let (lambdas, notices) = ModelState::from_params(&query::parse("v1_lambda=,9,x,&v2_scale=0.5"));
        assert_eq!((lambdas.v1_lambdas.clone(), lambdas.v2_lambda, notices.len()), (vec![None, Some(3.0)], V2Lambda::Scale(0.5), 2), "{notices:?}");
        assert_eq!(lambdas.lambda_override(AttentionKind::DiffV1), LambdaOverride::PerLayer(vec![None, Some(3.0)]));
        assert_eq!(lambdas.lambda_override(AttentionKind::Baseline), LambdaOverride::Learnt);
        let mut cleared = lambdas.clone();
        cleared.set_v1_lambda(1, None);
        assert_eq!((cleared.v1_lambdas.clone(), cleared.lambda_override(AttentionKind::DiffV1)), (vec![], LambdaOverride::Learnt));
        assert_eq!(ModelState::from_params(&query::parse("model=diff_v1&layer=1")).0.view, View::Single, "an older one-model link opens that model");
        let mut picked = odd.clone();
        assert!(picked.clamp_pick(AttentionKind::DiffV1, 2).is_some() && picked.picks[1].is_none() && picked.clamp_pick(AttentionKind::DiffV1, 2).is_none());
        let (bad, notices) = ModelState::from_params(&query::parse("model=gpt&ckpt=9&ctx=100&r=2&n=1&layer=x"));
        assert_eq!((bad.kind, bad.checkpoint, bad.context, bad.queries), (AttentionKind::DiffV2, 4, 128, 1));
        assert_eq!(notices.len(), 5, "one each, and the queries cut to the needles: {notices:?}");
        let mut s = ModelState { layer: 7, head: 9, row: Some(100), ..ModelState::default() };
        assert_eq!(s.clamp_to_model(3, 2, 69).len(), 2);
        assert_eq!((s.layer, s.head, s.row), (2, 1, None));
        assert!(s.clamp_to_model(3, 2, 69).is_empty(), "nothing left to move");
    }
}
