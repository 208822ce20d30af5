//! Where a page's forward passes run: auto (WebGPU on a hardware GPU), WebGPU, or the
//! CPU core. Without WebGPU the WebGPU choice is disabled and says why. The explorer and
//! the text page both show it.

use crate::state::model_state::ComputeOn;
use crate::tr;
use crate::ui::backend::Backend;
use leptos::prelude::*;

#[component]
pub fn ComputeOnSelect(value: Signal<ComputeOn>, on_change: Callback<ComputeOn>) -> impl IntoView {
    let backend = crate::ui::backend::from_context();
    let no_gpu = move || !backend.with(|b| matches!(b, Backend::WebGpu { .. }));
    let label = |c: ComputeOn| {
        tr!(match c {
            ComputeOn::Auto => "on-auto",
            ComputeOn::Gpu => "on-gpu",
            ComputeOn::Cpu => "on-cpu",
        })
    };
    view! {
        <div class="control" data-key="on"><label for="compute-on">{tr!("compute-on")}</label>
            <select id="compute-on" on:change=move |ev| { let v = event_target_value(&ev); on_change.run(ComputeOn::ALL.into_iter().find(|c| c.slug() == v).unwrap_or_default()) }>
                {ComputeOn::ALL.map(|c| view! {
                    <option value=c.slug() prop:selected=move || value.get() == c disabled=move || c == ComputeOn::Gpu && no_gpu()>
                        {move || if c == ComputeOn::Gpu && no_gpu() { tr!("on-gpu-missing") } else { label(c) }}
                    </option>
                }).into_iter().collect_view()}
            </select></div>
    }
}
