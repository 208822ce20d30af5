//! Everything a teacher may share about the noise-floor lab, as one serialisable struct
//! that round-trips through the URL.

use crate::core::lab::LabParams;
use super::query::read_clamped as read;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabState {
    pub lambda: f32,
    pub n: usize,
    pub noise: f32,
    pub signal: f32,
    pub n_signal: usize,
    pub common: f32,
    pub seed: u64,
    /// The query row whose weights the line chart shows, if one was clicked.
    pub row: Option<usize>,
}

impl Default for LabState {
    fn default() -> Self {
        Self { lambda: 0.8, n: 512, noise: 1.5, signal: 5.0, n_signal: 4, common: 0.95, seed: 1, row: None }
    }
}

/// Bounds of the knobs (the sliders use the same numbers).
pub mod bounds {
    pub const LAMBDA: (f32, f32) = (-1.0, 2.0);
    pub const N: (usize, usize) = (16, 4096);
    pub const NOISE: (f32, f32) = (0.0, 6.0);
    pub const SIGNAL: (f32, f32) = (0.0, 10.0);
    pub const N_SIGNAL: (usize, usize) = (1, 64);
    pub const COMMON: (f32, f32) = (0.0, 1.0);
    pub const SEED: (u64, u64) = (0, 4_294_967_295);
}

/// Short decimal form for links: 0.8 rather than 0.800000011920929.
fn short(v: f32) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl LabState {
    /// Reads a link's parameters. Returns the state and one notice per value that was
    /// clamped, unreadable or unknown.
    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        use bounds::*;
        let mut s = Self::default();
        let mut notices = Vec::new();
        for (key, raw) in params {
            let n = &mut notices;
            match key.as_str() {
                "lambda" => read(key, raw, LAMBDA, &mut s.lambda, n),
                "n" => read(key, raw, N, &mut s.n, n),
                "noise" => read(key, raw, NOISE, &mut s.noise, n),
                "signal" => read(key, raw, SIGNAL, &mut s.signal, n),
                "k" => read(key, raw, N_SIGNAL, &mut s.n_signal, n),
                "common" => read(key, raw, COMMON, &mut s.common, n),
                "seed" => read(key, raw, SEED, &mut s.seed, n),
                "row" => {
                    let mut row = 0usize;
                    read(key, raw, (0, N.1 - 1), &mut row, n);
                    s.row = Some(row);
                }
                _ => notices.push(format!("unknown setting `{key}` ignored")),
            }
        }
        if let Some(row) = s.row.filter(|r| *r >= s.n) {
            notices.push(format!("row={row} is beyond the last query ({}); chart closed", s.n - 1));
            s.row = None;
        }
        let max_signal = (s.n / 2).max(1);
        if s.n_signal > max_signal {
            notices.push(format!("k={} signal keys do not fit in n={} (at most half); set to {max_signal}", s.n_signal, s.n));
            s.n_signal = max_signal;
        }
        (s, notices)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        let mut p = vec![
            ("lambda".to_string(), short(self.lambda)),
            ("n".to_string(), self.n.to_string()),
            ("noise".to_string(), short(self.noise)),
            ("signal".to_string(), short(self.signal)),
            ("k".to_string(), self.n_signal.to_string()),
            ("common".to_string(), short(self.common)),
            ("seed".to_string(), self.seed.to_string()),
        ];
        if let Some(row) = self.row {
            p.push(("row".to_string(), row.to_string()));
        }
        p
    }

    /// The lab problem this state describes (λ is applied afterwards, not generated).
    pub fn lab_params(&self) -> LabParams {
        LabParams { n: self.n, n_signal: self.n_signal, signal: self.signal, noise: self.noise, common: self.common, seed: self.seed, ..LabParams::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::query;

    #[test]
    fn a_state_round_trips_through_its_link() {
        let s = LabState { lambda: -0.37, n: 1024, noise: 2.25, signal: 3.0, n_signal: 9, common: 0.5, seed: 77, row: Some(12) };
        let (back, notices) = LabState::from_params(&query::parse(&query::format(&s.to_params())));
        assert_eq!(back, s);
        assert!(notices.is_empty());
    }

    #[test]
    fn garbage_is_clamped_and_reported() {
        let (s, notices) = LabState::from_params(&query::parse("lambda=9&n=-3&noise=NaN&seed=abc&zzz=1&k=500&row=99999"));
        assert_eq!(s.lambda, 2.0);
        assert_eq!(s.n, LabState::default().n, "a negative length does not parse as a size");
        assert_eq!(s.noise, LabState::default().noise);
        assert_eq!(s.seed, 1);
        assert_eq!(s.n_signal, 64);
        assert_eq!(s.row, None);
        let all = notices.join("\n");
        for needle in ["lambda=9 is above 2; set to 2", "n=-3 is not a valid value", "noise=NaN is not a number", "seed=abc", "unknown setting `zzz`", "k=500 is above 64", "row=99999"] {
            assert!(all.contains(needle), "missing notice {needle:?} in\n{all}");
        }
    }
}
