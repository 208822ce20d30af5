//! The model explorer: trained tiny models arrive with their own issue.

use leptos::prelude::*;

#[component]
pub fn ModelPage() -> impl IntoView {
    view! {
        <section class="page">
            <h2>"Model explorer"</h2>
            <p class="explain">"This page will run small trained models (a baseline Transformer, DIFF V1 and DIFF V2) on a multi-needle retrieval prompt and show each layer's A1, A2 and A1 − λ·A2. The trained checkpoints are not shipped yet."</p>
        </section>
    }
}
