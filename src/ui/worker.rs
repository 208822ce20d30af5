//! The compute worker: the page's own wasm, instantiated again in each Web Worker (the
//! pool starts it through `www/worker-loader.js`, which imports the page's JS glue and
//! wasm by the names the page links; `ui::run` comes here where there is no window), or
//! the training wasm (`src/bin/train_worker.rs`), each with its own table of jobs
//! (`engine::jobs::table`). It says "ready" once it listens, then answers each job, one
//! at a time. It fetches and keeps the shipped models a job
//! names itself, from the same files the page reads (the browser's and the offline
//! copy's caches make the second read free). Answers with bulk numbers send them as
//! transferred buffers beside the text.

use crate::engine::jobs::table::Entry;
use crate::engine::jobs::{self, JobError, Parts, WorkerMemory};
use crate::engine::model::library::ModelLibrary;
use crate::engine::shared::Model;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(text: &str) {
    let _ = scope().post_message(&JsValue::from_str(text));
}

/// A text with arrays: `[text, buffer…]`, the buffers transferred, not copied.
fn post_with(text: &str, arrays: Vec<Vec<f32>>) {
    let _ = match crate::ui::worker_pool::message_of(text, arrays) {
        (message, None) => scope().post_message(&message),
        (message, Some(transfer)) => scope().post_message_with_transfer(&message, &transfer),
    };
}

async fn fetch_bytes(path: String) -> Result<Vec<u8>, String> {
    let failed = |e: JsValue| format!("{path}: {}", e.as_string().or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message()))).unwrap_or_else(|| "the request failed".into()));
    let response: web_sys::Response = JsFuture::from(scope().fetch_with_str(&path)).await.map_err(failed)?.unchecked_into();
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(failed)?).await.map_err(failed)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

thread_local! {
    /// What the jobs keep from one to the next (the last lab problem's inputs).
    static MEMORY: RefCell<WorkerMemory> = RefCell::new(WorkerMemory::default());
}

/// A failure the page's tests ask for, to see the page survive it: a panic, or memory
/// exhausted (which aborts the instance without a panic).
fn fail_if_asked(message: &str) {
    match jobs::fault_of(message).as_deref() {
        Some("panic") => panic!("this worker was asked to fail"),
        Some("oom") => {
            // Reserved, never touched: the instance runs out of address space (4 GB)
            // without the machine spending that much memory.
            let mut hoard: Vec<Vec<u8>> = vec![];
            loop {
                hoard.push(Vec::with_capacity(1 << 30));
            }
        }
        _ => {}
    }
}

/// The answer to any job: the table reads it, the models it names are loaded, and it runs.
async fn reply(table: &[Entry], library: &ModelLibrary, message: Parts) -> Parts {
    fail_if_asked(&message.text);
    let job = match jobs::table::read_in(table, message) {
        Ok(job) => job,
        Err(why) => return jobs::failure(why),
    };
    let mut models = vec![];
    for (kind, ckpt) in job.models() {
        match library.load(&kind, ckpt, fetch_bytes).await {
            Ok(model) => models.push(model),
            Err(why) => return jobs::failure(JobError::Failed(why.to_string())),
        }
    }
    let models: Vec<&Model> = models.iter().map(Rc::as_ref).collect();
    MEMORY.with(|memory| job.answer(&models, &mut memory.borrow_mut()))
}

/// Listens for the jobs of `table` (the wasm's own: it links the code of those jobs alone).
pub fn start(table: &'static [Entry]) {
    // A panic reaches the page as a "panic=" message. The banner shows the panic's own
    // words on one line; where it happened goes to the worker's console, for developers.
    std::panic::set_hook(Box::new(|info| {
        let message = info.payload_as_str().unwrap_or("no message");
        if let Some(at) = info.location() {
            web_sys::console::error_1(&JsValue::from_str(&format!("the worker panicked at {at}: {message}")));
        }
        let _ = scope().post_message(&JsValue::from_str(&format!("panic=the worker panicked: {}", message.replace('\n', " "))));
    }));
    let library = Rc::new(ModelLibrary::default());
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let message = crate::ui::worker_pool::parts_of(&e.data());
        if message.text.is_empty() {
            return;
        }
        let library = library.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let answer = reply(table, &library, message).await;
            post_with(&answer.text, answer.arrays);
        });
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post("ready");
}
