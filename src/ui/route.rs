//! The browser side of [`crate::state::route`]: read the hash, write it back without
//! adding history entries for every slider step, follow links that arrive while a page
//! is open, and remember each page's last link for the navigation.

use crate::state::display::{Lang, Theme};
pub use crate::state::route::{Page, Route};
use leptos::prelude::*;
use std::collections::HashMap;

pub fn current() -> Route {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    Route::parse(&hash)
}

/// The address bar's route, its notices written in the language it asks for (or the
/// browser's): the language is chosen before anything on the page is said.
fn arrived() -> Route {
    crate::i18n::set(crate::ui::language::resolve(current().display.lang));
    current()
}

/// The full link to `route` on this site, for the "copy link" button (built from the
/// state, not read from the address bar, which follows a drag a moment later).
pub fn permalink(route: &Route) -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    format!("{}{}", href.split('#').next().unwrap_or_default(), route.to_hash())
}

/// A link waiting to be written, and what its page does once it is.
type PendingWrite = (TimeoutHandle, Route, Box<dyn FnOnce()>);

/// Shared by the shell and the pages (through Leptos context).
#[derive(Clone, Copy)]
pub struct Router {
    /// The route the address bar asked for: set at start and on every `hashchange` (a
    /// typed or pasted link, an `<a href="#…">`, Back and Forward). The pages' own
    /// `replaceState` writes do not fire `hashchange`, so they never come back here.
    pub asked: RwSignal<Route>,
    /// Each page's link as the page last described its state: the navigation points
    /// there, so Lab → Model → Lab comes back to the same λ.
    links: RwSignal<HashMap<Page, Route>>,
    /// The colour theme the link or the reader chose (`None`: the system's). Every link
    /// the app writes carries it, so a theme picked in the header survives navigation,
    /// a drag's link write and a reload.
    pub theme: RwSignal<Option<Theme>>,
    /// The language the link or the reader chose (`None`: the browser's), carried like
    /// the theme.
    pub lang: RwSignal<Option<Lang>>,
    /// The hash the address bar shows as far as the app knows (set at start, on every
    /// `hashchange`, and by the app's own writes). If the bar shows something else, the
    /// user has just navigated and the `hashchange` is still queued: the app must not
    /// write over it.
    known: StoredValue<String>,
    /// A link write that waits for a drag to settle ([`Router::write_address_soon`]), and
    /// what its page does once the link is written.
    pending: StoredValue<Option<PendingWrite>, LocalStorage>,
}

/// How long a page's link waits after the last change of a drag: Chromium may take
/// ~10 ms for a `history.replaceState` that arrives many times a second.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(120);

fn address_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

