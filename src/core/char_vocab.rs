//! The character vocabulary of the text models: every character of the training plays,
//! in code-point order, after one "unknown" symbol that stands for any other character
//! (é, 中, an emoji). The trainer builds it; the page reads it from `vocab.json` beside
//! the models and shows the unknown symbol as [`UNKNOWN_GLYPH`].

use serde::{Deserialize, Serialize};

/// Token id of a character outside the vocabulary.
pub const UNKNOWN: u32 = 0;
/// How the page draws a character the models have never seen.
pub const UNKNOWN_GLYPH: char = '□';

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharVocab {
    /// The known characters; token id = index + 1 (0 is [`UNKNOWN`]).
    chars: Vec<char>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VocabError {
    #[error("the vocabulary lists `{0}` twice")]
    Repeated(char),
    #[error("the vocabulary's characters are not in code-point order at `{0}`")]
    Unordered(char),
    #[error("the vocabulary has no characters")]
    Empty,
}

impl CharVocab {
    /// The vocabulary of `text`: its distinct characters, sorted.
    pub fn of_text(text: &str) -> Self {
        let mut chars: Vec<char> = text.chars().collect();
        chars.sort_unstable();
        chars.dedup();
        Self { chars }
    }

    /// Checks a vocabulary read from a file (sorted, no repeats, not empty).
    pub fn from_chars(chars: Vec<char>) -> Result<Self, VocabError> {
        if chars.is_empty() {
            return Err(VocabError::Empty);
        }
        for w in chars.windows(2) {
            match w[0].cmp(&w[1]) {
                std::cmp::Ordering::Equal => return Err(VocabError::Repeated(w[1])),
                std::cmp::Ordering::Greater => return Err(VocabError::Unordered(w[1])),
                std::cmp::Ordering::Less => {}
            }
        }
        Ok(Self { chars })
    }

    pub fn from_json(json: &str) -> Result<Self, String> {
        let raw: CharVocab = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Self::from_chars(raw.chars).map_err(|e| e.to_string())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a list of characters always serialises")
    }

    /// Tokens the models read: the known characters and the unknown symbol.
    pub fn size(&self) -> usize {
        self.chars.len() + 1
    }

    pub fn id(&self, c: char) -> u32 {
        self.chars.binary_search(&c).map_or(UNKNOWN, |i| i as u32 + 1)
    }

    pub fn encode(&self, text: &str) -> Vec<u32> {
        text.chars().map(|c| self.id(c)).collect()
    }

    /// The character of a token id; [`UNKNOWN_GLYPH`] for the unknown symbol or an id
    /// past the end.
    pub fn char_of(&self, id: u32) -> char {
        (id as usize).checked_sub(1).and_then(|i| self.chars.get(i)).copied().unwrap_or(UNKNOWN_GLYPH)
    }

    pub fn decode(&self, ids: &[u32]) -> String {
        ids.iter().map(|&i| self.char_of(i)).collect()
    }

    /// The characters of `text` outside the vocabulary, each once, in order of appearance.
    pub fn unknown_in(&self, text: &str) -> Vec<char> {
        let mut seen = Vec::new();
        for c in text.chars().filter(|&c| self.id(c) == UNKNOWN) {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_known_text_and_marks_the_rest() {
        let v = CharVocab::of_text("To be, or not to be\n");
        assert_eq!(v.decode(&v.encode("not to be, or")), "not to be, or");
        assert_eq!(v.encode("é中"), vec![UNKNOWN, UNKNOWN]);
        assert_eq!(v.decode(&v.encode("bé")), format!("b{UNKNOWN_GLYPH}"));
        assert_eq!(v.unknown_in("béé😀"), vec!['é', '😀']);
        assert_eq!(CharVocab::from_json(&v.to_json()).unwrap(), v);
    }

    #[test]
    fn rejects_damaged_files() {
        assert_eq!(CharVocab::from_chars(vec!['b', 'a']), Err(VocabError::Unordered('a')));
        assert_eq!(CharVocab::from_chars(vec!['a', 'a']), Err(VocabError::Repeated('a')));
        assert_eq!(CharVocab::from_chars(vec![]), Err(VocabError::Empty));
        assert!(CharVocab::from_json("{\"chars\": 3}").is_err());
    }
}
