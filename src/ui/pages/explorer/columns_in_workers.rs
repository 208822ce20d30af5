//! The explorer's columns in background workers: a new prompt's whole CPU passes, a job
//! per model (`engine::jobs::ForwardJob`), so the three models run side by side on other
//! cores and the page only takes in their outputs. Only where the pool has a worker for
//! each model: with fewer, the passes queue in the workers and sending them back costs
//! more than the page's own passes, one model per task (README, "Performance"). One pass
//! (a λ step) stays on the page, where it is painted in the frame that delivered it; so
//! does every pass while the pool is not listening yet (its wasm instances still
//! compiling would keep the columns off screen longer than computing them here), and the
//! pool is started for the next prompt.

use crate::engine::explorer::columns::ColumnJob;
use crate::engine::jobs::runner::Runner;
use crate::engine::jobs::{ForwardJob, JobError};
use crate::engine::model::ModelOutput;
use crate::state::model_state::{column_of, AttentionKind, ModelState};
use crate::ui::worker_pool::WorkerPool;
use std::cell::RefCell;
use std::rc::Rc;

/// Each column's whole pass as a worker made it, in `AttentionKind::ALL` order; `None`
/// where the page is to make it (kept, resumed, on WebGPU, the pool not listening, or
/// left by a failed worker, which the banner reports).
pub async fn outputs_from_workers(jobs: &[ColumnJob], state: &ModelState, checkpoint: usize, alive: impl Fn() -> bool + 'static) -> Vec<Option<ModelOutput>> {
    let outputs = Rc::new(RefCell::new(vec![None; jobs.len()]));
    let wanted: Vec<AttentionKind> = AttentionKind::ALL.into_iter().zip(jobs).filter(|(_, j)| j.for_worker()).map(|(k, _)| k).collect();
    let pool = WorkerPool::get();
    let side_by_side = wanted.len() >= 2 && pool.size() >= AttentionKind::ALL.len();
    if !side_by_side || !pool.is_ready() {
        if side_by_side {
            pool.warm();
        }
        return outputs.take();
    }
    let jobs = wanted.into_iter().map(|kind| ForwardJob { state: state.clone(), checkpoint, kind }).collect();
    let sink = outputs.clone();
    let answer = move |job: &ForwardJob, output: Result<ModelOutput, JobError>| match output {
        Ok(output) => sink.borrow_mut()[column_of(job.kind)] = Some(output),
        // A pass that failed in the worker fails on the page too, which says why.
        Err(e) => leptos::logging::warn!("a worker's forward pass: {e}"),
    };
    // What a failed worker left, the page computes below with the others (on its backend).
    Runner::new(&*pool).leave_to_caller().run(jobs, alive, answer).await;
    outputs.take()
}
