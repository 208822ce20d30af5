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
    "the", "a", "sun", "rose", "over", "quiet", "hills", "and", "river", "ran", "slowly", "past", "old", "town", "while", "birds", "sang", "in", "green", "trees", "people", "walked", "home", "today",
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

/// Tokens of context (filler and needles) in the prompts the shipped models trained on.
pub const TRAIN_CONTEXT: usize = 64;

/// The training distribution of the shipped models (and of the training page's needle
/// task): 1 to 6 needles, 1 or 2 queries, needles anywhere.
pub fn training_spec(rng: &mut impl Rng) -> PromptSpec {
    let n_needles = rng.random_range(1..=6);
    let n_queries = rng.random_range(1..=2usize).min(n_needles);
    PromptSpec { context_len: TRAIN_CONTEXT, n_needles, n_queries, target_depth: None, distinct_values: false }
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
    let values: Vec<u32> =
        if spec.distinct_values { sample(rng, N_VALUES, n).into_iter().map(|v| VALUE0 + v as u32).collect() } else { (0..n).map(|_| VALUE0 + rng.random_range(0..N_VALUES as u32)).collect() };
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

/// The token id of a word of the vocabulary (as `word` writes it).
pub fn token_of(w: &str) -> Option<u32> {
    if let Some(i) = SPECIALS.iter().position(|s| *s == w) {
        return Some(i as u32);
    }
    if let Some(i) = KEYS.iter().position(|s| *s == w) {
        return Some(KEY0 + i as u32);
    }
    if let Some(i) = FILLER.iter().position(|s| *s == w) {
        return Some(FILLER0 + i as u32);
    }
    match w.parse::<u32>() {
        Ok(v) if (10..10 + N_VALUES as u32).contains(&v) && w.len() == 2 => Some(VALUE0 + v - 10),
        _ => None,
    }
}

/// Every word a prompt may use, grouped as a reader looks for them: markers, keys
/// (cities), values (10 … 39), filler.
pub fn vocabulary() -> [(&'static str, Vec<String>); 4] {
    [
        ("markers", SPECIALS[2..].iter().map(|s| s.to_string()).collect()),
        ("keys", KEYS.iter().map(|s| s.to_string()).collect()),
        ("values", (10..10 + N_VALUES).map(|v| v.to_string()).collect()),
        ("filler", FILLER.iter().map(|s| s.to_string()).collect()),
    ]
}

/// Longest typed prompt accepted (tokens).
pub const MAX_TYPED_TOKENS: usize = 1024;

/// A prompt typed by a reader: words of the vocabulary separated by spaces, `<bos>`
/// optional. The context runs to the first "?"; every "KEY is VALUE ." in it is a needle;
/// after it, each "? KEY →" is a query whose answer is the value of KEY's needle. Unknown
/// words, a query without a needle, or no query at all are errors that say which.
pub fn parse(text: &str) -> Result<Prompt, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let unknown: Vec<String> = words.iter().enumerate().filter(|(_, w)| token_of(w).is_none()).map(|(i, w)| format!("“{w}” (word {})", i + 1)).collect();
    if !unknown.is_empty() {
        return Err(format!("not in the models' vocabulary: {}", unknown.join(", ")));
    }
    let mut tokens: Vec<u32> = words.iter().map(|w| token_of(w).expect("checked above")).collect();
    if tokens.first() != Some(&BOS) {
        tokens.insert(0, BOS);
    }
    if tokens.len() > MAX_TYPED_TOKENS {
        return Err(format!("{} tokens; at most {MAX_TYPED_TOKENS}", tokens.len()));
    }
    let end = tokens.iter().position(|&t| t == QUERY).ok_or("no query: end the prompt with “? KEY →”, e.g. “? Bern →”")?;
    let is_key = |t: u32| (KEY0..VALUE0).contains(&t);
    let is_value = |t: u32| (VALUE0..FILLER0).contains(&t);
    let needle_spans: Vec<Range<usize>> =
        (1..end.saturating_sub(3)).filter(|&i| is_key(tokens[i]) && tokens[i + 1] == IS && is_value(tokens[i + 2]) && tokens[i + 3] == DOT).map(|i| i..i + 4).collect();
    let (mut answer_positions, mut answers, mut answer_spans) = (vec![], vec![], vec![]);
    for p in (end + 2..tokens.len()).filter(|&p| tokens[p] == ARROW) {
        let key = tokens[p - 1];
        if tokens[p - 2] != QUERY || !is_key(key) {
            return Err(format!("“→” at word {p} must follow “? KEY”"));
        }
        let span = needle_spans.iter().rev().find(|s| tokens[s.start] == key).ok_or_else(|| format!("the query asks for {} but no needle “{} is VALUE .” is in the context", word(key), word(key)))?;
        answer_positions.push(p);
        answers.push(tokens[span.start + 2]);
        answer_spans.push(span.clone());
    }
    if answer_positions.is_empty() {
        return Err("no query: end the prompt with “? KEY →”, e.g. “? Bern →”".into());
    }
    Ok(Prompt { tokens, answer_positions, answers, answer_spans, context: 1..end, needle_spans })
}

/// The prompt as text, for the page and for debugging.
pub fn render(tokens: &[u32]) -> String {
    tokens.iter().map(|&t| word(t)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::init::seeded;

    #[test]
    fn typed_prompts_read_back_what_the_generator_writes_and_say_what_is_wrong() {
        let spec = PromptSpec { context_len: 40, n_needles: 3, n_queries: 2, target_depth: Some(0.5), distinct_values: true };
        let mut made = generate(&mut seeded(4), &spec);
        made.needle_spans.sort_by_key(|s| s.start);
        assert_eq!(parse(&render(&made.tokens)).unwrap(), made, "a generated prompt, typed back (needles in reading order)");
        let own = parse("sun Bern is 15 . rose ? Bern →").unwrap();
        assert_eq!(
            (own.tokens.len(), own.answer_positions.clone(), own.answers.clone(), own.answer_spans.clone(), own.context.clone()),
            (10, vec![9], vec![token_of("15").unwrap()], vec![Range { start: 2, end: 6 }], 1..7)
        );
        assert!(parse("sun Paris is 15 . ? Bern →").unwrap_err().contains("“Paris” (word 2)"));
        assert!(parse("sun Bern is 15 .").unwrap_err().starts_with("no query"));
        assert!(parse("sun Bern is 15 . ? Rome →").unwrap_err().contains("asks for Rome"));
        assert!(parse("Bern is 9 . ? Bern →").unwrap_err().contains("“9”"), "values are 10 … 39");
        assert_eq!(vocabulary().iter().map(|(_, w)| w.len()).sum::<usize>() + 2, VOCAB_SIZE, "every word but <pad> and <bos>");
    }

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
