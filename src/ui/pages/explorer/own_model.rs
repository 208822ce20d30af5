//! {tr!("own-title")} in the single view: a safetensors file and its JSON config
//! (the README's whole-model format), chosen or dropped, read in the page and never sent
//! anywhere; every problem is named with its file (and tensor and shape, from the loader).

use crate::engine::model::load_user_model;
use crate::tr;
use crate::ui::model_files::Library;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The reader's model on screen: its key in the library and the files it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnModel {
    pub key: String,
    pub label: String,
}

pub(super) async fn bytes_of(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await.map_err(|_| tr!("own-unreadable", name = file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

pub(crate) fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect()).unwrap_or_default()
}

/// The config and the weights among `files`, read and loaded (the text page reads a
/// trained model the same way).
pub(crate) async fn load(files: Vec<web_sys::File>) -> Result<(crate::engine::model::Model, String), String> {
    let names: Vec<String> = files.iter().map(|f| f.name()).collect();
    let pick = |ext: &str| files.iter().find(|f| f.name().to_lowercase().ends_with(ext));
    let (Some(config), Some(weights)) = (pick(".json"), pick(".safetensors")) else {
        return Err(tr!("own-two-files", got = if names.is_empty() { tr!("own-none") } else { names.join(", ") }));
    };
    let (c, w) = (bytes_of(config).await?, bytes_of(weights).await?);
    let model = load_user_model(&config.name(), &c, &weights.name(), &w).map_err(|e| e.to_string())?;
    Ok((model, format!("{} + {}", weights.name(), config.name())))
}

#[component]
pub fn OwnModelPanel(library: Library, own: RwSignal<Option<OwnModel>>) -> impl IntoView {
    let message = RwSignal::new(None::<(bool, String)>);
    let loads = crate::ui::pages::explorer::kept::Kept::get().own_loads;
    let take = move |files: Vec<web_sys::File>| {
        message.set(Some((false, tr!("own-reading"))));
        leptos::task::spawn_local(async move {
            match load(files).await {
                Ok((model, label)) => {
                    loads.update_value(|n| *n += 1);
                    let key = format!("own-{}", loads.get_value());
                    let (layers, kind) = (model.config.n_layers, model.config.attention.slug());
                    library.put((key.clone(), 0), model);
                    message.try_set(Some((false, tr!("own-loaded", label = label.as_str(), kind = kind, layers = layers))));
                    own.try_set(Some(OwnModel { key, label }));
                }
                Err(e) => {
                    message.try_set(Some((true, e)));
                }
            }
        });
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        take(files_of(input.and_then(|i| i.files())));
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        take(files_of(ev.data_transfer().and_then(|d| d.files())));
    };
    view! {
        <details class="own-model" data-key="own" id="own-model">
            <summary>{tr!("own-title")}</summary>
            <p class="explain">{tr!("own-explain")}</p>
            <div class="drop" id="own-drop" on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
                <label for="own-files">{tr!("own-choose")}</label>
                <input type="file" id="own-files" multiple accept=".json,.safetensors" on:change=on_pick />
            </div>
            <p id="own-message" role="status" class=move || if message.with(|m| m.as_ref().is_some_and(|m| m.0)) { "notice" } else { "axis-note" }>{move || message.get().map(|m| m.1)}</p>
            <Show when=move || own.with(Option::is_some)>
                <button id="own-close" on:click=move |_| own.set(None)>{tr!("own-back")}</button>
            </Show>
        </details>
    }
}
