//! A typed text as the models read it: its last [`CONTEXT`] characters, each a token of
//! the shared vocabulary (a character outside it becomes the unknown symbol), and what
//! the page must say about it (cut, unknown characters, empty).

use super::CONTEXT;
use crate::core::char_vocab::CharVocab;
use crate::state::text_state::last_chars;

#[derive(Clone, Debug, PartialEq)]
pub struct TypedText {
    /// The characters the models read.
    pub chars: Vec<char>,
    pub tokens: Vec<u32>,
    /// Characters dropped from the start to fit the context.
    pub cut: usize,
    /// Characters outside the vocabulary, each once, in order.
    pub unknown: Vec<char>,
}

impl TypedText {
    pub fn of(vocab: &CharVocab, text: &str) -> Self {
        let kept = last_chars(text, CONTEXT);
        Self { chars: kept.chars().collect(), tokens: vocab.encode(kept), cut: text.chars().count() - kept.chars().count(), unknown: vocab.unknown_in(kept) }
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// How a character is drawn on an axis or in the strip: visible whitespace, and the
    /// unknown symbol for a character the models cannot read.
    pub fn shown(&self, vocab: &CharVocab, i: usize) -> String {
        show_char(vocab.char_of(self.tokens[i]))
    }
}

/// A character as a label: newline and space made visible.
pub fn show_char(c: char) -> String {
    match c {
        '\n' => "↵".to_string(),
        ' ' => "␣".to_string(),
        c => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::char_vocab::UNKNOWN;

    #[test]
    fn keeps_the_end_and_names_unknown_characters() {
        let vocab = CharVocab::of_text("abc \n");
        let long = format!("{}{}", "a".repeat(300), "b c\né😀");
        let t = TypedText::of(&vocab, &long);
        assert_eq!((t.tokens.len(), t.cut), (CONTEXT, long.chars().count() - CONTEXT));
        assert_eq!(t.unknown, vec!['é', '😀']);
        assert_eq!(t.tokens[CONTEXT - 1], UNKNOWN);
        assert_eq!(t.shown(&vocab, CONTEXT - 1), "□");
        assert_eq!(t.shown(&vocab, CONTEXT - 3), "↵");
        assert!(TypedText::of(&vocab, "").is_empty());
    }
}
