//! A pool of Web Workers for CPU work the main thread must not hold, each its own
//! instance of the page's wasm (`ui::worker`) or, in the training page's pool, of the
//! training wasm: `min(hardwareConcurrency − 1, 8)` of them (at least one), started on
//! first use and kept, with the models they loaded, for the page's life. Jobs are typed
//! (`engine::jobs::Job`) and cross as short texts with arrays; each worker takes the next
//! job from a shared queue as soon as it answers the last, so fast and slow workers share
//! the work evenly. It is the browser's [`Pool`]: pages run their jobs through
//! `engine::jobs::runner`, which runs what a failed worker left on the page (the training
//! page sends it to a fresh worker instead: the page holds no training code). A worker
//! that fails (a broken download, a panic) is replaced for the next run.

use crate::engine::jobs::runner::{Boxed, Left, Pool};
use crate::engine::jobs::{self, Parts};
use futures_channel::oneshot;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Why a worker could not do its job. Said in the language on screen when shown (the
/// banner, the evidence panel's note); the pool keeps the kind, to replace the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerError {
    /// The browser refused to start it (the reason the browser gave).
    CouldNotStart(String),
    /// It stopped before saying it was ready (its download failed, say).
    FailedToStart,
    /// It failed while working (the browser's message).
    Failed(String),
    /// It panicked (its own words).
    Panicked(String),
    /// It did not say it was ready in time.
    Slow { seconds: u64 },
    /// It went away with a job in flight.
    Gone,
    /// The job could not be posted to it.
    Send(String),
    /// This browser started no worker at all.
    NoneStarted,
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Self::CouldNotStart(error) => crate::tr!("worker-could-not-start", error = error.as_str()),
            Self::FailedToStart => crate::tr!("worker-failed-to-start"),
            Self::Failed(message) => crate::tr!("worker-failed", message = message.as_str()),
            Self::Panicked(words) => words.clone(),
            Self::Slow { seconds } => crate::tr!("worker-slow", seconds = *seconds),
            Self::Gone => crate::tr!("worker-gone"),
            Self::Send(error) => crate::tr!("worker-send", error = error.as_str()),
            Self::NoneStarted => crate::tr!("worker-none"),
        };
        f.write_str(&text)
    }
}

/// The worker's loader, beside the page (`www/worker-loader.js`).
const SCRIPT: &str = "./worker-loader.js";

/// Which wasm a pool's workers run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wasm {
    /// The page's own (`ui::worker` with the page's jobs).
    Page,
    /// The training workers' (`src/bin/train_worker.rs`), which Trunk writes beside the
    /// page's under its binary's name; only the training page asks for it.
    Training,
}

/// The training wasm's JS glue and module, as Trunk names a worker binary's files.
const TRAINING_FILES: (&str, &str) = ("difflens-train.js", "difflens-train_bg.wasm");

/// The loader's link: the page's own JS glue and wasm as Trunk linked them in the page
/// (`<link rel=modulepreload>` and the wasm's `<link rel=preload>`), so each worker runs
/// the wasm the page runs, from the browser's cache: one download. The training wasm
/// lies beside them; its names carry no digest, so its link carries the page's (a new
/// build is a new link, never an old training wasm from the browser's cache). The
/// browser tests set `window.DIFFLENS_BREAK_WORKER_DOWNLOAD` to name a wasm that is not
/// there.
fn loader_url(which: Wasm) -> Result<String, WorkerError> {
    let window = web_sys::window().ok_or(WorkerError::FailedToStart)?;
    let document = window.document().ok_or(WorkerError::FailedToStart)?;
    let href = |selector: &str| document.query_selector(selector).ok().flatten().and_then(|e| e.get_attribute("href"));
    let (Some(js), Some(wasm)) = (href("link[rel=modulepreload]"), href("link[rel=preload][type='application/wasm']")) else {
        return Err(WorkerError::CouldNotStart("the page links no wasm".into()));
    };
    let broken = js_sys::Reflect::get(&window, &"DIFFLENS_BREAK_WORKER_DOWNLOAD".into()).ok().is_some_and(|v| v.is_truthy());
    let missing = if broken { ".missing" } else { "" };
    let (js, wasm) = match which {
        Wasm::Page => (js, format!("{wasm}{missing}")),
        Wasm::Training => {
            let folder = &wasm[..wasm.rfind('/').map_or(0, |k| k + 1)];
            let build = wasm[folder.len()..].trim_end_matches("_bg.wasm");
            let (glue, module) = TRAINING_FILES;
            (format!("{folder}{glue}?build={build}"), format!("{folder}{module}{missing}?build={build}"))
        }
    };
    Ok(format!("{SCRIPT}?js={}&wasm={}", js_sys::encode_uri_component(&js), js_sys::encode_uri_component(&wasm)))
}
/// A worker that has not said "ready" by then counts as failed (its jobs run elsewhere).
const READY_WITHIN_MS: i32 = 30_000;

