//! The shipped model files as the page fetches them: through the browser's `fetch`,
//! under the site's path, with a time limit and a plain sentence when one fails; and the
//! page's handle on the engine's model library, which fetches each card and checkpoint
//! once per visit (the explorer, the lesson and the text page share it).

use crate::engine::model::library::{ModelKey, ModelLibrary};
use crate::engine::model::{Model, ModelFileError};
use crate::engine::shared::{GpuContext, GpuModel};
use crate::tr;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// How long a model file may take before the page gives up and offers a retry; a page
/// may set `globalThis.DIFFLENS_FETCH_TIMEOUT_MS` (the browser tests shorten it).
const FETCH_TIMEOUT_MS: i32 = 20_000;

fn fetch_timeout_ms() -> i32 {
    let set = js_sys::Reflect::get(&js_sys::global(), &"DIFFLENS_FETCH_TIMEOUT_MS".into()).ok().and_then(|v| v.as_f64());
    set.filter(|v| *v >= 1.0 && *v <= 600_000.0).map_or(FETCH_TIMEOUT_MS, |v| v as i32)
}

/// A JavaScript error as the sentence it carries, never its stack trace.
fn plain(e: &wasm_bindgen::JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => String::from(err.message()),
        None => e.as_string().unwrap_or_else(|| tr!("unknown-error")),
    }
}

async fn fetch_body(window: &web_sys::Window, url: &str, init: &web_sys::RequestInit) -> Result<Vec<u8>, String> {
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(url, init)).await.map_err(|e| tr!("fetch-failed", url = url, error = plain(&e)))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| tr!("fetch-not-response", url = url))?;
    if !response.ok() {
        return Err(tr!("fetch-http", url = url, status = response.status() as u32));
    }
    let promise = response.array_buffer().map_err(|e| format!("{url}: {}", plain(&e)))?;
    let buffer = wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|e| tr!("fetch-broke-off", url = url, error = plain(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A file under the site's path, given up on (aborted) when it takes longer than the
/// timeout, so a server that never answers leaves a message and a retry, not "Loading…".
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let controller = web_sys::AbortController::new().map_err(|e| plain(&e))?;
    let init = web_sys::RequestInit::new();
    init.set_signal(Some(&controller.signal()));
    let timeout = fetch_timeout_ms();
    let abort = {
        let controller = controller.clone();
        wasm_bindgen::closure::Closure::once(move || controller.abort())
    };
    let timer = window.set_timeout_with_callback_and_timeout_and_arguments_0(abort.as_ref().unchecked_ref(), timeout).ok();
    let result = fetch_body(&window, url, &init).await;
    if let Some(t) = timer {
        window.clear_timeout_with_handle(t);
    }
    drop(abort);
    match result {
        Err(_) if controller.signal().aborted() => Err(tr!("fetch-timeout", url = url, seconds = (timeout as f64 / 1000.0).to_string())),
        other => other,
    }
}

/// The page's handle on the engine's model library, which fetches each shipped card and
/// checkpoint once per visit (through the browser's `fetch`, under the site's path).
#[derive(Clone, Copy)]
pub struct Library(StoredValue<Rc<ModelLibrary>, LocalStorage>);

impl Library {
    pub fn new() -> Self {
        Self(StoredValue::new_local(Rc::new(ModelLibrary::default())))
    }

    pub fn model(&self, key: &ModelKey) -> Option<Rc<Model>> {
        self.0.try_get_value()?.model(key)
    }

    pub async fn load(self, kind: String, ckpt: usize) -> Result<Rc<Model>, ModelFileError> {
        let library = self.0.try_get_value().ok_or(ModelFileError::PageClosed)?;
        library.load(&kind, ckpt, |path: String| async move { fetch_bytes(&path).await }).await
    }

    /// The loaded model `key` uploaded to the page's GPU (once per model and device).
    pub fn gpu_model(&self, key: &ModelKey, ctx: &Rc<GpuContext>) -> Option<Rc<GpuModel>> {
        self.0.try_get_value()?.gpu_model(key, ctx)
    }

    pub fn put(&self, key: ModelKey, model: Model) {
        if let Some(library) = self.0.try_get_value() {
            library.put(key, model);
        }
    }

    pub fn checkpoint_label(&self, kind: &str, i: usize) -> Option<String> {
        self.0.try_get_value()?.checkpoint_label(kind, i)
    }
}
