//! The text page's state in the URL (`#/text?text=…&layer=1`): what the student typed,
//! the map shown, V1's λ, and how "Write on" samples. One table (`state::table`) drives
//! link parsing, clamping notices, the sliders' bounds and the link written back.

use super::model_state::{slugs, ComputeOn, V2Lambda, V2_PIN_RANGE, V2_SCALE_RANGE};
use super::table::{accepts, read_link, write_link, Accepts, Choice, Field, InLink, Knob, Text};
use crate::tr;

/// The line the page opens with, from a held-out play (Macbeth, V.5): none of it was
/// read in training.
pub const DEFAULT_TEXT: &str = "MACBETH:\nTo-morrow, and to-morrow, and to-morrow,\nCreeps in this petty pace from day to day,\nTo the last syllable of recorded time;\nAnd all our yesterdays have lighted fools\nThe way to dusty death. Out, out, brief ";

/// The most characters of a text the link keeps (its last ones); the models read fewer.
pub const LINK_TEXT_MAX: usize = 2000;

#[derive(Clone, Debug, PartialEq)]
pub struct TextState {
    pub text: String,
    /// Index into the models' checkpoints (the scrubber).
    pub checkpoint: usize,
    pub layer: usize,
    pub head: usize,
    /// DIFF V1's λ in the shown layer (`None`: the learnt one).
    pub v1_lambda: Option<f32>,
    /// DIFF V2's per-token λ: learnt, scaled in every layer, or pinned to one value.
    pub v2_lambda: V2Lambda,
    /// Sampling temperature; 0 writes greedily (the likeliest character).
    pub temperature: f32,
    pub top_k: usize,
    pub seed: u64,
    /// Where the columns' passes run (`on=`), decided as in the explorer.
    pub on: ComputeOn,
}

impl Default for TextState {
    fn default() -> Self {
        Self { text: DEFAULT_TEXT.to_string(), checkpoint: 4, layer: 3, head: 0, v1_lambda: None, v2_lambda: V2Lambda::Learnt, temperature: 0.8, top_k: 10, seed: 1, on: ComputeOn::Auto }
    }
}

/// A row of the text page's table (named so that its closures know their state).
pub type TextKnob = Knob<TextState>;

/// The page's numbers. This table is the only place their bounds live: link parsing,
/// clamping notices, the sliders' bounds and the link written back all read it. A knob
/// is in the link away from its default; V1's λ once set; V2's scale or pin while it is
/// the mode.
pub const CHECKPOINT: TextKnob = TextKnob::new("ckpt", "text-knob-ckpt", (0.0, 4.0), 1.0, |s| s.checkpoint as f64, |s, v| s.checkpoint = v as usize).integer().in_link(InLink::AwayFromDefault);
pub const LAYER: TextKnob = TextKnob::new("layer", "text-knob-layer", (0.0, 63.0), 1.0, |s| s.layer as f64, |s, v| s.layer = v as usize).integer().in_link(InLink::AwayFromDefault);
pub const HEAD: TextKnob = TextKnob::new("head", "text-knob-head", (0.0, 63.0), 1.0, |s| s.head as f64, |s, v| s.head = v as usize).integer().in_link(InLink::AwayFromDefault);
pub const V1_LAMBDA: TextKnob =
    TextKnob::new("lambda", "text-knob-lambda", (-1.0, 2.0), 0.01, |s| s.v1_lambda.unwrap_or(0.0) as f64, |s, v| s.v1_lambda = Some(v as f32)).in_link(InLink::When(|s| s.v1_lambda.is_some()));
pub const V2_SCALE: TextKnob = TextKnob::new(
    "v2_scale",
    "text-knob-v2-scale",
    (V2_SCALE_RANGE.0 as f64, V2_SCALE_RANGE.1 as f64),
    0.05,
    |s| s.v2_lambda.scale().unwrap_or(1.0) as f64,
    |s, v| s.v2_lambda = V2Lambda::Scale(v as f32),
)
.in_link(InLink::When(|s| matches!(s.v2_lambda, V2Lambda::Scale(_))));
pub const V2_PIN: TextKnob =
    TextKnob::new("v2_pin", "text-knob-v2-pin", (V2_PIN_RANGE.0 as f64, V2_PIN_RANGE.1 as f64), 0.01, |s| s.v2_lambda.pin().unwrap_or(0.5) as f64, |s, v| s.v2_lambda = V2Lambda::Pin(v as f32))
        .in_link(InLink::When(|s| matches!(s.v2_lambda, V2Lambda::Pin(_))));