impl Router {
    /// Creates the router, listens for `hashchange` and provides it as context.
    pub fn provide() -> Self {
        let asked = arrived();
        let (theme, lang) = (RwSignal::new(asked.display.theme), RwSignal::new(asked.display.lang));
        let router = Router { asked: RwSignal::new(asked), links: RwSignal::new(HashMap::new()), theme, lang, known: StoredValue::new(address_hash()), pending: StoredValue::new_local(None) };
        let _ = window_event_listener(leptos::ev::hashchange, move |_| {
            router.cancel_pending();
            router.known.set_value(address_hash());
            let route = arrived();
            router.theme.set(route.display.theme);
            router.lang.set(route.display.lang);
            router.asked.set(route);
        });
        // A click on an in-app link navigates after this listener returns: a link write
        // still waiting would land during that navigation and cancel it, so it is made
        // now. (Listeners run before a click's default action.)
        let _ = window_event_listener(leptos::ev::click, move |ev| {
            use wasm_bindgen::JsCast;
            let on_link = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("a[href^='#']").ok().flatten()).is_some();
            if on_link {
                router.flush();
            }
        });
        provide_context(router);
        router
    }

    pub fn get() -> Self {
        use_context::<Router>().expect("the App provides the Router before any page renders")
    }

    /// Where the navigation link of `page` goes.
    pub fn link(&self, page: Page) -> String {
        let mut route = self.links.with(|l| l.get(&page).cloned()).unwrap_or_else(|| Route::to(page, vec![]));
        route.display.theme = self.theme.get();
        route.display.lang = self.lang.get();
        route.to_hash()
    }

    /// Shows `theme` (`None`: the system's) and writes it into the address bar's link.
    pub fn set_theme(&self, theme: Option<Theme>) {
        self.theme.set(theme);
        let mut route = current();
        route.display.notes.clear();
        self.write_address(&route);
    }

    /// Shows the page in `lang` (`None`: the browser's) and writes it into the link.
    ///
    /// The shell draws every page again, and a page reads its state from `asked` when it
    /// is drawn: so the link the page last wrote (a drag's write still waiting is made
    /// first) becomes `asked`, and the reader finds the step, the sliders and the prompt
    /// where they left them.
    pub fn set_lang(&self, lang: Option<Lang>) {
        self.flush();
        let mut route = current();
        route.display.notes.clear();
        route.display.lang = lang;
        self.asked.update_untracked(|asked| *asked = route.clone());
        self.lang.set(lang);
        self.write_address(&route);
    }

    /// Remembers `page`'s state for the navigation at once (cheap: a drag may call it
    /// every frame); the address bar follows with [`Router::write_address`].
    pub fn remember(&self, page: Page, params: Vec<(String, String)>) -> Route {
        // The display (presenter, embed, lock) stays what the link asked for.
        let mut route = Route { display: self.asked.with_untracked(|r| r.display.without_notes()), ..Route::to(page, params) };
        route.display.theme = self.theme.get_untracked();
        route.display.lang = self.lang.get_untracked();
        if self.links.with_untracked(|l| l.get(&page) != Some(&route)) {
            self.links.update(|l| {
                l.insert(page, route.clone());
            });
        }
        route
    }

    /// Replaces the URL's hash (no new history entry, no `hashchange` event), unless the
    /// user has changed the address since the app last saw it (a link clicked while a
    /// delayed write was pending): their link wins.
    pub fn write_address(&self, route: &Route) {
        let Some(window) = web_sys::window() else { return };
        // A pinned link (lock=1) is never rewritten: a reload restores it.
        if self.asked.with_untracked(|r| r.display.lock) {
            return;
        }
        if self.known.try_with_value(|k| *k != address_hash()).unwrap_or(true) {
            return;
        }
        // The theme and the language are the ones on screen (the reader may have picked
        // them after `route` was made).
        let display = crate::state::display::Display { theme: self.theme.get_untracked(), lang: self.lang.get_untracked(), ..route.display.clone() };
        let route = Route { display, ..route.clone() };
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.to_hash()));
            self.known.set_value(address_hash());
        }
    }

    /// Writes `route` once the page has been quiet for a moment, then runs `then`;
    /// replaces any write still waiting (whose `then` is dropped with it).
    pub fn write_address_soon(&self, route: Route, then: impl FnOnce() + 'static) {
        self.cancel_pending();
        let router = *self;
        match set_timeout_with_handle(move || router.flush(), SETTLE) {
            Ok(handle) => self.pending.set_value(Some((handle, route, Box::new(then)))),
            Err(_) => {
                self.write_address(&route);
                then();
            }
        }
    }

    /// Makes a waiting write now.
    pub fn flush(&self) {
        if let Some((handle, route, then)) = self.pending.try_update_value(|p| p.take()).flatten() {
            handle.clear();
            self.write_address(&route);
            then();
        }
    }

    /// Drops a waiting write (its page is gone, or the user went elsewhere).
    pub fn cancel_pending(&self) {
        if let Some((handle, ..)) = self.pending.try_update_value(|p| p.take()).flatten() {
            handle.clear();
        }
    }

    /// [`Router::remember`] and [`Router::write_address`] together.
    pub fn publish(&self, page: Page, params: Vec<(String, String)>) {
        self.write_address(&self.remember(page, params));
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
