//! The text page's state in the URL (`#/text?text=…&layer=1`): what the student typed,
//! the map shown, V1's λ, and how "Write on" samples. One table of numeric knobs drives
//! link parsing, clamping notices, the sliders' bounds and the link written back.

use super::model_state::{ComputeOn, V2Lambda, V2_PIN_RANGE, V2_SCALE_RANGE};
use super::query::read_clamped;
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

/// One number of the state: its key in the link (also the control's id), bounds, step
/// and where it lives. Everything numeric goes through this table.
#[derive(Clone, Copy)]
pub struct TextKnob {
    pub key: &'static str,
    pub label_key: &'static str,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub get: fn(&TextState) -> f64,
    pub put: fn(&mut TextState, f64),
}

impl TextKnob {
    pub fn label(&self) -> String {
        tr!(self.label_key)
    }

    /// Sets the knob inside its bounds.
    pub fn set(&self, s: &mut TextState, v: f64) {
        (self.put)(s, v.clamp(self.min, self.max));
    }
}

pub const CHECKPOINT: TextKnob = TextKnob { key: "ckpt", label_key: "text-knob-ckpt", min: 0.0, max: 4.0, step: 1.0, get: |s| s.checkpoint as f64, put: |s, v| s.checkpoint = v as usize };
pub const LAYER: TextKnob = TextKnob { key: "layer", label_key: "text-knob-layer", min: 0.0, max: 63.0, step: 1.0, get: |s| s.layer as f64, put: |s, v| s.layer = v as usize };
pub const HEAD: TextKnob = TextKnob { key: "head", label_key: "text-knob-head", min: 0.0, max: 63.0, step: 1.0, get: |s| s.head as f64, put: |s, v| s.head = v as usize };
pub const V1_LAMBDA: TextKnob =
    TextKnob { key: "lambda", label_key: "text-knob-lambda", min: -1.0, max: 2.0, step: 0.01, get: |s| s.v1_lambda.unwrap_or(0.0) as f64, put: |s, v| s.v1_lambda = Some(v as f32) };
pub const V2_SCALE: TextKnob = TextKnob {
    key: "v2_scale",
    label_key: "text-knob-v2-scale",
    min: V2_SCALE_RANGE.0 as f64,
    max: V2_SCALE_RANGE.1 as f64,
    step: 0.05,
    get: |s| match s.v2_lambda {
        V2Lambda::Scale(f) => f as f64,
        _ => 1.0,
    },
    put: |s, v| s.v2_lambda = V2Lambda::Scale(v as f32),
};
pub const V2_PIN: TextKnob = TextKnob {
    key: "v2_pin",
    label_key: "text-knob-v2-pin",
    min: V2_PIN_RANGE.0 as f64,
    max: V2_PIN_RANGE.1 as f64,
    step: 0.01,
    get: |s| match s.v2_lambda {
        V2Lambda::Pin(v) => v as f64,
        _ => 0.5,
    },
    put: |s, v| s.v2_lambda = V2Lambda::Pin(v as f32),
};
pub const TEMPERATURE: TextKnob = TextKnob { key: "temp", label_key: "text-knob-temp", min: 0.0, max: 2.0, step: 0.05, get: |s| s.temperature as f64, put: |s, v| s.temperature = v as f32 };
pub const TOP_K: TextKnob = TextKnob { key: "topk", label_key: "text-knob-topk", min: 1.0, max: 100.0, step: 1.0, get: |s| s.top_k as f64, put: |s, v| s.top_k = v as usize };
pub const SEED: TextKnob = TextKnob { key: "seed", label_key: "text-knob-seed", min: 0.0, max: 1e9, step: 1.0, get: |s| s.seed as f64, put: |s, v| s.seed = v as u64 };
pub const KNOBS: [TextKnob; 9] = [CHECKPOINT, LAYER, HEAD, V1_LAMBDA, V2_SCALE, V2_PIN, TEMPERATURE, TOP_K, SEED];

/// Whether a knob is in the link: V1's λ once set, V2's scale or pin while it is the
/// mode, any other knob away from its default.
fn in_link(knob: &TextKnob, s: &TextState) -> bool {
    match knob.key {
        "lambda" => s.v1_lambda.is_some(),
        "v2_scale" => matches!(s.v2_lambda, V2Lambda::Scale(_)),
        "v2_pin" => matches!(s.v2_lambda, V2Lambda::Pin(_)),
        _ => (knob.get)(s) != (knob.get)(&TextState::default()),
    }
}

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
    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        let mut s = Self::default();
        let mut notices = vec![];
        for (key, raw) in params {
            if key == "text" {
                let kept = last_chars(raw, LINK_TEXT_MAX);
                if kept.len() < raw.len() {
                    notices.push(tr!("note-text-link-long", max = LINK_TEXT_MAX));
                }
                s.text = kept.to_string();
                continue;
            }
            if key == "on" {
                match ComputeOn::ALL.into_iter().find(|c| c.slug() == raw) {
                    Some(on) => s.on = on,
                    None => notices.push(tr!("note-on", raw = raw.as_str())),
                }
                continue;
            }
            let Some(knob) = KNOBS.iter().find(|k| k.key == key) else {
                notices.push(tr!("note-unknown", key = key.as_str()));
                continue;
            };
            let mut v = (knob.get)(&s);
            read_clamped(key, raw, (knob.min, knob.max), &mut v, &mut notices);
            knob.set(&mut s, v);
        }
        (s, notices)
    }

    /// The link: the text, every knob [`in_link`], and where the passes run unless automatic.
    pub fn to_params(&self) -> Vec<(String, String)> {
        let mut out = vec![("text".to_string(), last_chars(&self.text, LINK_TEXT_MAX).to_string())];
        for knob in KNOBS.iter().filter(|k| in_link(k, self)) {
            out.push((knob.key.to_string(), format_number((knob.get)(self))));
        }
        if self.on != ComputeOn::Auto {
            out.push(("on".to_string(), self.on.slug().to_string()));
        }
        out
    }

    /// Greedy writing: the likeliest character every time.
    pub fn greedy(&self) -> bool {
        self.temperature == 0.0
    }
}

/// A number as short as it reads: `3`, `0.8`, `-0.25`.
fn format_number(v: f64) -> String {
    let s = format!("{:.4}", v);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

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
