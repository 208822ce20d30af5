//! What a character-level language model's logits say about a text: each character's
//! loss (how surprised the model was by it, in nats) and the most likely next
//! characters. The trainer's evaluation and the text page both use these.

use super::linalg::Mat;
use ndarray::ArrayView1;

/// log Σ exp(row), computed from the row's maximum so large logits do not overflow.
fn log_sum_exp(row: ArrayView1<f32>) -> f32 {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = row.iter().map(|&v| ((v - max) as f64).exp()).sum();
    max + sum.ln() as f32
}

/// The loss of each character after the first: −log p(tokens[t+1] | tokens[..=t]) from
/// `logits` row t (`[T, vocab]`, T = tokens.len()). One value per token but the first.
pub fn next_token_losses(logits: &Mat, tokens: &[u32]) -> Vec<f32> {
    (0..tokens.len().saturating_sub(1).min(logits.nrows()))
        .map(|t| {
            let row = logits.row(t);
            log_sum_exp(row) - row.get(tokens[t + 1] as usize).copied().unwrap_or(f32::NEG_INFINITY)
        })
        .collect()
}

/// The `k` most likely tokens after the row's position, with their probabilities, most
/// likely first (ties by lower id).
pub fn top_k(row: ArrayView1<f32>, k: usize) -> Vec<(u32, f32)> {
    let lse = log_sum_exp(row);
    let mut ids: Vec<u32> = (0..row.len() as u32).collect();
    ids.sort_by(|&a, &b| row[b as usize].total_cmp(&row[a as usize]).then(a.cmp(&b)));
    ids.into_iter().take(k).map(|i| (i, (row[i as usize] - lse).exp())).collect()
}

/// The probabilities of the row (a softmax at temperature `temperature` > 0).
pub fn probabilities(row: ArrayView1<f32>, temperature: f32) -> Vec<f32> {
    let scaled: Vec<f32> = row.iter().map(|v| v / temperature).collect();
    let lse = log_sum_exp(ArrayView1::from(&scaled));
    scaled.iter().map(|v| (v - lse).exp()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn losses_and_top_k_agree_with_a_hand_softmax() {
        let logits = array![[0.0f32, (2.0f32).ln(), 0.0], [1000.0, 0.0, 1000.0]];
        // Row 0: p = (1/4, 2/4, 1/4); the next token is 1.
        let l = next_token_losses(&logits, &[0, 1, 2]);
        assert!((l[0] - 2.0f32.ln()).abs() < 1e-6);
        // Row 1 has huge logits: p(2) = 1/2, no overflow.
        assert!((l[1] - 2.0f32.ln()).abs() < 1e-4);
        let top = top_k(logits.row(0), 2);
        assert_eq!(top.iter().map(|t| t.0).collect::<Vec<_>>(), vec![1, 0]);
        assert!((top[0].1 - 0.5).abs() < 1e-6);
        let p = probabilities(logits.row(0), 1.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
