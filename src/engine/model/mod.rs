//! The model explorer's computations: reading a shipped model card and checkpoint, and
//! running a retrieval prompt through the model with every map kept.

mod file_error;
pub mod library;

pub use file_error::ModelFileError;

/// What the explorer reads of the core, through the engine.
pub use crate::core::attention::LambdaTrace;
use crate::core::attention::{LambdaOverride, MapRequest};
use crate::core::config::ModelConfig;
use crate::core::init::seeded;
pub use crate::core::model::ForwardOptions;
pub use crate::core::model::Model;
pub use crate::core::model::ModelOutput;
use crate::core::retrieval::{self, PromptSpec};
pub use crate::core::retrieval::{render, word, Prompt};
use crate::core::weights::{TensorStore, WeightsError};
use crate::engine::explorer::evidence::{Magnitudes, Net, NetWeights};
use crate::state::model_state::{AttentionKind, ModelState};
use crate::tr;
use crate::viz::labels::{AxisLabel, Emphasis};
use serde::Deserialize;
use std::ops::Range;

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct CheckpointInfo {
    pub file: String,
    pub step: usize,
    pub fraction: f64,
    /// Where in the run this is ("after the copy warm-up"); older cards have none.
    #[serde(default)]
    pub label: String,
}

impl CheckpointInfo {
    /// The training slider's reading: the label and the step, or the fraction of the run.
    pub fn describe(&self) -> String {
        let percent = format!("{}", (self.fraction * 100.0).round());
        if self.label.is_empty() {
            tr!("checkpoint-step", percent = percent, step = self.step as u64)
        } else {
            tr!("checkpoint-labelled", label = checkpoint_label(&self.label), step = self.step as u64, percent = percent)
        }
    }
}

/// A card's checkpoint label in the language on screen: the shipped cards' labels have
/// translations; another card's label is shown as written.
fn checkpoint_label(label: &str) -> String {
    let key = match label {
        "untrained" => "ckpt-untrained",
        "copy warm-up, half-way" => "ckpt-warm-up-half",
        "after the copy warm-up" => "ckpt-after-warm-up",
        "retrieval, 20%" => "ckpt-retrieval-20",
        "fully trained" => "ckpt-trained",
        "5% of training" => "ckpt-5-percent",
        "20% of training" => "ckpt-20-percent",
        "half-way" => "ckpt-half-way",
        other => return other.to_string(),
    };
    tr!(key)
}

/// The part of a model card (`www/models/<kind>/card.json`) the page uses.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct CardInfo {
    pub name: String,
    pub config: ModelConfig,
    pub parameters: u64,
    pub training_seconds: f64,
    pub checkpoints: Vec<CheckpointInfo>,
    #[serde(default)]
    pub eval: Option<serde_json::Value>,
}

impl CardInfo {
    /// The card in `file` (named in any error).
    pub fn parse(file: &str, json: &str) -> Result<Self, ModelFileError> {
        let card: Self = serde_json::from_str(json).map_err(|e| ModelFileError::Card { file: file.to_string(), detail: e.to_string() })?;
        if card.checkpoints.is_empty() {
            return Err(ModelFileError::CardEmpty { file: file.to_string() });
        }
        Ok(card)
    }
}

/// The largest model a page runs (a config beyond these is refused before anything is
/// allocated, with the field named).
pub const USER_MODEL_LIMITS: [(&str, usize); 5] = [("n_layers", 64), ("dim", 4096), ("n_heads", 256), ("ffn_hidden", 16384), ("vocab_size", 1_000_000)];

/// A model a reader loads from their disk: the config (JSON) and the weights
/// (safetensors), each error naming the file (and, from the loader, the tensor and the
/// shape it expected).
pub fn load_user_model(config_name: &str, config: &[u8], weights_name: &str, weights: &[u8]) -> Result<Model, ModelFileError> {
    let text = std::str::from_utf8(config).map_err(|_| ModelFileError::NotText { file: config_name.to_string() })?;
    let cfg = ModelConfig::from_json(text).map_err(|error| ModelFileError::Weights { file: config_name.to_string(), error })?;
    let values = [cfg.n_layers, cfg.dim, cfg.n_heads, cfg.ffn_hidden, cfg.vocab_size];
    if let Some((&(field, max), value)) = USER_MODEL_LIMITS.iter().zip(values).find(|((_, max), v)| v > max) {
        return Err(ModelFileError::TooBig { file: config_name.to_string(), field, value, max });
    }
    load_checkpoint(&cfg, weights).map_err(|error| ModelFileError::Weights { file: weights_name.to_string(), error })
}

