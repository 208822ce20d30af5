//! The shell: header with the backend badge, navigation, and the current page; in
//! presenter and embed mode (`present=1`, `embed=1`) only the page, in large type, with
//! the controls the link names.

use crate::tr;
use crate::ui::backend::{detect, Backend};
use crate::ui::components::announce::Announcer;
use crate::ui::embed::EmbedCode;
use crate::ui::language::{self, LangSelect};
use crate::ui::offline::Offline;
use crate::ui::pages::{arch::ArchPage, bench::BenchPage, explorer::ModelPage, lab::LabPage, lesson::LessonPage, text::TextPage, train::TrainPage};
use crate::ui::route::{Page, Router};
use crate::ui::theme::{self, ThemeSelect};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let backend = RwSignal::new(Backend::Detecting);
    // Pages that need the adapter (the text page) take it from the context.
    provide_context(backend);
    leptos::task::spawn_local(async move {
        let found = detect(backend).await;
        backend.set(found);
    });
    let router = Router::provide();
    let offline = crate::ui::offline::register();
    theme::provide(router.theme.into());
    let lang = language::provide(router.lang.into());
    crate::ui::pages::explorer::kept::Kept::provide();
    let worker_failure = RwSignal::new(None::<String>);
    crate::ui::worker_pool::show_failures_in(worker_failure);
    let page = Memo::new(move |_| router.asked.with(|r| r.page));
    let display = Memo::new(move |_| router.asked.with(|r| r.display.clone()));
    let reduced = Memo::new(move |_| display.with(|d| d.reduced()));
    Effect::new(move |_| display.with(|d| apply_display(d.present, d.embed, &d.hidden_controls_css())));

    // Everything on screen is drawn again in a new language: each page reads its state
    // from the link, as on a reload (a language switch is rare and deliberate).
    move || {
        crate::i18n::set(lang.get());
        shell(router, backend, page, display, reduced, offline, worker_failure).into_any()
    }
}

/// The header, navigation, notices, the page and the footer, in the language on screen.
fn shell(
    router: Router,
    backend: RwSignal<Backend>,
    page: Memo<Page>,
    display: Memo<crate::state::display::Display>,
    reduced: Memo<bool>,
    offline: ReadSignal<Offline>,
    worker_failure: RwSignal<Option<String>>,
) -> impl IntoView {
    let unknown = move || router.asked.with(|r| r.unknown_page.clone());
    view! {
        // Hidden, not removed, in presenter mode: the badge still says where numbers come from
        // to a screen reader and a test, and the start-up check looks for the header.
        <header class="top" hidden=move || reduced.get()>
            <div class="brand">
                <h1>"DiffLens"</h1>
                <p class="pitch">{tr!("shell-pitch")}</p>
            </div>
            <div class="header-tools">
                <LangSelect />
                <ThemeSelect />
                <BackendBadge backend />
            </div>
        </header>
        <Show when=move || !reduced.get()>
            <nav class="pages" aria-label=tr!("shell-pages")>
                {Page::ALL.into_iter().map(|p| view! {
                    <a href=move || router.link(p) data-page=p.slug() class:active=move || page.get() == p
                       aria-current=move || (page.get() == p).then_some("page")>{p.title()}</a>
                }).collect_view()}
                <EmbedCode page />
            </nav>
        </Show>
        <Show when=move || backend.with(|b| matches!(b, Backend::Cpu { lost: true, .. }))>
            <p class="notice" id="device-lost" role="alert">{move || backend.with(|b| match b {
                Backend::Cpu { reason, .. } => tr!("shell-device-lost", reason = reason),
                _ => String::new(),
            })}</p>
        </Show>
        // A failed background worker: its work was finished on the page, which goes on.
        <Show when=move || worker_failure.with(Option::is_some)>
            <div class="notice" id="worker-failed" role="alert">
                <span>{move || worker_failure.get().unwrap_or_default()}</span>" "
                <button on:click=move |_| worker_failure.set(None)>{tr!("dismiss")}</button>
            </div>
        </Show>
        <Show when=move || unknown().is_some()>
            <p class="notice" role="status">{move || tr!("shell-unknown-page", page = unknown().unwrap_or_default())}</p>
        </Show>
        <Show when=move || display.with(|d| !d.notes.is_empty())>
            <p class="notice" id="display-notices" role="status">{move || display.with(|d| d.notes.join(&tr!("list-separator")))}</p>
        </Show>
        <Show when=move || display.with(|d| d.lock)>
            <p class="axis-note" id="locked-note">{tr!("shell-locked")}</p>
        </Show>
        <main>
            {move || match page.get() {
                Page::Learn => view! { <LessonPage /> }.into_any(),
                Page::Lab => view! { <LabPage /> }.into_any(),
                Page::Model => view! { <ModelPage /> }.into_any(),
                Page::Arch => view! { <ArchPage /> }.into_any(),
                Page::Text => view! { <TextPage /> }.into_any(),
                Page::Train => view! { <TrainPage /> }.into_any(),
                Page::Bench => view! { <BenchPage /> }.into_any(),
            }}
        </main>
        <Announcer />
        <Show when=move || !reduced.get()>
            <footer>
                {tr!("shell-footer")}" "
                <a href="accessibility.md" id="accessibility-link">{tr!("shell-accessibility")}</a>
                <span id="offline-status" data-state=move || offline.with(Offline::slug)>{move || offline.with(|o| { let s = o.sentence(); if s.is_empty() { s } else { format!(" {s}") } })}</span>
            </footer>
        </Show>
    }
}

/// Puts the display on `<body>` (its classes drive the large type) and the rule that hides
/// the controls the link does not name.
fn apply_display(present: bool, embed: bool, hidden_css: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(body) = document.body() {
        let classes = body.class_list();
        for (name, on) in [("present", present), ("embed", embed)] {
            let _ = if on { classes.add_1(name) } else { classes.remove_1(name) };
        }
    }
    let style = document.get_element_by_id("display-style").or_else(|| {
        let el = document.create_element("style").ok()?;
        el.set_id("display-style");
        document.head()?.append_child(&el).ok()?;
        Some(el)
    });
    if let Some(el) = style {
        el.set_text_content(Some(hidden_css));
    }
}

/// Always says which compute path is active; on the CPU path, why not WebGPU is one
/// click away (the browser's reason is technical and can be long).
#[component]
fn BackendBadge(backend: RwSignal<Backend>) -> impl IntoView {
    let reason = move || backend.with(|b| b.cpu_reason().map(str::to_string));
    view! {
        <div id="backend-badge" class="badge" data-kind=move || backend.with(|b| b.kind()) role="status">
            <span class="badge-label">{move || backend.with(|b| b.label())}</span>
            <Show when=move || reason().is_some()>
                <details class="badge-why">
                    <summary>{tr!("shell-why-not-gpu")}</summary>
                    <p id="backend-reason">{move || reason().unwrap_or_default()}</p>
                </details>
            </Show>
        </div>
    }
}
