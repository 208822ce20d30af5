//! Edits a reader makes to a prompt by clicking its words: move a needle to another
//! depth, add or remove a needle, ask about a needle or stop asking. Each edit returns
//! the new prompt's text, checked like a typed one, or says why it cannot be made (and
//! then nothing changes).

use crate::core::retrieval::{parse, vocabulary, word, Prompt};
use std::ops::Range;

/// One edit, addressed by the needle's index in `Prompt::needle_spans` or the query's
/// index in `Prompt::answer_positions`. Depths are percent of the way into the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptEdit {
    MoveNeedle {
        needle: usize,
        depth: u32,
    },
    RemoveNeedle(usize),
    /// A needle with a key and a value no other needle has.
    AddNeedle {
        depth: u32,
    },
    AskAbout(usize),
    RemoveQuery(usize),
}

/// The depths a needle can be moved to or added at (the generator's depth knob's steps).
pub const DEPTHS: [u32; 5] = [0, 25, 50, 75, 100];

/// The needle whose span holds `position`, if any.
pub fn needle_at(p: &Prompt, position: usize) -> Option<usize> {
    p.needle_spans.iter().position(|s| s.contains(&position))
}

/// The query whose "? KEY →" holds `position`, if any.
pub fn query_at(p: &Prompt, position: usize) -> Option<usize> {
    p.answer_positions.iter().position(|&a| (a.saturating_sub(2)..=a).contains(&position))
}

/// Whether some query asks for needle `i`'s key.
pub fn is_asked(p: &Prompt, i: usize) -> bool {
    p.needle_spans.get(i).is_some_and(|s| p.answer_spans.contains(s))
}

/// The depth (0…100%) at which needle `i` starts in the context.
pub fn depth_of(p: &Prompt, i: usize) -> Option<u32> {
    let span = p.needle_spans.get(i)?;
    let rest = p.context.len().saturating_sub(span.len()).max(1);
    Some(((span.start - p.context.start) * 100 / rest).min(100) as u32)
}

pub fn apply(p: &Prompt, edit: PromptEdit) -> Result<String, String> {
    let mut words: Vec<String> = p.tokens.iter().map(|&t| word(t)).collect();
    let needle = |i: usize| p.needle_spans.get(i).cloned().ok_or_else(|| crate::tr!("edit-no-needle", k = i + 1));
    match edit {
        PromptEdit::MoveNeedle { needle: i, depth } => {
            let span = needle(i)?;
            let moved: Vec<String> = words.drain(span.clone()).collect();
            let context = p.context.start..p.context.end - span.len();
            let at = boundary_at(&without(&p.needle_spans, &span), context, depth);
            words.splice(at..at, moved);
        }
        PromptEdit::RemoveNeedle(i) => {
            let span = needle(i)?;
            if is_asked(p, i) {
                return Err(crate::tr!("edit-asked", words = render_span(&words, &span)));
            }
            words.drain(span);
        }
        PromptEdit::AddNeedle { depth } => {
            let key = unused(p, 0).ok_or("every key of the vocabulary already has a needle")?;
            let value = unused(p, 2).ok_or("every value of the vocabulary is already used")?;
            let at = boundary_at(&p.needle_spans, p.context.clone(), depth);
            words.splice(at..at, [key, "is".into(), value, ".".into()]);
        }
        PromptEdit::AskAbout(i) => {
            let span = needle(i)?;
            if is_asked(p, i) {
                return Err(crate::tr!("edit-asked-already", words = render_span(&words, &span)));
            }
            // Each earlier query is followed by its answer, as the generator writes them.
            if let (Some(&last), Some(&answer)) = (p.answer_positions.last(), p.answers.last()) {
                if last + 1 == words.len() {
                    words.push(word(answer));
                }
            }
            words.extend(["?".into(), words[span.start].clone(), "→".into()]);
        }
        PromptEdit::RemoveQuery(q) => {
            let &arrow = p.answer_positions.get(q).ok_or_else(|| crate::tr!("edit-no-query", k = q + 1))?;
            if p.answer_positions.len() == 1 {
                return Err(crate::tr!("edit-last-query"));
            }
            // "? KEY →" and the answer written after it, if there is one.
            let follows = p.tokens.get(arrow + 1).is_some_and(|&t| word(t).parse::<u32>().is_ok());
            words.drain(arrow - 2..arrow + 1 + follows as usize);
        }
    }
    let text = words.join(" ");
    parse(&text).map(|_| text)
}

/// The needles other than `span`, with the positions after it shifted back.
fn without(spans: &[Range<usize>], span: &Range<usize>) -> Vec<Range<usize>> {
    let shift = |x: usize| if x >= span.end { x - span.len() } else { x };
    spans.iter().filter(|s| *s != span).map(|s| shift(s.start)..shift(s.end)).collect()
}