/// A checkpoint file into a model; any malformed or mismatched file is the core's error.
pub fn load_checkpoint(config: &ModelConfig, bytes: &[u8]) -> Result<Model, WeightsError> {
    Model::load(config.clone(), &TensorStore::from_bytes(bytes)?)
}

/// What is wrong with a weights file or a config, in the language on screen: the core's
/// errors are English and structured, so each kind is said here (a safetensors parse
/// error's and a config's own detail stay as the core wrote them).
pub fn weights_message(e: &WeightsError) -> String {
    let shape = |s: &Vec<usize>| format!("{s:?}");
    match e {
        WeightsError::Format(detail) => tr!("weights-format", detail = detail),
        WeightsError::Missing { name, expected } => tr!("weights-missing", name = name, expected = shape(expected)),
        WeightsError::Shape { name, expected, found } => tr!("weights-shape", name = name, expected = shape(expected), found = shape(found)),
        WeightsError::Dtype { name, dtype } => tr!("weights-dtype", name = name, dtype = dtype),
        WeightsError::NonFinite { name } => tr!("weights-non-finite", name = name),
        WeightsError::Absent { name, held } => tr!("weights-absent", name = name, held = held),
        WeightsError::Config(detail) => tr!("weights-config", detail = detail),
    }
}

/// The prompt a state describes (seeded: the same link, the same prompt). Needles get
/// distinct values, so the value a model predicts names the needle it read.
pub fn prompt_for(state: &ModelState) -> Prompt {
    // A typed prompt was checked when it was set (by the editor or the link).
    match state.text.as_deref().map(retrieval::parse) {
        Some(Ok(p)) => p,
        _ => retrieval::generate(&mut seeded(state.seed), &prompt_spec(state)),
    }
}

/// A prompt typed by the reader, checked: its words, or why it cannot be used.
pub fn check_prompt(text: &str) -> Result<String, String> {
    retrieval::parse(text).map(|_| text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The prompt with the word at `position` replaced by `word`, checked like a typed one:
/// replacing a needle's key so that no needle answers a query is refused, saying why.
/// Position 0 (`<bos>`) starts every prompt and cannot be replaced.
pub fn replace_word(tokens: &[u32], position: usize, word: &str) -> Result<String, String> {
    let mut parts = word.split_whitespace();
    let (Some(new), None) = (parts.next(), parts.next()) else {
        return Err(tr!("one-word"));
    };
    if position == 0 || position >= tokens.len() {
        return Err(tr!("no-word-at", position = position));
    }
    let mut words: Vec<String> = tokens.iter().map(|&t| retrieval::word(t)).collect();
    words[position] = new.to_string();
    check_prompt(&words.join(" "))
}

/// The words the models know, grouped for the prompt editor.
pub use crate::core::retrieval::vocabulary;

pub(super) fn prompt_spec(state: &ModelState) -> PromptSpec {
    PromptSpec { context_len: state.context, n_needles: state.needles, n_queries: state.queries, target_depth: state.depth.map(|d| d as f32 / 100.0), distinct_values: true }
}

/// Where one row of a head's map (the map that multiplies V) puts its weight: the
/// numbers the row chart's caption states, so the caption is true for every head.
#[derive(Clone, Debug, PartialEq)]
pub struct RowSummary {
    /// The query position.
    pub position: usize,
    /// Net (signed) weight on the asked needle's span "KEY is VALUE .".
    pub on_needle: f64,
    /// Net weight on the rest of the context (the other needles and the filler).
    pub on_rest: f64,
    /// Sum of the whole row (1 for softmax, 1 − λ for a differential map).
    pub total: f64,
    pub min: f64,
    pub max: f64,
}

impl RowSummary {
    /// `row` is the query's weights over every key; `needle` and `context` are spans of
    /// the prompt (the README's Table 3 uses the same two sums).
    pub fn of(position: usize, row: &[f32], needle: &Range<usize>, context: &Range<usize>) -> Self {
        let Net { answer: on_needle, noise: on_rest } = Net::of_row(row, needle, context);
        let (min, max) = row.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &w| (lo.min(w as f64), hi.max(w as f64)));
        let total = row.iter().map(|&w| w as f64).sum();
        Self { position, on_needle, on_rest, total, min, max }
    }

    /// The caption under the row chart: what this row does, in numbers.
    pub fn caption(&self, differential: bool) -> String {
        let signed = |v: f64| format!("{v:+.2}").replace('-', "−");
        let text = tr!("row-net", needle = signed(self.on_needle), rest = signed(self.on_rest));
        match (differential, self.min < 0.0) {
            (false, _) => text,
            (true, false) => format!("{text}{}", tr!("row-total", total = signed(self.total))),
            (true, true) => format!("{text}{}", tr!("row-total-range", total = signed(self.total), min = signed(self.min), max = signed(self.max))),
        }
    }
}

/// The model's answer to one query.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub predicted: u32,
    pub probability: f32,
    pub answer: u32,
    pub answer_probability: f32,
}

