//! The workers' dispatch tables: every kind of job, read from its message by the kind
//! its envelope names, run, and answered, whatever its kind. A new kind of job is one
//! [`Job`] and one row here. There are two tables because there are two wasm modules:
//! the page's workers run the page's own wasm and its jobs ([`PAGE_JOBS`]); the training
//! workers run a wasm of their own ([`TRAINING_JOBS`]), which only the training page
//! loads. A wasm links the code of the jobs in its table and no other.

use crate::core::model::Model;
use crate::engine::jobs::{decode_parts, encode_answer, kind_of, AccuracyChunk, BlockJob, ForwardJob, Job, JobError, ModelKey, NoiseChartJob, Parts, SweepChunk, Training, WorkerMemory};

/// A job read from its message, whatever its kind: what it needs, and its answer.
pub trait Runnable {
    /// The shipped models to load before [`Runnable::answer`].
    fn models(&self) -> Vec<ModelKey>;
    /// Runs the job on `models` (those of [`Runnable::models`], in order) and says its answer.
    fn answer(&self, models: &[&Model], memory: &mut WorkerMemory) -> Parts;
}

impl<J: Job> Runnable for J {
    fn models(&self) -> Vec<ModelKey> {
        Job::models(self)
    }

    fn answer(&self, models: &[&Model], memory: &mut WorkerMemory) -> Parts {
        encode_answer::<J>(self.run(models, memory).map_err(JobError::Failed))
    }
}

/// One row of the table: a kind and how to read a job of it.
pub struct Entry {
    pub kind: &'static str,
    read: fn(Parts) -> Result<Box<dyn Runnable>, JobError>,
}

fn read_as<J: Job>(message: Parts) -> Result<Box<dyn Runnable>, JobError> {
    decode_parts::<J>(message).map(|job| Box::new(job) as Box<dyn Runnable>)
}

const fn row<J: Job>() -> Entry {
    Entry { kind: J::KIND, read: read_as::<J> }
}

/// The jobs the page's workers run (the page's own wasm).
pub const PAGE_JOBS: [Entry; 5] = [row::<AccuracyChunk>(), row::<SweepChunk>(), row::<ForwardJob>(), row::<BlockJob>(), row::<NoiseChartJob>()];

/// The jobs the training workers run (`src/bin/train_worker.rs`).
pub const TRAINING_JOBS: [Entry; 1] = [row::<Training>()];

/// A job's message read by `table`, or why it is not one of its jobs.
pub fn read_in(table: &[Entry], message: Parts) -> Result<Box<dyn Runnable>, JobError> {
    let kind = kind_of(&message.text)?;
    match table.iter().find(|e| e.kind == kind) {
        Some(entry) => (entry.read)(message),
        None => Err(JobError::NotAJob(format!("no job of kind {kind:?} here"))),
    }
}

/// Any job's message read by whichever table holds its kind (the native tests' pool, which
/// stands for both kinds of worker).
pub fn read_parts(message: Parts) -> Result<Box<dyn Runnable>, JobError> {
    match kind_of(&message.text)? {
        kind if kind == Training::KIND => read_in(&TRAINING_JOBS, message),
        _ => read_in(&PAGE_JOBS, message),
    }
}

/// The same for a message without arrays.
pub fn read(message: &str) -> Result<Box<dyn Runnable>, JobError> {
    read_parts(Parts { text: message.to_string(), arrays: vec![] })
}
