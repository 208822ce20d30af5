//! The copy warm-up: random word sequences that repeat later in the same prompt, at a
//! random distance, with the loss on every word of the repeat.
//!
//! Why: retrieval needs a two-step circuit (one head carries each needle's key onto its
//! value, a later head matches the asked key against it). Trained on retrieval alone, the
//! models sat for every budget we tried on the plateau that answers with "some value
//! from the context" (accuracy ≈ 1/N). Repeated sequences ask for the same kind of
//! circuit (an induction head: find the earlier copy of this word, read what followed it)
//! but give a target on every repeated word instead of one or two per prompt, so it
//! forms in about 1 500 steps; retrieval then learns in a few hundred.

use difflens::core::retrieval::{Prompt, FIRST_WORD, VOCAB_SIZE};
use rand::Rng;

/// Words in the repeated segment.
pub const SEGMENT: usize = 8;
/// Random words around the first copy (split at random before and after it), so the
/// distance between the copies changes from prompt to prompt and position alone cannot
/// solve the task.
pub const SPREAD: usize = 16;

/// `<bos>`, a random prefix, the segment, random words, the segment again. The answers
/// are the segment's words 2…8, predicted at the repeat's words 1…7.
pub fn copy_prompt(rng: &mut impl Rng) -> Prompt {
    let word = |rng: &mut _| Rng::random_range(rng, FIRST_WORD..VOCAB_SIZE as u32);
    let segment: Vec<u32> = (0..SEGMENT).map(|_| word(rng)).collect();
    let before = rng.random_range(0..=SPREAD);
    let mut tokens = vec![difflens::core::retrieval::BOS];
    tokens.extend((0..before).map(|_| word(rng)));
    tokens.extend(&segment);
    tokens.extend((before..SPREAD).map(|_| word(rng)));
    let repeat = tokens.len();
    tokens.extend(&segment);
    Prompt { answer_positions: (0..SEGMENT - 1).map(|i| repeat + i).collect(), answers: segment[1..].to_vec(), context: 1..repeat, tokens, answer_spans: vec![], needle_spans: vec![] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use difflens::core::init::seeded;

    #[test]
    fn the_repeat_predicts_the_next_word_of_the_first_copy() {
        let mut rng = seeded(4);
        let distances: std::collections::BTreeSet<usize> = (0..50)
            .map(|_| {
                let p = copy_prompt(&mut rng);
                assert_eq!(p.tokens.len(), 1 + SPREAD + 2 * SEGMENT);
                let repeat = p.answer_positions[0];
                let first = (1..repeat).find(|&i| p.tokens[i..i + SEGMENT] == p.tokens[repeat..repeat + SEGMENT]).unwrap();
                for (&pos, &a) in p.answer_positions.iter().zip(&p.answers) {
                    assert_eq!(p.tokens[pos + 1], a);
                    assert_eq!(p.tokens[first + (pos - repeat) + 1], a);
                }
                repeat - first
            })
            .collect();
        assert!(distances.len() > 10, "the copies sit at many distances: {distances:?}");
    }
}
