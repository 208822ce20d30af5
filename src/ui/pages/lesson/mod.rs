//! The guided lesson (`#/learn`, the landing page): one step at a time, each a few plain
//! sentences, one live figure with its one slider, and a link that opens the same state
//! in the lab, the calculator or the explorer. ←/→ and Page Up/Down (what slide clickers
//! send) move between steps; the step and its slider are in the link.

mod figures;
mod models;
mod text_step;

use crate::engine::lesson::{self, pieces, Opens, Piece, Step, CITATIONS, GLOSSARY, STEPS};
use crate::state::lesson_state::LessonState;
use crate::state::model_state::ModelState;
use crate::tr;
use crate::ui::components::notice::{NoticeBar, StateNotes};
use crate::ui::pages::lesson::figures::StepFigure;
use crate::ui::route::{Page, Route, Router};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The state, its link (written once a drag settles) and the notices about it.
fn linked_state(router: Router) -> (RwSignal<LessonState>, StateNotes<LessonState>) {
    let links = lesson::links();
    let (initial, lines) = LessonState::from_params(&links, &router.asked.get_untracked().params);
    let state = RwSignal::new(initial.clone());
    let notes = StateNotes::new();
    notes.set(initial, lines);
    Effect::new(move |_| {
        let params = state.with(|s| s.to_params(&lesson::links()));
        router.write_address_soon(router.remember(Page::Learn, params), || {});
    });
    on_cleanup(move || router.cancel_pending());
    router.follow(Page::Learn, move |params| {
        let (s, lines) = LessonState::from_params(&lesson::links(), params);
        notes.set(s.clone(), lines);
        if state.with_untracked(|cur| *cur != s) {
            state.set(s);
        }
    });
    (state, notes)
}

/// Where a step's "open this" link goes: the exact state of its figure (`figure_link`:
/// what a figure without a lab state says it shows, such as the calculator's config).
fn open_link(step: &Step, state: &LessonState, figure_link: Option<String>) -> (String, String) {
    match step.opens {
        Opens::Lab => {
            let lab = state.lab.clone().unwrap_or_default();
            (Route::to(Page::Lab, lab.to_params()).to_hash(), tr!("lesson-open-lab"))
        }
        Opens::Arch => (figure_link.unwrap_or_else(|| Route::to(Page::Arch, vec![]).to_hash()), tr!("lesson-open-arch")),
        Opens::Explorer => (Route::to(Page::Model, ModelState::default().to_params()).to_hash(), tr!("lesson-open-explorer")),
        Opens::Text => (Route::to(Page::Text, vec![]).to_hash(), tr!("lesson-open-text")),
    }
}

/// Keys that move the lesson, unless the focus is on something that uses them itself
/// (a slider, a list, a text field, a map's or a chart's cursor).
fn step_key(ev: &web_sys::KeyboardEvent) -> Option<i32> {
    if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || ev.default_prevented() {
        return None;
    }
    let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let busy = target.is_some_and(|el| el.closest("input, select, textarea, canvas.map, .chart-wrap canvas, [contenteditable]").ok().flatten().is_some());
    match ev.key().as_str() {
        _ if busy => None,
        "ArrowRight" | "PageDown" => Some(1),
        "ArrowLeft" | "PageUp" => Some(-1),
        _ => None,
    }
}

