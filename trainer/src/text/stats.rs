//! The intervals of the text results: a paired block bootstrap over contiguous spans of
//! the held-out text (neighbouring characters' losses are correlated, so resampling
//! single characters or windows would claim too much), the spread across training seeds,
//! and the two combined into one interval for DIFF − baseline.
//!
//! The combination: the seed-averaged difference d̄ varies with the text (its variance
//! se_data², from the block bootstrap, the same blocks drawn for every seed) and with the
//! training runs (s²/S from the S seeds' differences on the same text). The interval is
//! d̄ ± t·√(se_data² + s²/S), with t Student's at the Welch–Satterthwaite degrees of
//! freedom (se_data² counted as known, s²/S as estimated from S − 1): with three seeds
//! whose spread dominates, t nears 4.3 and the interval is as wide as three runs deserve.

use difflens::core::init::seeded;
use rand::Rng;
use std::ops::Range;

/// Cuts each of the texts (given by their lengths, one after another) into blocks of
/// `block` items, the last block of a text shorter; no block straddles two texts.
pub fn blocks(lengths: &[usize], block: usize) -> Vec<Range<usize>> {
    let mut out = vec![];
    let mut start = 0;
    for &len in lengths {
        out.extend((0..len.div_ceil(block)).map(|i| start + i * block..start + ((i + 1) * block).min(len)));
        start += len;
    }
    out
}

/// Lag-1 autocorrelation of a series (what says whether neighbouring blocks are
/// independent enough to be resampled one by one).
pub fn lag1_autocorrelation(x: &[f64]) -> f64 {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    let var: f64 = x.iter().map(|v| (v - m) * (v - m)).sum();
    let cov: f64 = x.windows(2).map(|w| (w[0] - m) * (w[1] - m)).sum();
    if var == 0.0 {
        0.0
    } else {
        cov / var
    }
}

/// Each block's sum of `d` and its length.
fn block_sums(d: &[f64], blocks: &[Range<usize>]) -> Vec<f64> {
    blocks.iter().map(|b| d[b.clone()].iter().sum()).collect()
}

/// A paired block bootstrap of the per-character mean of `d` (one series per seed,
/// aligned): each resample draws as many blocks as there are, with replacement, the same
/// blocks for every seed, and takes the seed-averaged mean over the drawn characters.
/// Returns (the statistic on the data, 2.5th and 97.5th percentiles, standard error).
pub fn block_bootstrap(d: &[Vec<f64>], blocks: &[Range<usize>], samples: usize, seed: u64) -> BootInterval {
    let sums: Vec<Vec<f64>> = d.iter().map(|s| block_sums(s, blocks)).collect();
    let lens: Vec<f64> = blocks.iter().map(|b| b.len() as f64).collect();
    let stat = |draw: &[usize]| {
        let n: f64 = draw.iter().map(|&i| lens[i]).sum();
        sums.iter().map(|s| draw.iter().map(|&i| s[i]).sum::<f64>() / n).sum::<f64>() / sums.len() as f64
    };
    let all: Vec<usize> = (0..blocks.len()).collect();
    let mut rng = seeded(seed);
    let mut means: Vec<f64> = (0..samples)
        .map(|_| {
            let draw: Vec<usize> = (0..blocks.len()).map(|_| rng.random_range(0..blocks.len())).collect();
            stat(&draw)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * (samples - 1) as f64).round()) as usize];
    let m = means.iter().sum::<f64>() / samples as f64;
    let se = (means.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (samples - 1).max(1) as f64).sqrt();
    BootInterval { mean: stat(&all), low95: at(0.025), high95: at(0.975), se }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BootInterval {
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
    pub se: f64,
}

