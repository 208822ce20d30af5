//! Matched initialisations: each tensor is drawn from a generator seeded by the run's seed
//! and the tensor's checkpoint name, so a baseline, a DIFF V1 and a DIFF V2 model of one
//! seed start from the same weights wherever a tensor has the same name and shape (the
//! embedding, the feed-forwards, the norms, and for V1 the projections too), and differ
//! only where their attention differs. (`Model::random` draws all tensors from one
//! stream: its models share only the first layer's attention, and the shipped models
//! were trained from it, so it stays.)

use super::params::Params;
use crate::config::ModelConfig;
use crate::init::{normal, seeded};
use crate::model::Model;
use crate::weights::TensorStore;

/// FNV-1a of the name: a stable 64-bit hash on every platform.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The standard deviation a tensor starts with: unit gains for norms, N(0, 0.1²) for V1's
/// λ vectors (the official initialisation), N(0, 1) for the embedding, in^(−½) for a
/// linear weight (what `Model::random` uses).
fn start(name: &str, shape: &[usize]) -> Option<f32> {
    let last = name.rsplit('.').next().unwrap_or(name);
    if name.ends_with("norm.weight") || name.ends_with("subln.weight") {
        None
    } else if last.starts_with("lambda_") && !name.ends_with("lambda_proj.weight") {
        Some(0.1)
    } else if name == "embed.weight" {
        Some(1.0)
    } else {
        Some((shape.last().copied().unwrap_or(1) as f32).powf(-0.5))
    }
}

/// The weights of `config` for run `seed`, matched across attention kinds by name.
pub fn matched_init(config: &ModelConfig, seed: u64) -> Result<TensorStore, String> {
    let shapes = Model::random(config.clone(), 0).map_err(|e| e.to_string())?.to_store();
    let mut store = TensorStore::default();
    for name in shapes.names() {
        let shape = shapes.get(name).expect("listed").shape.clone();
        let len = shape.iter().product();
        let data = match start(name, &shape) {
            None => vec![1.0; len],
            Some(std) => {
                let mut rng = seeded(seed ^ name_hash(name).rotate_left(17));
                (0..len).map(|_| normal(&mut rng, std)).collect()
            }
        };
        store.insert(name, shape, data);
    }
    Ok(store)
}

/// The same as [`Params`] of the training precision.
pub fn matched_params<R: super::real::Real>(config: &ModelConfig, seed: u64) -> Result<Params<R>, String> {
    matched_init(config, seed).map(|s| Params::from_store(&s))
}
