//! The model explorer: the shipped tiny models (baseline, DIFF V1, DIFF V2) on a
//! multi-needle prompt, side by side (`compare`) or one at a time (`single`), and the
//! controls both views share.

mod columns_in_workers;
mod compare;
mod evidence;
pub mod kept;
mod lambda_panel;
mod layer_view;
pub(crate) mod own_model;
mod prompt_editor;
mod single;
mod spoken;

use crate::state::model_state::{AttentionKind, ModelKnob, ModelState, View, BITS, CHECKPOINT, CONTEXTS, DEPTH, NEEDLES, QUERIES};
use crate::tr;
use crate::ui::components::compute_on::ComputeOnSelect;
use crate::ui::components::notice::{NoticeBar, StateNotes};
use crate::ui::format::kind_title;
use crate::ui::pages::explorer::compare::CompareView;
use crate::ui::pages::explorer::kept::Kept;
use crate::ui::pages::explorer::own_model::OwnModel;
use crate::ui::pages::explorer::single::SingleView;
use crate::ui::route::{Page, Router};
use leptos::prelude::*;

/// The state, its link and the notices about it: a change of link while the page is open
/// (typed, pasted, Back) is applied like the link the page was opened with. A λ drag's
/// link is written once the drag settles (`Router::write_address_soon`, as the lab
/// does): writing the address is a noticeable part of a frame (README, Performance);
/// every other change is written at once (the navigation's link follows both at once).
fn linked_state(router: Router) -> (RwSignal<ModelState>, StateNotes<ModelState>) {
    let (initial, lines) = ModelState::from_params(&router.asked.get_untracked().params);
    let state = RwSignal::new(initial.clone());
    let notes = StateNotes::new();
    notes.set(initial.clone(), lines);
    let written = StoredValue::new(initial);
    Effect::new(move |_| {
        let route = router.remember(Page::Model, state.with(|s| s.to_params()));
        let dragged = state.with(|s| written.with_value(|w| s.only_lambdas_differ(w)));
        written.set_value(state.get_untracked());
        if dragged {
            router.write_address_soon(route, || {});
        } else {
            router.cancel_pending();
            router.write_address(&route);
        }
    });
    on_cleanup(move || router.cancel_pending());
    router.follow(Page::Model, move |params| {
        let (s, lines) = ModelState::from_params(params);
        notes.set(s.clone(), lines);
        if state.with_untracked(|cur| *cur != s) {
            state.set(s);
        }
    });
    (state, notes)
}

#[component]
pub fn ModelPage() -> impl IntoView {
    let (state, notes) = linked_state(Router::get());
    let library = Kept::get().library;
    let view_kind = Memo::new(move |_| state.with(|s| s.view));
    let switch = move |v: View| move |_| state.update(|s| s.view = v);
    view! {
        <section class="page model">
            <h2>{tr!("page-model")}</h2>
            <p class="explain">{tr!("model-intro")}</p>
            <p class="explain"><a id="open-text" href=move || Router::get().link(Page::Text)>{tr!("model-open-text")}</a></p>
            <NoticeBar id="link-notices" lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <div class="view-switch" data-key="view" role="group" aria-label=tr!("model-view")>
                <button id="view-compare" aria-pressed=move || (view_kind.get() == View::Compare).to_string() on:click=switch(View::Compare)>{tr!("view-compare")}</button>
                <button id="view-single" aria-pressed=move || (view_kind.get() == View::Single).to_string() on:click=switch(View::Single)>{tr!("view-single")}</button>
            </div>
            {move || match view_kind.get() {
                View::Compare => view! { <CompareView state notes library /> }.into_any(),
                View::Single => view! { <SingleView state notes library /> }.into_any(),
            }}
        </section>
    }
}

