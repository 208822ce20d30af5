//! Everything a teacher may share about the noise-floor lab, as one serialisable struct
//! that round-trips through the URL.

use super::query::read_clamped as read;
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

/// How a slider's position maps to its knob's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SliderScale {
    Linear,
    /// The slider moves log₂ of the value (sequence lengths double).
    Log2,
}

/// One knob of the lab. This table is the only place its bounds live: the link parser,
/// the clamping notices, the sliders' attributes and their readings all come from it.
#[derive(Clone, Copy)]
pub struct Knob {
    /// The key in the link, and the slider's id.
    pub key: &'static str,
    /// Its label's key in the catalogue (`locales/*/lab.ftl`).
    pub label_key: &'static str,
    pub min: f64,
    pub max: f64,
    /// One slider step, in slider units (log₂ units for [`SliderScale::Log2`]).
    pub step: f64,
    pub scale: SliderScale,
    /// Whole numbers only: a link's "3.5" or "-3" is not a valid value.
    pub integer: bool,
    pub get: fn(&LabState) -> f64,
    put: fn(&mut LabState, f64),
    /// The value as a student reads it beside the slider.
    pub show: fn(f64) -> String,
}

pub const LAMBDA: Knob = Knob {
    key: "lambda",
    label_key: "knob-lambda",
    min: -1.0,
    max: 2.0,
    step: 0.01,
    scale: SliderScale::Linear,
    integer: false,
    get: |s| s.lambda as f64,
    put: |s, v| s.lambda = v as f32,
    show: |v| format!("{v:.2}"),
};
pub const N: Knob = Knob {
    key: "n",
    label_key: "knob-n",
    min: 16.0,
    max: 4096.0,
    step: 0.125,
    scale: SliderScale::Log2,
    integer: true,
    get: |s| s.n as f64,
    put: |s, v| s.n = v as usize,
    show: |v| format!("{v:.0}"),
};
pub const NOISE: Knob = Knob {
    key: "noise",
    label_key: "knob-noise",
    min: 0.0,
    max: 6.0,
    step: 0.05,
    scale: SliderScale::Linear,
    integer: false,
    get: |s| s.noise as f64,
    put: |s, v| s.noise = v as f32,
    show: |v| format!("{v:.2}"),
};
pub const SIGNAL: Knob = Knob {
    key: "signal",
    label_key: "knob-signal",
    min: 0.0,
    max: 10.0,
    step: 0.1,
    scale: SliderScale::Linear,
    integer: false,
    get: |s| s.signal as f64,
    put: |s, v| s.signal = v as f32,
    show: |v| format!("{v:.1}"),
};
pub const SIGNAL_KEYS: Knob = Knob {
    key: "k",
    label_key: "knob-k",
    min: 1.0,
    max: 64.0,
    step: 1.0,
    scale: SliderScale::Linear,
    integer: true,
    get: |s| s.n_signal as f64,
    put: |s, v| s.n_signal = v as usize,
    show: |v| format!("{v:.0}"),
};
pub const COMMON: Knob = Knob {
    key: "common",
    label_key: "knob-common",
    min: 0.0,
    max: 1.0,
    step: 0.01,
    scale: SliderScale::Linear,
    integer: false,
    get: |s| s.common as f64,
    put: |s, v| s.common = v as f32,
    show: |v| format!("{:.0}%", 100.0 * v),
};

/// The sliders, in the order the page shows them.
pub const KNOBS: [Knob; 6] = [LAMBDA, N, NOISE, SIGNAL, SIGNAL_KEYS, COMMON];
/// Seeds of the lab's generator (a link's seed, "New sample").
pub const SEED: (u64, u64) = (0, 4_294_967_295);

impl Knob {
    /// Its label, in the language on screen.
    pub fn label(&self) -> String {
        crate::tr!(self.label_key)
    }

    /// The slider's range and position for a state.
    pub fn slider_range(&self) -> (f64, f64) {
        match self.scale {
            SliderScale::Linear => (self.min, self.max),
            SliderScale::Log2 => (self.min.log2(), self.max.log2()),
        }
    }

    pub fn position(&self, s: &LabState) -> f64 {
        let v = (self.get)(s);
        if self.scale == SliderScale::Log2 {
            v.log2()
        } else {
            v
        }
    }

    /// Sets the knob from a slider position, inside its bounds, and keeps the rest of the
    /// state consistent with it.
    pub fn slide(&self, s: &mut LabState, position: f64) {
        let v = if self.scale == SliderScale::Log2 { 2f64.powf(position) } else { position };
        let v = if self.integer { v.round() } else { v };
        (self.put)(s, v.clamp(self.min, self.max));
        s.keep_consistent();
    }

    /// Reads a link's value under the knob's bounds (a notice for anything adjusted).
    fn read(&self, s: &mut LabState, raw: &str, notices: &mut Vec<String>) {
        if self.integer {
            let mut v = (self.get)(s) as u64;
            read(self.key, raw, (self.min as u64, self.max as u64), &mut v, notices);
            (self.put)(s, v as f64);
        } else {
            let mut v = (self.get)(s) as f32;
            read(self.key, raw, (self.min as f32, self.max as f32), &mut v, notices);
            // Kept to the link's precision (four decimals), so the link it writes back
            // describes the same state: 1e-41 would otherwise be held but written as 0.
            (self.put)(s, ((v as f64) * 1e4).round() / 1e4);
        }
    }
}

/// Short decimal form for links: 0.8 rather than 0.800000011920929.
fn short(v: f32) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl LabState {
    /// A downloaded figure's file name without extension: the figure, then the state it
    /// shows (`n` is the computed problem's, which lags the link while a new one computes).
    pub fn file_stem(&self, figure: &str, n: usize) -> String {
        format!("difflens-lab-{figure}-n{n}-lambda{:.2}-sigma{:.2}-seed{}", self.lambda, self.noise, self.seed)
    }

    /// Reads a link's parameters. Returns the state and one notice per value that was
    /// clamped, unreadable or unknown.
    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        let mut s = Self::default();
        let mut notices = Vec::new();
        for (key, raw) in params {
            let n = &mut notices;
            match key.as_str() {
                "seed" => read(key, raw, SEED, &mut s.seed, n),
                // A row that is not a number leaves the default row, and says so.
                "row" if raw.trim().parse::<usize>().is_err() => n.push(crate::tr!("note-row-not-number", raw = raw.as_str())),
                "row" => {
                    let mut row = 0usize;
                    read(key, raw, (0, N.max as usize - 1), &mut row, n);
                    s.row = Some(row);
                }
                k => match KNOBS.iter().find(|knob| knob.key == k) {
                    Some(knob) => knob.read(&mut s, raw, n),
                    None => notices.push(crate::tr!("note-unknown", key = key.as_str())),
                },
            }
        }
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
