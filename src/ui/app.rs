//! The shell: header with the backend badge, navigation, and the current page.

use super::backend::{detect, Backend};
use super::pages::{arch::ArchPage, bench::BenchPage, lab::LabPage, model::ModelPage};
use super::route::{Page, Router};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let backend = RwSignal::new(Backend::Detecting);
    leptos::task::spawn_local(async move {
        let found = detect(backend).await;
        backend.set(found);
    });
    let router = Router::provide();
    let page = Memo::new(move |_| router.asked.with(|r| r.page));
    let unknown = move || router.asked.with(|r| r.unknown_page.clone());

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
                <a href=move || router.link(p) data-page=p.slug() class:active=move || page.get() == p
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
                Page::Lab => view! { <LabPage backend /> }.into_any(),
                Page::Model => view! { <ModelPage backend /> }.into_any(),
                Page::Arch => view! { <ArchPage /> }.into_any(),
                Page::Bench => view! { <BenchPage /> }.into_any(),
            }}
        </main>
        <footer>
            "DiffLens follows the official DIFF Transformer code (microsoft/unilm). Every number on this page is computed in your browser."
        </footer>
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
                    <summary>"Why not the GPU?"</summary>
                    <p id="backend-reason">{move || reason().unwrap_or_default()}</p>
                </details>
            </Show>
        </div>
    }
}
