//! AdamW (Loshchilov & Hutter 2019) with the update order of candle's `AdamW`, which
//! trained the shipped models: moments, bias corrections, decoupled weight decay, then
//! `θ ← θ·(1 − lr·wd) − lr·m̂/(√v̂ + ε)`. The page trains with weight decay 0, as the
//! shipped models did (so it is Adam; the decay is there to match the trainer's call).

use super::params::Params;
use super::real::Real;
use ndarray::Zip;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamSettings {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
}

impl Default for AdamSettings {
    /// candle's defaults, with no weight decay.
    fn default() -> Self {
        Self { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weight_decay: 0.0 }
    }
}

/// The optimiser's state: both moments of every parameter and the step count.
#[derive(Clone, Debug)]
pub struct Adam<R> {
    pub settings: AdamSettings,
    m: Params<R>,
    v: Params<R>,
    steps: u32,
}

impl<R: Real> Adam<R> {
    pub fn new(params: &Params<R>, settings: AdamSettings) -> Self {
        Self { settings, m: params.zeros_like(), v: params.zeros_like(), steps: 0 }
    }

    /// The optimiser as [`Adam::moments`] and [`Adam::steps`] left it (a run resumed in
    /// another worker).
    pub fn from_moments(settings: AdamSettings, m: Params<R>, v: Params<R>, steps: u32) -> Self {
        Self { settings, m, v, steps }
    }

    /// The first and second moments.
    pub fn moments(&self) -> (&Params<R>, &Params<R>) {
        (&self.m, &self.v)
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// One update of `params` by `grads` (the same names) at learning rate `lr`.
    pub fn step(&mut self, params: &mut Params<R>, grads: &Params<R>, lr: f64) {
        self.steps += 1;
        let s = self.settings;
        let t = self.steps as i32;
        let (scale_m, scale_v) = (R::of(1.0 / (1.0 - s.beta1.powi(t))), R::of(1.0 / (1.0 - s.beta2.powi(t))));
        let (b1, b2, eps, lr_r) = (R::of(s.beta1), R::of(s.beta2), R::of(s.eps), R::of(lr));
        let (c1, c2, decay) = (R::of(1.0 - s.beta1), R::of(1.0 - s.beta2), R::of(1.0 - lr * s.weight_decay));
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((name, theta), ((_, m), (_, v))) in params.iter_mut().zip(moments) {
            let g = grads.mat(name);
            Zip::from(&mut theta.value).and(&mut m.value).and(&mut v.value).and(&g).for_each(|p, m, v, &g| {
                *m = *m * b1 + g * c1;
                *v = *v * b2 + g * g * c2;
                let (m_hat, v_hat) = (*m * scale_m, *v * scale_v);
                *p = *p * decay - m_hat / (v_hat.sqrt() + eps) * lr_r;
            });
        }
    }
}
