//! The lab's problem on screen and the one being computed. A problem is computed in
//! blocks of query rows (`engine::lab_blocks`): on the CPU path the blocks go to the
//! worker pool when it is worth starting one, and whatever no worker did is computed
//! here a block at a time between paints; on the GPU path the maps come back whole and
//! only their summaries are made here, block by block. So a new problem never holds the
//! page's thread for more than a slice, and a late answer for an older problem is
//! dropped (the run's `alive()` says whether its problem is still the one wanted).

use crate::engine::jobs::runner::Runner;
use crate::engine::jobs::{BlockJob, JobError};
use crate::engine::lab::blocks::LabAssembly;
use crate::engine::lab::{GpuSession, LabParams, LabRun};
use crate::tr;
use crate::ui::backend::{self, Backend};
use crate::ui::worker_pool::WorkerPool;
use crate::ui::{after_next_paint, now_ms, yield_to_browser};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// Below this N a problem takes the page a few milliseconds: not worth a worker's start.
const WORKERS_FROM_N: usize = 512;
/// The page computes blocks for about this long between paints.
const SLICE_MS: f64 = 8.0;

/// Timings of the last updates, for the readout and the browser tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Timing {
    pub problem_ms: f64,
    pub lambda_ms: f64,
}

/// The problem on screen, how it got there, and the one being computed. The maps live
/// outside the reactive graph (large, and not `Sync`-shared); `version` tells dependants
/// that a new run is in place.
#[derive(Clone, Copy)]
pub(super) struct Runs {
    pub run: StoredValue<Option<LabRun>, LocalStorage>,
    pub version: RwSignal<u64>,
    /// The sequence length of a problem being computed, while the maps show an older one.
    pub pending: RwSignal<Option<usize>>,
    pub computed_on: RwSignal<String>,
    pub gpu_note: RwSignal<Option<String>>,
    pub timing: RwSignal<Timing>,
    /// Exists while the WebGPU path is active (a lost device drops it).
    pub session: StoredValue<Option<Rc<GpuSession>>, LocalStorage>,
}

impl Runs {
    /// Computes a new problem whenever the state's problem (not λ) or the backend changes:
    /// on the GPU when there is one (maps read back once), else the CPU. A newer request
    /// makes an older one's result be dropped.
    pub fn follow(problem: Memo<LabParams>, backend: RwSignal<Backend>) -> Self {
        let runs = Runs {
            run: StoredValue::new_local(None),
            version: RwSignal::new(0),
            pending: RwSignal::new(None),
            computed_on: RwSignal::new(String::new()),
            gpu_note: RwSignal::new(None),
            timing: RwSignal::new(Timing::default()),
            session: StoredValue::new_local(None),
        };
        let latest = StoredValue::new(0u64);
        Effect::new(move |_| {
            let params = problem.get();
            let session = runs.session_for(backend);
            latest.update_value(|g| *g += 1);
            let mine = latest.get_value();
            let t0 = now_ms();
            runs.pending.set(Some(params.n));
            leptos::task::spawn_local(async move {
                // On the CPU the page computes at least the first blocks itself: let the
                // browser paint "computing…" first.
                if session.is_none() {
                    after_next_paint().await;
                }
                let alive = move || latest.try_get_value() == Some(mine);
                if !alive() {
                    return;
                }
                let (assembly, note) = GpuSession::assembly_or_cpu(session.as_deref(), &params, &|| Box::pin(yield_to_browser())).await;
                if !alive() {
                    return;
                }
                let Some(assembly) = place_blocks(assembly, alive).await else { return };
                match assembly.finish() {
                    Ok(computed) => runs.put(computed, note, now_ms() - t0),
                    Err(e) => {
                        runs.gpu_note.try_set(Some(e));
                        runs.pending.try_set(None);
                    }
                }
            });
        });
        runs
    }

    /// The GPU session for the backend, made once per GPU device.
    fn session_for(self, backend: RwSignal<Backend>) -> Option<Rc<GpuSession>> {
        let ctx = backend.with(|b| matches!(b, Backend::WebGpu { .. })).then(backend::gpu).flatten();
        match ctx {
            None => self.session.set_value(None),
            Some(ctx) if self.session.with_value(|s| s.as_ref().is_none_or(|s| !Rc::ptr_eq(&s.ctx, &ctx))) => self.session.set_value(Some(Rc::new(GpuSession::new(ctx)))),
            Some(_) => {}
        }
        self.session.get_value()
    }

    fn put(self, computed: LabRun, note: Option<String>, ms: f64) {
        let label = if computed.on_gpu { "WebGPU".to_string() } else { tr!("lab-on-cpu") };
        let _ = self.run.try_set_value(Some(computed));
        self.gpu_note.try_set(note);
        self.computed_on.try_set(label);
        self.pending.try_set(None);
        self.version.try_update(|v| *v += 1);
        self.timing.try_update(|t| t.problem_ms = ms);
    }

    /// Reads the run on screen (tracked: reruns when a new one is in place).
    pub fn with<T>(self, f: impl FnOnce(&LabRun) -> T) -> Option<T> {
        self.version.track();
        self.run.with_value(|r| r.as_ref().map(f))
    }
}

/// Puts every block of `assembly` in place: the CPU path's blocks through the worker pool
/// (large problems), then whatever is still missing here in slices between paints, then
/// merges the blocks' λ-sweep parts, in slices too.
/// `None` once `alive()` says a newer problem replaced this one.
async fn place_blocks(assembly: LabAssembly, alive: impl Fn() -> bool + Copy + 'static) -> Option<LabAssembly> {
    // Shared with the answers' handler, which may outlive this call by a moment.
    let shared = Rc::new(RefCell::new(Some(assembly)));
    let job = |a: &LabAssembly| (a.computes_maps() && a.params().n >= WORKERS_FROM_N).then(|| (a.params().clone(), a.missing()));
    // Bound first: the borrow must end before any answer arrives.
    let work = shared.borrow().as_ref().and_then(job);
    if let Some((params, missing)) = work {
        let jobs = missing.into_iter().map(|rows| BlockJob { params: params.clone(), rows }).collect();
        let target = shared.clone();
        let answer = move |_: &BlockJob, block: Result<_, JobError>| match block {
            Ok(block) if alive() => {
                if let Some(Err(e)) = target.borrow_mut().as_mut().map(|t| t.add(block)) {
                    leptos::logging::warn!("a worker's block was refused: {e}");
                }
            }
            Err(e) => leptos::logging::warn!("a block failed in a worker: {e}"),
            Ok(_) => {}
        };
        // What a failed worker left stays missing: the loop below computes it, as it
        // computes a problem too small for the workers.
        Runner::new(&*WorkerPool::get()).leave_to_caller().run(jobs, alive, answer).await;
    }
    let mut assembly = shared.borrow_mut().take()?;
    loop {
        if !alive() {
            return None;
        }
        let t0 = now_ms();
        for rows in assembly.missing() {
            if let Err(e) = assembly.compute(rows) {
                leptos::logging::warn!("a block could not be computed: {e}");
                return None;
            }
            if now_ms() - t0 > SLICE_MS {
                break;
            }
        }
        // Then the blocks' sweep parts, a merge at a time.
        let mut more = assembly.is_complete();
        while more && now_ms() - t0 <= SLICE_MS {
            more = assembly.merge_step();
        }
        if assembly.is_complete() && !more {
            return Some(assembly);
        }
        yield_to_browser().await;
    }
}
