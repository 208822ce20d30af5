//! What a screen reader hears without moving: one polite live region for the whole app
//! (`#announcer`), and `settled`, a signal's value once it has stopped changing, so a drag
//! is described once when the hand stops rather than at every step (issue 45).

use leptos::prelude::*;
use std::time::Duration;

/// How long a value must hold before it counts as settled: longer than the gap between a
/// drag's steps or a held arrow key's repeats, short enough to follow a deliberate press.
pub const SETTLE: Duration = Duration::from_millis(700);

/// Says `text` through the app's live region (politely: after what the reader is saying).
/// The region's text is set directly: a signal for it would belong to whichever component
/// first touched it, and die with that component (a language switch rebuilds the pages).
pub fn announce(text: String) {
    let Some(region) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("announcer")) else { return };
    // The same sentence twice is still news (the same summary after a change back): a
    // region speaks when its text changes, so it is emptied first.
    if region.text_content().as_deref() == Some(text.as_str()) {
        region.set_text_content(None);
    }
    region.set_text_content(Some(&text));
}

/// The app's one live region, visually hidden; [`announce`] fills it.
#[component]
pub fn Announcer() -> impl IntoView {
    view! { <div id="announcer" class="sr-only" role="status" aria-live="polite"></div> }
}

/// `source`'s value once it has held for [`SETTLE`] (`None` until the first has).
pub fn settled<T: Clone + Send + Sync + 'static>(source: Signal<T>) -> ReadSignal<Option<T>> {
    let out = RwSignal::new(None::<T>);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let value = source.get();
        let g = generation.get_value().wrapping_add(1);
        generation.set_value(g);
        set_timeout(
            move || {
                if generation.try_get_value() == Some(g) {
                    out.try_set(Some(value));
                }
            },
            SETTLE,
        );
    });
    out.read_only()
}
