//! A labelled range input that shows its value: native `<input type=range>`, so arrow
//! keys, Page Up/Down and Home/End work, and screen readers hear `aria-valuetext`.

use leptos::prelude::*;

#[component]
pub fn Slider(
    id: &'static str,
    #[prop(into)] label: String,
    min: f64,
    max: f64,
    step: f64,
    /// The slider position (for log-scaled knobs, the logarithm).
    #[prop(into)]
    position: Signal<f64>,
    /// The value as a student reads it.
    #[prop(into)]
    shown: Signal<String>,
    /// Every movement.
    on_input: Callback<f64>,
    /// Release of the drag (or a keyboard step): where slow work is triggered.
    #[prop(optional)]
    on_commit: Option<Callback<f64>>,
) -> impl IntoView {
    let parse = |ev: &leptos::ev::Event| event_target_value(ev).parse::<f64>().ok();
    view! {
        <div class="control" data-key=id>
            <label for=id><span>{label}</span><span class="value" data-testid=format!("{id}-value")>{move || shown.get()}</span></label>
            <input type="range" id=id min=min max=max step=step
                prop:value=move || position.get().to_string()
                aria-valuetext=move || shown.get()
                on:input=move |ev| { if let Some(v) = parse(&ev) { on_input.run(v) } }
                on:change=move |ev| { if let (Some(v), Some(cb)) = (parse(&ev), on_commit) { cb.run(v) } } />
        </div>
    }
}
