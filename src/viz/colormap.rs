//! The colour maps in words: a colour bar's ticks and caption, a contrast's name. The
//! maps themselves (viridis, RdBu, the contrast curves and the per-pixel lookup) are
//! numbers, in `core::colour`, where the web build compiles them for speed.

use super::ticks;
pub use crate::core::colour::{ColorTable, Contrast, Scale};

/// A contrast's name, in the language on screen.
pub fn contrast_name(contrast: Contrast) -> String {
    crate::tr!(match contrast {
        Contrast::Linear => "contrast-linear",
        Contrast::Sqrt => "contrast-sqrt",
        Contrast::Log => "contrast-log",
    })
}

/// A value marked on a colour bar: where its colour is (0 … 1, left to right) and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct BarTick {
    pub at: f32,
    pub label: String,
}

/// What a colour scale says in words, beside its figure.
pub trait ScaleWords {
    /// Values to mark along the colour bar, at least `min_gap` apart (in bar widths).
    fn ticks(&self, min_gap: f32) -> Vec<BarTick>;
    /// The scale in words, for the colour bar's caption.
    fn describe(&self) -> String;
}

impl ScaleWords for Scale {
    /// Values to mark along the colour bar, at least `min_gap` apart (in bar widths): both
    /// ends (and 0 on a diverging bar), then the roundest values that fit: on a linear
    /// scale evenly spaced ones; on a square-root or log scale powers of ten first, then
    /// 5 and 2 × 10^k, which fall unevenly along the bar, as the scale does.
    fn ticks(&self, min_gap: f32) -> Vec<BarTick> {
        let vmax = if self.vmax > 0.0 && self.vmax.is_finite() { self.vmax as f64 } else { 1.0 };
        let at = |v: f64| self.position(v as f32);
        let mut ticks = vec![BarTick { at: 1.0, label: ticks::significant(vmax, 2) }];
        let low = self.value_at(0.0) as f64;
        ticks.push(BarTick { at: 0.0, label: if self.diverging { format!("−{}", ticks::significant(vmax, 2)) } else { ticks::significant(low, 2) } });
        if self.diverging {
            ticks.push(BarTick { at: 0.5, label: "0".into() });
        }
        let top = vmax.log10().floor() as i32;
        let candidates: Vec<(f64, f64)> = match self.contrast {
            Contrast::Linear => {
                let count = (1.0 / min_gap.max(0.05)) as usize + 1;
                let t = ticks::linear(0.0, vmax, if self.diverging { count / 2 } else { count });
                let step = t.get(1).zip(t.first()).map_or(vmax, |(b, a)| b.at - a.at);
                t.into_iter().map(|t| (t.at, step)).collect()
            }
            Contrast::Sqrt | Contrast::Log => [1.0, 5.0, 2.0].into_iter().flat_map(|m| (top - 5..=top).rev().map(move |k| (m * 10f64.powi(k), 10f64.powi(k)))).collect(),
        };
        for (v, step) in candidates.into_iter().filter(|(v, _)| *v > low * 1.0001 && *v < vmax * 0.999) {
            for signed in if self.diverging { vec![v, -v] } else { vec![v] } {
                let p = at(signed);
                if ticks.iter().all(|t| (t.at - p).abs() >= min_gap) {
                    ticks.push(BarTick { at: p, label: ticks::format(signed, step) });
                }
            }
        }
        ticks.sort_by(|a, b| a.at.total_cmp(&b.at));
        ticks
    }

    fn describe(&self) -> String {
        crate::tr!(if self.diverging { "colour-scale-diverging" } else { "colour-scale" }, contrast = contrast_name(self.contrast))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(scale: Scale) -> Vec<(f32, String)> {
        scale.ticks(0.12).into_iter().map(|t| (t.at, t.label)).collect()
    }

    #[test]
    fn colour_bar_ticks_are_round_values_where_their_colours_are() {
        let sqrt = Scale { diverging: false, vmax: 0.8734, contrast: Contrast::Sqrt };
        let labels: Vec<String> = bar(sqrt).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["0", "0.02", "0.1", "0.2", "0.5", "0.87"]);
        for t in sqrt.ticks(0.12) {
            let v: f32 = t.label.parse().unwrap();
            // Exact for the round values; the maximum is written to two digits.
            assert!((sqrt.value_at(t.at) - v).abs() < 5e-3, "{t:?} sits at the colour of {v}");
        }
        let linear = Scale { diverging: false, vmax: 1.0, contrast: Contrast::Linear };
        assert_eq!(bar(linear).into_iter().map(|t| t.1).collect::<Vec<_>>(), ["0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let signed = Scale { diverging: true, vmax: 0.5, contrast: Contrast::Linear };
        let expected = [(0.0, "−0.50"), (0.3, "−0.2"), (0.5, "0"), (0.7, "0.2"), (1.0, "0.50")];
        let got = bar(signed);
        assert_eq!(got.len(), expected.len(), "{got:?}");
        assert!(got.iter().zip(expected).all(|((a, l), (b, m))| (a - b).abs() < 1e-6 && l == m), "{got:?}");
        let log = Scale { diverging: false, vmax: 1.0, contrast: Contrast::Log };
        assert_eq!(bar(log).into_iter().map(|t| t.1).collect::<Vec<_>>(), ["1.0×10⁻⁴", "0.001", "0.01", "0.1", "1.0"]);
        assert_eq!(sqrt.describe(), "colour scale: square root");
        assert_eq!(signed.describe(), "colour scale: linear, blue below 0, red above");
    }
}
