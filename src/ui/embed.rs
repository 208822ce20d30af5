//! "Copy embed code": the `<iframe>` snippet that shows the current page, in its current
//! state, in embed mode, for a slide or a course page.

use crate::state::display::iframe_snippet;
use crate::ui::route::{permalink, Page, Route, Router};
use leptos::prelude::*;

#[component]
pub fn EmbedCode(page: Memo<Page>) -> impl IntoView {
    let router = Router::get();
    // The snippet, what the clipboard said, and the link it was made from: it is shown
    // only while the page is still in that state.
    let made = RwSignal::new(None::<(String, String, String)>);
    let copy = move |_| {
        let p = page.get_untracked();
        let hash = router.link(p);
        let mut route = Route::parse(&hash);
        route.display.embed = true;
        let snippet = iframe_snippet(&permalink(&route), &crate::tr!("embed-title", page = p.title()));
        let Some(w) = web_sys::window() else { return };
        let copying = wasm_bindgen_futures::JsFuture::from(w.navigator().clipboard().write_text(&snippet));
        leptos::task::spawn_local(async move {
            let said = match copying.await {
                Ok(_) => crate::tr!("embed-copied"),
                Err(_) => crate::tr!("embed-not-copied"),
            };
            made.try_set(Some((snippet, said, hash)));
        });
    };
    let current = move || made.get().filter(|(_, _, hash)| *hash == router.link(page.get()));
    view! {
        <button id="copy-embed" class="nav-action" on:click=copy>{crate::tr!("embed-copy")}</button>
        <Show when=move || current().is_some()>
            <div class="embed-code" role="status">
                <label for="embed-code">{move || current().map(|c| c.1)}</label>
                <textarea id="embed-code" readonly rows="3" prop:value=move || current().map(|c| c.0).unwrap_or_default()></textarea>
                <button on:click=move |_| made.set(None)>{crate::tr!("close")}</button>
            </div>
        </Show>
    }
}
