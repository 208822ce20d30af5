//! What both views of the model explorer share: the model library (each card and
//! checkpoint fetched once per visit), the loading status, the models' titles, and the
//! sentence a map's tooltip says about one cell.

use super::super::components::heatmap::Hover;
use super::super::components::readout::readable;
use crate::engine::model::{check_prompt, replace_word, vocabulary, word, Explained, Model, Prompt};
use crate::engine::model_session::{ModelKey, ModelLibrary};
use crate::engine::prompt_edit::{self, depth_of, is_asked, needle_at, query_at, PromptEdit, DEPTHS};
use crate::engine::shared::GpuContext;
use crate::engine::shared::GpuModel;
use crate::state::model_state::{AttentionKind, ModelState};
use crate::tr;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// How long a model file may take before the page gives up and offers a retry; a page
/// may set `globalThis.DIFFLENS_FETCH_TIMEOUT_MS` (the browser tests shorten it).
const FETCH_TIMEOUT_MS: i32 = 20_000;

fn fetch_timeout_ms() -> i32 {
    let set = js_sys::Reflect::get(&js_sys::global(), &"DIFFLENS_FETCH_TIMEOUT_MS".into()).ok().and_then(|v| v.as_f64());
    set.filter(|v| *v >= 1.0 && *v <= 600_000.0).map_or(FETCH_TIMEOUT_MS, |v| v as i32)
}

/// A JavaScript error as the sentence it carries, never its stack trace.
fn plain(e: &wasm_bindgen::JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => String::from(err.message()),
        None => e.as_string().unwrap_or_else(|| tr!("unknown-error")),
    }
}

