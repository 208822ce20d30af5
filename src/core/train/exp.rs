//! `e^x` in single precision without a library call: the training step's softmaxes,
//! sigmoids and cross-entropy take several hundred thousand of them. WebAssembly has no
//! exponential instruction, so `f32::exp` there is a call into the compiler's libm,
//! branchy and scalar; in the browser it took a sixth of a step (docs/performance.md).
//! This one is straight-line arithmetic the compiler inlines and vectorises.
//!
//! Cody and Waite's reduction `x = k·ln 2 + r`, |r| ≤ ln 2 / 2, then Cephes' degree-7
//! polynomial for `e^r` (`expf.c`, S. L. Moshier), then `2^k` from the exponent bits.
//! Within 2 units in the last place of the true value over the whole range (a test checks
//! it against f64); exactly 1 at 0; 0 below the smallest normal number's exponent, ∞ above
//! the largest, and NaN stays NaN.

/// ln 2 in two parts: `LN2_HI` has few enough bits that `k·LN2_HI` is exact for every `k`
/// the reduction produces.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// Where the result leaves the normal numbers: below, it is 0 (the true value is under
/// 1.2e-38); above, ∞ (the true value is over 3.4e38).
const LOWEST: f32 = -87.336_55;
const HIGHEST: f32 = 88.722_84;

#[inline]
pub fn exp(x: f32) -> f32 {
    let clamped = x.clamp(LOWEST, HIGHEST);
    let k = (clamped * std::f32::consts::LOG2_E).round();
    let r = clamped - k * LN2_HI - k * LN2_LO;
    let mut p = 1.987_569_2e-4_f32;
    for c in [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5] {
        p = p * r + c;
    }
    let e_r = p * r * r + r + 1.0;
    // 2^k as two factors, so that k = 128 (x near the top of the range) stays finite.
    let half = (k * 0.5).floor();
    let two_to = |n: f32| f32::from_bits(((n as i32 + 127) as u32) << 23);
    let y = e_r * two_to(half) * two_to(k - half);
    if x < LOWEST {
        0.0
    } else if x > HIGHEST {
        f32::INFINITY
    } else {
        // NaN fails both comparisons and comes out of `clamp` as NaN.
        y
    }
}

#[cfg(test)]
mod tests {
    use super::exp;

    /// Units in the last place between `got` and the true `e^x`.
    fn ulps(x: f32, got: f32) -> f64 {
        let want = (x as f64).exp();
        let ulp = f64::from(f32::from_bits((want as f32).to_bits() + 1) - want as f32);
        (f64::from(got) - want).abs() / ulp
    }

    #[test]
    fn within_two_ulps_everywhere() {
        let mut worst = (0.0, 0.0f32);
        let mut x = -87.3f32;
        while x < 88.7 {
            let e = ulps(x, exp(x));
            if e > worst.0 {
                worst = (e, x);
            }
            x += 0.000_731;
        }
        assert!(worst.0 <= 2.0, "{} ulps at x = {}", worst.0, worst.1);
    }

    #[test]
    fn the_edges() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-1000.0), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(100.0), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
        assert!(exp(88.72).is_finite() && exp(-87.33) > 0.0);
    }
}
