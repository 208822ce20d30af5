//! A labelled number. `data-value` holds full precision for tests and exports; the text
//! is rounded for reading.

use leptos::prelude::*;

/// Three significant digits, thousands as plain digits, ∞ for an infinite ratio.
pub fn readable(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "∞".into() } else { "−∞".into() };
    }
    if v.is_nan() {
        return "–".into();
    }
    let a = v.abs();
    let s = if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 0.01 || a == 0.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.2e}")
    };
    s.replace('-', "−")
}

#[component]
pub fn Readout(id: &'static str, #[prop(into)] label: String, #[prop(into)] value: Signal<f64>, #[prop(optional)] suffix: &'static str) -> impl IntoView {
    view! {
        <div class="readout">
            <div class="k">{label}</div>
            <div class="v" id=id data-value=move || value.get().to_string()>{move || format!("{}{suffix}", readable(value.get()))}</div>
        </div>
    }
}