async fn fetch_body(window: &web_sys::Window, url: &str, init: &web_sys::RequestInit) -> Result<Vec<u8>, String> {
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(url, init)).await.map_err(|e| tr!("fetch-failed", url = url, error = plain(&e)))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| tr!("fetch-not-response", url = url))?;
    if !response.ok() {
        return Err(tr!("fetch-http", url = url, status = response.status() as u32));
    }
    let promise = response.array_buffer().map_err(|e| format!("{url}: {}", plain(&e)))?;
    let buffer = wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|e| tr!("fetch-broke-off", url = url, error = plain(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A file under the site's path, given up on (aborted) when it takes longer than the
/// timeout, so a server that never answers leaves a message and a retry, not "Loading…".
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let controller = web_sys::AbortController::new().map_err(|e| plain(&e))?;
    let init = web_sys::RequestInit::new();
    init.set_signal(Some(&controller.signal()));
    let timeout = fetch_timeout_ms();
    let abort = {
        let controller = controller.clone();
        wasm_bindgen::closure::Closure::once(move || controller.abort())
    };
    let timer = window.set_timeout_with_callback_and_timeout_and_arguments_0(abort.as_ref().unchecked_ref(), timeout).ok();
    let result = fetch_body(&window, url, &init).await;
    if let Some(t) = timer {
        window.clear_timeout_with_handle(t);
    }
    drop(abort);
    match result {
        Err(_) if controller.signal().aborted() => Err(tr!("fetch-timeout", url = url, seconds = (timeout as f64 / 1000.0).to_string())),
        other => other,
    }
}

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

pub fn kind_title(kind: AttentionKind) -> String {
    crate::tr!(match kind {
        AttentionKind::Baseline => "kind-baseline",
        AttentionKind::DiffV1 => "kind-diff-v1",
        AttentionKind::DiffV2 => "kind-diff-v2",
    })
}

/// The page's handle on the engine's model library, which fetches each shipped card and
/// checkpoint once per visit (through the browser's `fetch`, under the site's path).
#[derive(Clone, Copy)]
pub struct Library(StoredValue<Rc<ModelLibrary>, LocalStorage>);

impl Library {
    pub fn new() -> Self {
        Self(StoredValue::new_local(Rc::new(ModelLibrary::default())))
    }

    pub fn model(&self, key: &ModelKey) -> Option<Rc<Model>> {
        self.0.try_get_value()?.model(key)
    }

    pub async fn load(self, kind: String, ckpt: usize) -> Result<Rc<Model>, String> {
        let library = self.0.try_get_value().ok_or_else(|| tr!("page-closed"))?;
        library.load(&kind, ckpt, |path: String| async move { fetch_bytes(&path).await }).await
    }

    /// The loaded model `key` uploaded to the page's GPU (once per model and device).
    pub fn gpu_model(&self, key: &ModelKey, ctx: &Rc<GpuContext>) -> Option<Rc<GpuModel>> {
        self.0.try_get_value()?.gpu_model(key, ctx)
    }

    pub fn put(&self, key: ModelKey, model: Model) {
        if let Some(library) = self.0.try_get_value() {
            library.put(key, model);
        }
    }

    pub fn checkpoint_label(&self, kind: &str, i: usize) -> Option<String> {
        self.0.try_get_value()?.checkpoint_label(kind, i)
    }
}

/// What the tooltip says of the cell under the pointer in (`layer`, `head`)'s maps:
/// the query and key tokens and every map's value there.
pub fn cell_text(x: &Explained, layer: usize, head: usize, h: Hover) -> Option<String> {
    let m = x.output.layers.get(layer)?.maps.get(head)?;
    let (tq, tk) = (word(*x.prompt.tokens.get(h.i)?), word(*x.prompt.tokens.get(h.j)?));
    let mut text = format!("{}\nA1 = {}", crate::tr!("cell-query-key", i = h.i, query = tq, j = h.j, key = tk), readable(m.a1[[h.i, h.j]] as f64));
    if let (Some(a2), Some(d)) = (&m.a2, &m.diff) {
        text += &format!("\nA2 = {}\nA1 − λ·A2 = {}", readable(a2[[h.i, h.j]] as f64), readable(d[[h.i, h.j]] as f64));
    }
    Some(text)
}

/// `<option>`s for a select; `prop:selected` (not the attribute) so that a state set by
/// a link or a clamp shows even after the user has touched the select.
pub fn options(values: Vec<(String, String)>, selected: impl Fn() -> String + Clone + Send + Sync + 'static) -> impl IntoView {
    values
        .into_iter()
        .map(|(v, label)| {
            let sel = selected.clone();
            let v2 = v.clone();
            view! { <option value=v prop:selected=move || sel() == v2>{label}</option> }
        })
        .collect_view()
}

/// "+0.97", "−0.12", "0.00": a signed weight as the tables and captions print it (a
/// value that rounds to zero gets no sign: "−0.00" reads as a negative weight).
pub fn signed(v: f64) -> String {
    match format!("{v:+.2}").as_str() {
        "+0.00" | "-0.00" => "0.00".into(),
        s => s.replace('-', "−"),
    }
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

/// "Write your own prompt": a text box started from the prompt on screen, the words the
/// models know, and a check that says what is wrong before anything is run.
#[component]
pub fn PromptEditor(state: RwSignal<ModelState>, shown: Signal<Option<String>>) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let typed = move || state.with(|s| s.text.is_some());
    let start_from_screen = move || draft.set(shown.get_untracked().unwrap_or_default());
    let use_it = move |_| match check_prompt(&draft.get_untracked()) {
        Ok(text) => {
            error.set(None);
            use_typed_prompt(state, text);
        }
        Err(e) => error.set(Some(e)),
    };
    let words = vocabulary().into_iter().map(|(group, words)| view! { <p class="vocab"><strong>{tr!(&format!("vocab-{group}"))}</strong>{tr!("term-colon")}{words.join(" ")}</p> }).collect_view();
    view! {
        <details class="prompt-editor" data-key="prompt" id="prompt-editor" on:toggle=move |_| { if draft.get_untracked().is_empty() { start_from_screen() } }>
            <summary>{move || tr!(if typed() { "prompt-in-use" } else { "prompt-write" })}</summary>
            <p class="explain">{tr!("prompt-explain")}</p>
            {words}
            <label for="prompt-text">{tr!("prompt-label")}</label>
            <textarea id="prompt-text" rows="4" prop:value=move || draft.get() on:input=move |ev| draft.set(event_target_value(&ev))></textarea>
            <div class="buttons">
                <button id="prompt-use" on:click=use_it>{tr!("prompt-use")}</button>
                <button id="prompt-from-screen" on:click=move |_| start_from_screen()>{tr!("prompt-from-screen")}</button>
                <Show when=typed>
                    <button id="prompt-generated" on:click=move |_| state.update(|s| s.text = None)>{tr!("prompt-generated")}</button>
                </Show>
            </div>
            <p class="notice" id="prompt-error" role="alert" hidden=move || error.with(Option::is_none)>{move || error.get().unwrap_or_default()}</p>
        </details>
    }
}

/// Puts a checked prompt in the state (and so in the link); the plotted row belonged to
/// the old prompt.
fn use_typed_prompt(state: RwSignal<ModelState>, text: String) {
    state.update(|s| {
        s.text = Some(text);
        s.row = None;
    });
}

/// "0% (start)", "50%", "100% (end)": a depth as the selects name it.
fn depth_label(d: u32) -> String {
    match d {
        0 => tr!("depth-start"),
        100 => tr!("depth-end"),
        d => format!("{d}%"),
    }
}

/// What the clicked word's needle or query can do: move the needle to a depth, remove
/// it, ask about it; remove the query.
#[component]
fn NeedleActions(prompt: Signal<Option<Prompt>>, chosen: RwSignal<Option<(usize, String)>>, edit: impl Fn(PromptEdit) + Copy + Send + Sync + 'static) -> impl IntoView {
    move || {
        let (i, _) = chosen.get()?;
        prompt.with(|p| {
            let p = p.as_ref()?;
            let needle = needle_at(p, i).map(|n| {
                let words: Vec<String> = p.needle_spans[n].clone().map(|j| word(p.tokens[j])).collect();
                let now = depth_of(p, n).unwrap_or(0);
                let asked = is_asked(p, n);
                view! {
                    <span class="needle-actions" role="group" aria-label=tr!("needle-group")>
                        <label for="needle-depth">{tr!("needle-move", words = words.join(" "), now = now)}</label>
                        <select id="needle-depth" on:change=move |ev| { if let Ok(depth) = event_target_value(&ev).parse() { edit(PromptEdit::MoveNeedle { needle: n, depth }) } }>
                            <option value="" selected=true>{tr!("needle-a-depth")}</option>
                            {DEPTHS.map(|d| view! { <option value=d.to_string()>{depth_label(d)}</option> }).into_iter().collect_view()}
                        </select>
                        <button id="needle-remove" on:click=move |_| edit(PromptEdit::RemoveNeedle(n))>{tr!("needle-remove")}</button>
                        {(!asked).then(|| view! { <button id="needle-ask" on:click=move |_| edit(PromptEdit::AskAbout(n))>{tr!("needle-ask")}</button> })}
                    </span>
                }
            });
            let query = query_at(p, i).map(|q| view! { <button id="query-remove" on:click=move |_| edit(PromptEdit::RemoveQuery(q))>{tr!("query-remove")}</button> });
            Some(view! { {needle}{query} })
        })
    }
}

/// How a prompt's word is marked: the asked needle, the other needles, the queries.
fn token_class(p: &Prompt, i: usize) -> &'static str {
    if p.answer_spans[0].contains(&i) {
        "tok answer"
    } else if p.needle_spans.iter().any(|s| s.contains(&i)) {
        "tok needle"
    } else if i >= p.context.end {
        "tok query"
    } else {
        "tok"
    }
}