/// A message as the worker posts it (a string, or an array of a string and buffers): a
/// short text and, for answers that carry numbers in bulk (a lab block's map rows), the
/// arrays that came with it by transfer, copied once into this instance's memory.
pub(crate) fn parts_of(data: &JsValue) -> Parts {
    if let Some(text) = data.as_string() {
        return Parts { text, arrays: vec![] };
    }
    let Some(parts) = data.dyn_ref::<js_sys::Array>() else { return Parts::default() };
    let text = parts.get(0).as_string().unwrap_or_default();
    let arrays = (1..parts.length()).map(|k| js_sys::Float32Array::new(&parts.get(k)).to_vec()).collect();
    Parts { text, arrays }
}

type Reply = Result<Parts, WorkerError>;

/// A message either way as it is posted: the text alone, or `[text, buffer…]` and the
/// buffers to transfer (read back by [`parts_of`]).
pub(crate) fn message_of(text: &str, arrays: Vec<Vec<f32>>) -> (JsValue, Option<js_sys::Array>) {
    if arrays.is_empty() {
        return (JsValue::from_str(text), None);
    }
    let (message, transfer) = (js_sys::Array::new(), js_sys::Array::new());
    message.push(&JsValue::from_str(text));
    for a in arrays {
        let buffer = js_sys::Float32Array::from(a.as_slice()).buffer();
        message.push(&buffer);
        transfer.push(&buffer);
    }
    (message.into(), Some(transfer))
}

fn post_parts(worker: &web_sys::Worker, text: &str, arrays: Vec<Vec<f32>>) -> Result<(), JsValue> {
    match message_of(text, arrays) {
        (message, None) => worker.post_message(&message),
        (message, Some(transfer)) => worker.post_message_with_transfer(&message, &transfer),
    }
}

/// The worker's message and error listeners, kept alive as long as it is.
type Listeners = (Closure<dyn Fn(web_sys::MessageEvent)>, Closure<dyn Fn(web_sys::ErrorEvent)>);

struct Slot {
    worker: web_sys::Worker,
    /// Until the worker says "ready": whoever waits for it.
    ready: Rc<RefCell<ReadyState>>,
    /// The job in flight: whoever waits for its answer.
    pending: Rc<RefCell<Option<oneshot::Sender<Reply>>>>,
    /// Set by a failure; the slot is replaced before the next run.
    dead: Rc<RefCell<Option<WorkerError>>>,
    /// One call at a time: a worker answers in order, so a run started while a cancelled
    /// run's job is still in flight waits for that answer instead of taking it.
    busy: std::cell::Cell<bool>,
    /// A failure the browser tests asked for (`window.DIFFLENS_WORKER_FAULT`: "panic" or
    /// "oom"), sent with this worker's first job.
    fault: RefCell<Option<String>>,
    waiting: RefCell<VecDeque<oneshot::Sender<()>>>,
    _listeners: Listeners,
}

enum ReadyState {
    Waiting(Vec<oneshot::Sender<Reply>>),
    Ready,
}

fn fail(slot_pending: &RefCell<Option<oneshot::Sender<Reply>>>, ready: &RefCell<ReadyState>, dead: &RefCell<Option<WorkerError>>, why: WorkerError) {
    *dead.borrow_mut() = Some(why.clone());
    if let Some(tx) = slot_pending.borrow_mut().take() {
        let _ = tx.send(Err(why.clone()));
    }
    if let ReadyState::Waiting(waiting) = std::mem::replace(&mut *ready.borrow_mut(), ReadyState::Waiting(vec![])) {
        for tx in waiting {
            let _ = tx.send(Err(why.clone()));
        }
    }
}

