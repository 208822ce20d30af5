//! One runner for every page's jobs: it sends them to a [`Pool`] of workers, hands each
//! answer to the page as it comes, reports a worker that failed, and runs whatever the
//! pool left (a failed worker's jobs, or all of them where no worker started) on the page
//! itself, a slice at a time between frames, so the page gets every answer either way.
//! The pool is a trait: the browser's Web Workers (`ui::worker_pool`) implement it, and so
//! does [`super::local_pool::LocalPool`] in this process, so that the fallback and the
//! leftovers are tested natively.

use super::{encode_parts, Job, ModelKey, Parts, WorkerMemory};
use crate::core::model::Model;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// A future the pool hands back (the browser's are not `Send`).
pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Why a job has no output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
pub enum JobError {
    /// The job failed where it ran, in its own words: a model that would not load, a
    /// state that does not fit its run, weights that do not fit their model.
    #[error("{0}")]
    Failed(String),
    /// The message was not a job a worker knows: a stranger's kind, a damaged body.
    #[error("{0}")]
    NotAJob(String),
    /// The answer could not be read: damaged on its way back.
    #[error("a worker's answer to a {kind} job could not be read: {why}")]
    Unreadable { kind: String, why: String },
}

/// A job's work on the page, a slice at a time.
pub trait Slices<O> {
    /// Does one slice: the output once the last slice is done.
    fn step(&mut self, models: &[&Model], memory: &mut WorkerMemory) -> Result<Option<O>, String>;
}

/// A job done in one slice (the default [`Job::slices`]).
pub struct Whole<J>(pub J);

impl<J: Job> Slices<J::Output> for Whole<J> {
    fn step(&mut self, models: &[&Model], memory: &mut WorkerMemory) -> Result<Option<J::Output>, String> {
        self.0.run(models, memory).map(Some)
    }
}

/// What a pool's run left: the places of the jobs no worker finished, and why a worker
/// failed, if one did (in the words the page shows).
#[derive(Debug, Default, PartialEq)]
pub struct Left {
    pub jobs: Vec<usize>,
    pub failure: Option<String>,
}

/// Where jobs run besides the page.
pub trait Pool {
    /// Sends each message to a worker while `alive()`, handing `answer` each job's place
    /// and its worker's answer as they come; says which jobs no worker finished.
    fn run_each(&self, messages: Vec<Parts>, alive: Rc<dyn Fn() -> bool>, answer: Rc<dyn Fn(usize, Parts)>) -> Boxed<'_, Left>;
    /// Tells the person that a worker failed (the browser: the app's banner).
    fn report(&self, failure: &str);
    /// Lets the page paint and take input between two slices of its own work.
    fn pause(&self) -> Boxed<'static, ()>;
    /// A clock in milliseconds, to cut the page's work into slices.
    fn now_ms(&self) -> f64;
}

/// The page's work between two frames: short enough that a drag or a key stays smooth.
pub const SLICE_MS: f64 = 10.0;

/// What a run came to.
#[derive(Debug)]
pub struct Outcome<J> {
    /// Jobs no one finished: those a failed worker left when the runner was told to leave
    /// them to the caller ([`Runner::leave_to_caller`]); none after a stop.
    pub left: Vec<J>,
    /// Why a worker failed, if one did.
    pub failure: Option<String>,
    /// How many jobs the page ran itself.
    pub on_page: usize,
}

/// What the page is told before it takes over a failed worker's jobs: why, if a worker failed.
type Note = Box<dyn Fn(Option<&str>)>;

/// Runs jobs through a pool, and on the page what the pool leaves.
pub struct Runner<'p> {
    pool: &'p dyn Pool,
    take_over: bool,
    /// The models the page holds, for the jobs it takes over.
    models: Vec<(ModelKey, Rc<Model>)>,
    on_take_over: Option<Note>,
    slice_ms: f64,
}

impl<'p> Runner<'p> {
    /// A runner that takes over what the pool leaves.
    pub fn new(pool: &'p dyn Pool) -> Self {
        Self { pool, take_over: true, models: vec![], on_take_over: None, slice_ms: SLICE_MS }
    }