impl Prediction {
    pub fn right(&self) -> bool {
        self.predicted == self.answer
    }
}

pub struct Explained {
    pub prompt: Prompt,
    pub output: ModelOutput,
    pub predictions: Vec<Prediction>,
    /// Every head's net weights at the first "→" (Table 3 for this prompt).
    pub net: NetWeights,
    /// Attention logits and hidden states (Table 5 for this prompt).
    pub magnitudes: Magnitudes,
    /// The λ override the pass ran with, so that captions say whose λ a map shows.
    pub lambda: LambdaOverride,
}

/// How the state runs a model: every map and attention logit kept (T is at most a few
/// hundred tokens), at the state's logit precision, with its λ and norm overrides.
pub fn forward_options(state: &ModelState, kind: AttentionKind) -> ForwardOptions {
    ForwardOptions { maps: MapRequest::All, keep_logits: true, logit_quant_bits: state.bits, lambda: state.lambda_override(kind), subln: state.subln_override(kind), skip_hidden_stats: false }
}

/// Runs the state's prompt through the single view's model.
pub fn explain(model: &Model, state: &ModelState) -> Result<Explained, String> {
    explain_prompt(model, prompt_for(state), &forward_options(state, model.config.attention))
}

pub use crate::engine::explorer::columns::{explain_each, ColumnRun};

/// DIFF V1's learnt λ of each layer (`None` for other kinds): where the override starts.
pub fn learnt_lambdas(model: &Model) -> Vec<Option<f32>> {
    model
        .blocks
        .iter()
        .map(|b| match &b.attn {
            crate::core::attention::AttentionLayer::V1(a) => Some(a.lambda_full()),
            _ => None,
        })
        .collect()
}

/// What a layer's λ is, in a sentence for the map it shaped: whether it is learnt or the
/// reader's (a caption must stay true under every override), and what a student sees when
/// it is negative (it adds the second map), zero (branch 1 alone) or absent.
pub fn lambda_sentence(x: &Explained, layer: usize) -> String {
    let heads = |v: &[f32]| v.iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(", ");
    match (x.output.layers.get(layer).map(|l| &l.lambda), &x.lambda) {
        (Some(LambdaTrace::Scalar(l)), LambdaOverride::PerLayer(v)) if v.get(layer).copied().flatten().is_some() => {
            let what = if *l == 0.0 {
                "zero"
            } else if *l < 0.0 {
                "negative"
            } else {
                "positive"
            };
            tr!("lambda-yours", layer = layer, lambda = signed_lambda(*l), what = what)
        }
        (Some(LambdaTrace::Scalar(l)), _) if *l < 0.0 => tr!("lambda-learnt-negative", layer = layer, lambda = signed_lambda(*l)),
        (Some(LambdaTrace::Scalar(l)), _) => tr!("lambda-learnt", layer = layer, lambda = format!("{l:.2}")),
        (Some(LambdaTrace::PerToken(_)), LambdaOverride::Constant(c)) => {
            tr!(if *c == 0.0 { "lambda-pinned-zero" } else { "lambda-pinned" }, layer = layer, lambda = signed_lambda(*c))
        }
        (Some(LambdaTrace::PerToken(m)), LambdaOverride::Scale(f)) if *f != 1.0 => {
            tr!("lambda-scaled", layer = layer, factor = format!("{f:.2}"), values = heads(&m.row(x.answer_row()).to_vec()))
        }
        (Some(LambdaTrace::PerToken(m)), _) => tr!("lambda-per-token", layer = layer, values = heads(&m.row(x.answer_row()).to_vec())),
        _ => tr!("lambda-none"),
    }
}

/// A λ with a true minus sign (the page's typography), two decimals.
pub fn signed_lambda(l: f32) -> String {
    format!("{l:.2}").replace('-', "−")
}