#[component]
pub fn LessonPage() -> impl IntoView {
    let (state, notes) = linked_state(Router::get());
    let step = Memo::new(move |_| state.with(|s| s.step));
    let heading = NodeRef::<leptos::html::H2>::new();
    // A new step starts at its title, for the eye and for the keyboard's focus.
    let go = move |k: usize| {
        if k < STEPS.len() && k != step.get_untracked() {
            state.set(LessonState::at(&lesson::links(), k));
            if let Some(h) = heading.get_untracked() {
                show_heading(&h);
            }
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if let Some(d) = step_key(&ev) {
            let k = step.get_untracked() as i32 + d;
            if (0..STEPS.len() as i32).contains(&k) {
                ev.prevent_default();
                go(k as usize);
            }
        }
    });
    on_cleanup(move || keys.remove());
    let here = move || STEPS[step.get()];
    // A figure's own link for "open this", with the step it belongs to.
    let figure_link = RwSignal::new(None::<(usize, String)>);
    let open = move || state.with(|s| open_link(&here(), s, figure_link.get().filter(|(k, _)| *k == s.step).map(|(_, l)| l)));
    view! {
        <section class="page lesson">
            <nav class="steps" aria-label=tr!("lesson-steps")>
                <ol>{STEPS.iter().enumerate().map(|(k, s)| view! {
                    <li><a href=format!("#/learn?step={}", k + 1) data-step=k + 1 aria-current=move || (step.get() == k).then_some("step")>{s.title()}</a></li>
                }).collect_view()}</ol>
            </nav>
            <NoticeBar id="link-notices" heading=tr!("notice-adjusted") lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <article class="step" id="lesson-step" data-step=move || step.get() + 1 aria-labelledby="step-title">
                <p class="step-count">{move || tr!("lesson-step-count", k = step.get() + 1, n = STEPS.len())}</p>
                <h2 id="step-title" tabindex="-1" node_ref=heading>{move || here().title()}</h2>
                {move || here().paragraphs().into_iter().map(|p| view! { <Paragraph text=p /> }).collect_view()}
                {move || { let k = step.get(); view! { <StepFigure step=k state figure_link /> } }}
                <div class="buttons step-nav">
                    <button id="step-prev" disabled=move || step.get() == 0 on:click=move |_| go(step.get_untracked().wrapping_sub(1))>{tr!("lesson-previous")}</button>
                    <a id="open-in" class="button" href=move || open().0>{move || open().1}</a>
                    <Show when=move || step.get() + 1 == STEPS.len()>
                        <a id="open-train" class="button" href=Route::to(Page::Train, vec![]).to_hash()>{tr!("lesson-open-train")}</a>
                    </Show>
                    <button id="step-next" disabled=move || step.get() + 1 == STEPS.len() on:click=move |_| go(step.get_untracked() + 1)>{tr!("lesson-next")}</button>
                    <span class="axis-note">{tr!("lesson-keys")}</span>
                </div>
            </article>
            <Glossary />
            <Sources />
        </section>
    }
}

/// Focuses a new step's title and scrolls this page (only this one: an embedding page must
/// not jump) to it when it is out of sight.
fn show_heading(h: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = h.focus_with_options(&options);
    let Some(w) = web_sys::window() else { return };
    let top = h.get_bounding_client_rect().top();
    let height = w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    if top < 0.0 || top > height {
        w.scroll_by_with_x_and_y(0.0, top - 8.0);
    }
}

/// A paragraph of the lesson; its glossary terms open their definition in place (and show
/// it on hover).
#[component]
fn Paragraph(text: String) -> impl IntoView {
    let open = RwSignal::new(None::<&'static str>);
    let parts = pieces(&text).into_iter().map(|p| match p {
        Piece::Text(t) => view! { <span>{t}</span> }.into_any(),
        Piece::Term { key, shown } => {
            let def = lesson::term(key).map(|t| t.definition()).unwrap_or_default();
            view! {
                <button type="button" class="term" data-term=key title=def aria-expanded=move || (open.get() == Some(key)).to_string()
                    on:click=move |_| open.update(|o| *o = if *o == Some(key) { None } else { Some(key) })
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { open.set(None) }>{shown}</button>
            }
            .into_any()
        }
    });
    view! {
        <p class="lesson-text">{parts.collect_view()}</p>
        {move || open.get().and_then(lesson::term).map(|t| view! {
            <p class="definition" role="note"><strong>{t.name()}{tr!("term-colon")}</strong>{t.definition()}" "<a href=format!("#glossary-{}", t.key) on:click=scroll_to_glossary>{tr!("lesson-glossary-link")}</a></p>
        })}
    }
}

/// An in-page link to the glossary: scrolls there without changing the route.
fn scroll_to_glossary(ev: leptos::ev::MouseEvent) {
    ev.prevent_default();
    let id = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|a| a.get_attribute("href")).unwrap_or_default();
    let found = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id.trim_start_matches('#')));
    if let Some(el) = found {
        el.scroll_into_view();
    }
}

#[component]
fn Glossary() -> impl IntoView {
    view! {
        <section class="glossary" id="glossary" aria-labelledby="glossary-title">
            <h3 id="glossary-title">{tr!("lesson-glossary")}</h3>
            <dl>{GLOSSARY.iter().map(|t| view! { <dt id=format!("glossary-{}", t.key)>{t.name()}</dt><dd>{t.definition()}</dd> }).collect_view()}</dl>
        </section>
    }
}

#[component]
fn Sources() -> impl IntoView {
    view! {
        <section class="sources" aria-labelledby="sources-title">
            <h3 id="sources-title">{tr!("lesson-sources")}</h3>
            <ul>{CITATIONS.iter().map(|(what, url)| view! { <li><a href=*url rel="noopener" target="_blank">{tr!(what)}</a></li> }).collect_view()}</ul>
        </section>
    }
}
