//! The guided lesson (`#/learn`): its steps, each a few plain sentences, the lab state its
//! figure starts from and the knob a student drags there; the glossary its terms link to;
//! and the sources it cites. The numbers a step states are not in this prose: they are
//! computed from the figure's own problem (`lesson_facts`), so they stay true for every
//! position of the step's slider. The few figures the prose does state are the checked
//! ones of [`CHECKED_PHRASES`], each held by a test against the core.

use crate::state::lab_state::{Knob, LabState, COMMON, LAMBDA, NOISE};
use crate::state::lesson_state::StepLink;

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
}

/// Where a step's "open this" link goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opens {
    /// The lab, with the figure's exact state.
    Lab,
    Arch,
    /// The explorer's compare view.
    Explorer,
}

#[derive(Clone, Copy)]
pub struct Step {
    pub slug: &'static str,
    pub title: &'static str,
    /// Plain sentences; `[[key]]` or `[[key|shown words]]` links a glossary term.
    pub paragraphs: &'static [&'static str],
    pub figure: Figure,
    /// The lab problem the figure starts from (lab steps only).
    pub preset: Option<fn() -> LabState>,
    /// The one slider of the step (lab steps only).
    pub knob: Option<Knob>,
    pub opens: Opens,
}

impl Step {
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
pub const STEPS: [Step; 9] = [
    Step {
        slug: "softmax",
        title: "Softmax never gives exactly zero",
        paragraphs: &[
            "Attention decides how much each earlier token (a key) matters to the token being computed (the query). It scores every key, and [[softmax]] turns the scores ([[logit|logits]]) into weights: exponentiate each one, divide by the total, so a row of weights adds up to 1.",
            "An exponential is never zero. Every key, however irrelevant, keeps a little weight. The chart shows one query: a few keys truly match it (red dots), all the others get random scores. Drag the noise σ and watch the floor under the red dots rise.",
        ],
        figure: Figure::Row,
        preset: Some(|| LabState { row: Some(0), ..base() }),
        knob: Some(NOISE),
        opens: Opens::Lab,
    },
    Step {
        slug: "length",
        title: "The noise floor adds up with length",
        paragraphs: &[
            "Each noise key gets almost nothing, but a long context holds very many of them. A weight of 0.0001% per key over 128 000 keys is 12.8% of the row. (A figure often quoted, 0.001%, would give 128%: impossible, since a row of softmax weights adds up to 1.)",
            "The chart keeps the same kind of query (the same signal, the same noise) and grows the context, doubling each time. The signal keys do not multiply; the noise keys do, and they take more and more of the weight.",
        ],
        figure: Figure::Context,
        preset: Some(base),
        knob: Some(NOISE),
        opens: Opens::Lab,
    },
    Step {
        slug: "two-maps",
        title: "A second map that sees the same noise",
        paragraphs: &[
            "Differential attention computes two attention maps, A1 and A2, from the same tokens, each an ordinary softmax map with its own queries (DIFF V1 also gives each its own keys; in DIFF V2 the two share their keys and values).",
            "In this lab A2 sees no signal, only noise, and part of its noise is the same as A1's: the “shared” slider sets how much. A trained model learns this split; here you set it. With most of the noise shared, the speckle of A1 and A2 looks alike; slide it down and they part ways.",
        ],
        figure: Figure::Branches,
        preset: Some(small),
        knob: Some(COMMON),
        opens: Opens::Lab,
    },
    Step {
        slug: "subtract",
        title: "Subtract: A1 − λ·A2",
        paragraphs: &[
            "Now take A1 and subtract a multiple [[lambda|λ]] of A2. Where both maps carry the same noise it cancels and the map turns white; the signal columns, which only A1 has, stay red.",
            "Each row of A1 and of A2 adds up to 1, so each row of the difference adds up to 1 − λ. Weights can now be negative (blue): a negative weight subtracts that token's value instead of adding it. At λ = 0 the difference is A1 itself.",
        ],
        figure: Figure::Subtract,
        preset: Some(small),
        knob: Some(LAMBDA),
        opens: Opens::Lab,
    },
    Step {
        slug: "lambda",
        title: "Choosing λ",
        paragraphs: &[
            "How much should be subtracted? The chart sweeps λ and plots the [[snr|signal-to-noise ratio]] of A1 − λ·A2. A little λ cancels shared noise; too much subtracts more noise than A1 had, and the noise comes back with the opposite sign (the blue of the previous step's map).",
            "A trained model learns its λ. DIFF V1 learns one per layer, starting from [[lambda_init|λ_init]] = 0.8 − 0.6·e^(−0.3·depth) (depth counted from 0): small in the first layers, close to 0.8 deep in the model. DIFF V2 computes a λ for every token and head, between 0 and 1.",
        ],
        figure: Figure::Choose,
        preset: Some(base),
        knob: Some(LAMBDA),
        opens: Opens::Lab,
    },
    Step {
        slug: "failure",
        title: "When it fails: noise that is not shared",
        paragraphs: &[
            "Subtraction cancels only what the two maps have in common. Drag “shared” down: A2's noise becomes independent of A1's, and subtracting it adds new noise instead of removing the old. Even the best λ then helps little.",
            "That is why both maps are computed from the same input in the same layer and trained together: the model learns to put the same noise into both.",
        ],
        figure: Figure::Failure,
        preset: Some(|| LabState { common: 0.3, ..base() }),
        knob: Some(COMMON),
        opens: Opens::Lab,
    },
    Step {
        slug: "cost",
        title: "What the second map costs",
        paragraphs: &[
            "DIFF V1 keeps the baseline's parameter count by halving the number of heads: each differential head has two query–key pairs and a value twice as wide. Its [[kv_cache|KV cache]] stores as much as the baseline's, but its kernels read the value cache once per map.",
            "DIFF V2 doubles the query heads instead (more parameters in the query projection), keeps the key and value heads, and reads the cache once: decoding costs what the baseline's does, also with grouped keys and values ([[gqa|GQA]]). Both keep the rest of the block: [[rmsnorm|RMSNorm]] and a [[swiglu|SwiGLU]] feed-forward layer.",
        ],
        figure: Figure::Cost,
        preset: None,
        knob: None,
        opens: Opens::Arch,
    },
    Step {
        slug: "models",
        title: "Trained models: which one finds the needle?",
        paragraphs: &[
            "We trained three tiny models on the same task: a context of filler words hides a few [[needle|needles]] (“KEY is VALUE .”), and a question at the end (“? KEY →”) asks for one key's value. One is a baseline Transformer, one DIFF V1, one DIFF V2.",
            "The same prompt runs through all three, here in your browser. Each map is the model's last layer, the head that puts the most weight on the asked needle, in the map that multiplies the values (A1 − λ·A2 for the DIFF models).",
        ],
        figure: Figure::Models,
        preset: None,
        knob: None,
        opens: Opens::Explorer,
    },
    Step {
        slug: "paper",
        title: "What the paper measured, and what our toy shows",
        paragraphs: &[
            "The paper trained models of three billion parameters on real text. On needle retrieval, the DIFF Transformer put far more attention on the answer and far less on the context than the baseline; its largest attention logits were much smaller, so they survive being stored in few bits.",
            "Our models are tiny and trained for minutes on a toy task, so do not expect the same numbers. The table puts both side by side, ours computed on the prompt of the previous step. Where our models disagree with the paper, we show it as it is.",
        ],
        figure: Figure::Paper,
        preset: None,
        knob: None,
        opens: Opens::Explorer,
    },
];

/// The figures the prose states, each checked by a test against the core (below), so no
/// sentence of the lesson can go stale silently.
pub const CHECKED_PHRASES: [&str; 13] = ["negative or above 1", "weights adds up to 1", "positive and add up to 1", "(counted from 0): 0.8 − 0.6·e^(−0.3·depth)", "the constant 1 − λ_init", "A2 adds up to 1", "0.0001% per key over 128 000 keys is 12.8%", "0.001%, would give 128%", "adds up to 1 − λ", "At λ = 0 the difference is A1", "λ_init = 0.8 − 0.6·e^(−0.3·depth) (depth counted from 0)", "close to 0.8", "between 0 and 1"];

/// A term of the glossary.
pub struct Term {
    pub key: &'static str,
    pub name: &'static str,
    pub definition: &'static str,
}

pub const GLOSSARY: [Term; 10] = [
    Term { key: "softmax", name: "softmax", definition: "Turns a row of scores into weights that are all positive and add up to 1: each score is exponentiated, then divided by the sum. Large scores get most of the weight, but no score gets exactly zero." },
    Term { key: "logit", name: "logit", definition: "A score before the softmax. In attention: the dot product of a query with a key, divided by the square root of the head size." },
    Term { key: "snr", name: "SNR (signal-to-noise ratio)", definition: "As the lab defines it: the mean weight on a signal key divided by the mean absolute weight on a noise key, over all queries. Absolute, because a negative weight still mixes a value in. For a softmax map it is simply how many times more weight a true match gets than an average other key." },
    Term { key: "lambda", name: "λ (lambda)", definition: "How much of the second map is subtracted: A1 − λ·A2. DIFF V1 learns one λ per layer, shared by its heads, and does not clamp it (it can be negative or above 1); DIFF V2 computes one per token and head with a sigmoid, so it lies between 0 and 1." },
    Term { key: "lambda_init", name: "λ_init", definition: "DIFF V1's starting value for λ in the layer at a given depth (counted from 0): 0.8 − 0.6·e^(−0.3·depth). V1 also multiplies each head's output by the constant 1 − λ_init. V2 has no λ_init." },
    Term { key: "needle", name: "needle", definition: "A fact hidden in a long context that a question later asks about. Here a needle is the four tokens “KEY is VALUE .”, and the question “? KEY →” must be answered with VALUE." },
    Term { key: "gqa", name: "GQA (grouped-query attention)", definition: "Several query heads share one key head and one value head, so the KV cache is smaller. DIFF V2 requires both heads of a subtracted pair to share one key-value group." },
    Term { key: "kv_cache", name: "KV cache", definition: "While generating text, a model keeps every earlier token's keys and values so it need not recompute them. Its size, and how much of it is read per new token, set the speed of decoding." },
    Term { key: "swiglu", name: "SwiGLU", definition: "The feed-forward layer of LLaMA-style blocks: (swish(x·W_g) ⊙ x·W_1)·W_2, a gated variant of the two-layer perceptron." },
    Term { key: "rmsnorm", name: "RMSNorm", definition: "Divides a vector by the root of the mean of its squares (plus a small ε), then multiplies by a learnt gain. DIFF V1 also applies one to each head's output." },
];

pub fn term(key: &str) -> Option<&'static Term> {
    GLOSSARY.iter().find(|t| t.key == key)
}

