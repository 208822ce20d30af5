//! The architecture calculator: parameter counts and KV-cache sizes of baseline,
//! DIFF V1 and DIFF V2 for a config the student types in (the lesson's step 5).

use super::super::components::notice::{NoticeBar, StateNotes};
use super::super::route::{Page, Router};
use crate::engine::arch::{count, difference, lambda_init_for_depth, ArchConfig, Variant};
use crate::state::arch_state::{self, Field, FIELDS, RANGE};
use leptos::prelude::*;

#[component]
pub fn ArchPage() -> impl IntoView {
    let router = Router::get();
    let (initial, lines) = arch_state::from_params(&router.asked.get_untracked().params);
    let config = RwSignal::new(initial.clone());
    let notes = StateNotes::new();
    notes.set(initial, lines);
    Effect::new(move |_| router.publish(Page::Arch, config.with(arch_state::to_params)));
    router.follow(Page::Arch, move |params| {
        let (c, lines) = arch_state::from_params(params);
        notes.set(c.clone(), lines);
        config.set(c);
    });

    // A typed value goes through the links' rule; the input shows what was kept.
    let on_change = move |field: &'static Field, raw: String, input: web_sys::HtmlInputElement| {
        let mut c = config.get_untracked();
        let mut lines = vec![];
        arch_state::apply(&mut c, field.key, &raw, &mut lines);
        input.set_value(&(field.get)(&c).to_string());
        notes.set(c.clone(), lines);
        config.set(c);
    };
    let input = move |field: &'static Field| {
        view! {
            <div class="control" data-key=field.key>
                <label for=field.key><span>{field.label}</span></label>
                <input type="number" id=field.key min=RANGE.0 max=RANGE.1 step="1" prop:value=move || config.with(field.get).to_string()
                    on:change=move |ev| on_change(field, event_target_value(&ev), event_target::<web_sys::HtmlInputElement>(&ev)) />
            </div>
        }
    };
    let row = move |name: &'static str, variant: Variant| {
        let c = move || config.get();
        view! {
            <tr data-variant=name>
                <td>{name}</td>
                <td>{move || count(c().attention_params(variant).total())}</td>
                <td>{move || count(c().model_params(variant))}</td>
                <td>{move || difference(c().model_params(variant), c().model_params(Variant::Baseline))}</td>
                <td>{move || format!("{} KiB", count(c().kv_cache_bytes_per_token(variant) / 1024))}</td>
                <td>{move || format!("{} KiB", count(c().kv_cache_bytes_read_per_token(variant) / 1024))}</td>
            </tr>
        }
    };
    view! {
        <section class="page">
            <h2>"Architecture calculator"</h2>
            <p class="explain">"What DIFF attention costs in parameters and memory. The config describes the baseline; DIFF V1 keeps its widths (half as many heads, each with two sub-heads) and adds only λ vectors and a norm gain; DIFF V2 doubles the query heads but keeps the KV heads, so its KV cache is the baseline's."</p>
            <NoticeBar id="arch-notices" lines=Signal::derive(move || config.with(|c| notes.lines_for(c))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <div class="controls">{FIELDS.iter().map(input).collect_view()}</div>
            <p class="axis-note">"Every number from 1 to 1 000 000. Query heads must be even (DIFF V1 splits them in pairs); KV heads must be even and divide the query heads."</p>
            <div class="buttons" data-key="preset">
                <button on:click=move |_| config.set(ArchConfig::default())>"7B config (32 heads)"</button>
                <button on:click=move |_| config.set(ArchConfig { kv_heads: 8, ..ArchConfig::default() })>"7B with GQA (8 KV heads)"</button>
            </div>
            <div class="table-scroll"><table class="numbers" id="arch-table">
                <thead><tr><th>"model"</th><th>"attention params / layer"</th><th>"whole model"</th><th>"vs baseline"</th><th>"KV cache / token"</th><th>"KV bytes read / decoded token"</th></tr></thead>
                <tbody>{row("baseline", Variant::Baseline)}{row("DIFF V1", Variant::DiffV1)}{row("DIFF V2", Variant::DiffV2)}</tbody>
            </table></div>
            <p class="explain">"Caches are fp16 (2 bytes per value), all layers. V1 runs one attention per softmax branch over its 2d-wide values, so decoding reads the V cache twice; V2 reads it once. V2's extra query parameters can be taken from the feed-forward to keep the total equal, as its authors do."</p>
            <h3>"λ_init by layer depth"</h3>
            <p class="explain">"V1 starts λ at 0.8 − 0.6·e^(−0.3·depth): small in early layers, near 0.8 deep down."</p>
            <div class="table-scroll"><table class="numbers" id="lambda-init-table">
                <thead><tr><th>"depth"</th>{(0..8).map(|d| view! { <th>{d}</th> }).collect_view()}</tr></thead>
                <tbody><tr><td>"λ_init"</td>{(0..8).map(|d| view! { <td>{format!("{:.3}", lambda_init_for_depth(d))}</td> }).collect_view()}</tr></tbody>
            </table></div>
        </section>
    }
}
