//! "Set λ yourself" in a DIFF column of the compare view: DIFF V1's λ per layer (from
//! its learnt value) and its per-head norm on or off; DIFF V2's per-token λ scaled or
//! pinned to one value; λ = 0 for either. The model reruns while a slider moves.

use crate::state::model_state::{column_of, AttentionKind, ModelState, V2Lambda, V1_LAMBDA_RANGE, V2_PIN_RANGE, V2_SCALE_RANGE};
use crate::tr;
use crate::ui::pages::explorer::compare::Columns;
use leptos::prelude::*;

#[component]
pub fn LambdaPanel(kind: AttentionKind, state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>) -> impl IntoView {
    let moved = move || state.with(|s| s.lambda_override(kind) != Default::default() || s.subln_override(kind).is_some());
    let body = match kind {
        AttentionKind::Baseline => return None,
        AttentionKind::DiffV1 => view! { <V1Lambdas state columns /> }.into_any(),
        AttentionKind::DiffV2 => view! { <V2Lambdas state /> }.into_any(),
    };
    Some(view! {
        <details class="lambda-panel" data-key="lambda" id=format!("lambda-panel-{}", kind.slug())>
            <summary>{move || tr!(if moved() { "lambda-panel-changed" } else { "lambda-panel" })}</summary>
            {body}
        </details>
    })
}

/// A labelled range input; `value` is what it shows, `set` what moving it does.
fn slider(
    id: String,
    label: String,
    (min, max, step): (f32, f32, f32),
    value: impl Fn() -> f32 + Copy + Send + Sync + 'static,
    note: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(f32) + Copy + 'static,
) -> impl IntoView {
    view! {
        <div class="control"><label for=id.clone()><span>{label}</span><span class="value">{move || format!("{:.2}{}", value(), note()).replace('-', "−")}</span></label>
            <input type="range" id=id min=min max=max step=step prop:value=move || value().to_string()
                on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f32>() { set(v) } } /></div>
    }
}

#[component]
fn V1Lambdas(state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>) -> impl IntoView {
    let col = column_of(AttentionKind::DiffV1);
    let learnt = Memo::new(move |_| columns.with(|c| c.as_ref().map(|c| c.learnt[col].clone())).unwrap_or_default());
    let layers = move || {
        learnt
            .get()
            .into_iter()
            .enumerate()
            .filter_map(|(l, v)| Some((l, v?)))
            .map(|(l, learnt_v)| {
                let set_here = move || state.with(|s| s.v1_lambdas.get(l).copied().flatten());
                let value = move || set_here().unwrap_or(learnt_v);
                let note = move || if set_here().is_some() { tr!("v1-learnt-was", lambda = format!("{learnt_v:.2}")) } else { tr!("v1-learnt") };
                slider(format!("v1-lambda-{l}"), tr!("v1-layer", layer = l), (V1_LAMBDA_RANGE.0, V1_LAMBDA_RANGE.1, 0.01), value, note, move |v| state.update(|s| s.set_v1_lambda(l, Some(v))))
            })
            .collect_view()
    };
    let all = move |value: Option<f32>| move |_| state.update(|s| (0..learnt.get_untracked().len()).for_each(|l| s.set_v1_lambda(l, value)));
    view! {
        <p class="explain">{tr!("v1-explain")}</p>
        {layers}
        <label class="check"><input type="checkbox" id="v1-norm" prop:checked=move || state.with(|s| s.v1_norm) on:change=move |ev| state.update(|s| s.v1_norm = event_target_checked(&ev)) />
            " "{tr!("v1-norm")}</label>
        <div class="buttons">
            <button id="v1-lambda-zero" on:click=all(Some(0.0))>{tr!("v1-zero")}</button>
            <button id="v1-lambda-learnt" on:click=move |_| state.update(|s| { s.v1_lambdas.clear(); s.v1_norm = true; })>{tr!("back-to-learnt")}</button>
        </div>
    }
}

#[component]
fn V2Lambdas(state: RwSignal<ModelState>) -> impl IntoView {
    let mode = move || state.with(|s| s.v2_lambda);
    let scale = move || match mode() {
        V2Lambda::Scale(f) => f,
        _ => 1.0,
    };
    let pin = move || match mode() {
        V2Lambda::Pin(v) => v,
        _ => 0.5,
    };
    // A slider that is not the one in use says so, so its number is not read as the λ.
    let idle = |not_used: bool| if not_used { tr!("v2-not-in-use") } else { String::new() };
    let now = move || match mode() {
        V2Lambda::Learnt => tr!("v2-now-learnt"),
        V2Lambda::Scale(f) => tr!("v2-now-scale", factor = format!("{f:.2}")),
        V2Lambda::Pin(v) => tr!("v2-now-pin", lambda = format!("{v:.2}")),
    };
    view! {
        <p class="explain">{tr!("v2-explain")}</p>
        {slider("v2-scale".into(), tr!("v2-scale"), (V2_SCALE_RANGE.0, V2_SCALE_RANGE.1, 0.05), scale, move || idle(!matches!(mode(), V2Lambda::Scale(_))), move |v| state.update(|s| s.v2_lambda = V2Lambda::Scale(v)))}
        {slider("v2-pin".into(), tr!("v2-pin"), (V2_PIN_RANGE.0, V2_PIN_RANGE.1, 0.01), pin, move || idle(!matches!(mode(), V2Lambda::Pin(_))), move |v| state.update(|s| s.v2_lambda = V2Lambda::Pin(v)))}
        <p class="axis-note" id="v2-lambda-now">{now}</p>
        <div class="buttons">
            <button id="v2-lambda-zero" on:click=move |_| state.update(|s| s.v2_lambda = V2Lambda::Pin(0.0))>"λ = 0"</button>
            <button id="v2-lambda-learnt" on:click=move |_| state.update(|s| s.v2_lambda = V2Lambda::Learnt)>{tr!("back-to-learnt")}</button>
        </div>
    }
}
