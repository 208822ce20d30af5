//! The long-context evaluation: every held-out character after its play's first is
//! scored once, from windows of CONTEXT characters that slide STRIDE at a time, so each
//! has at least MIN_CONTEXT characters before it wherever its play allows (only a play's
//! first CONTEXT characters have fewer). The window evaluation (`eval::window_losses`)
//! predicts each window from its own start instead: ≈ 64 characters of context on
//! average, and one character in CONTEXT + 1 never scored.

use super::configs::CONTEXT;
use difflens::core::char_lm::next_token_losses;
use difflens::core::model::{ForwardOptions, Model};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How far each window moves: the characters it scores that the last did not.
pub const STRIDE: usize = 32;
/// The least context a scored character has, past its play's first window.
pub const MIN_CONTEXT: usize = CONTEXT - STRIDE + 1;

/// −ln P of each token of `tokens` after the first, by sliding windows (module doc).
pub fn sliding_losses(model: &Model, tokens: &[u32]) -> Vec<f64> {
    let last = tokens.len().saturating_sub(1);
    let mut out: Vec<f64> = Vec::with_capacity(last);
    let mut start = 0;
    while out.len() < last {
        // This window predicts targets start + 1 ..= end; it adds those not yet scored.
        let end = (start + CONTEXT).min(last);
        let logits = model.forward(&tokens[start..end], &ForwardOptions::default()).expect("tokens are in the vocabulary").logits;
        let losses = next_token_losses(&logits, &tokens[start..=end]);
        let first_new = out.len() + 1 - (start + 1);
        out.extend(losses[first_new..].iter().map(|&l| l as f64));
        start += STRIDE;
    }
    out
}

/// `jobs` run on two threads (the machine's cores), results in the jobs' order.
pub fn on_two_threads<T: Send>(jobs: usize, run: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(jobs));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs {
                    break;
                }
                let r = run(i);
                done.lock().expect("no thread panicked").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panicked");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use difflens::core::config::AttentionKind;

    /// Every character after the first is scored once, and each equals the loss a single
    /// pass over its own window of context gives it.
    #[test]
    fn each_character_once_with_its_windows_context() {
        let model = Model::random(crate::text::configs::text_config(AttentionKind::DiffV1, 20), 3).unwrap();
        let tokens: Vec<u32> = (0..300u32).map(|i| (i * 7 + i / 5) % 20).collect();
        let got = sliding_losses(&model, &tokens);
        assert_eq!(got.len(), tokens.len() - 1);
        for target in [1, 100, 128, 129, 160, 161, 200, 299] {
            // The window that scored it: the first if within it, else the one whose last
            // STRIDE targets hold it.
            let start = if target <= CONTEXT { 0 } else { (target - CONTEXT).div_ceil(STRIDE) * STRIDE };
            assert!(target - start >= MIN_CONTEXT.min(target), "target {target}: context {}", target - start);
            let out = model.forward(&tokens[start..target], &ForwardOptions::default()).unwrap();
            let want = next_token_losses(&out.logits, &tokens[start..=target]).last().copied().unwrap() as f64;
            assert!((got[target - 1] - want).abs() < 1e-5, "target {target}: {} against {want}", got[target - 1]);
        }
    }

    #[test]
    fn two_threads_keep_the_jobs_order() {
        assert_eq!(on_two_threads(7, |i| i * i), vec![0, 1, 4, 9, 16, 25, 36]);
    }
}