/// The prompt on screen, each word a button: click (or Enter) one to replace it with a word
/// from the models' vocabulary (a searchable list); the edited prompt becomes the state's
/// typed prompt, in the link, or the editor says why it cannot be used.
#[component]
pub fn EditablePrompt(state: RwSignal<ModelState>, #[prop(into)] prompt: Signal<Option<Prompt>>, id: &'static str) -> impl IntoView {
    let chosen = RwSignal::new(None::<(usize, String)>);
    let draft = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let choose = move |i: usize, w: String| {
        draft.set(w.clone());
        error.set(None);
        chosen.set(Some((i, w)));
    };
    let apply = move || {
        let Some((i, _)) = chosen.get_untracked() else { return };
        match prompt.with_untracked(|p| p.as_ref().map(|p| replace_word(&p.tokens, i, &draft.get_untracked()))) {
            Some(Ok(text)) => {
                chosen.set(None);
                use_typed_prompt(state, text);
            }
            Some(Err(e)) => error.set(Some(e)),
            None => {}
        }
    };
    // A needle or query edit by click: the new prompt, or why not (nothing changes then).
    let edit = move |e: PromptEdit| match prompt.with_untracked(|p| p.as_ref().map(|p| prompt_edit::apply(p, e))) {
        Some(Ok(text)) => {
            chosen.set(None);
            error.set(None);
            use_typed_prompt(state, text);
        }
        Some(Err(e)) => error.set(Some(e)),
        None => {}
    };
    let add_depth = RwSignal::new(50u32);
    let buttons = move || {
        prompt.with(|p| {
            p.as_ref().map(|p| {
                p.tokens
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| {
                        let w = word(t);
                        let label = tr!("token-position", i = i, word = w.as_str());
                        let pressed = move || chosen.with(|c| c.as_ref().is_some_and(|(at, _)| *at == i)).to_string();
                        // <bos> starts every prompt: shown, not replaceable.
                        if i == 0 {
                            view! { <span class=token_class(p, i) title=tr!("token-bos")>{w}</span> }.into_any()
                        } else {
                            view! { <button class=token_class(p, i) data-pos=i title=label aria-pressed=pressed on:click=move |_| choose(i, word(t))>{w}</button> }.into_any()
                        }
                    })
                    .collect_view()
            })
        })
    };
    let options = vocabulary().into_iter().flat_map(|(_, words)| words).map(|w| view! { <option value=w.clone()></option> }).collect_view();
    view! {
        <div class="panel prompt" id=id>{buttons}</div>
        <Show when=move || chosen.with(Option::is_some)>
            <div class="token-editor" id="token-editor" role="group" aria-label=tr!("token-editor")>
                <label for="token-word">{move || chosen.get().map(|(i, w)| tr!("token-replace-with", word = w, i = i))}</label>
                <input id="token-word" list="vocab-words" autocomplete="off" prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))
                    on:keydown=move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
                        "Enter" => apply(),
                        "Escape" => chosen.set(None),
                        _ => {}
                    } />
                <datalist id="vocab-words">{options.clone()}</datalist>
                " "<button id="token-apply" on:click=move |_| apply()>{tr!("token-replace")}</button>
                " "<button on:click=move |_| chosen.set(None)>{tr!("cancel")}</button>
                <NeedleActions prompt chosen edit />
            </div>
        </Show>
        {move || error.get().map(|e| view! { <p class="notice" id="token-error" role="alert">{e}</p> })}
        <div class="buttons prompt-actions" data-key="prompt">
            <span class="axis-note">{tr!("prompt-click-help")}</span>
            <label for="add-depth">{tr!("needle-add-at")}</label>
            <select id="add-depth" on:change=move |ev| add_depth.set(event_target_value(&ev).parse().unwrap_or(50))>
                {DEPTHS.map(|d| view! { <option value=d.to_string() prop:selected=move || add_depth.get() == d>{depth_label(d)}</option> }).into_iter().collect_view()}
            </select>
            <button id="needle-add" on:click=move |_| edit(PromptEdit::AddNeedle { depth: add_depth.get_untracked() })>{tr!("needle-add")}</button>
        </div>
    }
}
