//! A pool of workers in this process, for the native tests: each job crosses as the
//! browser's pool sends it (its message through the worker's table, its answer back as
//! text and arrays), and a worker can be told to fail, so the runner's fallback and
//! leftovers are tested without a browser. Its clock advances a millisecond each time it
//! is read, so the page's slices are the same on every machine.

use super::runner::{Boxed, Left, Pool};
use super::{failure, table, JobError, ModelKey, Parts, WorkerMemory};
use crate::core::model::Model;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

#[derive(Default)]
pub struct LocalPool {
    /// The models its workers load.
    pub models: Vec<(ModelKey, Rc<Model>)>,
    /// How many answers its workers give before one of them fails (the job it holds
    /// then, and every job not yet sent, are left over).
    pub fails_after: Option<usize>,
    /// What it reported (the browser's banner).
    pub reports: RefCell<Vec<String>>,
    /// Jobs its workers answered.
    pub answered: Cell<usize>,
    /// Times the page paused between two of its own slices.
    pub pauses: Cell<usize>,
    clock: Cell<f64>,
    memory: RefCell<WorkerMemory>,
}

impl LocalPool {
    pub fn with_models(models: Vec<(ModelKey, Rc<Model>)>) -> Self {
        Self { models, ..Self::default() }
    }

    /// The same pool, whose workers fail after `answers` answers.
    pub fn failing_after(self, answers: usize) -> Self {
        Self { fails_after: Some(answers), ..self }
    }

    /// A worker's answer to one message, as `ui::worker` gives it.
    fn reply(&self, message: Parts) -> Parts {
        let job = match table::read_parts(message) {
            Ok(job) => job,
            Err(why) => return failure(why),
        };
        let mut models = vec![];
        for key in job.models() {
            match self.models.iter().find(|(k, _)| *k == key) {
                Some((_, m)) => models.push(m.clone()),
                None => return failure(JobError::Failed(format!("models/{}/{}: HTTP 404", key.0, key.1))),
            }
        }
        let refs: Vec<&Model> = models.iter().map(Rc::as_ref).collect();
        job.answer(&refs, &mut self.memory.borrow_mut())
    }
}

impl Pool for LocalPool {
    fn run_each(&self, messages: Vec<Parts>, alive: Rc<dyn Fn() -> bool>, answer: Rc<dyn Fn(usize, Parts)>) -> Boxed<'_, Left> {
        Box::pin(async move {
            let mut left = Left::default();
            for (k, message) in messages.into_iter().enumerate() {
                if !alive() {
                    break;
                }
                if left.failure.is_some() || self.fails_after.is_some_and(|n| self.answered.get() >= n) {
                    left.failure.get_or_insert_with(|| "the worker stopped".to_string());
                    left.jobs.push(k);
                    continue;
                }
                self.answered.set(self.answered.get() + 1);
                answer(k, self.reply(message));
            }
            left
        })
    }

    fn report(&self, failure: &str) {
        self.reports.borrow_mut().push(failure.to_string());
    }

    fn pause(&self) -> Boxed<'static, ()> {
        self.pauses.set(self.pauses.get() + 1);
        Box::pin(async {})
    }

    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 1.0);
        self.clock.get()
    }
}
