//! The Leptos pages. They call the core (CPU) or the GPU through `engine` and own no math.

mod app;
mod backend;
mod components;
mod embed;
mod format;
mod language;
mod model_files;
mod offline;
mod pages;
mod panic_banner;
mod route;
mod theme;
pub mod worker;
mod worker_pool;

/// Milliseconds from the page's high-resolution clock (0 where there is none).
pub(crate) fn now_ms() -> f64 {
    // The Performance object is looked up once: `window.performance` is a call across
    // the JS boundary each time, and a λ step reads the clock several times.
    thread_local!(static CLOCK: Option<web_sys::Performance> = web_sys::window().and_then(|w| w.performance()));
    CLOCK.with(|c| c.as_ref().map_or(0.0, |p| p.now()))
}

/// Lets the browser paint and handle input between slices of a long computation.
pub(crate) async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Lets the browser paint and handle input, then goes on as soon as it has: a message the
/// page posts to itself. A chain of zero-delay timeouts (`yield_to_browser`) waits at
/// least 4 ms each after the fifth (HTML's timer nesting rule), which capped "Write on" at
/// one character per model every three such waits.
pub(crate) async fn yield_now() {
    use wasm_bindgen::JsCast;
    let promise = js_sys::Promise::new(&mut |resolve, _| match web_sys::MessageChannel::new() {
        Ok(channel) => {
            // The port with a message on its way and a listener stays alive until the
            // message is delivered, so the channel need not be kept here.
            channel.port1().set_onmessage(Some(resolve.unchecked_ref()));
            let _ = channel.port2().post_message(&wasm_bindgen::JsValue::NULL);
        }
        Err(_) => {
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
            }
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits `ms` milliseconds without holding the page.
pub(crate) async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Waits until the browser has painted a frame (a `requestAnimationFrame`, then a task
/// after it), so that "computing…" is on screen before a long computation starts.
pub(crate) async fn after_next_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let later = wasm_bindgen::closure::Closure::once_into_js(move || {
                if let Some(w) = web_sys::window() {
                    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
                }
            });
            let _ = w.request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&later));
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A copy of `source` that follows it once the browser has painted, keeping only the
/// latest value: what can wait a frame (the explorer's head grid and evidence tables)
/// stays out of the frame that shows a λ drag's prediction and maps.
pub(crate) fn after_paint<T: Clone + Send + Sync + 'static>(source: leptos::prelude::Signal<T>) -> leptos::prelude::Signal<T> {
    use leptos::prelude::*;
    let late = RwSignal::new(source.get_untracked());
    let waiting = StoredValue::new(false);
    Effect::new(move |_| {
        source.track();
        if waiting.get_value() {
            return;
        }
        waiting.set_value(true);
        leptos::task::spawn_local(async move {
            after_next_paint().await;
            waiting.try_set_value(false);
            if let Some(v) = source.try_get_untracked() {
                late.try_set(v);
            }
        });
    });
    late.into()
}

/// Shows the fatal-error banner (what the panic hook does), for tests and for errors
/// that happen outside the reactive system.
pub fn show_error_banner(message: &str) {
    panic_banner::show(message);
}

/// The page's wasm's one entry: the page in a window, a compute worker in a Web Worker
/// (the page's workers run this same wasm, so a visit downloads it once). The training
/// workers run a wasm of their own (`src/bin/train_worker.rs`).
pub fn run() {
    if web_sys::window().is_some() {
        start();
    } else {
        worker::start(&crate::engine::jobs::table::PAGE_JOBS);
    }
}

/// Installs the panic banner, removes the page's "Loading…" line and mounts the app on
/// `<body>`.
pub fn start() {
    panic_banner::install();
    if let Some(loading) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app-loading")) {
        loading.remove();
    }
    leptos::mount::mount_to_body(app::App);
}
