//! The probe's maps as training goes: for seed 1 of each model, one layer's head 0 on a
//! fixed piece of held-out text (the baseline's map; A1, A2 and A1 − λ·A2 for the DIFF
//! models), at the latest evaluation while training runs, at any evaluation afterwards
//! (the scrubber).

use crate::engine::shared::AttentionKind;
use crate::engine::train::{Board, ProbeMaps};
use crate::tr;
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::format::kind_title;
use crate::ui::pages::train::session::TrainSession;
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::sync::Arc;

fn pooled(m: &ndarray::Array2<f32>, diverging: bool) -> PooledMap {
    let vmax = m.iter().fold(0.0f32, |a, v| a.max(v.abs())).max(1e-6);
    PooledMap { r: m.nrows(), values: Arc::new(m.iter().copied().collect()), scale: Scale { diverging, vmax, contrast: Contrast::Sqrt } }
}

/// Seed 1's snapshot of `kind` at evaluation `at` (the latest where `None`): its step
/// and the maps of `layer`.
fn snapshot(board: &Board, kind: AttentionKind, at: Option<usize>, layer: usize) -> Option<(usize, ProbeMaps)> {
    let run = board.runs.iter().find(|r| r.spec.kind == kind && r.spec.seed == 1)?;
    let (step, maps) = match at {
        Some(i) => run.snapshots.get(i.min(run.snapshots.len().checked_sub(1)?))?,
        None => run.snapshots.last()?,
    };
    Some((*step, maps.get(layer)?.clone()))
}

/// One model's maps at the chosen evaluation.
#[component]
fn KindMaps(session: TrainSession, kind: AttentionKind, at: RwSignal<Option<usize>>, layer: RwSignal<usize>) -> impl IntoView {
    let shown = Memo::new(move |_| session.with_board(|b| snapshot(b, kind, at.get(), layer.get())).flatten());
    let n = Signal::derive(move || shown.with(|s| s.as_ref().map_or(0, |s| s.1.a1.nrows())));
    let map = move |which: u8| {
        Signal::derive(move || {
            shown.with(|s| {
                s.as_ref().and_then(|(_, m)| match which {
                    0 => Some(pooled(&m.a1, false)),
                    1 => m.a2.as_ref().map(|a| pooled(a, false)),
                    _ => m.a2.as_ref().map(|_| pooled(&m.combined, true)),
                })
            })
        })
    };
    let slug = kind.slug();
    let title = move |key: &'static str| tr!(key, kind = kind_title(kind));
    let step = move || shown.with(|s| s.as_ref().map(|s| tr!("train-maps-step", step = s.0)).unwrap_or_default());
    let hover = [RwSignal::new(None::<Hover>), RwSignal::new(None::<Hover>), RwSignal::new(None::<Hover>)];
    let keys = Signal::derive(Vec::new);
    let diff = kind != AttentionKind::Baseline;
    view! {
        <div class="train-kind-maps" data-kind=slug>
            <h4>{kind_title(kind)} " · " <span class="train-maps-step">{step}</span></h4>
            <div class="train-map-row">
                <Heatmap id=format!("train-map-{slug}-a1") title=title(if diff { "train-map-a1" } else { "train-map-baseline" }) map=map(0) n signal_keys=keys hover=hover[0] />
                {diff.then(|| view! {
                    <Heatmap id=format!("train-map-{slug}-a2") title=title("train-map-a2") map=map(1) n signal_keys=keys hover=hover[1] />
                    <Heatmap id=format!("train-map-{slug}-diff") title=title("train-map-diff") map=map(2) n signal_keys=keys hover=hover[2] />
                })}
            </div>
        </div>
    }
}

#[component]
pub fn ProbeFigures(session: TrainSession, probe: Signal<String>) -> impl IntoView {
    let at = RwSignal::new(None::<usize>);
    let layer = RwSignal::new(0usize);
    let count = move || session.with_board(|b| b.runs.iter().filter(|r| r.spec.seed == 1).map(|r| r.snapshots.len()).min().unwrap_or(0)).unwrap_or(0);
    let layers = move || session.with_board(|b| b.preset.layers).unwrap_or(1);
    let kinds = move || session.with_board(|b| b.kinds.clone()).unwrap_or_default();
    let running = move || session.phase.get() == crate::ui::pages::train::session::Phase::Running;
    let value = move || at.get().unwrap_or(count().saturating_sub(1)).to_string();
    view! {
        <section class="panel train-maps" id="train-maps">
            <h3>{tr!("train-maps-title")}</h3>
            <p class="explain">{move || tr!(if session.with_board(|b| b.data.is_needle()).unwrap_or(false) { "train-maps-explain-needle" } else { "train-maps-explain" })}</p>
            <p class="axis-note" id="train-probe">{move || tr!("train-probe", text = probe.get())}</p>
            <div class="control">
                <label for="train-layer">{tr!("train-layer")}</label>
                <select id="train-layer" on:change=move |ev| layer.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || (0..layers()).map(|l| view! { <option value=l.to_string() selected=move || layer.get() == l>{l}</option> }).collect_view()}
                </select>
            </div>
            <div class="control">
                <label for="train-scrub">{tr!("train-scrub")}</label>
                <input type="range" id="train-scrub" min="0" max=move || count().saturating_sub(1).to_string() step="1" prop:value=value disabled=running
                    on:input=move |ev| at.set(event_target_value(&ev).parse().ok()) />
                <button id="train-latest" on:click=move |_| at.set(None)>{tr!("train-latest")}</button>
            </div>
            {move || kinds().into_iter().map(|kind| view! { <KindMaps session kind at layer /> }).collect_view()}
        </section>
    }
}
