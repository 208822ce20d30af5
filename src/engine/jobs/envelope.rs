//! The one envelope every message travels in, both ways, as JSON: a job is its kind and
//! its body (`{"job": "sweep", "body": {…}}`), an answer is its output's numbers or why
//! there are none (`{"ok": …}` or `{"error": …}`). Bulk numbers go beside the text as
//! arrays. serde derives every body's codec; `float_roundtrip` makes every number cross
//! bit for bit.

use super::{Job, JobError, Parts};
use serde::{Deserialize, Serialize};

/// A job as it is sent.
#[derive(Serialize)]
struct Outgoing<'a, J> {
    job: &'static str,
    body: &'a J,
}

/// Any message's head: its kind, and a failure the browser tests asked for.
#[derive(Deserialize)]
struct Head {
    job: String,
    #[serde(default)]
    fault: Option<String>,
}

/// A job as it is read.
#[derive(Deserialize)]
struct Incoming<J> {
    body: J,
}

/// An answer either way.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Reply<A> {
    Ok(A),
    Error(JobError),
}

/// The job as the text a worker reads (without its arrays).
pub fn encode<J: Job>(job: &J) -> String {
    serde_json::to_string(&Outgoing { job: J::KIND, body: job }).expect("a job's fields are plain data")
}

/// The job as the whole message a worker reads: its text and its arrays.
pub fn encode_parts<J: Job>(job: &J) -> Parts {
    Parts { text: encode(job), arrays: job.arrays() }
}

/// The kind a message names, or why it names none.
pub fn kind_of(text: &str) -> Result<String, JobError> {
    serde_json::from_str::<Head>(text).map(|h| h.job).map_err(|e| JobError::NotAJob(format!("{e}: {}", text.chars().take(60).collect::<String>())))
}

/// A message read back as a job of kind `J`, or why it is not one.
pub fn decode<J: Job>(message: &str) -> Result<J, JobError> {
    decode_parts(Parts { text: message.to_string(), arrays: vec![] })
}

/// A message with its arrays read back as a job of kind `J`.
pub fn decode_parts<J: Job>(message: Parts) -> Result<J, JobError> {
    let kind = kind_of(&message.text)?;
    if kind != J::KIND {
        return Err(JobError::NotAJob(format!("not a job of kind {}: {kind}", J::KIND)));
    }
    let not = |why: String| JobError::NotAJob(format!("a {} job {why}", J::KIND));
    let job = serde_json::from_str::<Incoming<J>>(&message.text).map_err(|e| not(format!("could not be read: {e}")))?.body;
    job.check().map_err(not)?;
    job.with_arrays(message.arrays).map_err(not)
}

/// A job's result as the answer a worker sends.
pub fn encode_answer<J: Job>(result: Result<J::Output, JobError>) -> Parts {
    let (reply, arrays) = match result {
        Ok(output) => {
            let (answer, arrays) = J::to_answer(output);
            (Reply::Ok(answer), arrays)
        }
        Err(why) => (Reply::Error(why), vec![]),
    };
    Parts { text: serde_json::to_string(&reply).expect("an answer's numbers are plain data"), arrays }
}

/// An answer saying a job failed, and why (whatever the job's kind).
pub fn failure(why: JobError) -> Parts {
    Parts { text: serde_json::to_string(&Reply::<()>::Error(why)).expect("an error is text"), arrays: vec![] }
}

/// A worker's answer to a job of kind `J`: its output, or why there is none (the job
/// failed in the worker, or the answer is damaged).
pub fn decode_answer<J: Job>(answer: Parts) -> Result<J::Output, JobError> {
    let unreadable = |why: String| JobError::Unreadable { kind: J::KIND.to_string(), why };
    match serde_json::from_str::<Reply<J::Answer>>(&answer.text).map_err(|e| unreadable(e.to_string()))? {
        Reply::Ok(numbers) => J::from_answer(numbers, answer.arrays).map_err(unreadable),
        Reply::Error(why) => Err(why),
    }
}

/// The job's message with a failure the browser tests ask its worker for (`panic`, `oom`).
pub fn with_fault(text: &str, fault: &str) -> String {
    let Ok(serde_json::Value::Object(mut message)) = serde_json::from_str(text) else { return text.to_string() };
    message.insert("fault".into(), fault.into());
    serde_json::Value::Object(message).to_string()
}

/// The failure a message asks its worker for, if it asks for one.
pub fn fault_of(text: &str) -> Option<String> {
    serde_json::from_str::<Head>(text).ok()?.fault
}
