//! A typed text as the models read it: its last characters (the [`window`](crate::engine::text::window)), each a token of
//! the shared vocabulary (a character outside it becomes the unknown symbol), and what
//! the page must say about it (cut, unknown characters, empty).

use crate::core::char_vocab::{CharVocab, UNKNOWN, UNKNOWN_GLYPH};
use crate::engine::text::window;
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
        let kept = last_chars(text, window(text.chars().count()));
        Self { chars: kept.chars().collect(), tokens: vocab.encode(kept), cut: text.chars().count() - kept.chars().count(), unknown: vocab.unknown_in(kept) }
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Whether the models read character `i` as the unknown symbol.
    pub fn is_unknown(&self, i: usize) -> bool {
        self.tokens.get(i) == Some(&UNKNOWN)
    }

    /// Character `i` as an axis label: visible whitespace, and the unknown symbol for a
    /// character the models cannot read.
    pub fn label(&self, i: usize) -> String {
        if self.is_unknown(i) {
            UNKNOWN_GLYPH.to_string()
        } else {
            self.chars.get(i).map(|&c| show_char(c)).unwrap_or_default()
        }
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
    use crate::engine::text::CONTEXT;

    #[test]
    fn keeps_the_end_and_names_unknown_characters() {
        let vocab = CharVocab::of_text("abc \n");
        let long = format!("{}{}", "a".repeat(300), "b c\né😀");
        let t = TypedText::of(&vocab, &long);
        let n = window(long.chars().count());
        assert!(n < CONTEXT, "305 characters: the window has moved on past the context");
        assert_eq!((t.tokens.len(), t.cut), (n, long.chars().count() - n));
        assert_eq!(t.unknown, vec!['é', '😀']);
        assert_eq!(t.tokens[n - 1], UNKNOWN);
        assert_eq!(t.label(n - 1), "□");
        assert!(t.is_unknown(n - 1) && !t.is_unknown(0));
        assert_eq!(t.label(n - 3), "↵");
        assert!(TypedText::of(&vocab, "").is_empty());
    }
}
