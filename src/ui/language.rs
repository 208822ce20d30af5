//! The page's language: the one the link or the header's choice names (`lang=`), else the
//! browser's (`navigator.languages`). The shell draws the page again when it changes
//! ([`crate::ui::app`], which also sets the language every lookup uses); what the reader
//! loaded from disk lives above that (`pages::kept`).

use crate::i18n::Lang;
use crate::tr;
use leptos::prelude::*;

/// The browser's preferred languages, most preferred first.
fn browser_tags() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return vec![] };
    let listed: Vec<String> = navigator.languages().iter().filter_map(|v| v.as_string()).collect();
    if listed.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        listed
    }
}

/// The language on screen for `chosen` (`None`: the browser's).
pub fn resolve(chosen: Option<Lang>) -> Lang {
    chosen.unwrap_or_else(|| Lang::preferred(browser_tags().iter().map(String::as_str)))
}

/// Resolves `chosen` and puts it on `<html lang>` (fonts, screen readers).
pub fn provide(chosen: Signal<Option<Lang>>) -> Memo<Lang> {
    let lang = Memo::new(move |_| resolve(chosen.get()));
    Effect::new(move |_| {
        let l = lang.get();
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", l.tag());
        }
    });
    lang
}

/// The header's language choice: the browser's, English or 简体中文, each named in its
/// own language; kept in the link (`lang=`).
#[component]
pub fn LangSelect() -> impl IntoView {
    let router = crate::ui::route::Router::get();
    let value = move || router.lang.get().map_or("auto", Lang::slug);
    let pick = move |ev: leptos::ev::Event| router.set_lang(Lang::parse(&event_target_value(&ev)));
    let options = std::iter::once(("auto", tr!("lang-auto"))).chain(Lang::ALL.into_iter().map(|l| (l.slug(), l.own_name().to_string())));
    view! {
        <label class="lang-pick">
            <span>{tr!("lang-label")}</span>
            <select id="lang-select" on:change=pick>
                {options.map(|(v, label)| view! {
                    <option value=v lang=(v != "auto").then(|| Lang::parse(v).map_or("en", Lang::tag)) prop:selected=move || value() == v>{label}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
