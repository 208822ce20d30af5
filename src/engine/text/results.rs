//! What `eval.json` says of the text models on the held-out plays: each model's loss
//! (every seed's, the long-context and the window evaluation), the Kneser–Ney n-gram
//! beside them, each DIFF model's difference from the baseline with its interval, and
//! all of it per play. The trainer writes it (`difflens-trainer text-eval`); the page
//! only reads.

use crate::core::config::AttentionKind;
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ModelResult {
    pub held_out_loss: f64,
    pub bits_per_char: f64,
    pub windows: usize,
    pub checkpoint_losses: Vec<f64>,
    #[serde(default)]
    pub long_context_loss: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Difference {
    pub model: String,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
}

/// `eval.json` beside the text models.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct EvalSummary {
    pub models: Vec<(String, ModelResult)>,
    pub versus_baseline: Vec<Difference>,
    pub method: String,
    /// Absent from files written before the long-context evaluation and the seeds.
    #[serde(default)]
    pub long_context: Option<LongContext>,
}

/// The long-context evaluation of every seed's models and of the n-gram.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LongContext {
    pub min_context: usize,
    pub stride: usize,
    pub characters: usize,
    /// The held-out plays' slugs (`julius-caesar`, …), in the per-play lists' order.
    pub plays: Vec<String>,
    pub seeds: Vec<u64>,
    pub block: usize,
    pub blocks: usize,
    /// Baseline, DIFF V1, DIFF V2.
    pub models: Vec<ModelLoss>,
    pub ngram: NGram,
    pub versus: Vec<Versus>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ModelLoss {
    pub model: String,
    pub seed_losses: Vec<f64>,
    pub mean: f64,
    pub sd: f64,
    pub per_play: Vec<f64>,
    pub ngram_better_blocks: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct NGram {
    pub order: usize,
    pub loss: f64,
    pub per_play: Vec<f64>,
    pub aside_plays: Vec<String>,
    pub fit_seconds: f64,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Versus {
    pub model: String,
    pub seed_differences: Vec<f64>,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
    pub data_low95: f64,
    pub data_high95: f64,
    pub degrees_of_freedom: Option<f64>,
    pub per_play: Vec<f64>,
}

/// Whether a 95% interval of DIFF − baseline lies wholly below zero (DIFF better),
/// wholly above (worse), or spans it (no difference the evaluation can tell).
pub fn verdict(low95: f64, high95: f64) -> std::cmp::Ordering {
    if high95 < 0.0 {
        std::cmp::Ordering::Less
    } else if low95 > 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

impl LongContext {
    pub fn model(&self, kind: AttentionKind) -> Option<&ModelLoss> {
        self.models.iter().find(|m| m.model == kind.slug())
    }

    pub fn versus(&self, kind: AttentionKind) -> Option<&Versus> {
        self.versus.iter().find(|v| v.model == kind.slug())
    }
}

impl EvalSummary {
    pub fn parse(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| crate::tr!("card-invalid", error = e.to_string()))
    }

    pub fn result(&self, kind: AttentionKind) -> Option<&ModelResult> {
        self.models.iter().find(|(k, _)| k == kind.slug()).map(|(_, r)| r)
    }

    pub fn versus(&self, kind: AttentionKind) -> Option<&Difference> {
        self.versus_baseline.iter().find(|d| d.model == kind.slug())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> EvalSummary {
        EvalSummary::parse(&std::fs::read_to_string(format!("{}/www/text-models/eval.json", env!("CARGO_MANIFEST_DIR"))).unwrap()).unwrap()
    }

    /// What the page reads holds together: every model has every seed and play; each
    /// difference is the models' own losses subtracted, averaged over the seeds; each
    /// interval holds its mean, and the one that counts the seeds is no narrower than the
    /// text's alone; the headline difference is the long-context one.
    #[test]
    fn the_shipped_evaluation_holds_together() {
        let s = shipped();
        let long = s.long_context.clone().expect("the long-context evaluation");
        assert_eq!(long.plays.len(), 5);
        assert!(long.ngram.per_play.len() == 5 && long.ngram.loss > 0.5 && long.ngram.loss < 3.0);
        for kind in AttentionKind::ALL {
            let m = long.model(kind).unwrap();
            assert_eq!(m.seed_losses.len(), long.seeds.len(), "{kind:?}");
            assert_eq!(m.per_play.len(), 5);
            let mean = m.seed_losses.iter().sum::<f64>() / m.seed_losses.len() as f64;
            assert!((mean - m.mean).abs() < 1e-12);
            // The long context scores every character with more before it: less loss.
            assert!(m.mean < s.result(kind).unwrap().held_out_loss, "{kind:?}");
        }
        let base = long.model(AttentionKind::Baseline).unwrap();
        for kind in &AttentionKind::ALL[1..] {
            let (m, v) = (long.model(*kind).unwrap(), long.versus(*kind).unwrap());
            for (i, d) in v.seed_differences.iter().enumerate() {
                assert!((d - (m.seed_losses[i] - base.seed_losses[i])).abs() < 1e-9, "{kind:?} seed {i}");
            }
            assert!(v.low95 <= v.mean && v.mean <= v.high95 && v.data_low95 <= v.mean && v.mean <= v.data_high95);
            assert!(v.high95 - v.low95 >= (v.data_high95 - v.data_low95) * 0.9, "{kind:?}");
            let headline = s.versus_baseline.iter().find(|d| d.model == kind.slug()).unwrap();
            assert_eq!((headline.mean, headline.low95, headline.high95), (v.mean, v.low95, v.high95));
        }
    }

    #[test]
    fn a_verdict_needs_the_whole_interval_on_one_side() {
        assert_eq!(verdict(-0.02, -0.001), std::cmp::Ordering::Less);
        assert_eq!(verdict(0.001, 0.02), std::cmp::Ordering::Greater);
        assert_eq!(verdict(-0.001, 0.02), std::cmp::Ordering::Equal);
    }
}
