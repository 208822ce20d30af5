//! The worker-job protocol. A job is work the page hands to a pool of Web Workers, each
//! its own instance of the page's wasm (GitHub Pages cannot send the headers
//! SharedArrayBuffer needs): Table 2's batch, Table 3's depth sweep, an explorer column's
//! forward pass, a lab problem's block of rows, the lab's noise chart, a chunk of a
//! training run.
//!
//! Every job is one [`Job`]: what it carries (written as a short text, so a worker
//! computes exactly what the page would) and, for bulk numbers, arrays sent by transfer;
//! what it answers (a short text and arrays), and how it runs. The worker reads any job through
//! one table ([`table`]); the page sends typed jobs and gets each back with its output.
//! A job's message says its kind (`_job=`); an answer is its output or `error=`. The
//! page knows which job an answer belongs to (the pool hands both back together), so an
//! answer does not repeat its job.

mod accuracy;
mod depth_sweep;
mod fields;
mod forward;
mod lab_block;
mod noise_chart;
mod output_codec;
pub mod table;
#[cfg(test)]
mod tests;
mod train_chunk;

pub use accuracy::{add, chunks, AccuracyChunk};
pub use depth_sweep::{sweep_chunks, SweepChunk, SweepTotals};
pub use fields::Fields;
pub use forward::ForwardJob;
pub use lab_block::BlockJob;
pub use noise_chart::{ChartPart, ChartPoint, NoiseChartJob};
pub use train_chunk::{ChunkOutput, ChunkStepper, TrainChunk};

use crate::core::lab::{LabInputs, LabParams};
use crate::core::model::Model;
use crate::state::query;

/// Key–value pairs, in the order they are written.
pub type Pairs = Vec<(String, String)>;

/// A shipped model as the model library names it: its kind's slug and its checkpoint.
pub type ModelKey = (String, usize);

/// A message either way: a short text and the arrays that go with it (transferred, not
/// copied, between the page and a worker).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    pub text: String,
    pub arrays: Vec<Vec<f32>>,
}

/// What a worker keeps from one job to the next.
#[derive(Default)]
pub struct WorkerMemory {
    /// The last lab problem's inputs: every block of that problem starts from them.
    lab_inputs: Option<(LabParams, LabInputs)>,
}

/// One kind of work for the workers.
pub trait Job: Clone + Sized + 'static {
    /// The kind, as the message's `_job` says it (unique in [`table`]).
    const KIND: &'static str;
    /// What the job answers when it succeeds.
    type Output;
    /// The job's own pairs (not `_job`, which the protocol writes).
    fn write(&self) -> Pairs;
    /// The job from its message's pairs, or why they do not make one.
    fn read(fields: &Fields) -> Result<Self, String>;
    /// Bulk numbers the job carries beside its pairs (sent by transfer): a training
    /// chunk's text and state. Most jobs carry none.
    fn arrays(&self) -> Vec<Vec<f32>> {
        vec![]
    }
    /// The job read by [`Job::read`] with the arrays its message brought, or why they do
    /// not fit it.
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
    /// The output as pairs and arrays.
    fn write_output(output: Self::Output) -> (Pairs, Vec<Vec<f32>>);
    /// The output back, or why the answer cannot be read (every count is checked).
    fn read_output(fields: &Fields, arrays: Vec<Vec<f32>>) -> Result<Self::Output, String>;
}

/// The job as the message a worker reads.
pub fn encode<J: Job>(job: &J) -> String {
    let mut pairs = vec![("_job".to_string(), J::KIND.to_string())];
    pairs.extend(job.write());
    query::format(&pairs)
}

/// The job as the whole message a worker reads: its text and its arrays.
pub fn encode_parts<J: Job>(job: &J) -> Parts {
    Parts { text: encode(job), arrays: job.arrays() }
}

/// A message read back as a job of kind `J`, or why it is not one.
pub fn decode<J: Job>(message: &str) -> Result<J, String> {
    decode_parts(Parts { text: message.to_string(), arrays: vec![] })
}

/// A message with its arrays read back as a job of kind `J`.
pub fn decode_parts<J: Job>(message: Parts) -> Result<J, String> {
    let fields = Fields::parse(&message.text);
    if fields.get("_job") != Some(J::KIND) {
        return Err(format!("not a job of kind {}: {}", J::KIND, message.text.chars().take(60).collect::<String>()));
    }
    J::read(&fields)?.with_arrays(message.arrays)
}

/// A job's result as the answer a worker sends.
pub fn encode_answer<J: Job>(result: Result<J::Output, String>) -> Parts {
    match result {
        Ok(output) => {
            let (pairs, arrays) = J::write_output(output);
            Parts { text: query::format(&pairs), arrays }
        }
        Err(why) => failure(why),
    }
}

/// An answer saying the job failed, and why (whatever the job's kind).
pub fn failure(why: String) -> Parts {
    Parts { text: query::format(&[("error".to_string(), why)]), arrays: vec![] }
}

/// A worker's answer to a job of kind `J`: its output, or why there is none (the job
/// failed in the worker, or the answer is damaged).
pub fn decode_answer<J: Job>(answer: Parts) -> Result<J::Output, String> {
    let fields = Fields::parse(&answer.text);
    if let Some(why) = fields.get("error") {
        return Err(why.to_string());
    }
    J::read_output(&fields, answer.arrays).map_err(|e| format!("a worker's answer to a {} job could not be read: {e}", J::KIND))
}

/// A job that carries the explorer's link: its own keys (each starting with `_`) and
/// then the link's, so that a worker runs exactly the page's state.
fn with_link(own: &[(&str, String)], state: &crate::state::model_state::ModelState) -> Pairs {
    let mut pairs: Pairs = own.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    pairs.extend(state.to_params());
    pairs
}