pub const TEMPERATURE: TextKnob = TextKnob::new("temp", "text-knob-temp", (0.0, 2.0), 0.05, |s| s.temperature as f64, |s, v| s.temperature = v as f32).in_link(InLink::AwayFromDefault);
pub const TOP_K: TextKnob = TextKnob::new("topk", "text-knob-topk", (1.0, 100.0), 1.0, |s| s.top_k as f64, |s, v| s.top_k = v as usize).integer().in_link(InLink::AwayFromDefault);
pub const SEED: TextKnob = TextKnob::new("seed", "text-knob-seed", (0.0, 1e9), 1.0, |s| s.seed as f64, |s, v| s.seed = v as u64).integer().in_link(InLink::AwayFromDefault);

/// The text the link keeps: its last [`LINK_TEXT_MAX`] characters, with a notice if
/// that cut it.
fn read_text(s: &mut TextState, raw: &str, notices: &mut Vec<String>) {
    let kept = last_chars(raw, LINK_TEXT_MAX);
    if kept.len() < raw.len() {
        notices.push(tr!("note-text-link-long", max = LINK_TEXT_MAX));
    }
    s.text = kept.to_string();
}

/// The page's link: the text, the numbers, and where the passes run unless automatic.
const TABLE: [Field<TextState>; 11] = [
    Field::Text(
        Text::<TextState>::new("text", read_text, |s| Some(last_chars(&s.text, LINK_TEXT_MAX).to_string())).examples(&["To be, or not", "Hail, 中文 😀", "", "O Romeo, Romeo!\nwherefore"], &[]),
    ),
    Field::Number(CHECKPOINT),
    Field::Number(LAYER),
    Field::Number(HEAD),
    Field::Number(V1_LAMBDA),
    Field::Number(V2_SCALE),
    Field::Number(V2_PIN),
    Field::Number(TEMPERATURE),
    Field::Number(TOP_K),
    Field::Number(SEED),
    Field::Choice(
        Choice::<TextState>::new(
            "on",
            || slugs(ComputeOn::ALL.map(ComputeOn::slug)),
            |s| s.on.slug().into(),
            |s, raw| ComputeOn::from_slug(raw).map(|on| s.on = on).is_some(),
            |_, raw| tr!("note-on", raw = raw),
        )
        .in_link(InLink::AwayFromDefault),
    ),
];

/// The last `max` characters of `text`.
pub fn last_chars(text: &str, max: usize) -> &str {
    let n = text.chars().count();
    match text.char_indices().nth(n.saturating_sub(max)) {
        Some((i, _)) if n > max => &text[i..],
        _ => text,
    }
}

impl TextState {
    /// Reads a link: the defaults with the link's values applied, and a notice for each
    /// value that was clamped, unreadable or unknown.
    /// What each key of the link accepts (the browser tests' random links).
    pub fn link_rows() -> Vec<Accepts> {
        accepts(&TABLE)
    }

    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        read_link(&TABLE, params)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        write_link(&TABLE, self)
    }

    /// Greedy writing: the likeliest character every time.
    pub fn greedy(&self) -> bool {
        self.temperature == 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_accepts_what_it_says() {
        assert_eq!(super::super::table::check_accepts(&TABLE), Vec::<String>::new());
    }

    fn pairs(q: &str) -> Vec<(String, String)> {
        super::super::query::parse(q)
    }

    #[test]
    fn a_link_round_trips_and_bad_values_are_clamped_with_notices() {
        let s = TextState { text: "Out, out, brief candle!\n中 😀".into(), layer: 1, head: 2, v1_lambda: Some(-0.25), temperature: 0.0, on: ComputeOn::Cpu, ..TextState::default() };
        for v2 in [V2Lambda::Learnt, V2Lambda::Scale(1.5), V2Lambda::Pin(0.0)] {
            let s = TextState { v2_lambda: v2, ..s.clone() };
            let (back, notes) = TextState::from_params(&pairs(&super::super::query::format(&s.to_params())));
            assert_eq!((back, notes), (s, vec![]));
        }
        let (t, notes) = TextState::from_params(&pairs("layer=99&temp=abc&lambda=5&zzz=1&on=tpu&v2_pin=9"));
        assert_eq!((t.layer, t.temperature, t.v1_lambda, t.on, t.v2_lambda), (63, 0.8, Some(2.0), ComputeOn::Auto, V2Lambda::Pin(V2_PIN_RANGE.1)));
        assert_eq!(notes.len(), 6, "{notes:?}");
        assert!(TextState::default().to_params().len() == 1, "only the text at the defaults");
    }

    #[test]
    fn a_long_text_in_a_link_keeps_its_end() {
        let long = "a".repeat(LINK_TEXT_MAX) + "bé";
        let (t, notes) = TextState::from_params(&[("text".into(), long)]);
        assert_eq!(t.text.chars().count(), LINK_TEXT_MAX);
        assert!(t.text.ends_with("bé") && notes.len() == 1);
        assert_eq!(last_chars("héllo", 3), "llo");
        assert_eq!(last_chars("hé", 3), "hé");
    }
}