/// The controls of both views; `single` adds the model and head selects (the compare
/// view shows every model and picks each one's head on its grid).
#[component]
pub(super) fn ModelControls(
    state: RwSignal<ModelState>,
    checkpoint_label: Signal<String>,
    shape: Memo<(usize, usize)>,
    single: bool,
    #[prop(optional)] own: Option<RwSignal<Option<OwnModel>>>,
) -> impl IntoView {
    // The reader's own model, while one is on screen: the model select names it and the
    // training slider (the shipped models' checkpoints) is hidden.
    let own_label = move || own.and_then(|o| o.get()).map(|o| o.label);
    let choose_kind = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some(o) = own {
            o.set(None);
        }
        state.update(|s| s.kind = AttentionKind::from_slug(&v).unwrap_or(s.kind));
    };
    let set = move |f: fn(&mut ModelState, String)| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            state.update(|s| f(s, v))
        }
    };
    let numbered = |n: usize| (0..n).map(|i| (i.to_string(), i.to_string())).collect::<Vec<_>>();
    // A range input for one of the state's knobs, with the table's bounds and label.
    let slider = move |knob: ModelKnob, shown: Signal<String>| {
        view! {
            <div class="control" data-key=knob.key><label for=knob.id><span>{knob.label()}</span><span class="value">{move || shown.get()}</span></label>
                <input type="range" id=knob.id min=knob.min max=knob.max step=knob.step prop:value=move || state.with(|s| (knob.get)(s)).to_string() aria-valuetext=move || shown.get()
                    on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse() { state.update(|s| knob.set(s, v)) } }/></div>
        }
    };
    view! {
        <div class="controls">
            {single.then(|| view! { <div class="control" data-key="model"><label for="model-kind">{tr!("model-model")}</label>
                <select id="model-kind" on:change=choose_kind>
                    {options(AttentionKind::ALL.into_iter().map(|k| (k.slug().to_string(), kind_title(k).to_string())).collect(), move || if own_label().is_some() { "own".into() } else { state.with(|s| s.kind.slug().to_string()) })}
                    {move || own_label().map(|l| view! { <option value="own" selected=true>{tr!("model-yours", label = l)}</option> })}
                </select></div> })}
            <Show when=move || own_label().is_none()>{slider(CHECKPOINT, checkpoint_label)}</Show>
            {slider(NEEDLES, Signal::derive(move || state.with(|s| s.needles.to_string())))}
            {slider(QUERIES, Signal::derive(move || state.with(|s| s.queries.to_string())))}
            {slider(DEPTH, Signal::derive(move || state.with(|s| s.depth.map(|d| format!("{d}%")).unwrap_or_else(|| tr!("depth-random")))))}
            <div class="control" data-key="ctx"><label for="context">{tr!("model-context")}</label>
                <select id="context" on:change=set(|s, v| { s.context = v.parse().unwrap_or(64); s.text = None; })>
                    {options(CONTEXTS.iter().map(|c| (c.to_string(), if *c == 64 { tr!("context-training") } else { tr!("context-times", context = *c, times = c / 64) })).collect(), move || state.with(|s| s.context.to_string()))}
                </select></div>
            <div class="control" data-key="layer"><label for="layer">{tr!("model-layer")}</label>
                <select id="layer" on:change=set(|s, v| s.layer = v.parse().unwrap_or(0))>
                    {move || options(numbered(shape.get().0), move || state.with(|s| s.layer.to_string()))}
                </select></div>
            {single.then(|| view! { <div class="control" data-key="head"><label for="head">{tr!("model-head")}</label>
                <select id="head" on:change=set(|s, v| s.head = v.parse().unwrap_or(0))>
                    {move || options(numbered(shape.get().1), move || state.with(|s| s.head.to_string()))}
                </select></div> })}
            <div class="control" data-key="bits"><label for="bits">{tr!("model-bits")}</label>
                <select id="bits" on:change=set(|s, v| s.bits = v.parse().ok().filter(|b| BITS.contains(b)))>
                    {options(std::iter::once(("32".to_string(), tr!("bits-f32"))).chain(BITS.iter().map(|b| (b.to_string(), tr!("bits-absmax", bits = *b)))).collect(), move || state.with(|s| s.bits.unwrap_or(32).to_string()))}
                </select></div>
            <ComputeOnSelect value=Signal::derive(move || state.with(|s| s.on)) on_change=Callback::new(move |on| state.update(|s| s.on = on)) />
        </div>
        <div class="buttons" data-key="seed">
            <span>{move || if state.with(|s| s.text.is_some()) { tr!("model-own-prompt-note") } else { String::new() }}</span>
            <span>{tr!("model-prompt-seed")}" "<strong id="prompt-seed">{move || state.with(|s| s.seed)}</strong></span>
            <button id="new-prompt" on:click=move |_| state.update(|s| { s.seed = (js_sys::Math::random() * 1e9) as u64; s.row = None; s.text = None; })>{tr!("model-new-prompt")}</button>
        </div>
    }
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
