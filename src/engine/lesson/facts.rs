//! The lesson's live numbers: each step's figure computes its problem, and the sentence
//! beside it is made here from that problem, so the text is true for every position of
//! the step's slider (a sentence chooses "falls" or "rises" from the numbers, never
//! assumes one). Pure functions of the engine's results, tested natively.

use crate::core::attention::LambdaTrace;
use crate::core::retrieval::word;
use crate::engine::arch::{count, difference, ArchConfig, Variant};
use crate::engine::explorer::evidence::Net;
use crate::engine::lab::{lambda_init_for_depth, LabRun, NoiseMassPoint, SnrPoint};
use crate::engine::model::{signed_lambda, Explained};
use crate::state::model_state::AttentionKind;
use crate::tr;

/// A share as a student reads it: "38%", "4.1%", "0.25%", "3.1 × 10⁻⁵ %" never: below
/// 0.01% the value is given in scientific notation without the percent sign.
pub fn percent(share: f64) -> String {
    let p = 100.0 * share;
    match p.abs() {
        a if a >= 10.0 => format!("{p:.0}%"),
        a if a >= 1.0 => format!("{p:.1}%"),
        a if a >= 0.01 => format!("{p:.2}%"),
        _ => scientific(share),
    }
}

/// "3.1 × 10⁻⁵", the way a textbook writes it.
pub fn scientific(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let exp = v.abs().log10().floor() as i32;
    let mantissa = v / 10f64.powi(exp);
    let sup: String = exp
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().nth(d.to_digit(10).unwrap_or(0) as usize).unwrap_or('?'),
        })
        .collect();
    format!("{mantissa:.1} × 10{sup}")
}

