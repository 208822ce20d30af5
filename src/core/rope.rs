//! Rotary position embedding with interleaved pairs ("GPT-J" style, `interleaved=True`
//! in the official code): dims 2i and 2i+1 of every head rotate together by the angle
//! `pos · θ^(−2i/d)`, positions counted from 0. Computed in f32 as PyTorch does.

use ndarray::ArrayViewMut2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rope {
    pub theta: f32,
}

impl Default for Rope {
    fn default() -> Self {
        Self { theta: 10_000.0 }
    }
}

/// θ^(−2i/d) for each of a head's d/2 rotated pairs, in f32: the CPU core, the GPU's
/// table and the trainer all rotate by these.
pub fn inv_freq(theta: f32, head_dim: usize) -> Vec<f32> {
    (0..head_dim / 2).map(|i| 1.0 / theta.powf((2 * i) as f32 / head_dim as f32)).collect()
}

impl Rope {
    /// Rotates every `head_dim`-wide head of `x` (`[T, n·head_dim]`) in place.
    pub fn apply(&self, x: ArrayViewMut2<f32>, head_dim: usize) {
        self.apply_from(x, head_dim, 0);
    }

    /// The same for rows that stand at positions `first, first + 1, …` (rows appended
    /// to a text that already has `first`).
    pub fn apply_from(&self, mut x: ArrayViewMut2<f32>, head_dim: usize, first: usize) {
        assert!(head_dim.is_multiple_of(2), "RoPE needs an even head size, got {head_dim}");
        let inv_freq = inv_freq(self.theta, head_dim);
        // A position's angles are the same for every head: computed once per row.
        let mut angles = vec![(0.0f32, 0.0f32); inv_freq.len()];
        for (row_index, mut row) in x.rows_mut().into_iter().enumerate() {
            let pos = first + row_index;
            let row = row.as_slice_mut().expect("activations are row-major");
            angles.iter_mut().zip(&inv_freq).for_each(|(a, f)| *a = (pos as f32 * f).sin_cos());
            for head in row.chunks_exact_mut(head_dim) {
                for (i, &(sin, cos)) in angles.iter().enumerate() {
                    let (a, b) = (head[2 * i], head[2 * i + 1]);
                    head[2 * i] = a * cos - b * sin;
                    head[2 * i + 1] = a * sin + b * cos;
                }
            }
        }
    }
}
