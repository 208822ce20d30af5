//! The text page's engine: the three character-level models on what a student types.
//! `typed` fits a text to the models' context and finds characters they cannot read;
//! `run` makes one model's column (each character's surprise, the next character's top
//! five, the maps and what they say); `writer` samples a continuation one character at
//! a time; `results` reads what the evaluation found. Plain Rust, tested natively.

pub mod results;
pub mod run;
pub mod session;
pub mod typed;
pub mod writer;

/// Where the page fetches the text models (cards, checkpoints, `vocab.json`, `eval.json`).
pub const FOLDER: &str = "text-models";
/// The most characters the models read: what they were trained on.
pub const CONTEXT: usize = 128;
/// How far the window over a longer text moves at a time (see [`window`]).
pub const STEP: usize = 32;

/// How many of a text's last characters the models read: all of them up to
/// [`CONTEXT`]; beyond it a window that moves on [`STEP`] characters at a time, so it holds
/// between `CONTEXT − STEP + 1` and `CONTEXT`. A keystroke at the end then keeps the
/// window's start, and only the new character runs (the others' keys and values are
/// kept); one keystroke in [`STEP`] moves the window and runs it whole. A function of the
/// length alone, so a link shows the same columns however the text was typed.
pub fn window(len: usize) -> usize {
    if len <= CONTEXT {
        len
    } else {
        CONTEXT - STEP + 1 + (len - (CONTEXT - STEP + 1)) % STEP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_moves_in_steps_and_never_exceeds_the_context() {
        assert_eq!((window(0), window(5), window(CONTEXT)), (0, 5, CONTEXT));
        assert_eq!((window(CONTEXT + 1), window(CONTEXT + STEP), window(CONTEXT + STEP + 1)), (CONTEXT - STEP + 1, CONTEXT, CONTEXT - STEP + 1));
        let start = |len: usize| len - window(len);
        let mut moves = 0;
        for len in 1..2000 {
            assert!(window(len) <= CONTEXT && (len <= CONTEXT || window(len) > CONTEXT - STEP));
            match start(len + 1) - start(len) {
                0 => {}
                STEP => moves += 1,
                other => panic!("the start moved by {other} at {len}"),
            }
        }
        assert_eq!(moves, (2000 - (CONTEXT + 1)) / STEP + 1, "one keystroke in {STEP} moves the window");
    }
}
