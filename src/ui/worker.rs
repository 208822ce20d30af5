//! The compute worker: the page's own wasm, instantiated again in each Web Worker (the
//! pool starts it through `www/worker-loader.js`, which imports the page's JS glue and
//! wasm by the names the page links; `ui::run` comes here where there is no window).
//! It says "ready" once it listens, then answers each job (`engine::batch`,
//! `engine::sweep_batch`, `engine::lab_blocks`, `engine::forward_job`) with its result or
//! its error, one at a time. It fetches and keeps the shipped models itself, from the
//! same files the page reads (the browser's and the offline copy's caches make the second
//! read free); a lab job (a block of a problem's rows, a noise level, the noise masses)
//! needs nothing but its text. Answers with bulk numbers send them as transferred
//! buffers beside the text.

use crate::engine::batch::{job_kind, AccuracyChunk, ChunkResult, MassAnswer, MassJob, NoiseAnswer, NoiseJob};
use crate::engine::forward_job::{ForwardAnswer, ForwardJob};
use crate::engine::lab_blocks::{BlockAnswer, BlockJob};
use crate::engine::model_session::ModelLibrary;
use crate::engine::shared::Model;
use crate::engine::shared::{LabInputs, LabParams};
use crate::engine::sweep_batch::{SweepAnswer, SweepChunk};
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
    if arrays.is_empty() {
        return post(text);
    }
    let (message, transfer) = (js_sys::Array::new(), js_sys::Array::new());
    message.push(&JsValue::from_str(text));
    for a in arrays {
        let buffer = js_sys::Float32Array::from(a.as_slice()).buffer();
        message.push(&buffer);
        transfer.push(&buffer);
    }
    let _ = scope().post_message_with_transfer(&message, &transfer);
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
    /// The last lab problem's inputs: every block of it starts from them.
    static LAB_INPUTS: RefCell<Option<(LabParams, LabInputs)>> = const { RefCell::new(None) };
}

/// A failure the page's tests ask for, to see the page survive it: a panic, or memory
/// exhausted (which aborts the instance without a panic).
fn fail_if_asked(message: &str) {
    match crate::state::query::parse(message).into_iter().find(|(k, _)| k == "_fault").map(|(_, v)| v).as_deref() {
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

/// The answer to any job, as the message to send back and its arrays.
async fn reply(library: &ModelLibrary, message: &str) -> (String, Vec<Vec<f32>>) {
    fail_if_asked(message);
    match job_kind(message).as_deref() {
        Some("noise") => (
            match NoiseJob::from_message(message) {
                Ok(job) => job.run().to_message(),
                Err(e) => NoiseAnswer { generation: 0, point: Err(e) }.to_message(),
            },
            vec![],
        ),
        Some("masses") => (
            match MassJob::from_message(message) {
                Ok(job) => job.run().to_message(),
                Err(e) => MassAnswer { generation: 0, points: Err(e) }.to_message(),
            },
            vec![],
        ),
        Some("block") => match BlockJob::from_message(message) {
            Ok(job) => LAB_INPUTS.with(|inputs| job.run(&mut inputs.borrow_mut())).to_parts(),
            Err(e) => BlockAnswer { generation: 0, block: Err(e) }.to_parts(),
        },
        Some("sweep") => (sweep(library, message).await.to_message(), vec![]),
        Some("forward") => forward(library, message).await.to_parts(),
        _ => (answer(library, message).await.to_message(), vec![]),
    }
}

/// The shipped models a job names, fetched once and kept.
async fn models(library: &ModelLibrary, keys: Vec<(String, usize)>) -> Result<Vec<Rc<Model>>, String> {
    let mut models = vec![];
    for (kind, ckpt) in keys {
        models.push(library.load(&kind, ckpt, fetch_bytes).await?);
    }
    Ok(models)
}

async fn answer(library: &ModelLibrary, message: &str) -> ChunkResult {
    let job = match AccuracyChunk::from_message(message) {
        Ok(job) => job,
        Err(e) => return ChunkResult { generation: 0, prompts: 0..0, counts: Err(e) },
    };
    match models(library, job.model_keys()).await {
        Ok(models) => job.run(&models.iter().map(Rc::as_ref).collect::<Vec<&Model>>()),
        Err(e) => ChunkResult { generation: job.generation, prompts: job.prompts, counts: Err(e) },
    }
}

async fn sweep(library: &ModelLibrary, message: &str) -> SweepAnswer {
    let job = match SweepChunk::from_message(message) {
        Ok(job) => job,
        Err(e) => return SweepAnswer { generation: 0, depth: 0, prompts: 0..0, sums: Err(e) },
    };
    match models(library, job.model_keys()).await {
        Ok(models) => job.run(&models.iter().map(Rc::as_ref).collect::<Vec<&Model>>()),
        Err(e) => SweepAnswer { generation: job.generation, depth: job.depth, prompts: job.prompts, sums: Err(e) },
    }
}

async fn forward(library: &ModelLibrary, message: &str) -> ForwardAnswer {
    let job = match ForwardJob::from_message(message) {
        Ok(job) => job,
        Err(e) => return ForwardAnswer { generation: 0, kind: crate::state::model_state::AttentionKind::Baseline, output: Err(e) },
    };
    match models(library, vec![job.model_key()]).await {
        Ok(models) => job.run(&models[0]),
        Err(e) => ForwardAnswer { generation: job.generation, kind: job.kind, output: Err(e) },
    }
}

pub fn start() {
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
        let Some(text) = e.data().as_string() else { return };
        let library = library.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let (text, arrays) = reply(&library, &text).await;
            post_with(&text, arrays);
        });
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post("ready");
}
