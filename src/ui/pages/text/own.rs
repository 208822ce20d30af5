//! The reader's own model on the text page: a model trained on the training page (its
//! weights and config, as "Keep the trained models" saves them), or any model of the text
//! models' alphabet, read in the page and shown in the column of its kind.

use crate::tr;
use crate::ui::format::kind_title;
use crate::ui::pages::explorer::own_model::{files_of, load};
use crate::ui::pages::text::session::TextSession;
use leptos::prelude::*;

#[component]
pub fn OwnTextPanel(session: TextSession) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let files = files_of(input.files());
        message.set(Some(tr!("own-reading")));
        leptos::task::spawn_local(async move {
            let said = match load(files).await {
                Ok((model, label)) => match session.use_own(model, label.clone()) {
                    Ok(kind) => tr!("text-own-loaded", kind = kind_title(kind), label = label),
                    Err(why) => why,
                },
                Err(why) => why,
            };
            message.try_set(Some(said));
        });
    };
    let back = move |_| {
        session.drop_own();
        message.set(None);
    };
    view! {
        <details class="panel" id="text-own">
            <summary>{tr!("text-own-title")}</summary>
            <p class="explain">{tr!("text-own-explain")}</p>
            <label for="text-own-files">{tr!("text-own-choose")}</label>
            <input type="file" id="text-own-files" multiple accept=".json,.safetensors" on:change=on_pick />
            <p id="text-own-message" role="status">{move || message.get()}</p>
            <Show when=move || session.own_column().is_some()>
                <p class="axis-note" id="text-own-note">{move || tr!("text-own-note", label = session.own_label().unwrap_or_default())}</p>
                <button id="text-own-back" on:click=back>{tr!("own-back")}</button>
            </Show>
        </details>
    }
}
