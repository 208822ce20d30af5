//! RMSNorm (Zhang & Sennrich 2019), as the official DIFF code defines it:
//! `y = x · rsqrt(mean(x²) + eps) · g`, computed per row.

use ndarray::{Array1, ArrayViewMut2};

#[derive(Clone, Debug)]
pub struct RmsNorm {
    /// The learned gain `g`, one value per channel (PyTorch `weight`).
    pub gain: Array1<f32>,
    pub eps: f32,
}

impl RmsNorm {
    pub fn new(gain: Array1<f32>, eps: f32) -> Self {
        Self { gain, eps }
    }

    /// A norm with unit gain: what an untrained layer or the "no affine" ablation uses.
    pub fn unit(width: usize, eps: f32) -> Self {
        Self::new(Array1::ones(width), eps)
    }

    /// Normalises each row of `x` in place; the row width must equal the gain's length.
    pub fn apply(&self, mut x: ArrayViewMut2<f32>) {
        for mut row in x.rows_mut() {
            let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
            let scale = 1.0 / (mean_square + self.eps).sqrt();
            row.iter_mut().zip(self.gain.iter()).for_each(|(v, g)| *v = *v * scale * g);
        }
    }
}