impl Slot {
    fn start(which: Wasm) -> Result<Slot, WorkerError> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&loader_url(which)?, &options).map_err(|e| WorkerError::CouldNotStart(format!("{e:?}")))?;
        let ready = Rc::new(RefCell::new(ReadyState::Waiting(vec![])));
        let pending: Rc<RefCell<Option<oneshot::Sender<Reply>>>> = Rc::new(RefCell::new(None));
        let dead = Rc::new(RefCell::new(None));
        let (r, p, d) = (ready.clone(), pending.clone(), dead.clone());
        let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let answer = parts_of(&e.data());
            if answer.text == "ready" {
                if let ReadyState::Waiting(waiting) = std::mem::replace(&mut *r.borrow_mut(), ReadyState::Ready) {
                    for tx in waiting {
                        let _ = tx.send(Ok(Parts::default()));
                    }
                }
            } else if let Some(panic) = answer.text.strip_prefix("panic=") {
                fail(&p, &r, &d, WorkerError::Panicked(panic.to_string()));
            } else if let Some(tx) = p.borrow_mut().take() {
                let _ = tx.send(Ok(answer));
            }
        });
        let (r, p, d) = (ready.clone(), pending.clone(), dead.clone());
        let on_error = Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
            e.prevent_default();
            let message = e.message();
            fail(&p, &r, &d, if message.is_empty() { WorkerError::FailedToStart } else { WorkerError::Failed(message) });
        });
        let (r, p, d) = (ready.clone(), pending.clone(), dead.clone());
        let deadline = Closure::once_into_js(move || {
            if matches!(*r.borrow(), ReadyState::Waiting(_)) && d.borrow().is_none() {
                fail(&p, &r, &d, WorkerError::Slow { seconds: (READY_WITHIN_MS / 1000) as u64 });
            }
        });
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(deadline.unchecked_ref(), READY_WITHIN_MS);
        }
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Slot { worker, ready, pending, dead, busy: Default::default(), fault: RefCell::new(take_fault()), waiting: Default::default(), _listeners: (on_message, on_error) })
    }

    async fn wait_ready(&self) -> Reply {
        let rx = match &mut *self.ready.borrow_mut() {
            ReadyState::Ready => return Ok(Parts::default()),
            ReadyState::Waiting(waiting) => {
                let (tx, rx) = oneshot::channel();
                waiting.push(tx);
                rx
            }
        };
        if let Some(why) = self.dead.borrow().clone() {
            return Err(why);
        }
        rx.await.unwrap_or(Err(WorkerError::Gone))
    }

    async fn acquire(&self) {
        if !self.busy.replace(true) {
            return;
        }
        let (tx, rx) = oneshot::channel();
        self.waiting.borrow_mut().push_back(tx);
        // The releasing call hands its turn over; `busy` stays set.
        let _ = rx.await;
    }

    fn release(&self) {
        while let Some(next) = self.waiting.borrow_mut().pop_front() {
            if next.send(()).is_ok() {
                return;
            }
        }
        self.busy.set(false);
    }

    async fn call(&self, job: Parts) -> Reply {
        self.acquire().await;
        let reply = self.exchange(job).await;
        self.release();
        reply
    }

    async fn exchange(&self, job: Parts) -> Reply {
        self.wait_ready().await?;
        let (tx, rx) = oneshot::channel();
        *self.pending.borrow_mut() = Some(tx);
        let text = match self.fault.borrow_mut().take() {
            Some(fault) => jobs::with_fault(&job.text, &fault),
            None => job.text,
        };
        post_parts(&self.worker, &text, job.arrays).map_err(|e| WorkerError::Send(format!("{e:?}")))?;
        rx.await.unwrap_or(Err(WorkerError::Gone))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        // The listeners go with the slot: an event the browser has queued already (a
        // panicking worker's error right after its message) must not reach them.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

pub struct WorkerPool {
    slots: RefCell<Vec<Rc<Slot>>>,
    size: usize,
    wasm: Wasm,
}

thread_local! {
    static POOL: RefCell<Option<Rc<WorkerPool>>> = const { RefCell::new(None) };
    static TRAINING: RefCell<Option<Rc<WorkerPool>>> = const { RefCell::new(None) };
    /// Where a worker's failure is shown: the app's banner.
    static BANNER: RefCell<Option<leptos::prelude::RwSignal<Option<String>>>> = const { RefCell::new(None) };
}

/// The banner a worker's failure is reported in (the app calls this once).
pub fn show_failures_in(banner: leptos::prelude::RwSignal<Option<String>>) {
    BANNER.with(|b| *b.borrow_mut() = Some(banner));
}

/// Says in the app's banner that a worker failed (`why`, in the language on screen): its
/// work was finished another way, and the next run starts a fresh worker in its place.
pub fn report_failure(why: &str) {
    show_in_banner(why, crate::tr!("worker-banner", why = why));
}

fn show_in_banner(why: &str, text: String) {
    use leptos::prelude::Set;
    leptos::logging::warn!("a background worker failed: {why}");
    BANNER.with(|b| {
        if let Some(banner) = *b.borrow() {
            banner.try_set(Some(text));
        }
    });
}

/// The failure a test asked the next worker to have, once.
fn take_fault() -> Option<String> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("DIFFLENS_WORKER_FAULT");
    let fault = js_sys::Reflect::get(&window, &key).ok()?.as_string()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    Some(fault)
}