/// The position nearest `depth`% into `context` that is not inside one of `needles`.
fn boundary_at(needles: &[Range<usize>], context: Range<usize>, depth: u32) -> usize {
    let target = context.start + (context.len() * depth.min(100) as usize + 50) / 100;
    (context.start..=context.end).filter(|&x| !needles.iter().any(|s| s.start < x && x < s.end)).min_by_key(|&x| x.abs_diff(target)).unwrap_or(context.end)
}

/// The first key (`offset` 0) or value (`offset` 2) of the vocabulary no needle uses.
fn unused(p: &Prompt, offset: usize) -> Option<String> {
    let used: Vec<String> = p.needle_spans.iter().map(|s| word(p.tokens[s.start + offset])).collect();
    let group = if offset == 0 { "keys" } else { "values" };
    vocabulary().into_iter().find(|(g, _)| *g == group)?.1.into_iter().find(|w| !used.contains(w))
}

fn render_span(words: &[String], span: &Range<usize>) -> String {
    words[span.clone()].join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "<bos> sun Bern is 16 . the rose Oslo is 12 . old town ? Bern → 16";

    fn prompt(text: &str) -> Prompt {
        parse(text).unwrap()
    }

    #[test]
    fn a_needle_moves_to_a_depth_and_keeps_its_answer() {
        let p = prompt(TEXT);
        assert_eq!((needle_at(&p, 3), needle_at(&p, 9), needle_at(&p, 1)), (Some(0), Some(1), None));
        assert_eq!(depth_of(&p, 0), Some(11));
        let start = apply(&p, PromptEdit::MoveNeedle { needle: 0, depth: 0 }).unwrap();
        assert_eq!(start, "<bos> Bern is 16 . sun the rose Oslo is 12 . old town ? Bern → 16");
        let end = apply(&p, PromptEdit::MoveNeedle { needle: 0, depth: 100 }).unwrap();
        assert_eq!(end, "<bos> sun the rose Oslo is 12 . old town Bern is 16 . ? Bern → 16");
        let moved = prompt(&end);
        assert_eq!((moved.answers.clone(), depth_of(&moved, moved.needle_spans.iter().position(|s| moved.tokens[s.start] == p.tokens[2]).unwrap())), (vec![p.answers[0]], Some(100)));
        // Half-way would fall inside Oslo's needle: it goes to the nearest boundary instead.
        let half = apply(&p, PromptEdit::MoveNeedle { needle: 0, depth: 50 }).unwrap();
        assert!(half.contains("Oslo is 12 .") && half.contains("Bern is 16 ."), "{half}");
    }

    #[test]
    fn needles_are_added_and_removed_unless_a_query_needs_them() {
        let p = prompt(TEXT);
        let added = apply(&p, PromptEdit::AddNeedle { depth: 100 }).unwrap();
        let a = prompt(&added);
        assert_eq!(a.needle_spans.len(), 3);
        let new = a.needle_spans.iter().find(|s| !["Bern", "Oslo"].contains(&word(a.tokens[s.start]).as_str())).unwrap();
        assert!(!["16", "12"].contains(&word(a.tokens[new.start + 2]).as_str()), "a fresh value: {added}");
        assert_eq!(apply(&p, PromptEdit::RemoveNeedle(1)).unwrap(), "<bos> sun Bern is 16 . the rose old town ? Bern → 16");
        let err = apply(&p, PromptEdit::RemoveNeedle(0)).unwrap_err();
        assert_eq!(err, "a query asks for “Bern is 16 .”: remove that query first");
    }

    #[test]
    fn queries_are_added_and_removed_but_one_stays() {
        let p = prompt(TEXT);
        let asked = apply(&p, PromptEdit::AskAbout(1)).unwrap();
        assert_eq!(asked, format!("{TEXT} ? Oslo →"));
        assert_eq!(prompt(&asked).answers.len(), 2);
        let typed = prompt("<bos> Bern is 16 . Oslo is 12 . ? Bern →");
        assert_eq!(apply(&typed, PromptEdit::AskAbout(1)).unwrap(), "<bos> Bern is 16 . Oslo is 12 . ? Bern → 16 ? Oslo →", "the first answer is written before the next query");
        assert!(apply(&p, PromptEdit::AskAbout(0)).unwrap_err().contains("asked about already"));
        let two = prompt(&asked);
        assert_eq!((query_at(&two, 15), query_at(&two, 17), query_at(&two, 19)), (Some(0), None, Some(1)));
        assert_eq!(apply(&two, PromptEdit::RemoveQuery(0)).unwrap(), "<bos> sun Bern is 16 . the rose Oslo is 12 . old town ? Oslo →");
        assert_eq!(apply(&two, PromptEdit::RemoveQuery(1)).unwrap(), TEXT);
        assert!(apply(&p, PromptEdit::RemoveQuery(0)).unwrap_err().contains("needs a query"));
    }
}