impl Explained {
    /// The first query's "→" (the row that predicts the answer).
    pub fn answer_row(&self) -> usize {
        self.prompt.answer_positions[0]
    }

    /// Each token's label on a map's axes, emphasised by its part in the task: the asked
    /// needle, the other needles, and the queries (`?`, the key, `→`).
    pub fn axis_labels(&self) -> Vec<AxisLabel> {
        let p = &self.prompt;
        let emphasis = |j: usize| {
            if j == p.answer_positions[0] {
                Emphasis::Answer
            } else if p.answer_spans[0].contains(&j) {
                Emphasis::Asked
            } else if p.needle_spans.iter().any(|s| s.contains(&j)) {
                Emphasis::Needle
            } else if j >= p.context.end {
                Emphasis::Query
            } else {
                Emphasis::Plain
            }
        };
        p.tokens.iter().enumerate().map(|(j, t)| AxisLabel { text: word(*t), emphasis: emphasis(j) }).collect()
    }

    /// What the ticks over a map mark: the asked needle, in its words.
    pub fn needle_words(&self) -> String {
        let words: Vec<String> = self.prompt.answer_spans[0].clone().map(|j| word(self.prompt.tokens[j])).collect();
        crate::tr!("map-asked-needle", words = words.join(" "))
    }
}

/// `explain` for a given prompt and options.
pub fn explain_prompt(model: &Model, prompt: Prompt, opts: &ForwardOptions) -> Result<Explained, String> {
    let output = model.forward(&prompt.tokens, opts).map_err(|e| weights_message(&e))?;
    Ok(explained_of(prompt, output, opts.lambda.clone()))
}

