//! The multi-needle retrieval task (in the spirit of the DIFF paper's §3.4): a context of
//! filler words holding N needles "KEY is VALUE ." at controlled depths, then R queries
//! "? KEY →" whose next token must be the needle's value. The generator is seeded and
//! lives in the core so the trainer, the evaluator and the page make the same prompts.

use rand::seq::index::sample;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::ops::Range;

const SPECIALS: [&str; 6] = ["<pad>", "<bos>", "is", ".", "?", "→"];
const KEYS: [&str; 16] = ["Oslo", "Lima", "Rome", "Kyiv", "Baku", "Doha", "Riga", "Bern", "Sofia", "Quito", "Dakar", "Hanoi", "Minsk", "Accra", "Cairo", "Seoul"];
const FILLER: [&str; 24] = [
    "the", "a", "sun", "rose", "over", "quiet", "hills", "and", "river", "ran", "slowly", "past", "old", "town", "while", "birds", "sang", "in", "green", "trees",
    "people", "walked", "home", "today",
];
/// Values are the "magic numbers" 10 … 39.
const N_VALUES: usize = 30;

pub const PAD: u32 = 0;
pub const BOS: u32 = 1;
pub const IS: u32 = 2;
pub const DOT: u32 = 3;
pub const QUERY: u32 = 4;
pub const ARROW: u32 = 5;
/// The first token id that is a word (keys, then values, then filler; the markers come
/// before it).
pub const FIRST_WORD: u32 = SPECIALS.len() as u32;
const KEY0: u32 = FIRST_WORD;
const VALUE0: u32 = KEY0 + KEYS.len() as u32;
const FILLER0: u32 = VALUE0 + N_VALUES as u32;

/// Tokens of the task: specials, keys, values, filler.
pub const VOCAB_SIZE: usize = SPECIALS.len() + KEYS.len() + N_VALUES + FILLER.len();

/// The word of a token id ("?" for an id outside the vocabulary).
pub fn word(id: u32) -> String {
    let i = id as usize;
    match i {
        _ if i < SPECIALS.len() => SPECIALS[i].to_string(),
        _ if id < VALUE0 => KEYS[(id - KEY0) as usize].to_string(),
        _ if id < FILLER0 => (10 + id - VALUE0).to_string(),
        _ if i < VOCAB_SIZE => FILLER[(id - FILLER0) as usize].to_string(),
        _ => "?".to_string(),
    }
}

/// What one prompt should look like.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptSpec {
    /// Tokens between `<bos>` and the first query, needles included.
    pub context_len: usize,
    /// N, the needles in the context (at most 16, and 4·N ≤ context_len).
    pub n_needles: usize,
    /// R, the needles asked about (R ≤ N).
    pub n_queries: usize,
    /// Depth (0 = start of the context, 1 = end) of the first queried needle; others are
    /// placed at random. `None`: all random.
    pub target_depth: Option<f32>,
    /// Every needle gets its own value (the page's prompts, so a reader can tell which
    /// needle a prediction came from). Off for training and evaluation, whose prompts
    /// drew values independently when the shipped models were made.
    #[serde(default)]
    pub distinct_values: bool,
}

/// A generated prompt with everything the metrics need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    pub tokens: Vec<u32>,
    /// For each query, the position of its "→": the logits there predict the answer.
    pub answer_positions: Vec<usize>,
    pub answers: Vec<u32>,
    /// For each query, the token range of its needle ("KEY is VALUE .").
    pub answer_spans: Vec<Range<usize>>,
    /// The context: positions `1 .. 1 + context_len`.
    pub context: Range<usize>,
    /// Every needle's span (distractors included).
    pub needle_spans: Vec<Range<usize>>,
}