/// Mean and sample standard deviation (0 for a single value).
pub fn mean_sd(x: &[f64]) -> (f64, f64) {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    let sd = if x.len() < 2 { 0.0 } else { (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt() };
    (m, sd)
}

/// The combined interval (module doc): `seed_diffs` are each seed's difference on the
/// whole text, `se_data` the block bootstrap's standard error of their mean. Returns
/// (mean, low95, high95, degrees of freedom; infinite when one seed leaves the training
/// variance unmeasured, which the caller must say).
pub fn combined(seed_diffs: &[f64], se_data: f64) -> (f64, f64, f64, f64) {
    let (m, sd) = mean_sd(seed_diffs);
    let s = seed_diffs.len() as f64;
    let v_seed = sd * sd / s;
    let v = se_data * se_data + v_seed;
    let df = if seed_diffs.len() < 2 || v_seed == 0.0 { f64::INFINITY } else { v * v / (v_seed * v_seed / (s - 1.0)) };
    let t = student_t_quantile(0.975, df);
    (m, m - t * v.sqrt(), m + t * v.sqrt(), df)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: ~1e-15 relative).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[0] + (1..9).map(|i| C[i] / (x + i as f64)).sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularised incomplete beta function I_x(a, b), by its continued fraction
/// (modified Lentz), on the side where it converges fast.
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - incomplete_beta(1.0 - x, b, a);
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp() / a;
    let tiny = 1e-300;
    let (mut c, mut d) = (1.0, 1.0 - (a + b) * x / (a + 1.0));
    d = 1.0 / if d.abs() < tiny { tiny } else { d };
    let mut f = d;
    for m in 1..300 {
        let m = m as f64;
        for numerator in [m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)), -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))] {
            d = 1.0 + numerator * d;
            d = 1.0 / if d.abs() < tiny { tiny } else { d };
            c = 1.0 + numerator / c;
            c = if c.abs() < tiny { tiny } else { c };
            f *= c * d;
        }
        if (c * d - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * f
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom (the normal for infinite df).
fn student_t_cdf(t: f64, df: f64) -> f64 {
    if df.is_infinite() || df > 1e7 {
        return 0.5 * (1.0 + erf(t / std::f64::consts::SQRT_2));
    }
    let tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// erf(x) = sign(x) · P(1/2, x²), the regularised lower incomplete gamma function, by
/// its series (which converges for every x; past |x| ≈ 6.3 erf is 1 to double precision).
fn erf(x: f64) -> f64 {
    let z = x * x;
    if z > 40.0 {
        return x.signum();
    }
    let (mut term, mut sum) = (2.0, 2.0); // 1/a with a = 1/2
    for n in 1..1000 {
        term *= z / (0.5 + n as f64);
        sum += term;
        if term < 1e-17 * sum {
            break;
        }
    }
    x.signum() * (sum * (0.5 * z.ln() - z - ln_gamma(0.5)).exp()).min(1.0)
}

/// The `p` quantile of Student's t (p > 1/2), by bisection on the CDF.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e3);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if student_t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_tables() {
        for (df, want) in [(1.0, 12.7062), (2.0, 4.3027), (3.0, 3.1824), (10.0, 2.2281), (30.0, 2.0423), (f64::INFINITY, 1.9600)] {
            let got = student_t_quantile(0.975, df);
            assert!((got - want).abs() < 1e-4, "df {df}: {got} against {want}");
        }
    }

    #[test]
    fn blocks_stay_within_each_text() {
        assert_eq!(blocks(&[5, 3], 2), vec![0..2, 2..4, 4..5, 5..7, 7..8]);
    }

    #[test]
    fn the_block_bootstrap_of_a_constant_is_that_constant() {
        let d = vec![vec![0.25; 100], vec![0.75; 100]];
        let b = block_bootstrap(&d, &blocks(&[60, 40], 7), 200, 1);
        assert!((b.mean - 0.5).abs() < 1e-12 && (b.low95 - 0.5).abs() < 1e-12 && (b.high95 - 0.5).abs() < 1e-12 && b.se < 1e-12, "{b:?}");
    }

    /// Independent noise: the bootstrap's standard error is σ/√n whatever the block length;
    /// a slowly varying series: blocks far shorter than its swings understate it.
    #[test]
    fn blocks_catch_what_single_items_miss() {
        let mut rng = seeded(7);
        let noise: Vec<f64> = (0..4000).map(|_| rng.random_range(-1.0..1.0)).collect();
        let sigma = (1.0f64 / 3.0).sqrt() / (4000f64).sqrt();
        for block in [1, 40] {
            let se = block_bootstrap(std::slice::from_ref(&noise), &blocks(&[4000], block), 1000, 2).se;
            assert!((se / sigma - 1.0).abs() < 0.15, "block {block}: {se} against {sigma}");
        }
        // A random walk's steps summed in runs of 200: strongly correlated neighbours.
        let slow: Vec<f64> = (0..4000).map(|i| noise[i / 200 * 200]).collect();
        let single = block_bootstrap(std::slice::from_ref(&slow), &blocks(&[4000], 1), 1000, 3).se;
        let long = block_bootstrap(std::slice::from_ref(&slow), &blocks(&[4000], 400), 1000, 3).se;
        assert!(long > 5.0 * single, "blocks of 400: {long}, single: {single}");
        assert!(lag1_autocorrelation(&slow) > 0.9 && lag1_autocorrelation(&noise).abs() < 0.1);
    }

    #[test]
    fn the_combined_interval_widens_with_the_seed_spread() {
        // One seed: the data's interval alone, normal quantile.
        let (m, lo, hi, df) = combined(&[0.01], 0.002);
        assert!(df.is_infinite() && (m - 0.01).abs() < 1e-15 && (hi - lo - 2.0 * 1.96 * 0.002).abs() < 1e-5);
        // Three seeds that disagree: close to a t interval with 2 degrees of freedom.
        let (m, lo, hi, df) = combined(&[0.0, 0.01, 0.02], 1e-6);
        assert!((m - 0.01).abs() < 1e-12 && (df - 2.0).abs() < 1e-3, "{df}");
        let half = 4.3027 * 0.01 / 3f64.sqrt();
        assert!((hi - m - half).abs() < 1e-4 && (m - lo - half).abs() < 1e-4);
    }
}
