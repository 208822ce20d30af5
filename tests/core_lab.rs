//! The noise-floor lab: seeded determinism, the statistics the generator promises, and
//! the metrics computed three ways (from maps, streamed, by the exact λ sweep).

use difflens::core::lab::*;

fn params() -> LabParams {
    LabParams { n: 200, n_signal: 3, signal: 4.0, noise: 1.5, common: 0.95, seed: 11, head_dim: 32 }
}

#[test]
fn the_generator_is_seeded() {
    let (a, b) = (generate(&params()), generate(&params()));
    assert_eq!((a.q.clone(), a.k1.clone(), a.signal_keys.clone()), (b.q, b.k1, b.signal_keys));
    let c = generate(&LabParams { seed: 12, ..params() });
    assert_ne!(a.k1, c.k1);
    assert_eq!(a.signal_keys.len(), 3);
    assert!(a.signal_keys.windows(2).all(|w| w[0] < w[1]));
}

/// Noise logits have std σ and cross-branch correlation c; signal keys gain s in branch 1.
#[test]
fn logits_have_the_promised_statistics() {
    let p = LabParams { n: 600, noise: 2.0, common: 0.7, ..params() };
    let x = generate(&p);
    let scale = x.scale();
    let l1 = x.q.dot(&x.k1.t()) * scale;
    let l2 = x.q.dot(&x.k2.t()) * scale;
    let noise_cols: Vec<usize> = (0..p.n).filter(|j| !x.signal_keys.contains(j)).collect();
    let pairs: Vec<(f64, f64)> = (0..p.n).flat_map(|i| noise_cols.iter().map(move |&j| (i, j))).map(|(i, j)| (l1[[i, j]] as f64, l2[[i, j]] as f64)).collect();
    let n = pairs.len() as f64;
    let var1 = pairs.iter().map(|p| p.0 * p.0).sum::<f64>() / n;
    let var2 = pairs.iter().map(|p| p.1 * p.1).sum::<f64>() / n;
    let corr = pairs.iter().map(|p| p.0 * p.1).sum::<f64>() / n / (var1 * var2).sqrt();
    assert!((var1.sqrt() - 2.0).abs() < 0.15, "noise std {}", var1.sqrt());
    assert!((corr - 0.7).abs() < 0.05, "correlation {corr}");
    for &j in &x.signal_keys {
        for i in 0..p.n {
            assert!((l1[[i, j]] - 4.0).abs() < 1e-5 && l2[[i, j]] == 0.0, "signal keys carry exactly s in branch 1 and nothing in branch 2");
        }
    }
}

#[test]
fn streamed_metrics_equal_metrics_from_maps() {
    let x = generate(&params());
    let maps = maps(&x);
    for lambda in [-0.5, 0.0, 0.8, 1.7] {
        let (a, b) = (metrics(&x, &maps, lambda), metrics_streaming(&x, lambda));
        assert!((a.standard.snr - b.standard.snr).abs() < 1e-9 * a.standard.snr.abs().max(1.0));
        assert!((a.differential.snr - b.differential.snr).abs() < 1e-6 * a.differential.snr.abs().max(1.0));
        assert_eq!(a.diff_row_sum, 1.0 - lambda as f64);
    }
}

#[test]
fn metrics_streamed_a_few_rows_at_a_time_are_the_same_numbers() {
    let x = generate(&params());
    let whole = metrics_streaming(&x, 0.8);
    for rows in [1usize, 7, 1000] {
        let mut stream = MetricsStream::new(std::borrow::Cow::Borrowed(&x), 0.8);
        let mut steps = 1;
        while stream.advance(rows) {
            steps += 1;
        }
        assert_eq!(steps, x.n().div_ceil(rows), "{rows} rows per step");
        assert_eq!(stream.finish(), whole, "{rows} rows per step");
    }
    // A chart point is a whole problem at that noise amplitude.
    let mut point = noise_point_stream(&params(), 0.8, 2.5);
    while point.advance(5) {}
    assert_eq!(NoiseSweepPoint::new(2.5, &point.finish()), noise_sweep(&params(), 0.8, &[2.5])[0]);
}

#[test]
fn differential_attention_beats_standard_when_noise_is_shared() {
    let x = generate(&params());
    let m = metrics(&x, &maps(&x), 0.8);
    assert!(m.snr_gain() > 2.0, "gain {}", m.snr_gain());
    assert!(m.differential.noise_mass < m.standard.noise_mass);
    // λ = 0 is standard attention.
    let zero = metrics(&x, &maps(&x), 0.0);
    assert!((zero.differential.snr - zero.standard.snr).abs() < 1e-9 * zero.standard.snr);
}