/// Three significant figures for an SNR or a ratio.
pub fn sig3(v: f64) -> String {
    match v.abs() {
        a if !a.is_finite() => "∞".into(),
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
    .replace('-', "−")
}

/// How a quantity moved: the catalogue's word for "rises", "falls" or "stays about the same".
fn change(from: f64, to: f64) -> String {
    tr!(if to > from * 1.005 {
        "change-rises"
    } else if to < from * 0.995 {
        "change-falls"
    } else {
        "change-same"
    })
}

/// Step 1: one query's row of standard attention.
#[derive(Clone, Debug, PartialEq)]
pub struct RowFacts {
    pub row: usize,
    /// The smallest weight in the row (never zero).
    pub min: f64,
    pub noise_mass: f64,
    pub signal_mass: f64,
    pub noise_keys: usize,
    pub signal_keys: usize,
}

impl RowFacts {
    pub fn of(run: &LabRun, row: usize) -> Self {
        let (a1, _) = run.row(row, 0.0);
        let signal = run.inputs.is_signal();
        let (mut noise_mass, mut signal_mass) = (0.0, 0.0);
        for (w, s) in a1.iter().zip(&signal) {
            if *s {
                signal_mass += *w as f64
            } else {
                noise_mass += *w as f64
            }
        }
        let min = a1.iter().fold(f32::INFINITY, |m, w| m.min(*w)) as f64;
        let signal_keys = run.inputs.signal_keys.len();
        Self { row, min, noise_mass, signal_mass, noise_keys: a1.len() - signal_keys, signal_keys }
    }

    pub fn sentence(&self) -> String {
        tr!("facts-row", row = self.row, min = scientific(self.min), noise_keys = self.noise_keys, noise = percent(self.noise_mass), signal_keys = self.signal_keys, signal = percent(self.signal_mass))
    }
}

/// Step 2: the noise mass at the shortest and the longest context.
pub fn context_sentence(points: &[NoiseMassPoint], sigma: f32) -> Option<String> {
    let (first, last) = (points.first()?, points.last()?);
    Some(tr!(
        "facts-context",
        sigma = format!("{sigma:.2}"),
        first = percent(first.standard),
        first_n = first.n,
        last = percent(last.standard),
        last_n = last.n,
        first_expected = percent(first.standard_expected),
        last_expected = percent(last.standard_expected)
    ))
}

/// Step 3: how alike the two maps' noise is: within each query's row, the correlation of
/// A1's and A2's weights on the noise keys, averaged over the queries. Per row, because a
/// row's scale differs between the maps (A1's denominator also holds the signal keys):
/// the speckle's pattern is what the eye compares, not its brightness.
pub fn noise_correlation(run: &LabRun) -> f64 {
    let signal = run.inputs.is_signal();
    let rows: Vec<f64> = run
        .maps
        .a1
        .rows()
        .into_iter()
        .zip(run.maps.a2.rows())
        .filter_map(|(r1, r2)| {
            let pairs: Vec<(f64, f64)> = r1.iter().zip(r2.iter()).zip(&signal).filter(|(_, s)| !**s).map(|((x, y), _)| (*x as f64, *y as f64)).collect();
            pearson(&pairs)
        })
        .collect();
    if rows.is_empty() {
        0.0
    } else {
        rows.iter().sum::<f64>() / rows.len() as f64
    }
}

/// The correlation of the pairs, or `None` where either side does not vary.
fn pearson(pairs: &[(f64, f64)]) -> Option<f64> {
    let n = pairs.len() as f64;
    let (mx, my) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        sxx += (x - mx).powi(2);
        syy += (y - my).powi(2);
        sxy += (x - mx) * (y - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

pub fn branches_sentence(common: f32, correlation: f64) -> String {
    let verdict = tr!(match correlation {
        r if r >= 0.8 => "speckle-same",
        r if r >= 0.4 => "speckle-partly",
        _ => "speckle-different",
    });
    tr!("facts-branches", shared = format!("{:.0}", 100.0 * common), r = format!("{correlation:.2}"), verdict = verdict)
}

/// Step 4: what subtracting did, at λ.
#[derive(Clone, Debug, PartialEq)]
pub struct SubtractFacts {
    pub lambda: f32,
    /// The first row of A1 − λ·A2, summed (it should be 1 − λ).
    pub row_sum: f64,
    pub noise_standard: f64,
    pub noise_diff: f64,
    pub snr_standard: f64,
    pub snr_diff: f64,
}

impl SubtractFacts {
    pub fn of(run: &LabRun, lambda: f32) -> Self {
        let (_, diff) = run.row(0, lambda);
        let m = run.metrics(lambda);
        Self {
            lambda,
            row_sum: diff.iter().map(|w| *w as f64).sum(),
            noise_standard: m.standard.noise_mass,
            noise_diff: m.differential.noise_mass,
            snr_standard: m.standard.snr,
            snr_diff: m.differential.snr,
        }
    }

    pub fn sentence(&self) -> String {
        tr!(
            "facts-subtract",
            lambda = signed_lambda(self.lambda),
            sum = format!("{:.3}", self.row_sum),
            rest = format!("{:.3}", 1.0 - self.lambda as f64),
            noise_change = change(self.noise_standard, self.noise_diff),
            noise_a1 = percent(self.noise_standard),
            noise_diff = percent(self.noise_diff),
            snr_change = change(self.snr_standard, self.snr_diff),
            snr_a1 = sig3(self.snr_standard),
            snr_diff = sig3(self.snr_diff)
        )
    }
}

/// Steps 5 and 6: the SNR curve's verdict at the current λ.
#[derive(Clone, Debug, PartialEq)]
pub struct ChooseFacts {
    pub best: SnrPoint,
    /// The share of A1's rows the noise keys hold (averaged over queries).
    pub noise_share: f64,
    pub standard: f64,
    pub lambda: f32,
    pub at_lambda: f64,
    /// The end of the slider, λ = 2.
    pub at_end: SnrPoint,
}

impl ChooseFacts {
    pub fn of(run: &LabRun, curve: &[SnrPoint], best: SnrPoint, lambda: f32) -> Self {
        let m = run.metrics(lambda);
        let at_end = *curve.last().unwrap_or(&best);
        Self { best, noise_share: m.standard.noise_mass, standard: m.standard.snr, lambda, at_lambda: m.differential.snr, at_end }
    }

    pub fn gain(&self) -> f64 {
        self.best.snr / self.standard
    }

    pub fn sentence(&self) -> String {
        tr!(
            "facts-choose",
            noise = percent(self.noise_share),
            best = format!("{:.2}", self.best.x),
            best_snr = sig3(self.best.snr),
            gain = sig3(self.gain()),
            standard = sig3(self.standard),
            lambda = signed_lambda(self.lambda),
            snr = sig3(self.at_lambda),
            end = format!("{:.2}", self.at_end.x),
            end_snr = sig3(self.at_end.snr)
        )
    }
}

/// Step 6: the best gain with the current share, against the previous steps' share.
pub fn failure_sentence(common: f32, here: &ChooseFacts, reference_common: f32, reference: &ChooseFacts) -> String {
    let verdict = if here.gain() < 1.5 {
        "barely"
    } else if here.gain() < reference.gain() * 0.8 {
        "less"
    } else {
        "still"
    };
    tr!(
        "facts-failure",
        shared = format!("{:.0}", 100.0 * common),
        best = format!("{:.2}", here.best.x),
        from = sig3(here.standard),
        to = sig3(here.best.snr),
        gain = sig3(here.gain()),
        verdict = verdict,
        reference = format!("{:.0}", 100.0 * reference_common),
        reference_gain = sig3(reference.gain())
    )
}

/// λ_init at depths 0…7 (DIFF V1's schedule).
pub fn lambda_init_table() -> Vec<(usize, f32)> {
    (0..8).map(|d| (d, lambda_init_for_depth(d))).collect()
}

/// Step 7: one row of the cost table.
#[derive(Clone, Debug, PartialEq)]
pub struct CostRow {
    pub name: String,
    pub attention: String,
    pub model: String,
    pub model_vs_baseline: String,
    pub cache: String,
    pub read: String,
}

fn bytes(b: u128) -> String {
    match b {
        b if b >= 1 << 20 => format!("{:.2} MiB", b as f64 / (1u128 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} KiB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

/// The calculator's default (7B-class) config, or with grouped KV heads.
pub fn cost_rows(c: &ArchConfig) -> Vec<CostRow> {
    [(Variant::Baseline, tr!("cost-baseline")), (Variant::DiffV1, "DIFF V1".to_string()), (Variant::DiffV2, "DIFF V2".to_string())]
        .into_iter()
        .map(|(v, name)| CostRow {
            name,
            attention: count(c.attention_params(v).total()),
            model: count(c.model_params(v)),
            model_vs_baseline: difference(c.model_params(v), c.model_params(Variant::Baseline)),
            cache: bytes(c.kv_cache_bytes_per_token(v)),
            read: bytes(c.kv_cache_bytes_read_per_token(v)),
        })
        .collect()
}

pub fn cost_sentence(c: &ArchConfig) -> String {
    let read = |v| c.kv_cache_bytes_read_per_token(v) as f64 / c.kv_cache_bytes_read_per_token(Variant::Baseline) as f64;
    let share = |v| (c.model_params(v) as f64 / c.model_params(Variant::Baseline) as f64 - 1.0) * 100.0;
    tr!(
        "facts-cost",
        hidden = c.hidden,
        heads = c.heads,
        head_dim = c.head_dim,
        layers = c.layers,
        v1_more = format!("{:.4}", share(Variant::DiffV1)),
        v1_read = format!("{:.1}", read(Variant::DiffV1)),
        v2_more = format!("{:.1}", share(Variant::DiffV2)),
        v2_read = format!("{:.1}", read(Variant::DiffV2))
    )
}

/// Steps 8 and 9: what one trained model did with the lesson's prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFacts {
    pub kind: AttentionKind,
    pub predicted: String,
    pub probability: f32,
    pub right: bool,
    pub answer: String,
    /// Net weight of the "→" row, averaged over every head of every layer (Table 3's way).
    pub mean: Net,
    /// The last layer's head with most net weight on the needle, and that weight.
    pub best_head: usize,
    pub best: Net,
    /// DIFF V1's λ in layer 0 (learnt; may be negative).
    pub first_lambda: Option<f32>,
    pub logit_top1: f32,
    pub logit_median: f32,
}

impl ModelFacts {
    pub fn of(kind: AttentionKind, x: &Explained) -> Self {
        let p = &x.predictions[0];
        let last = x.output.layers.len().saturating_sub(1);
        let best_head = x.net.best_head(last);
        let first_lambda = match x.output.layers.first().map(|l| &l.lambda) {
            Some(LambdaTrace::Scalar(l)) => Some(*l),
            _ => None,
        };
        Self {
            kind,
            predicted: word(p.predicted),
            probability: p.probability,
            right: p.right(),
            answer: word(p.answer),
            mean: x.net.mean(),
            best_head,
            best: x.net.0.get(last).and_then(|h| h.get(best_head)).copied().unwrap_or_default(),
            first_lambda,
            logit_top1: x.magnitudes.logits.top1,
            logit_median: x.magnitudes.logits.median,
        }
    }

    pub fn prediction(&self) -> String {
        tr!(if self.right { "facts-prediction-right" } else { "facts-prediction-wrong" }, predicted = self.predicted.clone(), percent = percent(self.probability as f64), answer = self.answer.clone())
    }
}

/// Step 9's honest note on DIFF V1's first layer, when its learnt λ is negative.
pub fn negative_lambda_note(models: &[ModelFacts]) -> Option<String> {
    let v1 = models.iter().find(|m| m.kind == AttentionKind::DiffV1)?;
    let l = v1.first_lambda.filter(|l| *l < 0.0)?;
    Some(tr!("facts-negative-lambda", lambda = signed_lambda(l)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::lab::LabParams;
    use crate::engine::lab::{context_lengths, noise_mass_point};
    use crate::state::lab_state::LabState;

    /// The lesson's own problem (step 5's preset) at another share and length.
    fn run(common: f32, n: usize) -> LabRun {
        let preset = crate::engine::lesson::STEPS[4].preset.expect("a lab step");
        LabRun::compute_cpu(&LabState { n, common, ..preset() }.lab_params())
    }

    #[test]
    fn numbers_read_as_a_student_reads_them() {
        assert_eq!(percent(0.382), "38%");
        assert_eq!(percent(0.0412), "4.1%");
        assert_eq!(percent(0.0025), "0.25%");
        assert_eq!(scientific(3.14e-5), "3.1 × 10⁻⁵");
        assert_eq!(scientific(2.0e3), "2.0 × 10³");
        assert_eq!(sig3(140.4), "140");
        assert_eq!(sig3(-1.234), "−1.23");
    }

    #[test]
    fn the_row_facts_add_up_and_state_the_minimum() {
        let r = run(0.95, 128);
        let f = RowFacts::of(&r, 3);
        assert!((f.noise_mass + f.signal_mass - 1.0).abs() < 1e-5, "a softmax row sums to 1");
        assert!(f.min > 0.0, "no weight is exactly zero");
        assert_eq!(f.noise_keys + f.signal_keys, 128);
        let (a1, _) = r.row(3, 0.0);
        assert_eq!(f.min, a1.iter().copied().fold(f32::INFINITY, f32::min) as f64);
        assert!(f.sentence().contains(&format!("the {} noise keys hold {}", f.noise_keys, percent(f.noise_mass))), "{}", f.sentence());
    }

    #[test]
    fn the_subtraction_sentence_says_what_happened_at_any_lambda() {
        let r = run(0.95, 64);
        let at = SubtractFacts::of(&r, 0.8);
        assert!((at.row_sum - 0.2).abs() < 1e-5, "rows of A1 − λA2 sum to 1 − λ");
        assert!(at.sentence().contains("falls from") && at.sentence().contains("SNR rises"), "{}", at.sentence());
        let neg = SubtractFacts::of(&r, -1.0);
        assert!((neg.row_sum - 2.0).abs() < 1e-5);
        assert!(neg.sentence().contains("noise keys rises from"), "a negative λ adds noise: {}", neg.sentence());
        let zero = SubtractFacts::of(&r, 0.0);
        assert!(zero.sentence().contains("stays about the same"), "{}", zero.sentence());
        let too_much = SubtractFacts::of(&r, 2.0);
        assert!(too_much.sentence().contains("noise keys rises from"), "step 5: too much λ subtracts more noise than A1 had: {}", too_much.sentence());
    }

    #[test]
    fn shared_noise_correlates_and_independent_noise_does_not() {
        let (shared, own) = (noise_correlation(&run(0.95, 64)), noise_correlation(&run(0.0, 64)));
        assert!(shared > 0.8 && own.abs() < 0.2, "shared {shared}, independent {own}");
        assert!(branches_sentence(0.95, shared).contains("nearly the same"));
        assert!(branches_sentence(0.0, own).contains("little in common"));
    }

    #[test]
    fn choosing_lambda_and_its_failure_are_read_off_the_core_sweep() {
        let good = run(0.95, 256);
        let (curve, best) = good.lambda_curve(121);
        let f = ChooseFacts::of(&good, &curve, best, 0.8);
        assert_eq!(f.best, good.sweep.best_lambda(-1.0, 2.0));
        assert_eq!(f.at_lambda, good.metrics(0.8).differential.snr);
        assert!((f.at_end.x - 2.0).abs() < 1e-9 && f.gain() > 2.0, "{f:?}");
        let bad = run(0.0, 256);
        let (curve, best) = bad.lambda_curve(121);
        let g = ChooseFacts::of(&bad, &curve, best, 0.8);
        assert!(g.gain() < f.gain(), "independent noise cancels less: {} vs {}", g.gain(), f.gain());
        let s = failure_sentence(0.0, &g, 0.95, &f);
        assert!(s.contains("With 0% of the noise shared") && s.contains(&format!("{}×", sig3(f.gain()))), "{s}");
    }

    #[test]
    fn the_context_sentence_quotes_the_first_and_last_lengths() {
        let p = LabParams { noise: 1.5, signal: 5.0, n_signal: 4, common: 0.95, ..LabParams::default() };
        let points: Vec<_> = context_lengths().into_iter().map(|n| noise_mass_point(&p, 0.8, n)).collect();
        let s = context_sentence(&points, 1.5).expect("eight points");
        assert!(s.contains("among 1024 keys") && s.contains("among 131072 keys"), "{s}");
        assert!(points.last().unwrap().standard > points[0].standard, "the noise mass grows with length");
        assert!(context_sentence(&[], 1.5).is_none());
    }

    #[test]
    fn the_cost_table_is_the_calculators_arithmetic() {
        let c = ArchConfig::default();
        let rows = cost_rows(&c);
        assert_eq!(rows[0].model, count(c.model_params(Variant::Baseline)));
        assert_eq!(rows[0].model_vs_baseline, "—");
        assert_eq!(rows[1].cache, rows[0].cache, "V1 stores as much as the baseline");
        assert_eq!(rows[0].cache, "512 KiB", "2 × 32 heads × 128 × 2 bytes × 32 layers");
        assert_eq!(rows[1].read, "768 KiB", "V1 reads the V cache twice");
        assert_eq!(rows[2].read, rows[0].read);
        let s = cost_sentence(&c);
        assert!(s.contains("reads 1.5×") && s.contains("reads 1.0×"), "{s}");
        let gqa = ArchConfig { kv_heads: 8, ..c };
        assert_eq!(cost_rows(&gqa)[2].cache, cost_rows(&gqa)[0].cache, "V2 with GQA keeps the baseline's cache");
    }

    #[test]
    fn lambda_init_table_is_the_schedule() {
        let t = lambda_init_table();
        assert_eq!(t.len(), 8);
        assert!((t[0].1 - 0.2).abs() < 1e-6 && t.windows(2).all(|w| w[1].1 > w[0].1));
    }

    #[test]
    fn model_facts_are_the_explorers_numbers_and_the_v1_note_is_honest() {
        use crate::engine::model::{explain_each, load_user_model};
        use crate::state::model_state::ModelState;
        let dir = format!("{}/www/models", env!("CARGO_MANIFEST_DIR"));
        let read = |p: String| std::fs::read(format!("{dir}/{p}")).unwrap();
        let models: Vec<_> =
            AttentionKind::ALL.iter().map(|k| load_user_model("c", &read(format!("{}/config.json", k.slug())), "w", &read(format!("{}/step-03200.safetensors", k.slug()))).unwrap()).collect();
        let refs: Vec<_> = models.iter().collect();
        let runs = explain_each(&refs, &ModelState::default(), &[]).unwrap();
        let facts: Vec<_> = AttentionKind::ALL.iter().zip(&runs).map(|(k, r)| ModelFacts::of(*k, &r.explained)).collect();
        for (f, r) in facts.iter().zip(&runs) {
            let x = &r.explained;
            assert_eq!((f.right, f.mean), (x.predictions[0].right(), x.net.mean()));
            assert_eq!(f.best_head, x.net.best_head(x.output.layers.len() - 1));
            assert!(f.prediction().contains(if f.right { ", right:" } else { ", wrong:" }), "{}", f.prediction());
        }
        assert!(facts[0].first_lambda.is_none() && facts[2].first_lambda.is_none(), "only V1 has one scalar λ per layer");
        let l = facts[1].first_lambda.expect("V1's layer 0 λ");
        assert_eq!(negative_lambda_note(&facts).is_some(), l < 0.0, "the note appears exactly when V1's λ is negative ({l})");
    }
}
