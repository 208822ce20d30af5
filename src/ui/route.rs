//! The browser side of [`crate::state::route`]: read the hash, write it back without
//! adding history entries for every slider step.

pub use crate::state::route::{Page, Route};

pub fn current() -> Route {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    Route::parse(&hash)
}

/// Replaces the URL's hash (no new history entry, no `hashchange` event).
pub fn replace(route: &Route) {
    let Some(window) = web_sys::window() else { return };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.to_hash()));
    }
}

/// The full link to the current view, for the "copy link" button.
pub fn permalink() -> String {
    web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default()
}
