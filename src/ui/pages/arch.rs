//! The architecture calculator: parameter counts and KV-cache sizes of baseline,
//! DIFF V1 and DIFF V2 for a config the student types in (the lesson's step 5).

use crate::engine::arch::{count, difference, lambda_init_for_depth, ArchConfig, Variant};
use crate::state::arch_state::{self, ArchKnob, FIELDS, RANGE};
use crate::tr;
use crate::ui::components::notice::{NoticeBar, StateNotes};
use crate::ui::route::{Page, Router};
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
    let on_change = move |field: &'static ArchKnob, raw: String, input: web_sys::HtmlInputElement| {
        let mut c = config.get_untracked();
        let mut lines = vec![];
        arch_state::apply(&mut c, field.key, &raw, &mut lines);
        input.set_value(&(field.get)(&c).to_string());
        notes.set(c.clone(), lines);
        config.set(c);
    };
    let input = move |field: &'static ArchKnob| {
        view! {
            <div class="control" data-key=field.key>
                <label for=field.key><span>{field.label()}</span></label>
                <input type="number" id=field.key min=RANGE.0 max=RANGE.1 step="1" prop:value=move || config.with(field.get).to_string()
                    on:change=move |ev| on_change(field, event_target_value(&ev), event_target::<web_sys::HtmlInputElement>(&ev)) />
            </div>
        }
    };
    let row = move |name: &'static str, variant: Variant| {
        let c = move || config.get();
        view! {
            <tr data-variant=name>
                <td>{if variant == Variant::Baseline { tr!("cost-baseline") } else { name.to_string() }}</td>
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
            <h2>{tr!("page-arch")}</h2>
            <p class="explain">{tr!("arch-explain")}</p>
            <NoticeBar id="arch-notices" lines=Signal::derive(move || config.with(|c| notes.lines_for(c))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <div class="controls">{FIELDS.iter().map(input).collect_view()}</div>
            <p class="axis-note">{tr!("arch-range")}</p>
            <div class="buttons" data-key="preset">
                <button on:click=move |_| config.set(ArchConfig::default())>{tr!("arch-7b")}</button>
                <button on:click=move |_| config.set(ArchConfig { kv_heads: 8, ..ArchConfig::default() })>{tr!("arch-7b-gqa")}</button>
            </div>
            <div class="table-scroll" tabindex="0"><table class="numbers" id="arch-table">
                <thead><tr><th>{tr!("th-model")}</th><th>{tr!("th-attention-params")}</th><th>{tr!("th-whole-model")}</th><th>{tr!("th-vs-baseline")}</th><th>{tr!("th-kv-cache")}</th><th>{tr!("th-kv-bytes-read")}</th></tr></thead>
                <tbody>{row("baseline", Variant::Baseline)}{row("DIFF V1", Variant::DiffV1)}{row("DIFF V2", Variant::DiffV2)}</tbody>
            </table></div>
            <p class="explain">{tr!("arch-caches")}</p>
            <h3>{tr!("arch-lambda-init")}</h3>
            <p class="explain">{tr!("arch-lambda-init-explain")}</p>
            <div class="table-scroll" tabindex="0"><table class="numbers" id="lambda-init-table">
                <thead><tr><th>{tr!("th-depth")}</th>{(0..8).map(|d| view! { <th>{d}</th> }).collect_view()}</tr></thead>
                <tbody><tr><td>"λ_init"</td>{(0..8).map(|d| view! { <td>{format!("{:.3}", lambda_init_for_depth(d))}</td> }).collect_view()}</tr></tbody>
            </table></div>
        </section>
    }
}
