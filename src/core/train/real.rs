//! The float type of the training code: `f32` when a model trains (the core's precision,
//! and what the page and the native trainer use), `f64` when a test checks a gradient by
//! finite differences (in f32 the differences drown in rounding).

use ndarray::LinalgScalar;
use std::fmt::Debug;
use std::ops::{AddAssign, DivAssign, MulAssign, Neg, SubAssign};

pub trait Real: LinalgScalar + PartialOrd + AddAssign + SubAssign + MulAssign + DivAssign + Neg<Output = Self> + Debug + Send + Sync + std::iter::Sum {
    fn of(x: f64) -> Self;
    fn of_f32(x: f32) -> Self;
    fn f64(self) -> f64;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn is_finite(self) -> bool;
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
}

macro_rules! real {
    ($t:ty, $exp:expr) => {
        impl Real for $t {
            fn of(x: f64) -> Self {
                x as $t
            }
            fn of_f32(x: f32) -> Self {
                x as $t
            }
            fn f64(self) -> f64 {
                self as f64
            }
            fn exp(self) -> Self {
                $exp(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}

// f32 (training) takes the library-free exponential of `exp.rs`; f64 (the gradient
// checks) the standard one.
real!(f32, super::exp::exp);
real!(f64, f64::exp);

/// σ(z) = 1 / (1 + e^−z).
pub fn sigmoid<R: Real>(z: R) -> R {
    R::of(1.0) / (R::of(1.0) + (-z).exp())
}
