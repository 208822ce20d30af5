//! The models' loading status line, shared by every page that loads shipped models.

use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Loading(String),
    /// The models are in and their first columns are being made: "Computed" would not be
    /// true yet.
    Computing,
    Ready,
    /// A file could not be fetched or read: the line offers to load again.
    Failed(String),
    /// The models are in but the prompt could not be run.
    RunFailed(String),
}

impl Status {
    /// The state in no language, for scripts and tests (`data-status`).
    pub fn slug(&self) -> &'static str {
        match self {
            Status::Loading(_) => "loading",
            Status::Computing => "computing",
            Status::Ready => "ready",
            Status::Failed(_) => "failed",
            Status::RunFailed(_) => "run-failed",
        }
    }
}

/// Where the models stand: loading (which file), computed, or why not, with a button that
/// loads again (`attempt` is what the loading effects track).
#[component]
pub fn StatusLine(status: RwSignal<Status>, attempt: RwSignal<u32>, #[prop(optional, into)] ready: Option<String>) -> impl IntoView {
    let ready = ready.unwrap_or_else(|| crate::tr!("status-ready"));
    view! {
        <p class="axis-note" id="model-status" role="status" data-status=move || status.with(Status::slug)>{move || match status.get() {
            Status::Loading(what) => crate::tr!("status-loading", what = what),
            Status::Computing => crate::tr!("status-computing"),
            Status::Ready => ready.clone(),
            Status::Failed(e) => crate::tr!("status-failed", error = e),
            Status::RunFailed(e) => crate::tr!("status-run-failed", error = e),
        }}</p>
        <Show when=move || matches!(status.get(), Status::Failed(_))>
            <p class="notice" id="model-error" role="alert">
                {move || match status.get() { Status::Failed(e) => e, _ => String::new() }}" "
                <button id="model-retry" on:click=move |_| attempt.update(|a| *a += 1)>{crate::tr!("try-again")}</button>
            </p>
        </Show>
    }
}
