//! The training page's wiring: the texts loaded once, a board made when Train is pressed,
//! then rounds of chunk jobs (one per unfinished run) through the training workers' pool
//! (their own wasm: the page holds no training code) until every run is done, paused or
//! stopped. A chunk a failed worker left goes to a fresh worker in the next round; a run
//! whose chunk is left twice in a row stops with the worker's reason, so a chunk that
//! kills every worker (or a browser that starts none) cannot loop. Leaving the page stops the work
//! (the rounds check that the page is still there); a background tab keeps training in
//! the workers, more slowly where the browser throttles it.

use crate::engine::jobs::runner::Runner;
use crate::engine::jobs::{ChunkOutput, JobError, TrainChunk};
use crate::engine::shared::CharVocab;
use crate::engine::train::needle;
use crate::engine::train::{Board, DataError, Preset, RunSpec, TaskData, TextData};
use crate::state::train_state::{TrainState, TrainTask};
use crate::tr;
use crate::ui::model_files::fetch_bytes;
use crate::ui::now_ms;
use crate::ui::worker_pool::{WorkerError, WorkerPool};
use leptos::prelude::*;
use std::sync::Arc;

/// Where a session stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Idle,
    Running,
    Paused,
    Stopped,
    Done,
    /// Why training could not start (the text, the files).
    Refused(String),
}

/// The shipped texts and the vocabulary (the text models', so a trained model reads what
/// the text page reads).
#[derive(Clone)]
pub struct Texts {
    pub vocab: Arc<CharVocab>,
    pub train: Arc<String>,
    pub held_out: Arc<String>,
}

#[derive(Clone, Copy)]
pub struct TrainSession {
    pub phase: RwSignal<Phase>,
    pub texts: RwSignal<Option<Result<Texts, String>>>,
    /// Bumped whenever the board changes: the figures read it through [`TrainSession::with_board`].
    pub revision: RwSignal<u64>,
    /// Milliseconds spent training (pauses left out), for the speed and the time left.
    pub elapsed_ms: RwSignal<f64>,
    /// Chunks are with the workers: a pause shows as "pausing" until they have landed.
    pub in_flight: RwSignal<bool>,
    board: StoredValue<Option<Board>, LocalStorage>,
    generation: StoredValue<u64>,
    paused: StoredValue<bool>,
}

async fn text_of(path: &str) -> Result<String, String> {
    String::from_utf8(fetch_bytes(path).await?).map_err(|_| tr!("train-not-text", file = path))
}

async fn load_texts() -> Result<Texts, String> {
    let vocab = CharVocab::from_json(&text_of("text-models/vocab.json").await?)?;
    Ok(Texts { vocab: Arc::new(vocab), train: Arc::new(text_of("train-text/train.txt").await?), held_out: Arc::new(text_of("train-text/held_out.txt").await?) })
}

/// A text the runs cannot learn from, said in the page's language.
fn data_message(e: &DataError) -> String {
    match e {
        DataError::TooShort { have, need } => tr!("train-too-short", have = *have, need = *need),
        DataError::Unknown(chars) => tr!("train-unknown-chars", chars = chars.iter().collect::<String>()),
    }
}

impl TrainSession {
    pub fn new() -> Self {
        let s = Self {
            phase: RwSignal::new(Phase::Idle),
            texts: RwSignal::new(None),
            revision: RwSignal::new(0),
            elapsed_ms: RwSignal::new(0.0),
            in_flight: RwSignal::new(false),
            board: StoredValue::new_local(None),
            generation: StoredValue::new(0),
            paused: StoredValue::new(false),
        };
        leptos::task::spawn_local(async move {
            let loaded = load_texts().await;
            s.texts.try_set(Some(loaded));
        });
        on_cleanup(move || s.generation.update_value(|g| *g += 1));
        s
    }

    /// Reads the board (tracking its changes).
    pub fn with_board<T>(&self, f: impl FnOnce(&Board) -> T) -> Option<T> {
        self.revision.track();
        self.board.with_value(|b| b.as_ref().map(f))
    }

