//! The text page's controls: the checkpoint, the layer and head the maps show, DIFF V1's
//! λ in that layer and DIFF V2's λ scaled or pinned (each with a way back to the learnt
//! one), where the passes run, and "Write on" with its sampling.

use crate::state::model_state::V2Lambda;
use crate::state::text_state::{TextKnob, TextState, CHECKPOINT, HEAD, LAYER, SEED, TEMPERATURE, TOP_K, V1_LAMBDA, V2_PIN, V2_SCALE};
use crate::tr;
use crate::ui::components::compute_on::ComputeOnSelect;
use crate::ui::components::slider::Slider;
use crate::ui::pages::text::session::TextSession;
use leptos::prelude::*;

/// A slider for one knob of the state table; `shown` says its value in words.
fn knob_slider(knob: TextKnob, max: f64, state: RwSignal<TextState>, shown: fn(&TextState) -> String) -> impl IntoView {
    view! {
        <Slider id=knob.key label=knob.label() min=knob.min max=max step=knob.step
            position=Signal::derive(move || state.with(|s| (knob.get)(s)))
            shown=Signal::derive(move || state.with(shown))
            on_input=Callback::new(move |v| state.update(|s| knob.set(s, v))) />
    }
}

#[component]
pub fn TextControls(state: RwSignal<TextState>, session: TextSession) -> impl IntoView {
    let learnt = move || state.with(|s| s.v1_lambda.is_none());
    let v2_learnt = move || state.with(|s| s.v2_lambda == V2Lambda::Learnt);
    let toggle = move |_| {
        if session.writing.get_untracked() {
            session.stop();
        } else {
            session.write_on(state);
        }
    };
    view! {
        <div class="controls text-controls">
            {knob_slider(CHECKPOINT, CHECKPOINT.max, state, |s| tr!("text-ckpt-shown", index = s.checkpoint + 1))}
            {knob_slider(LAYER, 3.0, state, |s| (s.layer + 1).to_string())}
            {knob_slider(HEAD, 3.0, state, |s| (s.head + 1).to_string())}
            {knob_slider(V1_LAMBDA, V1_LAMBDA.max, state, |s| s.v1_lambda.map(|l| format!("{l:.2}")).unwrap_or_else(|| tr!("text-lambda-learnt")))}
            <button id="lambda-learnt" disabled=learnt on:click=move |_| state.update(|s| s.v1_lambda = None)>{tr!("text-lambda-reset")}</button>
            {knob_slider(V2_SCALE, V2_SCALE.max, state, |s| match s.v2_lambda { V2Lambda::Scale(f) => format!("×{f:.2}"), _ => tr!("text-lambda-learnt") })}
            {knob_slider(V2_PIN, V2_PIN.max, state, |s| match s.v2_lambda { V2Lambda::Pin(v) => format!("{v:.2}"), _ => tr!("text-lambda-learnt") })}
            <button id="v2-lambda-learnt" disabled=v2_learnt on:click=move |_| state.update(|s| s.v2_lambda = V2Lambda::Learnt)>{tr!("text-v2-reset")}</button>
            <ComputeOnSelect value=Signal::derive(move || state.with(|s| s.on)) on_change=Callback::new(move |on| state.update(|s| s.on = on)) />
        </div>
        <div class="controls write-controls">
            {knob_slider(TEMPERATURE, TEMPERATURE.max, state, |s| if s.greedy() { tr!("text-greedy") } else { format!("{:.2}", s.temperature) })}
            {knob_slider(TOP_K, 77.0, state, |s| s.top_k.to_string())}
            {knob_slider(SEED, 99.0, state, |s| s.seed.to_string())}
            <button id="write-on" class="primary" on:click=toggle aria-pressed=move || session.writing.get().to_string()>
                {move || if session.writing.get() { tr!("text-stop") } else { tr!("text-write-on") }}
            </button>
        </div>
        <p class="axis-note">{tr!("text-write-explain")}</p>
    }
}
