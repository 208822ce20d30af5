//! What a screen reader hears without moving: one polite live region for the whole app
//! (`#announcer`), and `settled`, a signal's value once it has stopped changing, so a drag
//! is described once when the hand stops rather than at every step (issue 45).

use leptos::prelude::*;
use std::time::Duration;

/// How long a value must hold before it counts as settled: longer than the gap between a
/// drag's steps or a held arrow key's repeats, short enough to follow a deliberate press.
pub const SETTLE: Duration = Duration::from_millis(700);

thread_local! {
    static SAID: RwSignal<String> = RwSignal::new(String::new());
}

/// Says `text` through the app's live region (politely: after what the reader is saying).
pub fn announce(text: String) {
    SAID.with(|s| {
        // The same sentence twice is still news (the same summary after a change back):
        // a region only speaks when its text changes, so it is emptied first.
        if s.get_untracked() == text {
            s.set(String::new());
        }
        s.set(text);
    });
}

/// The app's one live region, visually hidden.
#[component]
pub fn Announcer() -> impl IntoView {
    let said = SAID.with(|s| *s);
    view! { <div id="announcer" class="sr-only" role="status" aria-live="polite">{move || said.get()}</div> }
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
