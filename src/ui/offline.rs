//! Offline use: registers the service worker (`sw.js`, written by the build) once the app
//! has started, and tells the reader whether the site is saved for a lesson without a
//! network. Registration is left out where the browser cannot do it (a page opened from
//! a plain-HTTP host other than localhost, a browser that blocks workers): the app works
//! as before, online only, and the footer says nothing.

use crate::tr;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[derive(Clone, Debug, PartialEq)]
pub enum Offline {
    /// No service worker here (or not yet asked).
    Unavailable,
    Saving,
    Saved,
    Failed(String),
}

impl Offline {
    /// For the page's `data-state` (what tests and stylesheets read).
    pub fn slug(&self) -> &'static str {
        match self {
            Offline::Unavailable => "unavailable",
            Offline::Saving => "saving",
            Offline::Saved => "saved",
            Offline::Failed(_) => "failed",
        }
    }

    /// The footer's sentence (empty: nothing to say).
    pub fn sentence(&self) -> String {
        match self {
            Offline::Unavailable => String::new(),
            Offline::Saving => tr!("offline-saving"),
            Offline::Saved => tr!("offline-saved"),
            Offline::Failed(why) => tr!("offline-failed", why = why),
        }
    }
}

fn container() -> Option<web_sys::ServiceWorkerContainer> {
    let navigator = web_sys::window()?.navigator();
    let present = js_sys::Reflect::get(&navigator, &"serviceWorker".into()).ok().filter(|v| !v.is_undefined() && !v.is_null())?;
    present.dyn_into().ok()
}

fn reason(e: wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_else(|| tr!("unknown-error"))
}

/// Registers `sw.js` beside the page and follows it until its files are saved.
pub fn register() -> ReadSignal<Offline> {
    let (state, set) = signal(Offline::Unavailable);
    let Some(workers) = container() else { return state };
    set.set(Offline::Saving);
    wasm_bindgen_futures::spawn_local(async move {
        let registration: web_sys::ServiceWorkerRegistration = match JsFuture::from(workers.register("./sw.js")).await {
            // A browser that blocks workers may answer with nothing (Playwright's
            // `serviceWorkers: 'block'` does): online only, as where there are none.
            Ok(r) if r.is_undefined() || r.is_null() => {
                set.set(Offline::Unavailable);
                return;
            }
            Ok(r) => r.unchecked_into(),
            Err(e) => {
                set.set(Offline::Failed(reason(e)));
                return;
            }
        };
        // A worker that cannot save a file is discarded ("redundant") and `ready` never
        // resolves: say so instead of "saving" for ever.
        if let Some(installing) = registration.installing() {
            let watched = installing.clone();
            let gave_up = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                if watched.state() == web_sys::ServiceWorkerState::Redundant && state.get_untracked() == Offline::Saving {
                    set.set(Offline::Failed(tr!("offline-file")));
                }
            });
            installing.set_onstatechange(Some(gave_up.as_ref().unchecked_ref()));
            gave_up.forget();
        }
        // `ready` resolves once a worker is active, which it becomes only after every
        // file is saved (its install step waits for them).
        match workers.ready().map(JsFuture::from) {
            Ok(ready) => match ready.await {
                Ok(_) => set.set(Offline::Saved),
                Err(e) => set.set(Offline::Failed(reason(e))),
            },
            Err(e) => set.set(Offline::Failed(reason(e))),
        }
    });
    state
}
