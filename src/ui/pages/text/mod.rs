//! The text page (`#/text`): a student types, and the three character-level models
//! (baseline, DIFF V1, DIFF V2, trained alike on Shakespeare) read it side by side.

mod column;
mod controls;
mod grid;
mod own;
mod results;
mod session;
mod spoken;

use crate::engine::text::{CONTEXT, STEP};
use crate::state::text_state::TextState;
use crate::tr;
use crate::ui::components::notice::NoticeBar;
use crate::ui::components::status_line::{Status, StatusLine};
use crate::ui::route::{Page, Router};
use column::TextColumn;
use controls::TextControls;
use leptos::prelude::*;
use own::OwnTextPanel;
use results::Results;
use session::TextSession;

/// What the page says about the text itself: empty, cut to the context, unknown characters.
fn text_notices(session: TextSession) -> Vec<String> {
    session.typed.with(|t| {
        let Some(t) = t else { return vec![] };
        let mut lines = vec![];
        if t.is_empty() {
            lines.push(tr!("text-type-something"));
        }
        if t.cut > 0 {
            lines.push(tr!("text-cut", context = t.chars.len(), cut = t.cut, max = CONTEXT, step = STEP));
        }
        if !t.unknown.is_empty() {
            lines.push(tr!("text-unknown", chars = t.unknown.iter().collect::<String>()));
        }
        lines
    })
}

#[component]
pub fn TextPage() -> impl IntoView {
    let (state, notes) = crate::ui::pages::linked_state(Router::get(), Page::Text, TextState::from_params, TextState::to_params);
    let backend = crate::ui::backend::from_context();
    let session = TextSession::new(state, backend);
    spoken::speak(state, session);
    let timing = move || session.last_ms.get().map(|ms| tr!("text-timing", ms = format!("{ms:.0}")));
    // Only a new text sets the box's value (setting it, even unchanged, is work for the browser).
    let text = Memo::new(move |_| state.with(|s| s.text.clone()));
    view! {
        <section class="page text" data-status=move || session.status.with(Status::slug)>
            <h2>{tr!("page-text")}</h2>
            <p class="explain">{tr!("text-intro", context = CONTEXT)}</p>
            <NoticeBar id="link-notices" lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <StatusLine status=session.status attempt=session.attempt ready=tr!("text-computed") />
            <div class="control text-box" data-key="text">
                <label for="text-input">{tr!("text-box-label")}</label>
                <textarea id="text-input" rows="6" spellcheck="false" placeholder=tr!("text-type-something")
                    prop:value=move || text.get()
                    on:input=move |ev| { let v = event_target_value(&ev); state.update(|s| s.text = v) }></textarea>
            </div>
            <p class="notice" id="text-notices" role="status" class:hidden=move || text_notices(session).is_empty()>{move || text_notices(session).join(&tr!("list-separator"))}</p>
            <TextControls state session />
            <p class="axis-note" id="text-timing">{timing}</p>
            <div class="compare text-columns">{(0..3).map(|index| view! { <TextColumn index state session /> }).collect_view()}</div>
            <OwnTextPanel session />
            <Results />
        </section>
    }
}
