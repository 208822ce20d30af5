//! The guided lesson (`#/learn`): its steps, each a few plain sentences, the lab state its
//! figure starts from and the knob a student drags there; the glossary its terms link to;
//! and the sources it cites. The numbers a step states are not in this prose: they are
//! computed from the figure's own problem (`lesson_facts`), so they stay true for every
//! position of the step's slider. The few figures the prose does state are the checked
//! ones of [`CHECKED_PHRASES`], each held by a test against the core.

pub mod facts;

use crate::i18n::Lang;
use crate::state::lab_state::{Knob, LabState, COMMON, LAMBDA, NOISE};
use crate::state::lesson_state::StepLink;
use crate::tr;

/// What a step shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// One query's weights over the keys (standard attention).
    Row,
    /// The noise mass of one query against the context length.
    Context,
    /// A1 and A2 side by side.
    Branches,
    /// A1 − λ·A2.
    Subtract,
    /// SNR against λ, with the λ_init schedule.
    Choose,
    /// SNR against λ when little noise is shared.
    Failure,
    /// Parameters and KV cache of the three attention kinds.
    Cost,
    /// The three trained models on one prompt.
    Models,
    /// The paper's numbers beside our models'.
    Paper,
    /// The three Shakespeare models on a line of a held-out play.
    Text,
}

/// Where a step's "open this" link goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opens {
    /// The lab, with the figure's exact state.
    Lab,
    Arch,
    /// The explorer's compare view.
    Explorer,
    /// The text page, on the step's line.
    Text,
}

#[derive(Clone, Copy)]
pub struct Step {
    /// Also names its title and paragraphs in the catalogue (`locales/*/lesson.ftl`:
    /// `step-<slug>-title`, `step-<slug>-p1`…).
    pub slug: &'static str,
    /// How many paragraphs it has.
    pub paragraphs: usize,
    pub figure: Figure,
    /// The lab problem the figure starts from (lab steps only).
    pub preset: Option<fn() -> LabState>,
    /// The one slider of the step (lab steps only).
    pub knob: Option<Knob<LabState>>,
    pub opens: Opens,
}

impl Step {
    pub fn title(&self) -> String {
        tr!(&format!("step-{}-title", self.slug))
    }

    /// Plain sentences, in the language on screen; `[[key]]` or `[[key|shown words]]`
    /// links a glossary term.
    pub fn paragraphs(&self) -> Vec<String> {
        (1..=self.paragraphs).map(|k| tr!(&format!("step-{}-p{k}", self.slug))).collect()
    }

    /// What the lesson's link needs of this step.
    pub fn link(&self) -> StepLink {
        StepLink { slug: self.slug, preset: self.preset, knob: self.knob }
    }
}

/// Every step's link facts, in order (what `LessonState` reads links against).
pub fn links() -> Vec<StepLink> {
    STEPS.iter().map(Step::link).collect()
}

/// The lesson's problem: a weak signal (3) among 256 keys, so the noise floor holds most
/// of each row, and 95% of the noise shared, so that λ = 0.8 (where V1's deep layers
/// start) is close to the best λ: subtracting visibly helps.
fn base() -> LabState {
    LabState { n: 256, lambda: 0.8, noise: 1.5, signal: 3.0, n_signal: 4, common: 0.95, seed: 1, row: None }
}

/// The maps' steps: 64 keys, every cell a visible square.
fn small() -> LabState {
    LabState { n: 64, ..base() }
}

/// The lesson, in order. The first step's figure is the one a visitor sees first.
pub const STEPS: [Step; 10] = [
    Step { slug: "softmax", paragraphs: 2, figure: Figure::Row, preset: Some(|| LabState { row: Some(0), ..base() }), knob: Some(NOISE), opens: Opens::Lab },
    Step { slug: "length", paragraphs: 2, figure: Figure::Context, preset: Some(base), knob: Some(NOISE), opens: Opens::Lab },
    Step { slug: "two-maps", paragraphs: 2, figure: Figure::Branches, preset: Some(small), knob: Some(COMMON), opens: Opens::Lab },
    Step { slug: "subtract", paragraphs: 2, figure: Figure::Subtract, preset: Some(small), knob: Some(LAMBDA), opens: Opens::Lab },
    Step { slug: "lambda", paragraphs: 2, figure: Figure::Choose, preset: Some(base), knob: Some(LAMBDA), opens: Opens::Lab },
    Step { slug: "failure", paragraphs: 2, figure: Figure::Failure, preset: Some(|| LabState { common: 0.3, ..base() }), knob: Some(COMMON), opens: Opens::Lab },
    Step { slug: "cost", paragraphs: 2, figure: Figure::Cost, preset: None, knob: None, opens: Opens::Arch },
    Step { slug: "models", paragraphs: 2, figure: Figure::Models, preset: None, knob: None, opens: Opens::Explorer },
    Step { slug: "paper", paragraphs: 2, figure: Figure::Paper, preset: None, knob: None, opens: Opens::Explorer },
    Step { slug: "real-text", paragraphs: 2, figure: Figure::Text, preset: None, knob: None, opens: Opens::Text },
];