/// Makes one prompt. The tokens are `<bos>`, the context, then per query
/// `? KEY → VALUE` (the value is the answer, kept so a second query follows it).
pub fn generate(rng: &mut impl Rng, spec: &PromptSpec) -> Prompt {
    let n = spec.n_needles.clamp(1, KEYS.len().min(spec.context_len / 4).max(1));
    let r = spec.n_queries.clamp(1, n);
    let filler_len = spec.context_len.saturating_sub(4 * n);
    let keys = sample(rng, KEYS.len(), n).into_vec();
    let values: Vec<u32> = if spec.distinct_values {
        sample(rng, N_VALUES, n).into_iter().map(|v| VALUE0 + v as u32).collect()
    } else {
        (0..n).map(|_| VALUE0 + rng.random_range(0..N_VALUES as u32)).collect()
    };
    // Insertion points among the filler words (needle i goes before filler word slot[i]).
    let mut slots: Vec<usize> = (0..n).map(|_| rng.random_range(0..=filler_len)).collect();
    if let Some(depth) = spec.target_depth {
        slots[0] = (depth.clamp(0.0, 1.0) * filler_len as f32).round() as usize;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (slots[i], i));

    let mut tokens = vec![BOS];
    let mut spans = vec![0..0; n];
    let mut next = order.iter().peekable();
    for f in 0..=filler_len {
        while let Some(&&i) = next.peek().filter(|&&&i| slots[i] == f) {
            let start = tokens.len();
            tokens.extend([KEY0 + keys[i] as u32, IS, values[i], DOT]);
            spans[i] = start..tokens.len();
            next.next();
        }
        if f < filler_len {
            tokens.push(FILLER0 + rng.random_range(0..FILLER.len() as u32));
        }
    }
    let context = 1..tokens.len();
    // Needle 0 is asked first (its depth is the controlled one); the rest at random.
    let mut asked: Vec<usize> = vec![0];
    asked.extend(sample(rng, n - 1, r - 1).into_iter().map(|i| i + 1));
    let (mut answer_positions, mut answers, mut answer_spans) = (vec![], vec![], vec![]);
    for &i in &asked {
        tokens.extend([QUERY, KEY0 + keys[i] as u32, ARROW]);
        answer_positions.push(tokens.len() - 1);
        answers.push(values[i]);
        answer_spans.push(spans[i].clone());
        tokens.push(values[i]);
    }
    Prompt { tokens, answer_positions, answers, answer_spans, context, needle_spans: spans }
}

/// The prompt as text, for the page and for debugging.
pub fn render(tokens: &[u32]) -> String {
    tokens.iter().map(|&t| word(t)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::init::seeded;

    #[test]
    fn prompts_hold_their_needles_and_answers() {
        let mut rng = seeded(3);
        for (n, r, depth) in [(1, 1, Some(0.0)), (4, 2, Some(0.5)), (6, 2, Some(1.0)), (2, 2, None)] {
            let p = generate(&mut rng, &PromptSpec { context_len: 64, n_needles: n, n_queries: r, target_depth: depth, distinct_values: false });
            assert_eq!(p.context.len(), 64);
            assert_eq!(p.tokens.len(), 1 + 64 + 4 * r);
            assert_eq!(p.answers.len(), r);
            for (k, &pos) in p.answer_positions.iter().enumerate() {
                assert_eq!(p.tokens[pos], ARROW);
                assert_eq!(p.tokens[pos + 1], p.answers[k], "the answer follows the arrow");
                let span = &p.answer_spans[k];
                assert_eq!(p.tokens[span.start], p.tokens[pos - 1], "the needle's key is the one asked");
                assert_eq!(p.tokens[span.start + 2], p.answers[k]);
                assert!(span.end <= p.context.end);
            }
            if let Some(d) = depth {
                let first = p.answer_spans[0].start - p.context.start;
                let expected = (d * (64 - 4 * n) as f32).round() as usize;
                assert!(first >= expected && first <= expected + 4 * n, "depth {d}: needle at {first}");
            }
        }
        assert_eq!(render(&[BOS, KEY0, IS, VALUE0 + 2, DOT]), "<bos> Oslo is 12 .");
        assert_eq!(VOCAB_SIZE, 76);
    }

    #[test]
    fn the_generator_is_seeded() {
        let spec = PromptSpec { context_len: 32, n_needles: 3, n_queries: 2, target_depth: None, distinct_values: false };
        assert_eq!(generate(&mut seeded(9), &spec), generate(&mut seeded(9), &spec));
        assert_ne!(generate(&mut seeded(9), &spec), generate(&mut seeded(10), &spec));
    }

    #[test]
    fn distinct_values_never_repeat_a_value() {
        let spec = |distinct_values| PromptSpec { context_len: 64, n_needles: 6, n_queries: 2, target_depth: Some(0.5), distinct_values };
        let values = |p: &Prompt| p.needle_spans.iter().map(|s| p.tokens[s.start + 2]).collect::<Vec<_>>();
        let repeats = |v: &[u32]| (1..v.len()).any(|i| v[..i].contains(&v[i]));
        let independent = (0..200).filter(|&seed| repeats(&values(&generate(&mut seeded(seed), &spec(false))))).count();
        assert!(independent > 0, "six values out of thirty drawn independently repeat now and then");
        for seed in 0..200 {
            let p = generate(&mut seeded(seed), &spec(true));
            assert!(!repeats(&values(&p)), "seed {seed}: {:?}", values(&p));
            for (k, &pos) in p.answer_positions.iter().enumerate() {
                assert_eq!(p.tokens[pos + 1], p.answers[k]);
                assert_eq!(p.tokens[p.answer_spans[k].start + 2], p.answers[k]);
            }
        }
    }
}
