//! Everything a teacher may share about the noise-floor lab, as one serialisable struct
//! that round-trips through the URL.

pub use super::table::Knob;
use super::table::{accepts, read_link, read_row, write_link, Accepts, Field, Text};
use crate::core::lab::LabParams;
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

/// The lab's sliders. This table is the only place their bounds live: the link
/// parser, the clamping notices, the sliders' attributes and their readings all come
/// from it. A slider's move keeps signal keys within half the sequence and the plotted
/// row within the queries.
pub const LAMBDA: Knob<LabState> =
    LabKnob::new("lambda", "knob-lambda", (-1.0, 2.0), 0.01, |s| s.lambda as f64, |s, v| s.lambda = v as f32).shown(|v| format!("{v:.2}")).after(LabState::keep_consistent);
pub const N: Knob<LabState> =
    LabKnob::new("n", "knob-n", (16.0, 4096.0), 0.125, |s| s.n as f64, |s, v| s.n = v as usize).integer().log2().shown(|v| format!("{v:.0}")).after(LabState::keep_consistent);
pub const NOISE: Knob<LabState> = LabKnob::new("noise", "knob-noise", (0.0, 6.0), 0.05, |s| s.noise as f64, |s, v| s.noise = v as f32).shown(|v| format!("{v:.2}")).after(LabState::keep_consistent);
pub const SIGNAL: Knob<LabState> =
    LabKnob::new("signal", "knob-signal", (0.0, 10.0), 0.1, |s| s.signal as f64, |s, v| s.signal = v as f32).shown(|v| format!("{v:.1}")).after(LabState::keep_consistent);
pub const SIGNAL_KEYS: Knob<LabState> =
    LabKnob::new("k", "knob-k", (1.0, 64.0), 1.0, |s| s.n_signal as f64, |s, v| s.n_signal = v as usize).integer().shown(|v| format!("{v:.0}")).after(LabState::keep_consistent);
pub const COMMON: Knob<LabState> =
    LabKnob::new("common", "knob-common", (0.0, 1.0), 0.01, |s| s.common as f64, |s, v| s.common = v as f32).shown(|v| format!("{:.0}%", 100.0 * v)).after(LabState::keep_consistent);

/// A row of the lab's table (named so that its closures know their state).
type LabKnob = Knob<LabState>;

/// The sliders, in the order the page shows them.
pub const KNOBS: [Knob<LabState>; 6] = [LAMBDA, N, NOISE, SIGNAL, SIGNAL_KEYS, COMMON];
/// Seeds of the lab's generator (a link's seed, "New sample").
pub const SEED: (u64, u64) = (0, 4_294_967_295);

/// The lab's link: its sliders, the generator's seed and the plotted row.
const TABLE: [Field<LabState>; 8] = [
    Field::Number(LAMBDA),
    Field::Number(N),
    Field::Number(NOISE),
    Field::Number(SIGNAL),
    Field::Number(SIGNAL_KEYS),
    Field::Number(COMMON),
    Field::Number(LabKnob::new("seed", "knob-seed", (SEED.0 as f64, SEED.1 as f64), 1.0, |s| s.seed as f64, |s, v| s.seed = v as u64).integer()),
    Field::Text(Text::<LabState>::new("row", |s, raw, n| s.row = read_row(raw, N.max as usize, n), |s| s.row.map(|r| r.to_string())).examples(&["0", "17"], &["x", "-1", "99999"])),
];

impl LabState {
    /// A downloaded figure's file name without extension: the figure, then the state it
    /// shows (`n` is the computed problem's, which lags the link while a new one computes).
    pub fn file_stem(&self, figure: &str, n: usize) -> String {
        format!("difflens-lab-{figure}-n{n}-lambda{:.2}-sigma{:.2}-seed{}", self.lambda, self.noise, self.seed)
    }

    /// Reads a link's parameters. Returns the state and one notice per value that was
    /// clamped, unreadable or unknown.
    /// What each key of the link accepts (the browser tests' random links).
    pub fn link_rows() -> Vec<Accepts> {
        accepts(&TABLE)
    }

    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        let (mut s, mut notices) = read_link(&TABLE, params);
        if let Some(row) = s.row.filter(|r| *r >= s.n) {
            notices.push(crate::tr!("note-row-beyond", row = row, last = s.n - 1));
            s.row = None;
        }
        let max_signal = (s.n / 2).max(1);
        if s.n_signal > max_signal {
            notices.push(crate::tr!("note-signal-keys", k = s.n_signal, n = s.n, max = max_signal));
            s.n_signal = max_signal;
        }
        (s, notices)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        write_link(&TABLE, self)
    }

    /// Signal keys never exceed half the sequence, and the plotted row is a query.
    fn keep_consistent(&mut self) {
        self.n_signal = self.n_signal.clamp(1, (self.n / 2).max(1));
        self.row = self.row.filter(|r| *r < self.n);
    }

    /// The lab problem this state describes (λ is applied afterwards, not generated).
    pub fn lab_params(&self) -> LabParams {
        LabParams { n: self.n, n_signal: self.n_signal, signal: self.signal, noise: self.noise, common: self.common, seed: self.seed, ..LabParams::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_accepts_what_it_says() {
        assert_eq!(super::super::table::check_accepts(&TABLE), Vec::<String>::new());
    }
    use crate::state::query;

    #[test]
    fn a_figure_file_says_the_state_it_shows() {
        let s = LabState { lambda: 0.8, n: 1024, noise: 1.5, seed: 3, ..LabState::default() };
        assert_eq!(s.file_stem("A1", 1024), "difflens-lab-A1-n1024-lambda0.80-sigma1.50-seed3");
    }

    #[test]
    fn a_state_round_trips_through_its_link() {
        let s = LabState { lambda: -0.37, n: 1024, noise: 2.25, signal: 3.0, n_signal: 9, common: 0.5, seed: 77, row: Some(12) };
        let (back, notices) = LabState::from_params(&query::parse(&query::format(&s.to_params())));
        assert_eq!(back, s);
        assert!(notices.is_empty());
    }

    #[test]
    fn the_sliders_follow_the_knob_table() {
        let mut s = LabState { n: 1024, n_signal: 64, row: Some(900), ..LabState::default() };
        N.slide(&mut s, 9.0);
        assert_eq!((s.n, s.n_signal, s.row), (512, 64, None), "the plotted row left with the queries past 512");
        N.slide(&mut s, 4.0);
        assert_eq!((s.n, s.n_signal), (16, 8), "at most half the keys are signal keys");
        SIGNAL_KEYS.slide(&mut s, 63.7);
        assert_eq!(s.n_signal, 8);
        LAMBDA.slide(&mut s, 9.0);
        assert_eq!(s.lambda, 2.0, "a slider cannot leave the table's bounds");
        assert_eq!((N.slider_range(), N.position(&s)), ((4.0, 12.0), 4.0));
        assert_eq!((COMMON.show)(0.95), "95%");
        for knob in KNOBS {
            let (lo, hi) = knob.slider_range();
            assert!(lo < hi && knob.step > 0.0 && knob.step <= hi - lo, "{}", knob.key);
            let default = (knob.get)(&LabState::default());
            assert!((knob.min..=knob.max).contains(&default), "{}'s default is inside its bounds", knob.key);
        }
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
        for raw in ["row=", "row=-0", "row=x"] {
            let (s, notices) = LabState::from_params(&query::parse(raw));
            assert_eq!(s.row, None, "{raw} opens the default row");
            assert!(notices[0].ends_with("is not a row number; showing the default row"), "{notices:?}");
        }
    }
}