#[test]
fn the_exact_sweep_agrees_with_direct_metrics_and_finds_the_best_lambda() {
    let x = generate(&params());
    let m = maps(&x);
    let sweep = LambdaSweep::new(&x, &m);
    for lambda in linspace(-1.0, 2.0, 31) {
        let direct = metrics(&x, &m, lambda).differential;
        assert!((sweep.snr(lambda) - direct.snr).abs() < 1e-6 * direct.snr.abs().max(1.0), "λ={lambda}: {} vs {}", sweep.snr(lambda), direct.snr);
        let fast = sweep.differential(lambda);
        assert!((fast.noise_mass - direct.noise_mass).abs() < 1e-6 && (fast.signal_mass - direct.signal_mass).abs() < 1e-6);
    }
    let best = sweep.best_lambda(-1.0, 2.0);
    let grid_best = linspace(-1.0, 2.0, 301).into_iter().map(|l| sweep.snr(l)).fold(f64::MIN, f64::max);
    assert!(best.snr >= grid_best - 1e-9, "the exact optimum {} is below a grid point {grid_best}", best.snr);
    assert!(best.x > 0.0 && best.x < 1.0, "best λ {}", best.x);
}

#[test]
fn fully_shared_noise_mostly_cancels() {
    let p = LabParams { common: 1.0, ..params() };
    let x = generate(&p);
    let m = maps(&x);
    let best = LambdaSweep::new(&x, &m).best_lambda(0.0, 1.0);
    let standard = metrics(&x, &m, 0.0).standard;
    // Exact cancellation would need λ = Z2/Z1 row by row (a V1 λ is one scalar), so
    // the gain is large but finite.
    assert!(best.snr > 10.0 * standard.snr, "common-mode noise should largely cancel: {} vs {}", best.snr, standard.snr);
    let independent = generate(&LabParams { common: 0.0, ..p });
    let m0 = maps(&independent);
    let gain0 = LambdaSweep::new(&independent, &m0).best_lambda(0.0, 1.0).snr / metrics(&independent, &m0, 0.0).standard.snr;
    assert!(gain0 < 2.0, "independent noise cannot be cancelled: gain {gain0}");
}

#[test]
fn crossover_is_where_standard_snr_meets_the_threshold() {
    let p = params();
    let sigma = crossover(&p, 2.0, 6.0).expect("standard attention fails before σ = 6");
    let snr_at = |s: f32| metrics_streaming(&generate(&LabParams { noise: s, ..p.clone() }), 0.0).standard.snr;
    assert!(snr_at(sigma - 0.01) >= 2.0 && snr_at(sigma + 0.01) < 2.0, "σ* = {sigma}");
    assert_eq!(crossover(&LabParams { signal: 0.0, ..p.clone() }, 2.0, 6.0), Some(0.0));
    assert_eq!(crossover(&p, 1e-9, 0.5), None);
}

#[test]
fn noise_sweep_falls_for_standard_attention() {
    let pts = noise_sweep(&params(), 0.8, &[0.5, 1.5, 3.0]);
    assert!(pts[0].standard_snr > pts[1].standard_snr && pts[1].standard_snr > pts[2].standard_snr);
    assert!(pts.iter().all(|p| p.differential_snr > p.standard_snr));
}

#[test]
fn the_noise_floor_grows_with_context_without_an_n_by_n_matrix() {
    let p = LabParams { noise: 1.0, signal: 6.0, ..params() };
    let curve = noise_mass_curve(&p, 0.8, &[1024, 8192, 131_072]);
    assert!(curve[0].standard < curve[1].standard && curve[1].standard < curve[2].standard);
    for pt in &curve {
        assert!((pt.standard - pt.standard_expected).abs() < 0.1 * pt.standard_expected, "{pt:?}");
        assert!(pt.differential < pt.standard);
    }
    // The lesson's figure, corrected: 0.0001% per token over 128k tokens is 12.8%.
    assert!((uniform_noise_total(1e-6, 128_000) - 0.128).abs() < 1e-12);
}

#[test]
fn the_page_engine_metrics_equal_the_direct_ones() {
    use difflens::engine::lab::LabRun;
    let run = LabRun::compute_cpu(&params());
    for lambda in [-0.3f32, 0.0, 0.7, 1.9] {
        let (fast, direct) = (run.metrics(lambda), metrics(&run.inputs, &run.maps, lambda));
        assert!((fast.differential.snr - direct.differential.snr).abs() < 1e-6 * direct.differential.snr);
        assert!((fast.differential.noise_mass - direct.differential.noise_mass).abs() < 1e-9);
        assert_eq!(fast.standard, direct.standard);
    }
}