/// The figures the prose states, each checked by a test against the core (below), so no
/// sentence of the lesson can go stale silently: in each language, the words that carry
/// the same figures.
pub fn checked_phrases(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => &[
            "negative or above 1",
            "weights adds up to 1",
            "positive and add up to 1",
            "(counted from 0): 0.8 − 0.6·e^(−0.3·depth)",
            "the constant 1 − λ_init",
            "A2 adds up to 1",
            "0.0001% per key over 128 000 keys is 12.8%",
            "0.001%, would give 128%",
            "adds up to 1 − λ",
            "At λ = 0 the difference is A1",
            "λ_init = 0.8 − 0.6·e^(−0.3·depth) (depth counted from 0)",
            "close to 0.8",
            "between 0 and 1",
        ],
        Lang::Zh => &[
            "可以是负数，也可以大于 1",
            "权重加起来等于 1",
            "全部为正、加起来等于 1",
            "（从 0 开始计）的层中 λ 的初始值：0.8 − 0.6·e^(−0.3·depth)",
            "常数 1 − λ_init",
            "A2 的每一行加起来都等于 1",
            "每个键 0.0001% 的权重，乘以 128 000 个键，就是整行的 12.8%",
            "0.001% 会得出 128%",
            "加起来等于 1 − λ",
            "λ = 0 时，差值就是 A1",
            "λ_init = 0.8 − 0.6·e^(−0.3·depth)（depth 为层的深度，从 0 开始计）",
            "接近 0.8",
            "在 0 到 1 之间",
        ],
    }
}

/// A term of the glossary; its name and definition are in the catalogue
/// (`locales/*/glossary.ftl`: `term-<key>-name`, `term-<key>-definition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub key: &'static str,
}

impl Term {
    pub fn name(&self) -> String {
        tr!(&format!("term-{}-name", self.key))
    }

    pub fn definition(&self) -> String {
        tr!(&format!("term-{}-definition", self.key))
    }
}

pub const GLOSSARY: [Term; 10] = [
    Term { key: "softmax" },
    Term { key: "logit" },
    Term { key: "snr" },
    Term { key: "lambda" },
    Term { key: "lambda_init" },
    Term { key: "needle" },
    Term { key: "gqa" },
    Term { key: "kv_cache" },
    Term { key: "swiglu" },
    Term { key: "rmsnorm" },
];

pub fn term(key: &str) -> Option<Term> {
    GLOSSARY.iter().find(|t| t.key == key).copied()
}

/// A piece of a paragraph: plain text, or a glossary term with the words shown for it.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    Term { key: &'static str, shown: String },
}

/// Splits `[[key]]` and `[[key|shown words]]` out of a paragraph. A term the glossary does
/// not have is kept as its words (the test below keeps that from happening).
pub fn pieces(paragraph: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = paragraph;
    while let Some(open) = rest.find("[[") {
        let Some(close) = rest[open..].find("]]").map(|c| open + c) else { break };
        if open > 0 {
            out.push(Piece::Text(rest[..open].to_string()));
        }
        let inner = &rest[open + 2..close];
        let (key, shown) = inner.split_once('|').unwrap_or((inner, inner));
        out.push(match term(key) {
            Some(t) => Piece::Term { key: t.key, shown: shown.to_string() },
            None => Piece::Text(shown.to_string()),
        });
        rest = &rest[close + 2..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest.to_string()));
    }
    out
}

/// The sources: the catalogue's key for each one's title, and where to read it.
pub const CITATIONS: [(&str, &str); 3] = [
    ("source-paper", "https://arxiv.org/abs/2410.05258"),
    ("source-v2", "https://github.com/microsoft/unilm/tree/master/Diff-Transformer/Diff-Transformer-V2"),
    ("source-code", "https://github.com/microsoft/unilm/tree/master/Diff-Transformer"),
];

