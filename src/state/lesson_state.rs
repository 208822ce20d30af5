//! The lesson's link: which step (`step=4`, or its name, `step=subtract`) and where the
//! step's one slider stands (under the lab's key: `step=4&lambda=0.5`). Each step's
//! figure starts from its own lab problem; the link only says what the reader moved.

use super::lab_state::{Knob, LabState};
use super::query::read_clamped;

/// What the link needs to know of a step (the prose lives in `engine::lesson`).
#[derive(Clone, Copy)]
pub struct StepLink {
    pub slug: &'static str,
    /// The lab problem the figure starts from (lab steps only).
    pub preset: Option<fn() -> LabState>,
    /// The one slider of the step (lab steps only).
    pub knob: Option<Knob<LabState>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LessonState {
    /// From 0.
    pub step: usize,
    /// The figure's lab problem: the step's preset with the reader's slider applied.
    pub lab: Option<LabState>,
}

impl LessonState {
    /// The state of step `step` as it opens.
    pub fn at(steps: &[StepLink], step: usize) -> Self {
        let step = step.min(steps.len().saturating_sub(1));
        LessonState { step, lab: steps.get(step).and_then(|s| s.preset).map(|p| p()) }
    }

    /// What the link's `step` accepts: a step's number or its name.
    pub fn link_rows(steps: &[StepLink]) -> Vec<super::table::Accepts> {
        vec![
            super::table::Accepts::Number { key: "step", min: 1.0, max: steps.len() as f64, integer: true, log2: false },
            super::table::Accepts::Choice { key: "step", options: steps.iter().map(|s| s.slug.to_string()).collect() },
        ]
    }

    /// Reads a link against the lesson's steps; a notice for each value not used as written.
    pub fn from_params(steps: &[StepLink], params: &[(String, String)]) -> (Self, Vec<String>) {
        let mut notices = vec![];
        let mut step = 0usize;
        if let Some((_, raw)) = params.iter().rev().find(|(k, _)| k == "step") {
            match steps.iter().position(|s| s.slug == raw.trim()) {
                Some(i) => step = i,
                None => {
                    let mut one_based = 1usize;
                    read_clamped("step", raw, (1, steps.len()), &mut one_based, &mut notices);
                    step = one_based - 1;
                }
            }
        }
        let mut state = Self::at(steps, step);
        let knob = steps.get(state.step).and_then(|s| s.knob);
        for (key, raw) in params {
            match (key.as_str(), knob, state.lab.as_mut()) {
                ("step", ..) => {}
                (k, Some(knob), Some(lab)) if k == knob.key => {
                    // The lab's own reading of its key: the same bounds and notices.
                    let mut link = lab.to_params();
                    link.retain(|(lk, _)| lk != k);
                    link.push((k.to_string(), raw.clone()));
                    let (read, lines) = LabState::from_params(&link);
                    *lab = read;
                    notices.extend(lines);
                }
                (k, ..) => notices.push(crate::tr!("note-unknown-on-step", key = k)),
            }
        }
        (state, notices)
    }

    pub fn to_params(&self, steps: &[StepLink]) -> Vec<(String, String)> {
        let mut p = vec![("step".to_string(), (self.step + 1).to_string())];
        let here = steps.get(self.step);
        if let (Some(knob), Some(lab), Some(preset)) = (here.and_then(|s| s.knob), &self.lab, here.and_then(|s| s.preset)) {
            if (knob.get)(lab) != (knob.get)(&preset()) {
                let value = lab.to_params().into_iter().find(|(k, _)| k == knob.key).map(|(_, v)| v);
                p.extend(value.map(|v| (knob.key.to_string(), v)));
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::lab_state::{COMMON, LAMBDA};
    use crate::state::query;

    const STEPS: [StepLink; 3] = [
        StepLink { slug: "one", preset: Some(|| LabState { n: 64, ..LabState::default() }), knob: Some(LAMBDA) },
        StepLink { slug: "two", preset: Some(|| LabState { common: 0.3, ..LabState::default() }), knob: Some(COMMON) },
        StepLink { slug: "three", preset: None, knob: None },
    ];

    fn read(link: &str) -> (LessonState, Vec<String>) {
        LessonState::from_params(&STEPS, &query::parse(link))
    }

    #[test]
    fn a_step_and_its_slider_round_trip() {
        let (s, notes) = read("step=1&lambda=0.35");
        assert_eq!((s.step, s.lab.as_ref().map(|l| (l.n, l.lambda))), (0, Some((64, 0.35))));
        assert!(notes.is_empty());
        assert_eq!(query::format(&s.to_params(&STEPS)), "step=1&lambda=0.35");
        assert_eq!(read("step=two").0, LessonState::at(&STEPS, 1), "a step's name opens it too");
        assert_eq!(query::format(&LessonState::at(&STEPS, 1).to_params(&STEPS)), "step=2", "an unmoved slider stays out of the link");
        assert_eq!(read("").0, LessonState::at(&STEPS, 0));
    }

    #[test]
    fn garbage_is_clamped_and_named() {
        let (s, notes) = read("step=99&zz=1");
        assert_eq!(s.step, 2);
        assert!(notes[0].contains("step=99 is above 3") && notes[1].contains("`zz`"), "{notes:?}");
        let (s, notes) = read("step=1&lambda=7&common=0.1");
        assert_eq!(s.lab.unwrap().lambda, 2.0);
        assert!(notes.iter().any(|n| n.contains("lambda=7 is above 2")) && notes.iter().any(|n| n.contains("`common`")), "another step's slider is not this one's: {notes:?}");
        let (s, notes) = read("step=banana");
        assert_eq!((s.step, notes.len()), (0, 1));
    }
}
