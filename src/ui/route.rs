//! The browser side of [`crate::state::route`]: read the hash, write it back without
//! adding history entries for every slider step, follow links that arrive while a page
//! is open, and remember each page's last link for the navigation.

pub use crate::state::route::{Page, Route};
use leptos::prelude::*;
use std::collections::HashMap;

pub fn current() -> Route {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    Route::parse(&hash)
}

/// The full link to `route` on this site, for the "copy link" button (built from the
/// state, not read from the address bar, which follows a drag a moment later).
pub fn permalink(route: &Route) -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    format!("{}{}", href.split('#').next().unwrap_or_default(), route.to_hash())
}

/// Shared by the shell and the pages (through Leptos context).
#[derive(Clone, Copy)]
pub struct Router {
    /// The route the address bar asked for: set at start and on every `hashchange` (a
    /// typed or pasted link, an `<a href="#…">`, Back and Forward). The pages' own
    /// `replaceState` writes do not fire `hashchange`, so they never come back here.
    pub asked: RwSignal<Route>,
    /// Each page's link as the page last described its state: the navigation points
    /// there, so Lab → Model → Lab comes back to the same λ.
    links: RwSignal<HashMap<Page, String>>,
}

impl Router {
    /// Creates the router, listens for `hashchange` and provides it as context.
    pub fn provide() -> Self {
        let router = Router { asked: RwSignal::new(current()), links: RwSignal::new(HashMap::new()) };
        let _ = window_event_listener(leptos::ev::hashchange, move |_| router.asked.set(current()));
        provide_context(router);
        router
    }

    pub fn get() -> Self {
        use_context::<Router>().expect("the App provides the Router before any page renders")
    }

    /// Where the navigation link of `page` goes.
    pub fn link(&self, page: Page) -> String {
        self.links.with(|l| l.get(&page).cloned()).unwrap_or_else(|| format!("#/{}", page.slug()))
    }

    /// Remembers `page`'s state for the navigation at once (cheap: a drag may call it
    /// every frame); the address bar follows with [`Router::write_address`].
    pub fn remember(&self, page: Page, params: Vec<(String, String)>) -> Route {
        let route = Route { page, params, unknown_page: None };
        let hash = route.to_hash();
        if self.links.with_untracked(|l| l.get(&page) != Some(&hash)) {
            self.links.update(|l| {
                l.insert(page, hash);
            });
        }
        route
    }

    /// Replaces the URL's hash (no new history entry, no `hashchange` event).
    pub fn write_address(route: &Route) {
        let Some(window) = web_sys::window() else { return };
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.to_hash()));
        }
    }

    /// [`Router::remember`] and [`Router::write_address`] together.
    pub fn publish(&self, page: Page, params: Vec<(String, String)>) {
        Self::write_address(&self.remember(page, params));
    }

    /// Runs `apply` with the parameters of every later link that opens `page` while it
    /// is on screen (not the link it was opened with: the page reads that itself).
    pub fn follow(&self, page: Page, apply: impl Fn(&[(String, String)]) + 'static) {
        let asked = self.asked;
        Effect::new(move |seen: Option<()>| {
            let route = asked.get();
            if seen.is_some() && route.page == page {
                apply(&route.params);
            }
        });
    }
}
