//! Axis ticks a reader can read at a glance: round values (1, 2 or 5 × 10^k) on linear
//! axes, decades (or 1, 2, 5 × 10^k across a decade or two) on log axes, each label with
//! just the digits that tell it from its neighbours ("0, 50, 100", never "0, 50.0, 100";
//! "10⁻³", never "1e-3").

/// One tick: where it goes on the axis (the value itself on a linear axis, its log10 on
/// a log axis) and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub at: f64,
    pub label: String,
}

/// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let raw = if raw > 0.0 && raw.is_finite() { raw } else { 1.0 };
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|s| *s >= raw * (1.0 - 1e-9)).unwrap_or(10.0 * p)
}

/// Decimals a multiple of `step` (a 1, 2 or 5 × 10^k) needs.
fn decimals(step: f64) -> usize {
    (-(step.log10() + 1e-9).floor()).max(0.0) as usize
}

const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

fn superscript(k: i32) -> String {
    let digits: String = k.unsigned_abs().to_string().chars().map(|c| SUPERSCRIPT[c as usize - '0' as usize]).collect();
    if k < 0 {
        format!("⁻{digits}")
    } else {
        digits
    }
}

/// 10^k as a reader writes it: "0.01", "0.1", "1", "10", "1000", beyond that "10⁴", "10⁻³".
pub fn power_of_ten(k: i32) -> String {
    match k {
        -2..=3 => plain(10f64.powi(k), k.min(0).unsigned_abs() as usize),
        _ => format!("10{}", superscript(k)),
    }
}

/// `v` with `decimals` digits after the point; the minus sign is a real one (U+2212).
fn plain(v: f64, decimals: usize) -> String {
    let v = if v.abs() < 0.5 * 10f64.powi(-(decimals as i32)) { 0.0 } else { v };
    let s = format!("{:.*}", decimals, v.abs());
    if v < 0.0 {
        format!("−{s}")
    } else {
        s
    }
}

/// `v`, a multiple of `step`, written with the digits `step` needs; thousands as "10k"
/// once values reach 10 000, and tiny steps as "m × 10⁻ᵏ".
pub fn format(v: f64, step: f64) -> String {
    let v = if step > 0.0 { (v / step).round() * step } else { v };
    let a = v.abs();
    if a >= 10_000.0 && step >= 1000.0 {
        return format!("{}k", plain(v / 1000.0, decimals(step / 1000.0)));
    }
    if step < 1e-3 && a < 0.5 * step {
        return "0".into();
    }
    if step < 1e-3 {
        let k = (a.log10() + 1e-9).floor() as i32;
        let m = v / 10f64.powi(k);
        let digits = decimals(step / 10f64.powi(k));
        return format!("{}×10{}", plain(m, digits), superscript(k));
    }
    plain(v, decimals(step))
}

/// `v` to `digits` significant digits, for a value that is not a round tick (a colour
/// bar's maximum): "0.87", "12", "3.1×10⁻⁴".
pub fn significant(v: f64, digits: u32) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    // The exponent after rounding (9.99996e-5 to two digits is 1.0 × 10⁻⁴).
    let k: i32 = format!("{:.*e}", digits.saturating_sub(1) as usize, v).rsplit('e').next().and_then(|e| e.parse().ok()).unwrap_or(0);
    format(v, 10f64.powi(k + 1 - digits as i32))
}

/// At most `max_count` (at least 2) round ticks inside [lo, hi].
pub fn linear(lo: f64, hi: f64, max_count: usize) -> Vec<Tick> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return if lo.is_finite() { vec![Tick { at: lo, label: format(lo, nice_step(lo.abs().max(1e-12) / 10.0)) }] } else { vec![] };
    }
    let at_step = |step: f64| -> Vec<Tick> {
        let (first, last) = ((lo / step - 1e-9).ceil() as i64, (hi / step + 1e-9).floor() as i64);
        (first..=last).map(|k| k as f64 * step).map(|v| Tick { at: v, label: format(v, step) }).collect()
    };
    // From a step too fine, coarser ones until the ticks fit, but never down to one tick.
    let mut step = nice_step((hi - lo) / max_count.max(2) as f64 / 10.0);
    let mut ticks = at_step(step);
    while ticks.len() > max_count.max(2) {
        step = nice_step(step * 1.01);
        let coarser = at_step(step);
        if coarser.len() < 2 {
            break;
        }
        ticks = coarser;
    }
    ticks
}

/// Round whole indices 0 … n − 1 to number a map's axis: at most `max_count` of them.
pub fn indices(n: usize, max_count: usize) -> Vec<Tick> {
    // Whole numbers, written as such even where a short axis's step is 0.5.
    linear(0.0, n.saturating_sub(1) as f64, max_count).into_iter().filter(|t| t.at.fract() == 0.0).map(|t| Tick { label: format(t.at, 1.0), ..t }).collect()
}