/// What the pages read of one forward pass of `prompt`, wherever it ran.
pub fn explained_of(prompt: Prompt, output: ModelOutput, lambda: LambdaOverride) -> Explained {
    let predictions = prompt
        .answer_positions
        .iter()
        .zip(&prompt.answers)
        .map(|(&pos, &answer)| {
            let row = output.logits.row(pos);
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let z: f32 = row.iter().map(|v| (v - max).exp()).sum();
            let (best, _) = row.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).expect("the vocabulary is not empty");
            Prediction { predicted: best as u32, probability: (row[best] - max).exp() / z, answer, answer_probability: (row[answer as usize] - max).exp() / z }
        })
        .collect();
    let (net, magnitudes) = (NetWeights::of(&output, &prompt), Magnitudes::of([&output]));
    Explained { prompt, output, predictions, net, magnitudes, lambda }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn axis_labels_mark_the_asked_needle_the_distractors_and_the_query() {
        let prompt = retrieval::parse("<bos> the Bern is 16 . sun Oslo is 12 . ? Bern →").unwrap();
        let config = crate::core::config::ModelConfig::from_json(r#"{"attention":"diff_v1","vocab_size":76,"dim":32,"n_layers":1,"n_heads":2,"ffn_hidden":16}"#).unwrap();
        let model = Model::random(config, 3).unwrap();
        let x = explain_prompt(&model, prompt, &ForwardOptions::default()).unwrap();
        let got: Vec<(String, Emphasis)> = x.axis_labels().into_iter().map(|l| (l.text, l.emphasis)).collect();
        use Emphasis::*;
        let want = [
            ("<bos>", Plain),
            ("the", Plain),
            ("Bern", Asked),
            ("is", Asked),
            ("16", Asked),
            (".", Asked),
            ("sun", Plain),
            ("Oslo", Needle),
            ("is", Needle),
            ("12", Needle),
            (".", Needle),
            ("?", Query),
            ("Bern", Query),
            ("→", Answer),
        ];
        assert_eq!(got, want.map(|(w, e)| (w.to_string(), e)));
    }

    #[test]
    fn a_clicked_word_is_replaced_or_the_reason_is_given() {
        let tokens = retrieval::parse("<bos> the Bern is 16 . sun ? Bern →").unwrap().tokens;
        assert_eq!(replace_word(&tokens, 4, "21"), Ok("<bos> the Bern is 21 . sun ? Bern →".into()), "a new value is the new answer");
        assert_eq!(replace_word(&tokens, 1, " rose "), Ok("<bos> rose Bern is 16 . sun ? Bern →".into()));
        let err = replace_word(&tokens, 2, "Oslo").unwrap_err();
        assert!(err.contains("asks for Bern but no needle"), "the query would have no needle: {err}");
        assert!(replace_word(&tokens, 4, "dragon").unwrap_err().contains("not in the models' vocabulary: “dragon”"));
        assert_eq!(replace_word(&tokens, 4, "4 2"), Err("choose one word from the list".into()));
        assert!(replace_word(&tokens, 0, "x").is_err() && replace_word(&tokens, 99, "x").is_err());
    }

    #[test]
    fn the_row_caption_states_what_the_row_does() {
        // "<bos> x Bern is 16 . y ? Bern →": the needle is 2..6, the context 1..7.
        let row = [0.0, 0.1, 0.2, 0.0, 1.0, 0.0, -0.6, 0.3, 0.0, 0.0];
        let s = RowSummary::of(9, &row, &(2..6), &(1..7));
        assert!((s.on_needle - 1.2).abs() < 1e-6 && (s.on_rest - (0.1 - 0.6)).abs() < 1e-6, "{s:?}");
        assert_eq!((s.min, s.max), (-0.6000000238418579, 1.0));
        let c = s.caption(true);
        assert!(c.contains("net weight of +1.20 on the asked needle") && c.contains("−0.50 on the rest"), "{c}");
        assert!(c.contains("add up to +1.00 (1 − λ, not 1) and run from −0.60 to +1.00"), "{c}");
        assert!(!s.caption(false).contains("negative") && !s.caption(false).contains("λ"), "softmax rows have no λ or negative weights to explain");
        let v1_layer0 = RowSummary::of(3, &[0.5, 1.5, 1.0, 0.6], &(1..2), &(0..3));
        assert!(v1_layer0.caption(true).ends_with("add up to +3.60 (1 − λ, not 1)."), "{}", v1_layer0.caption(true));
    }

    /// λ = 0 turns every differential map into its first softmax map; the override
    /// reaches only the model it names, and a rerun happens only where something changed.
    #[test]
    fn lambda_overrides_reach_the_maps_and_rerun_only_their_model() {
        use crate::core::config::ModelConfig;
        use crate::state::model_state::V2Lambda;
        let config = |kind: &str| ModelConfig::from_json(&format!(r#"{{"attention":"{kind}","vocab_size":76,"dim":32,"n_layers":2,"n_heads":2,"ffn_hidden":16}}"#)).unwrap();
        let (v1, v2) = (Model::random(config("diff_v1"), 1).unwrap(), Model::random(config("diff_v2"), 2).unwrap());
        let base = ModelState { context: 32, needles: 2, ..ModelState::default() };
        let learnt = explain_each(&[&v1, &v2], &base, &[]).unwrap();
        let mut zero = base.clone();
        zero.set_v1_lambda(0, Some(0.0));
        zero.set_v1_lambda(1, Some(0.0));
        zero.v2_lambda = V2Lambda::Pin(0.0);
        let zeroed = explain_each(&[&v1, &v2], &zero, &learnt).unwrap();
        for run in &zeroed {
            for layer in &run.explained.output.layers {
                for m in &layer.maps {
                    assert_eq!(m.diff.as_ref().unwrap(), &m.a1, "λ = 0: A1 − 0·A2 = A1");
                }
            }
        }
        assert_eq!(zeroed[0].explained.output.layers[1].lambda, LambdaTrace::Scalar(0.0));
        let mut only_v2 = zero.clone();
        only_v2.v2_lambda = V2Lambda::Scale(2.0);
        let again = explain_each(&[&v1, &v2], &only_v2, &zeroed).unwrap();
        assert!(Arc::ptr_eq(&again[0].explained, &zeroed[0].explained), "V1's run is reused");
        assert!(!Arc::ptr_eq(&again[1].explained, &zeroed[1].explained), "V2 ran again");
        let scaled = |r: &ColumnRun| match &r.explained.output.layers[0].lambda {
            LambdaTrace::PerToken(m) => m[[3, 1]],
            _ => f32::NAN,
        };
        assert!((scaled(&again[1]) - 2.0 * scaled(&learnt[1])).abs() < 1e-6);
        let say = |r: &ColumnRun, layer| lambda_sentence(&r.explained, layer);
        assert!(say(&learnt[0], 1).contains(", learnt"), "{}", say(&learnt[0], 1));
        assert!(say(&zeroed[0], 1).starts_with("λ of layer 1 = 0.00, set by you: so A1 − λ·A2 is A1 alone"), "{}", say(&zeroed[0], 1));
        assert!(say(&zeroed[1], 0).starts_with("λ of layer 0 pinned by you to 0.00"), "{}", say(&zeroed[1], 0));
        assert!(say(&again[1], 0).contains("× 2.00 (your scale)"), "{}", say(&again[1], 0));
        assert!(say(&learnt[1], 0).contains("V2 computes one per token"), "{}", say(&learnt[1], 0));
        let mut one = base.clone();
        one.set_v1_lambda(1, Some(-1.5));
        let partly = explain_each(&[&v1], &one, &[]).unwrap();
        let (mine, theirs) = (say(&partly[0], 1), say(&partly[0], 0));
        assert!(mine.starts_with("λ of layer 1 = −1.50, set by you: negative") && !mine.contains("spreads"), "{mine}");
        assert!(theirs.contains("learnt") && !theirs.contains("set by you"), "layer 0 keeps its learnt λ: {theirs}");
        let no_norm = explain_each(&[&v1], &ModelState { v1_norm: false, ..base.clone() }, &learnt).unwrap();
        assert_ne!(no_norm[0].explained.output.logits, learnt[0].explained.output.logits, "the per-head norm matters");
    }

    /// A reader's files: the shipped ones load; a mismatch names the file and the
    /// tensor; absurd sizes are refused without a panic.
    #[test]
    fn own_models_load_or_say_which_file_and_tensor_is_wrong() {
        let dir = format!("{}/www/models", env!("CARGO_MANIFEST_DIR"));
        let read = |p: &str| std::fs::read(format!("{dir}/{p}")).unwrap();
        let v1_config = read("diff_v1/config.json");
        let model = load_user_model("config.json", &v1_config, "final.safetensors", &read("diff_v1/step-03200.safetensors")).expect("the shipped files load");
        assert_eq!(model.config.n_layers, 3);
        let err = load_user_model("config.json", &v1_config, "base.safetensors", &read("baseline/step-03200.safetensors")).unwrap_err();
        assert!(matches!(&err, ModelFileError::Weights { file, error: WeightsError::Missing { .. } } if file == "base.safetensors"), "{err:?}");
        let err = err.to_string();
        assert!(err.starts_with("base.safetensors: ") && err.contains("layers.0.attn."), "{err}");
        let huge = String::from_utf8(v1_config.clone()).unwrap().replace("\"n_heads\": 2", "\"n_heads\": 9223372036854775808");
        let err = load_user_model("big.json", huge.as_bytes(), "w.safetensors", b"").unwrap_err().to_string();
        assert!(err.starts_with("big.json: ") && err.contains("n_heads"), "{err}");
        let layers = String::from_utf8(v1_config).unwrap().replace("\"n_layers\": 3", "\"n_layers\": 4000000000");
        let err = load_user_model("c.json", layers.as_bytes(), "w", b"").unwrap_err().to_string();
        assert!(err.starts_with("c.json: ") && err.contains("n_layers = 4000000000"), "{err}");
        let deep = String::from_utf8(read("diff_v1/config.json")).unwrap().replace("\"n_layers\": 3", "\"n_layers\": 100");
        assert!(load_user_model("c.json", deep.as_bytes(), "w", b"").unwrap_err().to_string().contains("n_layers = 100 is more than this page runs"));
        assert_eq!(load_user_model("c.json", &[0xff, 0xfe], "w", b"").unwrap_err(), ModelFileError::NotText { file: "c.json".into() });
        assert!(ModelFileError::NotText { file: "c.json".into() }.to_string().contains("not a text file"));
    }

    #[test]
    fn the_training_slider_reads_the_cards_labels() {
        let labelled = CheckpointInfo { file: "step-03000.safetensors".into(), step: 3000, fraction: 0.6, label: "after the copy warm-up".into() };
        assert_eq!(labelled.describe(), "after the copy warm-up: step 3000 (60%)");
        let card = CardInfo::parse(
            "card.json",
            r#"{"name": "old", "config": {"attention": "baseline", "vocab_size": 76, "dim": 64, "n_layers": 1, "n_heads": 4, "ffn_hidden": 172}, "parameters": 1, "training_seconds": 1.0,
            "checkpoints": [{"file": "a", "step": 125, "fraction": 0.05}]}"#,
        )
        .unwrap();
        assert_eq!(card.checkpoints[0].describe(), "5% (step 125)");
        assert_eq!(CardInfo::parse("x/card.json", r#"{"name": "x", "config": {"attention": "baseline", "vocab_size": 76, "dim": 64, "n_layers": 1, "n_heads": 4, "ffn_hidden": 172}, "parameters": 1, "training_seconds": 1.0, "checkpoints": []}"#).unwrap_err(), ModelFileError::CardEmpty { file: "x/card.json".into() });
    }
}