    /// The shipped models the page has loaded, which the jobs it takes over run.
    pub fn with_models(mut self, models: Vec<(ModelKey, Rc<Model>)>) -> Self {
        self.models = models;
        self
    }

    /// Leaves what the pool did not finish to the caller (the explorer runs its columns
    /// on the backend of its choice).
    pub fn leave_to_caller(mut self) -> Self {
        self.take_over = false;
        self
    }

    /// Slices of at most about `ms` (the lab's charts: short, so that a λ drag's frame
    /// still fits beside one).
    pub fn slices_of(mut self, ms: f64) -> Self {
        self.slice_ms = ms;
        self
    }

    /// Called once, with why (a worker's failure, if one failed), before the page takes
    /// over jobs (a panel says so).
    pub fn on_take_over(mut self, note: impl Fn(Option<&str>) + 'static) -> Self {
        self.on_take_over = Some(Box::new(note));
        self
    }

    /// Runs `jobs` while `alive()`, handing each job and its output (or why there is none)
    /// to `answer` as it comes, from a worker or from the page. A job that failed in a
    /// worker is not run again: it would fail the same way.
    pub async fn run<J: Job>(&self, jobs: Vec<J>, alive: impl Fn() -> bool + 'static, answer: impl Fn(&J, Result<J::Output, JobError>) + 'static) -> Outcome<J> {
        let (alive, answer) = (Rc::new(alive), Rc::new(answer));
        let messages = jobs.iter().map(encode_parts).collect();
        let jobs = Rc::new(jobs);
        let each = {
            let (jobs, answer) = (jobs.clone(), answer.clone());
            Rc::new(move |k: usize, parts: Parts| answer(&jobs[k], super::decode_answer::<J>(parts)))
        };
        let left = self.pool.run_each(messages, alive.clone(), each).await;
        if let Some(why) = &left.failure {
            self.pool.report(why);
        }
        let mut outcome = Outcome { left: vec![], failure: left.failure, on_page: 0 };
        if !alive() || left.jobs.is_empty() {
            return outcome;
        }
        let left: Vec<J> = left.jobs.iter().map(|&k| jobs[k].clone()).collect();
        if !self.take_over {
            outcome.left = left;
            return outcome;
        }
        if let Some(note) = &self.on_take_over {
            note(outcome.failure.as_deref());
        }
        let mut memory = WorkerMemory::default();
        for job in &left {
            match self.on_page(job, &*alive, &mut memory).await {
                Some(result) => answer(job, result),
                None => break,
            }
            outcome.on_page += 1;
        }
        outcome
    }

    /// One job on the page, a slice per frame; `None` once `alive()` turns false.
    async fn on_page<J: Job>(&self, job: &J, alive: &dyn Fn() -> bool, memory: &mut WorkerMemory) -> Option<Result<J::Output, JobError>> {
        let models = match job.models().iter().map(|key| self.model(key)).collect::<Result<Vec<_>, _>>() {
            Ok(models) => models,
            Err(why) => return Some(Err(why)),
        };
        let refs: Vec<&Model> = models.iter().map(Rc::as_ref).collect();
        let mut slices = match job.slices(&refs) {
            Ok(slices) => slices,
            Err(why) => return Some(Err(JobError::Failed(why))),
        };
        loop {
            self.pool.pause().await;
            if !alive() {
                return None;
            }
            let t0 = self.pool.now_ms();
            while self.pool.now_ms() - t0 < self.slice_ms {
                match slices.step(&refs, memory) {
                    Ok(Some(output)) => return Some(Ok(output)),
                    Ok(None) => {}
                    Err(why) => return Some(Err(JobError::Failed(why))),
                }
            }
        }
    }

    fn model(&self, key: &ModelKey) -> Result<Rc<Model>, JobError> {
        let found = self.models.iter().find(|(k, _)| k == key).map(|(_, m)| m.clone());
        found.ok_or_else(|| JobError::Failed(format!("the page holds no {} model at checkpoint {} to run the job", key.0, key.1)))
    }
}