/// How many workers: `min(hardwareConcurrency − 1, 8)`, at least one, unless the page
/// was told otherwise (`window.DIFFLENS_WORKERS`: the benchmarks compare 1, 2 and 4).
fn pool_size() -> usize {
    let Some(window) = web_sys::window() else { return 1 };
    let asked = js_sys::Reflect::get(&window, &"DIFFLENS_WORKERS".into()).ok().and_then(|v| v.as_f64());
    match asked {
        Some(n) if n >= 1.0 => (n as usize).min(16),
        _ => (window.navigator().hardware_concurrency() as usize).saturating_sub(1).clamp(1, 8),
    }
}

impl WorkerPool {
    /// The page's pool (started on first use).
    pub fn get() -> Rc<WorkerPool> {
        POOL.with(|p| p.borrow_mut().get_or_insert_with(|| Rc::new(WorkerPool { slots: RefCell::new(vec![]), size: pool_size(), wasm: Wasm::Page })).clone())
    }

    /// The training workers' pool (started on first use, by the training page alone).
    pub fn training() -> Rc<WorkerPool> {
        TRAINING.with(|p| p.borrow_mut().get_or_insert_with(|| Rc::new(WorkerPool { slots: RefCell::new(vec![]), size: pool_size(), wasm: Wasm::Training })).clone())
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Starts the workers, if they are not yet, so that a later run finds them ready.
    pub fn warm(&self) {
        let _ = self.slots();
    }

    /// Whether a worker is listening now: a run would start at once, not after the
    /// workers' wasm instances are compiled.
    pub fn is_ready(&self) -> bool {
        self.slots.borrow().iter().any(|s| s.dead.borrow().is_none() && matches!(*s.ready.borrow(), ReadyState::Ready))
    }

    /// Fresh workers in the place of failed ones, and up to `size` of them.
    fn slots(&self) -> Vec<Rc<Slot>> {
        let mut slots = self.slots.borrow_mut();
        slots.retain(|s| s.dead.borrow().is_none());
        while slots.len() < self.size {
            match Slot::start(self.wasm) {
                Ok(s) => slots.push(Rc::new(s)),
                Err(_) => break,
            }
        }
        slots.clone()
    }

    /// The jobs' messages across the workers, through trait objects and the jobs' places
    /// in the run: one copy of the queue's code in the wasm, not one per kind of job.
    async fn run_messages(&self, messages: Vec<Parts>, alive: Rc<dyn Fn() -> bool>, answer: Rc<dyn Fn(usize, Parts)>) -> Left {
        let slots = self.slots();
        if slots.is_empty() {
            return Left { jobs: (0..messages.len()).collect(), failure: Some(WorkerError::NoneStarted.to_string()) };
        }
        let queue = Rc::new(RefCell::new(messages.into_iter().enumerate().collect::<VecDeque<_>>()));
        let leftover = Rc::new(RefCell::new(Left::default()));
        let mut done = vec![];
        for slot in slots {
            let (tx, rx) = oneshot::channel::<()>();
            done.push(rx);
            let (queue, leftover, alive, answer) = (queue.clone(), leftover.clone(), alive.clone(), answer.clone());
            wasm_bindgen_futures::spawn_local(async move {
                while alive() {
                    let Some((k, job)) = queue.borrow_mut().pop_front() else { break };
                    match slot.call(job).await {
                        Ok(reply) => answer(k, reply),
                        Err(why) => {
                            let mut l = leftover.borrow_mut();
                            l.jobs.push(k);
                            l.failure.get_or_insert_with(|| why.to_string());
                            break;
                        }
                    }
                }
                let _ = tx.send(());
            });
        }
        for rx in done {
            let _ = rx.await;
        }
        // A failed worker's share of the queue is left over too, unless another took it.
        let mut out = leftover.take();
        if alive() {
            out.jobs.extend(queue.borrow_mut().drain(..).map(|(k, _)| k));
        }
        out
    }
}

impl Pool for WorkerPool {
    fn run_each(&self, messages: Vec<Parts>, alive: Rc<dyn Fn() -> bool>, answer: Rc<dyn Fn(usize, Parts)>) -> Boxed<'_, Left> {
        Box::pin(self.run_messages(messages, alive, answer))
    }

    fn report(&self, failure: &str) {
        match self.wasm {
            Wasm::Page => report_failure(failure),
            // The page does not train: the training page sends the chunk again instead.
            Wasm::Training => show_in_banner(failure, crate::tr!("worker-banner-training", why = failure)),
        }
    }

    fn pause(&self) -> Boxed<'static, ()> {
        Box::pin(crate::ui::yield_to_browser())
    }

    fn now_ms(&self) -> f64 {
        crate::ui::now_ms()
    }
}
