//! Which compute path the page uses, found once at start-up, and the GPU it holds.

use crate::engine::placement::{ComputeOn, Placement};
use crate::engine::shared::{looks_software, GpuContext};
use crate::state::model_state::ModelState;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;

#[derive(Clone, Debug, PartialEq)]
pub enum Backend {
    Detecting,
    WebGpu {
        adapter: String,
    },
    /// `lost`: the WebGPU device was lost after start-up (the page shows a banner).
    Cpu {
        reason: String,
        lost: bool,
    },
}

impl Backend {
    /// The badge text: always says which path is active and, for the CPU, why.
    pub fn label(&self) -> String {
        match self {
            Backend::Detecting => crate::tr!("badge-detecting"),
            Backend::WebGpu { adapter } => format!("WebGPU: {adapter}"),
            Backend::Cpu { .. } => crate::tr!("badge-cpu"),
        }
    }

    /// Why the page is not on WebGPU, in the browser's words (shown on request).
    pub fn cpu_reason(&self) -> Option<&str> {
        match self {
            Backend::Cpu { reason, .. } => Some(reason),
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Backend::Detecting => "detecting",
            Backend::WebGpu { .. } => "webgpu",
            Backend::Cpu { .. } => "cpu",
        }
    }
}

thread_local! {
    /// wgpu objects are not `Send` on wasm, so they live here rather than in signals.
    static GPU: RefCell<Option<Rc<GpuContext>>> = const { RefCell::new(None) };
}

/// The page's backend, which the shell (`App`) provides to every page and component.
pub fn from_context() -> RwSignal<Backend> {
    use_context::<RwSignal<Backend>>().expect("the App provides the backend before any page renders")
}

/// The GPU, while the WebGPU path is active.
pub fn gpu() -> Option<Rc<GpuContext>> {
    GPU.with(|g| g.borrow().clone())
}

/// What the explorer decides its placement from: `None` while the browser is still
/// asked for an adapter; then the adapter's name and whether it is a software renderer,
/// while WebGPU is active, or `Some(None)`.
pub fn adapter(backend: &Backend) -> Option<Option<(String, bool)>> {
    match backend {
        Backend::Detecting => None,
        Backend::WebGpu { adapter } => Some(gpu().map(|ctx| (adapter.clone(), ctx.software))),
        Backend::Cpu { .. } => Some(None),
    }
}

/// Where an explorer state's passes run, by what [`adapter`] knows.
pub fn placement(adapter: &Option<Option<(String, bool)>>, state: &ModelState) -> Placement {
    placement_on(adapter, state.on, state.bits)
}

/// [`placement`] for any page: the reader's choice and logit precision.
pub fn placement_on(adapter: &Option<Option<(String, bool)>>, on: ComputeOn, bits: Option<u32>) -> Placement {
    match adapter {
        None => Placement::while_asking_on(on, bits),
        Some(known) => Placement::for_choice(on, known.as_ref(), bits),
    }
}

fn navigator_has_gpu() -> bool {
    let Some(window) = web_sys::window() else { return false };
    js_sys::Reflect::get(&window.navigator(), &JsValue::from_str("gpu")).map(|gpu| !gpu.is_undefined() && !gpu.is_null()).unwrap_or(false)
}

/// Chromium often leaves the adapter description empty; vendor and architecture from
/// `GPUAdapter.info` still name it (SwiftShader reads "google swiftshader").
async fn adapter_label_from_js() -> Option<String> {
    let window = web_sys::window()?;
    let gpu = js_sys::Reflect::get(&window.navigator(), &"gpu".into()).ok()?;
    let request: js_sys::Function = js_sys::Reflect::get(&gpu, &"requestAdapter".into()).ok()?.into();
    let promise: js_sys::Promise = request.call0(&gpu).ok()?.into();
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let info = js_sys::Reflect::get(&adapter, &"info".into()).ok()?;
    let field = |name: &str| js_sys::Reflect::get(&info, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let label = [field("vendor"), field("architecture"), field("device")].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    (!label.is_empty()).then_some(label)
}

/// Finds a WebGPU device or the reason there is none. A lost device later switches
/// `backend` to the CPU path with the browser's reason.
pub async fn detect(backend: RwSignal<Backend>) -> Backend {
    if !navigator_has_gpu() {
        return Backend::Cpu { reason: crate::tr!("why-no-navigator-gpu"), lost: false };
    }
    match GpuContext::request(wgpu::Backends::BROWSER_WEBGPU).await {
        Err(e) => Backend::Cpu { reason: e.to_string(), lost: false },
        Ok(mut ctx) => {
            let adapter = match ctx.adapter_name.trim() {
                "" => adapter_label_from_js().await.unwrap_or_else(|| crate::tr!("unnamed-adapter")),
                name => name.to_string(),
            };
            ctx.software |= looks_software(&adapter);
            ctx.device.set_device_lost_callback(move |_reason, message| {
                GPU.with(|g| g.borrow_mut().take());
                let message = match message.trim().trim_end_matches('.') {
                    "" => crate::tr!("no-reason"),
                    m => m.to_string(),
                };
                backend.set(Backend::Cpu { reason: crate::tr!("device-lost", message = message), lost: true });
            });
            GPU.with(|g| *g.borrow_mut() = Some(Rc::new(ctx)));
            install_lose_device_hook();
            Backend::WebGpu { adapter }
        }
    }
}

/// `window.__difflensLoseDevice()` destroys the device, so the browser tests can check
/// that a lost GPU switches the page to the CPU path and keeps it working.
fn install_lose_device_hook() {
    use wasm_bindgen::closure::Closure;
    let Some(window) = web_sys::window() else { return };
    let hook = Closure::<dyn Fn()>::new(|| {
        if let Some(ctx) = gpu() {
            ctx.device.destroy();
        }
    });
    let _ = js_sys::Reflect::set(&window, &"__difflensLoseDevice".into(), hook.as_ref());
    hook.forget();
}