/// The paper's numbers the last step quotes (3B-parameter models; `shared/reference`).
pub mod paper {
    /// Table 3: attention on the answer span and on the noise context, answer at depths
    /// 0, 25, 50, 75 and 100%.
    pub const TABLE3_ANSWER: [(&str, [f64; 5]); 2] = [("Transformer", [0.03, 0.03, 0.03, 0.07, 0.09]), ("DIFF", [0.27, 0.30, 0.31, 0.32, 0.40])];
    pub const TABLE3_NOISE: [(&str, [f64; 5]); 2] = [("Transformer", [0.51, 0.54, 0.52, 0.49, 0.49]), ("DIFF", [0.01, 0.02, 0.02, 0.02, 0.01])];
    /// Table 5: the largest attention logit (top-1) and the median.
    pub const TABLE5_LOGITS: [(&str, f64, f64); 2] = [("Transformer", 318.0, 5.4), ("DIFF", 38.8, 3.3)];
    /// Figure 8, in words (the paper gives a plot, not a table).
    pub fn figure8() -> String {
        crate::tr!("paper-figure8")
    }

    /// Mean of a row of Table 3 over the five depths.
    pub fn mean(row: &[f64; 5]) -> f64 {
        row.iter().sum::<f64>() / 5.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::lab::uniform_noise_total;
    use crate::core::lambda::lambda_init_for_depth;

    /// Everything the lesson says in `lang`: the steps and the glossary.
    fn prose(lang: Lang) -> Vec<String> {
        crate::i18n::with_lang(lang, || STEPS.iter().flat_map(|s| s.paragraphs()).chain(GLOSSARY.iter().map(|t| t.definition())).collect())
    }

    /// A paragraph as it reads: a term's shown words, not its markup.
    fn read(p: &str) -> String {
        pieces(p)
            .iter()
            .map(|x| match x {
                Piece::Text(t) => t.as_str(),
                Piece::Term { shown, .. } => shown.as_str(),
            })
            .collect()
    }

    #[test]
    fn every_term_is_in_the_glossary_and_every_number_is_checked() {
        for lang in Lang::ALL {
            terms_and_numbers_are_checked(lang);
        }
        // The phrases' figures, against the core.
        assert!((uniform_noise_total(0.0001 / 100.0, 128_000) - 0.128).abs() < 1e-12);
        assert!((uniform_noise_total(0.001 / 100.0, 128_000) - 1.28).abs() < 1e-12);
        for depth in 0..12 {
            let want = 0.8 - 0.6 * (-0.3 * depth as f64).exp();
            assert!((lambda_init_for_depth(depth) as f64 - want).abs() < 1e-6);
        }
        let mut row = ndarray::array![[3.0f32, -1.0, 0.5, 9.0]];
        crate::core::softmax::softmax_rows(row.view_mut());
        assert!((row.sum() - 1.0).abs() < 1e-6, "a row of softmax weights adds up to 1");
        assert!((lambda_init_for_depth(0) - 0.2).abs() < 1e-6, "depth is counted from 0");
        assert!((lambda_init_for_depth(30) - 0.8).abs() < 1e-3, "deep layers start close to 0.8");
        let v2 = crate::core::lambda::sigmoid(-30.0)..=crate::core::lambda::sigmoid(30.0);
        assert!(*v2.start() >= 0.0 && *v2.end() <= 1.0, "V2's λ is a sigmoid: between 0 and 1");
    }

    /// In `lang`: every term is in the glossary, and every number is in a checked phrase.
    fn terms_and_numbers_are_checked(lang: Lang) {
        for p in prose(lang) {
            let open = p.matches("[[").count();
            let terms = pieces(&p).iter().filter(|x| matches!(x, Piece::Term { .. })).count();
            assert_eq!(open, terms, "a term of {p:?} is missing from the glossary");
            // Digits only inside the checked phrases: anything else would be a number
            // no test holds (the live facts are computed, not written here).
            let mut bare = read(&p);
            for phrase in checked_phrases(lang) {
                bare = bare.replace(phrase, "");
            }
            let unchecked: Vec<&str> = bare
                .split(|c: char| !c.is_ascii_alphanumeric() && !matches!(c, '.' | '%' | '_'))
                .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
                .filter(|w| !matches!(w.trim_end_matches('.'), "V1" | "V2" | "A1" | "A2" | "W_1" | "W_2"))
                .collect();
            assert!(unchecked.is_empty(), "{lang:?}: unchecked numbers {unchecked:?} in {p:?}");
        }
        for phrase in checked_phrases(lang) {
            assert!(prose(lang).iter().any(|p| read(p).contains(phrase)), "{lang:?}: {phrase:?} is no longer in the lesson");
        }
    }

    #[test]
    fn the_glossary_and_the_steps_read_in_both_languages() {
        for lang in Lang::ALL {
            crate::i18n::with_lang(lang, || {
                for s in &STEPS {
                    assert!(!s.title().starts_with("step-") && s.paragraphs().iter().all(|p| !p.starts_with("step-")), "{lang:?}: {} is in the catalogue", s.slug);
                }
                for t in &GLOSSARY {
                    assert!(!t.name().starts_with("term-") && !t.definition().starts_with("term-"), "{lang:?}: {}", t.key);
                }
            });
        }
        assert_eq!(crate::i18n::with_lang(Lang::Zh, || STEPS[3].title()), "相减：A1 − λ·A2");
    }

    #[test]
    fn the_glossary_says_what_the_core_does() {
        use crate::core::attention::AttentionOptions;
        use crate::core::config::{AttentionKind, AttnShape};
        use crate::core::diff_v1::DiffAttnV1;
        // "V1 also multiplies each head's output by the constant 1 − λ_init": at λ_init = 1
        // nothing comes out, whatever the learnt λ.
        let shape = AttnShape::new(AttentionKind::DiffV1, 16, 2, None, None).unwrap();
        let x = ndarray::Array2::from_shape_fn((5, 16), |(i, j)| ((i * 7 + j * 3) % 11) as f32 / 11.0 - 0.5);
        let out = |init: f32| DiffAttnV1::random(&mut crate::core::init::seeded(3), shape, init).forward(&x.view(), &AttentionOptions::default(), 0).out;
        assert!(out(1.0).iter().all(|v| *v == 0.0));
        assert!(out(0.2).iter().any(|v| v.abs() > 1e-3));
        // "does not clamp it (it can be negative or above 1)".
        use crate::core::lambda::LambdaParams;
        let v = |a: f32| ndarray::Array1::from_elem(4, a);
        let lambda = |a: f32, b: f32| LambdaParams { q1: v(a), k1: v(a), q2: v(b), k2: v(b) }.lambda_full(0.2);
        assert!(lambda(0.1, 0.6) < 0.0 && lambda(0.6, 0.1) > 1.0);
    }

    #[test]
    fn terms_split_out_of_the_prose() {
        let text = |t: &str| Piece::Text(t.to_string());
        assert_eq!(
            pieces("a [[softmax]] b [[logit|scores]]."),
            vec![text("a "), Piece::Term { key: "softmax", shown: "softmax".into() }, text(" b "), Piece::Term { key: "logit", shown: "scores".into() }, text(".")]
        );
        assert_eq!(pieces("[[nope|words]] and [[open"), vec![text("words"), text(" and [[open")]);
        let keys: Vec<&str> = GLOSSARY.iter().map(|t| t.key).collect();
        for k in ["softmax", "logit", "snr", "lambda", "lambda_init", "needle", "gqa", "kv_cache", "swiglu", "rmsnorm"] {
            assert!(keys.contains(&k), "the issue's glossary has {k}");
        }
    }

    #[test]
    fn steps_are_complete_and_their_states_are_valid_lab_links() {
        let mut slugs: Vec<&str> = STEPS.iter().map(|s| s.slug).collect();
        slugs.sort();
        slugs.dedup();
        assert_eq!(slugs.len(), STEPS.len(), "slugs are unique");
        for s in &STEPS {
            assert!((1..=3).contains(&s.paragraphs), "{}", s.slug);
            assert_eq!(s.preset.is_some(), s.opens == Opens::Lab, "{}: lab steps carry a lab state", s.slug);
            assert_eq!(s.preset.is_some(), s.knob.is_some(), "{}", s.slug);
            if let Some(preset) = s.preset {
                let state = preset();
                let (back, notices) = LabState::from_params(&state.to_params());
                assert_eq!((back, notices.len()), (state, 0), "{}: its lab link opens the same state", s.slug);
            }
        }
        assert!((paper::mean(&paper::TABLE3_ANSWER[1].1) - 0.32).abs() < 1e-9);
    }

    #[test]
    fn every_steps_link_round_trips_with_its_slider_moved() {
        use crate::state::lesson_state::LessonState;
        use crate::state::query;
        let links = links();
        for (k, s) in STEPS.iter().enumerate() {
            let mut state = LessonState::at(&links, k);
            if let (Some(knob), Some(lab)) = (s.knob, state.lab.as_mut()) {
                let (lo, hi) = knob.slider_range();
                knob.slide(lab, lo + 0.37 * (hi - lo));
            }
            let link = query::format(&state.to_params(&links));
            let (back, notes) = LessonState::from_params(&links, &query::parse(&link));
            assert_eq!((back, notes.len()), (state, 0), "step {} ({link})", k + 1);
        }
    }
}
