//! The training page's setup in the URL (`#/train?size=small&models=baseline,diff_v2&seeds=3`):
//! what a teacher sends so a class trains the same thing. The weights are never in the
//! link, and neither is pasted text (too long for a link): `task=pasted` opens the box.
//! `task=needle` trains the needle task at its one size (the link's `size` is kept for
//! the texts).

use super::table::{accepts, read_link, write_link, Accepts, Choice, Field, InLink, Knob, Text};
use crate::core::config::AttentionKind;
use crate::tr;

/// What the runs learn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainTask {
    /// The shipped excerpt of the Shakespeare training plays (a held-out play's start for
    /// the held-out loss).
    Plays,
    /// Text the student pastes; its last tenth is held out.
    Pasted,
    /// The needle task: the shipped needle models fine-tuned from their warm-up
    /// checkpoint on retrieval prompts (`engine::train::needle`).
    Needle,
}

impl TrainTask {
    pub fn slug(self) -> &'static str {
        match self {
            TrainTask::Plays => "plays",
            TrainTask::Pasted => "pasted",
            TrainTask::Needle => "needle",
        }
    }

    pub const ALL: [TrainTask; 3] = [TrainTask::Plays, TrainTask::Pasted, TrainTask::Needle];
}

/// The most seeds a session trains.
pub const MAX_SEEDS: usize = 5;

#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    pub task: TrainTask,
    /// A preset's id (`engine::train::PRESETS`).
    pub size: String,
    /// The kinds to train, in `AttentionKind::ALL` order, at least one.
    pub models: Vec<AttentionKind>,
    pub seeds: usize,
}

impl Default for TrainState {
    fn default() -> Self {
        Self { task: TrainTask::Plays, size: "small".into(), models: AttentionKind::ALL.to_vec(), seeds: 3 }
    }
}

/// The sizes a link may name (the engine's presets, by id).
pub const SIZES: [&str; 3] = ["small", "medium", "large"];

pub const SEEDS: Knob<TrainState> =
    Knob::new("seeds", "train-seeds", (1.0, MAX_SEEDS as f64), 1.0, |s: &TrainState| s.seeds as f64, |s: &mut TrainState, v| s.seeds = v as usize).integer().in_link(InLink::AwayFromDefault);

fn read_models(s: &mut TrainState, raw: &str, notices: &mut Vec<String>) {
    let mut picked: Vec<AttentionKind> = vec![];
    for slug in raw.split(',').filter(|x| !x.is_empty()) {
        match AttentionKind::from_slug(slug) {
            Some(k) => picked.push(k),
            None => notices.push(tr!("note-train-model", raw = slug)),
        }
    }
    let models: Vec<AttentionKind> = AttentionKind::ALL.into_iter().filter(|k| picked.contains(k)).collect();
    if models.is_empty() {
        notices.push(tr!("note-train-no-model"));
    } else {
        s.models = models;
    }
}

fn write_models(s: &TrainState) -> Option<String> {
    (s.models != AttentionKind::ALL).then(|| s.models.iter().map(|k| k.slug()).collect::<Vec<_>>().join(","))
}

const TABLE: [Field<TrainState>; 4] = [
    Field::Choice(
        Choice::<TrainState>::new(
            "task",
            || TrainTask::ALL.map(|t| t.slug().to_string()).to_vec(),
            |s| s.task.slug().into(),
            |s, raw| {
                let task = TrainTask::ALL.into_iter().find(|t| t.slug() == raw);
                task.map(|t| s.task = t).is_some()
            },
            |_, raw| tr!("note-train-task", raw = raw),
        )
        .in_link(InLink::AwayFromDefault),
    ),
    Field::Choice(
        Choice::<TrainState>::new(
            "size",
            || SIZES.map(String::from).to_vec(),
            |s| s.size.clone(),
            |s, raw| SIZES.contains(&raw).then(|| s.size = raw.to_string()).is_some(),
            |_, raw| tr!("note-train-size", raw = raw, all = SIZES.join(", ")),
        )
        .in_link(InLink::AwayFromDefault),
    ),
    Field::Text(Text::<TrainState>::new("models", read_models, write_models)),
    Field::Number(SEEDS),
];

impl TrainState {
    /// Reads a link: the defaults with its values applied, a notice for each it refused.
    /// What each key of the link accepts (the browser tests' random links).
    pub fn link_rows() -> Vec<Accepts> {
        accepts(&TABLE)
    }

    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        read_link(&TABLE, params)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        write_link(&TABLE, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_accepts_what_it_says() {
        assert_eq!(super::super::table::check_accepts(&TABLE), Vec::<String>::new());
    }

    fn pairs(q: &str) -> Vec<(String, String)> {
        super::super::query::parse(q)
    }

    #[test]
    fn a_setup_round_trips_and_bad_values_are_refused_with_notices() {
        let s = TrainState { task: TrainTask::Pasted, size: "medium".into(), models: vec![AttentionKind::Baseline, AttentionKind::DiffV2], seeds: 5 };
        let (back, notes) = TrainState::from_params(&pairs(&super::super::query::format(&s.to_params())));
        assert_eq!((back, notes), (s, vec![]));
        assert!(TrainState::default().to_params().is_empty(), "the defaults leave the link empty");
        let (t, notes) = TrainState::from_params(&pairs("task=mnist&size=huge&models=gpt,diff_v1,baseline&seeds=9"));
        assert_eq!((t.task, t.size.as_str(), t.models, t.seeds), (TrainTask::Plays, "small", vec![AttentionKind::Baseline, AttentionKind::DiffV1], 5));
        assert_eq!(notes.len(), 4, "{notes:?}");
        let (t, notes) = TrainState::from_params(&pairs("task=needle&models=diff_v1"));
        assert_eq!((t.task, t.models.clone(), notes.len()), (TrainTask::Needle, vec![AttentionKind::DiffV1], 0));
        assert_eq!(super::super::query::format(&t.to_params()), "task=needle&models=diff_v1");
        let (t, notes) = TrainState::from_params(&pairs("models=,,&seeds=0"));
        assert_eq!((t.models.len(), t.seeds, notes.len()), (3, 1, 2));
    }
}