/// At most `max_count` ticks on a log axis covering log10 values [lo, hi]: every decade (or
/// every 2nd, 3rd, … when there are too many); within a span too short for two decades,
/// 1, 2 and 5 × 10^k; within a span too short for those, round values of a linear axis.
pub fn log(lo: f64, hi: f64, max_count: usize) -> Vec<Tick> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![];
    }
    let max_count = max_count.max(2);
    let (first, last) = ((lo - 1e-9).ceil() as i32, (hi + 1e-9).floor() as i32);
    let decades = (last - first + 1).max(0) as usize;
    let every_decade = || {
        let every = decades.div_ceil(max_count).max(1) as i32;
        // One style along an axis: all as powers once any needs to be one.
        let powers = first < -2 || last > 3;
        let label = |k: i32| if powers { format!("10{}", superscript(k)) } else { power_of_ten(k) };
        (first..=last).filter(|k| (k - first) % every == 0).map(|k| Tick { at: k as f64, label: label(k) }).collect()
    };
    if decades >= 3 {
        return every_decade();
    }
    let one_two_five: Vec<Tick> = ((lo.floor() as i32)..=(hi.ceil() as i32))
        .flat_map(|k| [1.0, 2.0, 5.0].map(|m| (m, k)))
        .filter(|(m, k)| (lo - 1e-9..=hi + 1e-9).contains(&(m * 10f64.powi(*k)).log10()))
        .map(|(m, k)| Tick { at: (m * 10f64.powi(k)).log10(), label: if m == 1.0 { power_of_ten(k) } else { format(m * 10f64.powi(k), 10f64.powi(k)) } })
        .collect();
    if one_two_five.len() >= 2 && one_two_five.len() <= max_count {
        return one_two_five;
    }
    if decades == 2 {
        return every_decade();
    }
    linear(10f64.powf(lo), 10f64.powf(hi), max_count).into_iter().filter(|t| t.at > 0.0).map(|t| Tick { at: t.at.log10(), label: t.label }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(ticks: &[Tick]) -> Vec<&str> {
        ticks.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn linear_ticks_are_round_and_carry_no_spare_digits() {
        assert_eq!(labels(&linear(0.0, 100.0, 6)), ["0", "20", "40", "60", "80", "100"]);
        assert_eq!(labels(&linear(0.0, 100.0, 3)), ["0", "50", "100"]);
        assert_eq!(labels(&linear(-0.03, 0.27, 4)), ["0.0", "0.1", "0.2"]);
        assert_eq!(labels(&linear(0.0, 0.025, 6)), ["0.000", "0.005", "0.010", "0.015", "0.020", "0.025"]);
        assert_eq!(labels(&linear(-1.0, 1.0, 5)), ["−1.0", "−0.5", "0.0", "0.5", "1.0"]);
        assert_eq!(labels(&linear(0.0, 40_000.0, 5)), ["0", "10k", "20k", "30k", "40k"]);
        assert_eq!(labels(&linear(0.0, 0.0004, 3)), ["0", "2×10⁻⁴", "4×10⁻⁴"]);
    }

    #[test]
    fn no_two_neighbouring_labels_read_the_same() {
        for (lo, hi) in [(0.0, 1.0), (0.019, 0.021), (3000.0, 3300.0), (-5e-5, 2e-4), (0.63, 0.8), (1.0, 4096.0)] {
            for count in 2..10 {
                let t = linear(lo, hi, count);
                assert!(t.len() >= 2 && t.len() <= count.max(3), "{lo}..{hi} by {count}: {t:?}");
                assert!(t.windows(2).all(|w| w[0].label != w[1].label && w[0].at < w[1].at), "{lo}..{hi} by {count}: {t:?}");
                assert!(t.iter().all(|x| x.at >= lo - 1e-12 && x.at <= hi + 1e-12));
            }
        }
    }

    #[test]
    fn log_ticks_are_decades_or_one_two_five() {
        assert_eq!(labels(&log(-4.6, -1.4, 8)), ["10⁻⁴", "10⁻³", "10⁻²"]);
        assert_eq!(labels(&log(1.5, 3.7, 8)), ["50", "100", "200", "500", "1000", "2000", "5000"]);
        assert_eq!(labels(&log(1.5, 3.7, 4)), ["100", "1000"]);
        assert_eq!(labels(&log(-8.0, 0.0, 4)), ["10⁻⁸", "10⁻⁵", "10⁻²"]);
        assert_eq!(labels(&log(0.0, 1.0, 8)), ["1", "2", "5", "10"]);
        assert_eq!(labels(&log(6f64.log10(), 40f64.log10(), 8)), ["10", "20"]);
        // Less than a factor of two: a linear axis's round values, placed at their logs.
        let t = log(0.63f64.log10(), 0.8f64.log10(), 5);
        assert_eq!(labels(&t), ["0.65", "0.70", "0.75", "0.80"]);
        assert!((t[0].at - 0.65f64.log10()).abs() < 1e-12);
    }

    #[test]
    fn indices_are_whole_and_round() {
        assert_eq!(labels(&indices(256, 6)), ["0", "50", "100", "150", "200", "250"]);
        assert_eq!(labels(&indices(3, 6)), ["0", "1", "2"]);
    }

    #[test]
    fn significant_digits() {
        assert_eq!(significant(0.8734, 2), "0.87");
        assert_eq!(significant(12.34, 2), "12");
        assert_eq!(significant(1.0, 2), "1.0");
        assert_eq!(significant(-0.0312, 2), "−0.031");
        assert_eq!(significant(3.14e-4, 2), "3.1×10⁻⁴");
    }

    #[test]
    fn powers_of_ten_read_as_written() {
        assert_eq!(power_of_ten(-3), "10⁻³");
        assert_eq!(power_of_ten(-2), "0.01");
        assert_eq!(power_of_ten(0), "1");
        assert_eq!(power_of_ten(3), "1000");
        assert_eq!(power_of_ten(4), "10⁴");
        assert_eq!(power_of_ten(12), "10¹²");
    }
}
