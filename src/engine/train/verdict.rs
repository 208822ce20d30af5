//! What the numbers at the end of training support. For each DIFF kind against the
//! baseline, paired by seed (a seed gives both the same initialisation wherever their
//! shapes agree and the same batches):
//! - over seeds: each seed's held-out difference, their mean, and a Student-t 95%
//!   interval (training noise: initialisation and batch order);
//! - over held-out blocks: a paired bootstrap that resamples contiguous blocks of eight
//!   windows (neighbouring windows of one play are correlated; whole blocks keep that),
//!   the same blocks for both models (data noise).
//!
//! A difference is claimed only where both intervals leave zero out on the same side;
//! with one seed, training noise is unmeasured and nothing is claimed.

use crate::core::init::seeded;
use rand::Rng;

/// Bootstrap resamples (fixed seed: the same numbers give the same interval).
const RESAMPLES: usize = 2000;

/// Student-t's 97.5% quantiles for 1 to 4 degrees of freedom (2 to 5 seeds).
const T975: [f64; 4] = [12.706, 4.303, 3.182, 2.776];

/// What the numbers say about one kind against the baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Finding {
    /// One seed: the training noise is not measured.
    OneSeed,
    /// An interval holds zero.
    NotDistinguishable,
    /// Both intervals below zero: a lower held-out loss.
    Better,
    /// Both above zero.
    Worse,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Each seed's held-out loss minus the baseline's of the same seed.
    pub per_seed: Vec<f64>,
    pub mean: f64,
    /// 95% over seeds (`None` with one seed).
    pub seeds: Option<(f64, f64)>,
    /// 95% over held-out blocks (the seeds' mean difference, blocks resampled).
    pub blocks: (f64, f64),
    pub finding: Finding,
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The mean and Student-t 95% interval of `v` (`None` for fewer than two values).
pub fn t_interval(v: &[f64]) -> Option<(f64, f64)> {
    let n = v.len();
    if n < 2 {
        return None;
    }
    let m = mean(v);
    let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
    let t = T975.get(n - 2).copied().unwrap_or(1.96);
    let half = t * sd / (n as f64).sqrt();
    Some((m - half, m + half))
}

/// The paired block bootstrap's 95% interval of the mean difference: `diff[s][b]` is
/// seed `s`'s difference on held-out block `b`.
pub fn block_interval(diff: &[Vec<f64>]) -> (f64, f64) {
    let blocks = diff.first().map_or(0, Vec::len);
    if blocks == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mut rng = seeded(0xb007);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            let picks: Vec<usize> = (0..blocks).map(|_| rng.random_range(0..blocks)).collect();
            mean(&diff.iter().map(|seed| mean(&picks.iter().map(|&b| seed[b]).collect::<Vec<_>>())).collect::<Vec<_>>())
        })
        .collect();
    means.sort_by(f64::total_cmp);
    (means[RESAMPLES * 25 / 1000], means[RESAMPLES * 975 / 1000 - 1])
}

/// `kind[s][b]` against `baseline[s][b]`: held-out block losses by seed (the same seeds
/// in the same order, the same blocks).
pub fn compare(kind: &[Vec<f32>], baseline: &[Vec<f32>]) -> Comparison {
    let diff: Vec<Vec<f64>> = kind.iter().zip(baseline).map(|(k, b)| k.iter().zip(b).map(|(&k, &b)| k as f64 - b as f64).collect()).collect();
    let per_seed: Vec<f64> = diff.iter().map(|d| mean(d)).collect();
    let seeds = t_interval(&per_seed);
    let blocks = block_interval(&diff);
    let finding = match seeds {
        None => Finding::OneSeed,
        Some((lo, hi)) if lo > 0.0 && blocks.0 > 0.0 && hi > 0.0 => Finding::Worse,
        Some((lo, hi)) if hi < 0.0 && blocks.1 < 0.0 && lo < 0.0 => Finding::Better,
        Some(_) => Finding::NotDistinguishable,
    };
    Comparison { mean: mean(&per_seed), per_seed, seeds, blocks, finding }
}
