//! The worker-job protocol. A job is work the page hands to a pool of Web Workers, each
//! its own instance of the page's wasm (GitHub Pages cannot send the headers
//! SharedArrayBuffer needs): Table 2's batch, Table 3's depth sweep, an explorer column's
//! forward pass, a lab problem's block of rows, the lab's noise chart, a chunk of a
//! training run.
//!
//! Every job is one [`Job`], a serde-derived struct: its message is one envelope (its
//! kind and its body as JSON, [`encode_parts`]) and, for bulk numbers, arrays sent by
//! transfer. Its answer is one envelope too: the output's numbers, or a typed
//! [`JobError`]. A worker reads any job through its wasm's table ([`table`]); the page runs
//! jobs through one [`runner`], which sends them to a [`runner::Pool`] and runs what the
//! pool leaves on the page itself. The page knows which job an answer belongs to (the
//! pool hands both back together), so an answer does not repeat its job.

mod accuracy;
mod depth_sweep;
mod envelope;
mod forward;
mod lab_block;
pub mod local_pool;
mod noise_chart;
mod output_codec;
pub mod runner;
pub mod table;
#[cfg(test)]
mod tests;
mod train_chunk;

pub use accuracy::{add, chunks, AccuracyChunk};
pub use depth_sweep::{sweep_chunks, SweepChunk, SweepTotals};
pub use envelope::{decode, decode_answer, decode_parts, encode, encode_answer, encode_parts, failure, fault_of, kind_of, with_fault};
pub use forward::ForwardJob;
pub use lab_block::BlockJob;
pub use noise_chart::{ChartPart, ChartPoint, NoiseChartJob};
pub use runner::{JobError, Slices};
pub use train_chunk::{ChunkOutput, TrainChunk, Training};

use crate::core::lab::{LabInputs, LabParams};
use crate::core::model::Model;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A shipped model as the model library names it: its kind's slug and its checkpoint.
pub type ModelKey = (String, usize);

/// A message either way: a short text and the arrays that go with it (transferred, not
/// copied, between the page and a worker).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    pub text: String,
    pub arrays: Vec<Vec<f32>>,
}

/// What a worker keeps from one job to the next (and the runner, for the jobs the page
/// takes over).
#[derive(Default)]
pub struct WorkerMemory {
    /// The last lab problem's inputs: every block of that problem starts from them.
    lab_inputs: Option<(LabParams, LabInputs)>,
}

/// One kind of work for the workers. The job's own fields cross as JSON (serde derives
/// the codec); bulk numbers (a text, a run's state, maps) go beside it as arrays.
pub trait Job: Clone + Serialize + DeserializeOwned + 'static {
    /// The kind, as the envelope names it (unique in [`table`]).
    const KIND: &'static str;
    /// What the job answers when it succeeds.
    type Output;
    /// The output's numbers as they cross back (serde derives their codec); its bulk goes
    /// as arrays ([`Job::to_answer`]).
    type Answer: Serialize + DeserializeOwned;
    /// Whether a job read from a message holds together (counts within their bounds):
    /// serde checks the shapes, this the meaning.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
    /// Bulk numbers the job carries beside its fields (sent by transfer): a training
    /// chunk's text and state. Most jobs carry none.
    fn arrays(&self) -> Vec<Vec<f32>> {
        vec![]
    }
    /// The job read from its envelope with the arrays its message brought, or why they
    /// do not fit it.
    fn with_arrays(self, arrays: Vec<Vec<f32>>) -> Result<Self, String> {
        match arrays.is_empty() {
            true => Ok(self),
            false => Err(format!("a {} job carries no arrays, this one came with {}", Self::KIND, arrays.len())),
        }
    }
    /// The shipped models the job runs, which the worker loads before running it.
    fn models(&self) -> Vec<ModelKey> {
        vec![]
    }
    /// Runs the job, exactly as the page would: `models` are those of [`Job::models`], in that order.
    fn run(&self, models: &[&Model], memory: &mut WorkerMemory) -> Result<Self::Output, String>;
    /// The job's work in slices short enough for the page to run between two frames,
    /// where no worker could: by default the whole job as one slice.
    fn slices(&self, _models: &[&Model]) -> Result<Box<dyn Slices<Self::Output>>, String> {
        Ok(Box::new(runner::Whole(self.clone())))
    }
    /// The output as its numbers and arrays.
    fn to_answer(output: Self::Output) -> (Self::Answer, Vec<Vec<f32>>);
    /// The output back, or why the answer cannot be read (every count is checked).
    fn from_answer(answer: Self::Answer, arrays: Vec<Vec<f32>>) -> Result<Self::Output, String>;
}

/// [`Job::to_answer`] of a job whose output is all numbers (no arrays).
fn plain<O>(output: O) -> (O, Vec<Vec<f32>>) {
    (output, vec![])
}

/// [`Job::from_answer`] of such a job: any array is a damaged answer.
fn plain_back<O>(answer: O, arrays: Vec<Vec<f32>>) -> Result<O, String> {
    match arrays.is_empty() {
        true => Ok(answer),
        false => Err(format!("{} arrays where none belong", arrays.len())),
    }
}
