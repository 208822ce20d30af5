//! "Write your own prompt" and the prompt on screen as editable tokens: the explorer's
//! two views share them.

use crate::engine::explorer::prompt_edit::{self, depth_of, is_asked, needle_at, query_at, PromptEdit, DEPTHS};
use crate::engine::model::{check_prompt, replace_word, vocabulary, word, Prompt};
use crate::state::model_state::ModelState;
use crate::tr;
use leptos::prelude::*;

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
