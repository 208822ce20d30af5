//! The architecture calculator: parameter counts and KV-cache sizes of baseline,
//! DIFF V1 and DIFF V2 for a config the student types in (the lesson's step 5).

use super::super::route::{self, Page, Route};
use crate::core::arch::{ArchConfig, Variant};
use crate::core::lambda::lambda_init_for_depth;
use leptos::prelude::*;

/// Reads the config from the link; values that do not parse or are out of range keep
/// the default and are reported.
fn config_from(params: &[(String, String)]) -> (ArchConfig, Vec<String>) {
    let mut c = ArchConfig::default();
    let mut notices = vec![];
    for (k, v) in params {
        let slot = match k.as_str() {
            "hidden" => &mut c.hidden,
            "heads" => &mut c.heads,
            "head_dim" => &mut c.head_dim,
            "kv_heads" => &mut c.kv_heads,
            "layers" => &mut c.layers,
            "ffn" => &mut c.ffn_hidden,
            "vocab" => &mut c.vocab,
            _ => {
                notices.push(format!("unknown setting `{k}` ignored"));
                continue;
            }
        };
        match v.parse::<usize>() {
            Ok(x) if (1..=1_000_000).contains(&x) => *slot = x,
            _ => notices.push(format!("{k}={v} is not a whole number from 1 to 1000000; kept {slot}")),
        }
    }
    if c.heads % c.kv_heads != 0 {
        notices.push(format!("heads ({}) must be a multiple of KV heads ({}); KV heads set to {}", c.heads, c.kv_heads, c.heads));
        c.kv_heads = c.heads;
    }
    (c, notices)
}

fn params_of(c: &ArchConfig) -> Vec<(String, String)> {
    [("hidden", c.hidden), ("heads", c.heads), ("head_dim", c.head_dim), ("kv_heads", c.kv_heads), ("layers", c.layers), ("ffn", c.ffn_hidden), ("vocab", c.vocab)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// 6 738 415 616 → "6.74 B (6,738,415,616)".
fn count(n: u64) -> String {
    let digits = n.to_string();
    let grouped: String = digits.chars().rev().collect::<Vec<_>>().chunks(3).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(",").chars().rev().collect();
    let short = match n {
        n if n >= 1_000_000_000 => format!("{:.2} B", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.2} M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.1} k", n as f64 / 1e3),
        n => n.to_string(),
    };
    format!("{short} ({grouped})")
}

#[component]
pub fn ArchPage(route: RwSignal<Route>) -> impl IntoView {
    let (initial, notices) = config_from(&route.get_untracked().params);
    let config = RwSignal::new(initial);
    let notices = RwSignal::new(notices);
    Effect::new(move |_| route::replace(&Route { page: Page::Arch, params: params_of(&config.get()), unknown_page: None }));

    let on_change = move |label: &str, set: fn(&mut ArchConfig, usize), raw: String| match raw.parse::<usize>() {
        Ok(v) if v >= 1 => {
            config.update(|c| set(c, v));
            notices.set(vec![]);
        }
        _ => notices.set(vec![format!("{label}: enter a whole number of at least 1")]),
    };
    let input = move |id: &'static str, label: &'static str, get: fn(&ArchConfig) -> usize, set: fn(&mut ArchConfig, usize)| {
        view! {
            <div class="control">
                <label for=id><span>{label}</span></label>
                <input type="number" id=id min="1" prop:value=move || config.with(get).to_string()
                    on:change=move |ev| on_change(label, set, event_target_value(&ev)) />
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
                <td>{move || { let d = c().model_params(variant) as i64 - c().model_params(Variant::Baseline) as i64; if d == 0 { "—".into() } else { format!("+{}", count(d as u64)) } }}</td>
                <td>{move || format!("{} KiB", c().kv_cache_bytes_per_token(variant) / 1024)}</td>
                <td>{move || format!("{} KiB", c().kv_cache_bytes_read_per_token(variant) / 1024)}</td>
            </tr>
        }
    };
    view! {
        <section class="page">
            <h2>"Architecture calculator"</h2>
            <p class="explain">"What DIFF attention costs in parameters and memory. The config describes the baseline; DIFF V1 keeps its widths (half as many heads, each with two sub-heads) and adds only λ vectors and a norm gain; DIFF V2 doubles the query heads but keeps the KV heads, so its KV cache is the baseline's."</p>
            <Show when=move || !notices.with(|n| n.is_empty())>
                <p class="notice" role="status">{move || notices.get().join("; ")}</p>
            </Show>
            <div class="controls">
                {input("hidden", "Hidden size", |c| c.hidden, |c, v| c.hidden = v)}
                {input("heads", "Query heads (baseline)", |c| c.heads, |c, v| c.heads = v)}
                {input("head_dim", "Head size d", |c| c.head_dim, |c, v| c.head_dim = v)}
                {input("kv_heads", "KV heads (GQA)", |c| c.kv_heads, |c, v| c.kv_heads = v)}
                {input("layers", "Layers", |c| c.layers, |c, v| c.layers = v)}
                {input("ffn", "SwiGLU hidden size", |c| c.ffn_hidden, |c, v| c.ffn_hidden = v)}
                {input("vocab", "Vocabulary", |c| c.vocab, |c, v| c.vocab = v)}
            </div>
            <div class="buttons">
                <button on:click=move |_| config.set(ArchConfig::default())>"7B config (32 heads)"</button>
                <button on:click=move |_| config.set(ArchConfig { kv_heads: 8, ..ArchConfig::default() })>"7B with GQA (8 KV heads)"</button>
            </div>
            <table class="numbers" id="arch-table">
                <thead><tr><th>"model"</th><th>"attention params / layer"</th><th>"whole model"</th><th>"vs baseline"</th><th>"KV cache / token"</th><th>"KV bytes read / decoded token"</th></tr></thead>
                <tbody>{row("baseline", Variant::Baseline)}{row("DIFF V1", Variant::DiffV1)}{row("DIFF V2", Variant::DiffV2)}</tbody>
            </table>
            <p class="explain">"Caches are fp16 (2 bytes per value), all layers. V1 runs one attention per softmax branch over its 2d-wide values, so decoding reads the V cache twice; V2 reads it once. V2's extra query parameters can be taken from the feed-forward to keep the total equal, as its authors do."</p>
            <h3>"λ_init by layer depth"</h3>
            <p class="explain">"V1 starts λ at 0.8 − 0.6·e^(−0.3·depth): small in early layers, near 0.8 deep down."</p>
            <table class="numbers" id="lambda-init-table">
                <thead><tr><th>"depth"</th>{(0..8).map(|d| view! { <th>{d}</th> }).collect_view()}</tr></thead>
                <tbody><tr><td>"λ_init"</td>{(0..8).map(|d| view! { <td>{format!("{:.3}", lambda_init_for_depth(d))}</td> }).collect_view()}</tr></tbody>
            </table>
        </section>
    }
}
