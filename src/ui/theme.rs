//! The colour theme on screen: the one the link or the header's choice names, else the
//! system's (`prefers-color-scheme`, followed live). The stylesheet reads it from
//! `<html data-theme>`; the canvases, which the stylesheet cannot reach, from
//! [`palette`], which also makes their drawing effects redraw when it changes.

use crate::state::display::Theme;
use crate::viz::palette::Palette;
use leptos::prelude::*;

#[derive(Clone, Copy)]
struct Shown {
    dark: Memo<bool>,
}

/// Whether the media query `query` matches, updated when it changes (the reader switches
/// the system's theme; the browser starts or ends printing).
fn media(query: &str) -> RwSignal<bool> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let matches = RwSignal::new(false);
    let Some(list) = web_sys::window().and_then(|w| w.match_media(query).ok().flatten()) else { return matches };
    matches.set(list.matches());
    let follow = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(move |e: web_sys::MediaQueryListEvent| matches.set(e.matches()));
    let _ = list.add_event_listener_with_callback("change", follow.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    follow.forget();
    matches
}

/// Resolves `chosen` (`None`: the system's), puts the result on `<html>` and provides it
/// to the canvases.
pub fn provide(chosen: Signal<Option<Theme>>) {
    let system = media("(prefers-color-scheme: dark)");
    let printing = media("print");
    let dark = Memo::new(move |_| chosen.get().map_or_else(|| system.get(), |t| t == Theme::Dark));
    Effect::new(move |_| {
        let name = if dark.get() { "dark" } else { "light" };
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-theme", name);
        }
    });
    // A handout is printed light whatever the screen shows (the stylesheet's dark colours
    // are for the screen only), so the canvases redraw light while the page prints.
    let canvases_dark = Memo::new(move |_| dark.get() && !printing.get());
    provide_context(Shown { dark: canvases_dark });
}

/// The canvases' colours for the theme on screen (tracked: an effect that calls this
/// redraws when the theme changes); the light ones where no theme is provided.
pub fn palette() -> Palette {
    Palette::of(use_context::<Shown>().is_some_and(|s| s.dark.get()))
}

/// The header's theme choice: the system's, light or dark; kept in the link (`theme=`).
#[component]
pub fn ThemeSelect() -> impl IntoView {
    let router = crate::ui::route::Router::get();
    let value = move || router.theme.get().map_or("auto", Theme::slug);
    let pick = move |ev: leptos::ev::Event| router.set_theme(Theme::parse(&event_target_value(&ev)));
    view! {
        <label class="theme-pick">
            <span>{crate::tr!("theme-label")}</span>
            <select id="theme-select" on:change=pick>
                {[("auto", crate::tr!("theme-auto")), ("light", crate::tr!("theme-light")), ("dark", crate::tr!("theme-dark"))].into_iter().map(|(v, label)| view! {
                    <option value=v prop:selected=move || value() == v>{label}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
