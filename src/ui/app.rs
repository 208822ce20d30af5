//! The shell: header with the backend badge, navigation, and the current page.

use super::backend::{detect, Backend};
use super::pages::{arch::ArchPage, bench::BenchPage, lab::LabPage, model::ModelPage};
use super::route::{self, Page};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let backend = RwSignal::new(Backend::Detecting);
    leptos::task::spawn_local(async move {
        let found = detect(backend).await;
        backend.set(found);
    });
    let route = RwSignal::new(route::current());
    let page = Memo::new(move |_| route.with(|r| r.page));
    let _ = window_event_listener(leptos::ev::hashchange, move |_| route.set(route::current()));
    let unknown = move || route.with(|r| r.unknown_page.clone());

    view! {
        <header class="top">
            <div class="brand">
                <h1>"DiffLens"</h1>
                <p class="pitch">"Watch differential attention cancel the noise floor of softmax attention."</p>
            </div>
            <BackendBadge backend />
        </header>
        <nav class="pages" aria-label="Pages">
            {Page::ALL.into_iter().map(|p| view! {
                <a href=format!("#/{}", p.slug()) class:active=move || page.get() == p
                   aria-current=move || (page.get() == p).then_some("page")>{p.title()}</a>
            }).collect_view()}
        </nav>
        <Show when=move || backend.with(|b| matches!(b, Backend::Cpu { lost: true, .. }))>
            <p class="notice" id="device-lost" role="alert">{move || backend.with(|b| match b {
                Backend::Cpu { reason, .. } => format!("The GPU stopped working: {reason}. DiffLens switched to the CPU path; everything still works, only slower."),
                _ => String::new(),
            })}</p>
        </Show>
        <Show when=move || unknown().is_some()>
            <p class="notice" role="status">{move || format!("There is no page called “{}”; showing the lab.", unknown().unwrap_or_default())}</p>
        </Show>
        <main>
            {move || match page.get() {
                Page::Lab => view! { <LabPage route backend /> }.into_any(),
                Page::Model => view! { <ModelPage route backend /> }.into_any(),
                Page::Arch => view! { <ArchPage route /> }.into_any(),
                Page::Bench => view! { <BenchPage /> }.into_any(),
            }}
        </main>
        <footer>
            "DiffLens follows the official DIFF Transformer code (microsoft/unilm). Every number on this page is computed in your browser."
        </footer>
    }
}

/// Always says which compute path is active, and why not WebGPU when it is not.
#[component]
fn BackendBadge(backend: RwSignal<Backend>) -> impl IntoView {
    view! {
        <p id="backend-badge" class="badge" data-kind=move || backend.with(|b| b.kind()) role="status">
            {move || backend.with(|b| b.label())}
        </p>
    }
}