    /// The data of `state`'s task and its vocabulary's size: the shipped plays, `pasted`
    /// split, or the needle task's prompts.
    pub fn data(&self, state: &TrainState, pasted: &str, preset: &Preset) -> Result<(TaskData, usize), String> {
        if state.task == TrainTask::Needle {
            return Ok((TaskData::Needle, needle::VOCAB));
        }
        let texts = self.texts.with_untracked(|t| t.clone()).ok_or_else(|| tr!("train-loading"))??;
        let data = match state.task {
            TrainTask::Plays => TextData::split(&texts.train, &texts.held_out, &texts.vocab, preset.context),
            TrainTask::Pasted | TrainTask::Needle => TextData::from_text(pasted, &texts.vocab, preset.context),
        };
        data.map(|d| (TaskData::Text(d), texts.vocab.size())).map_err(|e| data_message(&e))
    }

    /// Starts a new session of `state`'s runs on `data`, dropping any before it.
    pub fn train(&self, state: &TrainState, preset: Preset, data: TaskData, vocab: usize) {
        let generation = self.generation.try_update_value(|g| {
            *g += 1;
            *g
        });
        let Some(generation) = generation else { return };
        self.board.set_value(Some(Board::new(preset, &state.models, state.seeds, data, vocab)));
        self.paused.set_value(false);
        self.elapsed_ms.set(0.0);
        self.phase.set(Phase::Running);
        self.revision.update(|r| *r += 1);
        let s = *self;
        leptos::task::spawn_local(async move { s.drive(generation).await });
    }

    pub fn pause(&self) {
        self.paused.set_value(true);
        self.phase.set(Phase::Paused);
    }

    pub fn resume(&self) {
        self.paused.set_value(false);
        self.phase.set(Phase::Running);
    }

    /// Stops the work; what the runs have learnt so far stays on screen and can be kept.
    pub fn stop(&self) {
        self.generation.update_value(|g| *g += 1);
        self.phase.set(Phase::Stopped);
    }

    fn take(&self, job: &TrainChunk, answer: Result<ChunkOutput, String>) {
        self.board.update_value(|b| {
            if let Some(b) = b.as_mut() {
                b.take(job, answer)
            }
        });
        self.revision.update(|r| *r += 1);
    }

    /// Rounds until every run is finished, the session is stopped or the page is gone.
    async fn drive(self, generation: u64) {
        let alive = move || self.generation.try_get_value() == Some(generation);
        // Per run, whether its last chunk was left by a failed worker.
        let mut struck: Vec<RunSpec> = vec![];
        loop {
            while alive() && self.paused.get_value() {
                crate::ui::sleep_ms(200).await;
            }
            if !alive() {
                return;
            }
            let jobs = self.board.with_value(|b| b.as_ref().map(Board::next_jobs)).unwrap_or_default();
            if jobs.is_empty() {
                self.phase.set(Phase::Done);
                return;
            }
            let mark = std::rc::Rc::new(std::cell::Cell::new(now_ms()));
            let answer = {
                let mark = mark.clone();
                move |job: &TrainChunk, out: Result<ChunkOutput, JobError>| {
                    if alive() {
                        self.count_time(&mark);
                        self.take(job, out.map_err(|e| e.to_string()));
                    }
                }
            };
            // A pause takes effect after the chunks in flight: the round's other chunks are
            // not sent (the next round makes them again from the board).
            let sending = move || alive() && !self.paused.get_value();
            self.in_flight.try_set(true);
            let outcome = Runner::new(&*WorkerPool::training()).leave_to_caller().run(jobs, sending, answer).await;
            self.in_flight.try_set(false);
            if !alive() {
                return;
            }
            self.count_time(&mark);
            let why = outcome.failure.unwrap_or_else(|| WorkerError::Gone.to_string());
            let (again, twice): (Vec<TrainChunk>, Vec<TrainChunk>) = outcome.left.into_iter().partition(|job| !struck.contains(&job.spec));
            for job in &twice {
                self.take(job, Err(why.clone()));
            }
            struck = again.iter().map(|job| job.spec).collect();
        }
    }

    /// Adds the time since `mark` to the training time and moves `mark` to now. Counted
    /// as each chunk lands, not once a round has ended: the speed shown mid-round then
    /// divides the steps done by the time they took (it read 62 k characters per second
    /// for a round's first chunk, seven times the truth).
    fn count_time(self, mark: &std::cell::Cell<f64>) {
        let now = now_ms();
        self.elapsed_ms.update(|t| *t += now - mark.get());
        mark.set(now);
    }
}