/// A piece of a paragraph: plain text, or a glossary term with the words shown for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Piece {
    Text(&'static str),
    Term { key: &'static str, shown: &'static str },
}

/// Splits `[[key]]` and `[[key|shown words]]` out of a paragraph. A term the glossary does
/// not have is kept as its words (the test below keeps that from happening).
pub fn pieces(paragraph: &'static str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = paragraph;
    while let Some(open) = rest.find("[[") {
        let Some(close) = rest[open..].find("]]").map(|c| open + c) else { break };
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        let inner = &rest[open + 2..close];
        let (key, shown) = inner.split_once('|').unwrap_or((inner, inner));
        out.push(match term(key) {
            Some(t) => Piece::Term { key: t.key, shown },
            None => Piece::Text(shown),
        });
        rest = &rest[close + 2..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// The sources, with where to read them.
pub const CITATIONS: [(&str, &str); 3] = [
    ("Ye et al., “Differential Transformer”, ICLR 2025 (arXiv 2410.05258)", "https://arxiv.org/abs/2410.05258"),
    ("DIFF Transformer V2 write-up, January 2026", "https://github.com/microsoft/unilm/tree/master/Diff-Transformer/Diff-Transformer-V2"),
    ("The official code: microsoft/unilm, Diff-Transformer", "https://github.com/microsoft/unilm/tree/master/Diff-Transformer"),
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
    pub const FIGURE8: &str = "With attention logits quantised to 4 bits, DIFF is about as accurate as the Transformer at 6 bits and about 25% better than the Transformer at 4 bits.";

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

    /// Everything the lesson says: the steps and the glossary.
    fn prose() -> impl Iterator<Item = &'static str> {
        STEPS.iter().flat_map(|s| s.paragraphs.iter().copied()).chain(GLOSSARY.iter().map(|t| t.definition))
    }

    /// A paragraph as it reads: a term's shown words, not its markup.
    fn read(p: &'static str) -> String {
        pieces(p).iter().map(|x| match x { Piece::Text(t) => *t, Piece::Term { shown, .. } => *shown }).collect()
    }

    #[test]
    fn every_term_is_in_the_glossary_and_every_number_is_checked() {
        for p in prose() {
            let open = p.matches("[[").count();
            let terms = pieces(p).iter().filter(|x| matches!(x, Piece::Term { .. })).count();
            assert_eq!(open, terms, "a term of {p:?} is missing from the glossary");
            // Digits only inside the checked phrases: anything else would be a number
            // no test holds (the live facts are computed, not written here).
            let mut bare = read(p);
            for phrase in CHECKED_PHRASES {
                bare = bare.replace(phrase, "");
            }
            let unchecked: Vec<&str> = bare.split(|c: char| !c.is_ascii_alphanumeric() && !matches!(c, '.' | '%' | '_')).filter(|w| w.chars().any(|c| c.is_ascii_digit())).filter(|w| !matches!(w.trim_end_matches('.'), "V1" | "V2" | "A1" | "A2" | "W_1" | "W_2")).collect();
            assert!(unchecked.is_empty(), "unchecked numbers {unchecked:?} in {p:?}");
        }
        for phrase in CHECKED_PHRASES {
            assert!(prose().any(|p| read(p).contains(phrase)), "{phrase:?} is no longer in the lesson");
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
        assert_eq!(pieces("a [[softmax]] b [[logit|scores]]."), vec![Piece::Text("a "), Piece::Term { key: "softmax", shown: "softmax" }, Piece::Text(" b "), Piece::Term { key: "logit", shown: "scores" }, Piece::Text(".")]);
        assert_eq!(pieces("[[nope|words]] and [[open"), vec![Piece::Text("words"), Piece::Text(" and [[open")]);
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
            assert!(!s.paragraphs.is_empty() && s.paragraphs.len() <= 3, "{}", s.slug);
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
