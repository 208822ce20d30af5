use difflens::core::lab::*;
fn main() {
    for &(sigma, c) in &[(1.0f32, 0.8f32), (1.0, 0.9), (1.0, 0.95), (1.0, 0.99), (1.0, 1.0), (1.5, 0.95), (0.5, 0.9), (0.0, 0.0), (2.0, 0.99)] {
        let p = LabParams { n: 256, n_signal: 4, signal: 4.0, noise: sigma, common: c, seed: 1, head_dim: 32 };
        let x = generate(&p);
        let m = maps(&x);
        let sw = LambdaSweep::new(&x, &m);
        let best = sw.best_lambda(-1.0, 2.0);
        let met = metrics(&x, &m, best.x as f32);
        let m08 = metrics(&x, &m, 0.8);
        println!("σ={sigma} c={c}: std snr {:.2} mass sig {:.3} noise {:.3} | best λ {:.3} snr {:.2} gain {:.2} diff noise mass {:.3} | λ=.8 gain {:.2}", met.standard.snr, met.standard.signal_mass, met.standard.noise_mass, best.x, best.snr, met.snr_gain(), met.differential.noise_mass, m08.snr_gain());
    }
}
