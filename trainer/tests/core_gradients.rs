//! The core's hand-written training code (`difflens::core::train`, what the page trains
//! with) against candle's autodiff (what trained the shipped models), on the same weights
//! and the same batch: every parameter's gradient, and the weights after one AdamW step.
//! Run on the shipped needle models' shapes, for the three kinds.
//!
//! Tolerance: both compute in f32 in different orders (candle's batched matmuls, the
//! core's per-head products), so they agree to f32 rounding carried through three layers:
//! a gradient within 2e-5 of the larger of its tensor's largest entry and 1e-3 (measured:
//! 1.2e-6 for the baseline and V2, 6e-6 for V1), and weights after a step within 2e-6 of each other where the gradient is
//! not near Adam's ε (a first step moves each weight by lr·g/(|g| + ε) ≈ ±lr, so a
//! gradient that is rounding noise may point either way).

use candle_core::{Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use difflens::core::config::AttentionKind;
use difflens::core::train::{matched_params, Adam, AdamSettings, Batch, Net, Params};
use difflens_trainer::configs::model_config;
use difflens_trainer::model::CandleModel;
use difflens_trainer::text::train::window_loss;

const B: usize = 3;
const T: usize = 24;

fn batch(vocab: u32) -> (Batch, Tensor, Tensor) {
    let all: Vec<u32> = (0..B * (T + 1)).map(|i| ((i * 37 + i * i * 11 + 5) % vocab as usize) as u32).collect();
    let (mut x, mut y) = (vec![], vec![]);
    for b in 0..B {
        let seq = &all[b * (T + 1)..(b + 1) * (T + 1)];
        x.extend_from_slice(&seq[..T]);
        y.extend_from_slice(&seq[1..]);
    }
    let device = Device::Cpu;
    let tensors = (Tensor::from_vec(x.clone(), (B, T), &device).unwrap(), Tensor::from_vec(y.clone(), (B, T), &device).unwrap());
    (Batch { tokens: x, targets: y.into_iter().map(Some).collect(), seq_len: T }, tensors.0, tensors.1)
}

fn largest(values: &[f32]) -> f32 {
    values.iter().fold(0.0f32, |m, v| m.max(v.abs()))
}

#[test]
fn core_gradients_and_an_adamw_step_equal_candles() {
    for kind in AttentionKind::ALL {
        let config = model_config(kind);
        let params: Params<f32> = matched_params(&config, 11).unwrap();
        let net = Net::new(&config, &params).unwrap();
        let (batch, x, y) = batch(config.vocab_size as u32);
        let (loss, grads) = net.loss_and_grad(&params, &batch).unwrap();

        let model = CandleModel::from_store(&params.to_store(), config.clone()).unwrap();
        let candle_loss = window_loss(&model, &x, &y).unwrap();
        assert!((candle_loss.to_scalar::<f32>().unwrap() - loss).abs() < 1e-5, "{kind:?}: losses");
        let store = candle_loss.backward().unwrap();
        let mut worst = 0.0f32;
        for (name, var) in &model.vars {
            let theirs = store.get(var.as_tensor()).unwrap_or_else(|| panic!("{kind:?}: candle has no gradient for {name}")).flatten_all().unwrap().to_vec1::<f32>().unwrap();
            let ours: Vec<f32> = grads.mat(name).iter().copied().collect();
            let scale = largest(&theirs).max(1e-3);
            let diff = ours.iter().zip(&theirs).fold(0.0f32, |m, (a, b)| m.max((a - b).abs())) / scale;
            worst = worst.max(diff);
            assert!(diff < 2e-5, "{kind:?} {name}: gradients differ by {diff:e} of their largest entry");
        }
        eprintln!("{kind:?}: worst relative gradient difference {worst:e}");

        let lr = 1e-3;
        let mut optimizer = AdamW::new(model.all_vars(), ParamsAdamW { lr, weight_decay: 0.0, ..Default::default() }).unwrap();
        optimizer.step(&store).unwrap();
        let (mut stepped, mut adam) = (params.clone(), Adam::new(&params, AdamSettings { lr, ..Default::default() }));
        adam.step(&mut stepped, &grads, lr);
        let after = model.to_store().unwrap();
        let (mut compared, mut skipped) = (0, 0);
        for name in stepped.names() {
            let theirs = &after.get(name).unwrap().data;
            let g = grads.mat(name);
            for ((ours, theirs), g) in stepped.mat(name).iter().zip(theirs).zip(g.iter()) {
                // A token the batch never shows has exactly zero gradient: both leave it be.
                if *g != 0.0 && g.abs() < 1e-6 {
                    skipped += 1;
                    continue;
                }
                compared += 1;
                assert!((ours - theirs).abs() < 2e-6, "{kind:?} {name}: after one step {ours} vs {theirs} (gradient {g:e})");
            }
        }
        assert!(skipped * 100 < compared, "{kind:?}: {skipped} of {compared} weights had a gradient too small to compare");
    }
}
