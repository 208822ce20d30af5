//! Seeded random weights: untrained layers for tests and for the page's "random" mode.

use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// The generator every seeded part of DiffLens uses: same seed, same numbers, on every
/// platform (ChaCha8 is specified bit-for-bit, unlike `thread_rng`).
pub fn seeded(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

pub fn normal(rng: &mut impl Rng, std: f32) -> f32 {
    let z: f32 = rng.sample(StandardNormal);
    z * std
}

/// A `[rows, cols]` matrix of N(0, std²) entries.
pub fn normal_matrix(rng: &mut impl Rng, rows: usize, cols: usize, std: f32) -> Array2<f32> {
    Array2::from_shape_simple_fn((rows, cols), || normal(rng, std))
}

pub fn normal_vector(rng: &mut impl Rng, len: usize, std: f32) -> Array1<f32> {
    Array1::from_shape_simple_fn(len, || normal(rng, std))
}

/// A `Linear(in → out)` weight `[out, in]` with std in^(−1/2): unit-scale outputs.
pub fn linear_weight(rng: &mut impl Rng, out: usize, inp: usize) -> Array2<f32> {
    normal_matrix(rng, out, inp, (inp as f32).powf(-0.5))
}
