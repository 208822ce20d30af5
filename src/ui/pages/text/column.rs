//! One model's column on the text page: how surprised it was by the text (the mean and
//! each character shaded), the next character's top five, the chosen head's maps over
//! the characters with the last row outlined, a caption computed from the map, and what
//! the model wrote on.

use crate::engine::shared::AttentionKind;
use crate::engine::text::run::{TextRun, NEAR};
use crate::engine::text::typed::show_char;
use crate::state::text_state::TextState;
use crate::tr;
use crate::ui::components::download;
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::format::kind_title;
use crate::ui::pages::text::grid::TextHeadGrid;
use crate::ui::pages::text::session::TextSession;
use crate::viz::colormap::{Contrast, Scale};
use crate::viz::labels::{AxisLabel, Emphasis};
use leptos::prelude::*;
use std::sync::Arc;

/// Losses at or above this many nats get the strip's darkest shade.
const SURPRISE_MAX: f32 = 6.0;

/// A character's shade in the surprise strip: the sequential colour map (colour-blind
/// safe), with dark or light text so the character stays readable.
fn strip_style(loss: Option<f32>) -> String {
    let Some(l) = loss else { return String::new() };
    let scale = Scale { diverging: false, vmax: SURPRISE_MAX, contrast: Contrast::Linear };
    let [r, g, b] = scale.color(l.min(SURPRISE_MAX));
    let light = 0.299 * r as f32 + 0.587 * g as f32 + 0.114 * b as f32 > 140.0;
    format!("background:rgb({r},{g},{b});color:{}", if light { "#111" } else { "#fff" })
}

/// The map as the Heatmap draws it (one cell per character: at most 128, no pooling).
pub(super) fn pooled(m: &crate::engine::shared::Mat, diverging: bool) -> PooledMap {
    let vmax = m.iter().fold(0.0f32, |a, v| a.max(v.abs())).max(1e-6);
    PooledMap { r: m.nrows(), values: Arc::new(m.iter().copied().collect()), scale: Scale { diverging, vmax, contrast: Contrast::Sqrt } }
}

fn labels(run: &TextRun) -> Vec<AxisLabel> {
    let last = run.typed.chars.len().saturating_sub(1);
    (0..run.typed.chars.len()).map(|i| AxisLabel { text: run.typed.label(i), emphasis: if i == last { Emphasis::Answer } else { Emphasis::Plain } }).collect()
}

/// The caption's sentence: where the last character's row puts its weight.
fn locality_sentence(run: &TextRun, layer: usize, head: usize) -> Option<String> {
    let loc = run.locality(layer, head)?;
    let per_far = if loc.far_keys > 0 { loc.far / loc.far_keys as f32 } else { 0.0 };
    Some(tr!("text-locality", near = NEAR, near_weight = format!("{:.2}", loc.near), far = loc.far_keys, far_weight = format!("{:.2}", loc.far), per_far = format!("{per_far:.4}")))
}

fn surprise_csv(run: &TextRun) -> String {
    let mut out = String::from("position,character,loss_nats\n");
    for (i, c) in run.typed.chars.iter().enumerate() {
        let shown = show_char(*c).replace('"', "\"\"");
        out += &format!("{i},\"{shown}\",{}\n", run.loss_at(i).map(|l| format!("{l:.5}")).unwrap_or_default());
    }
    out
}

/// The characters and each one's shade. A λ step changes every loss but no character,
/// so the spans are made once per text and only their shade, title and `data-loss`
/// follow each run.
#[component]
fn SurpriseStrip(kind: AttentionKind, run: Signal<Option<Arc<TextRun>>>) -> impl IntoView {
    let chars =
        Memo::new(move |_| run.with(|r| r.as_ref().map(|r| (0..r.typed.chars.len()).map(|i| (r.typed.chars[i], r.typed.is_unknown(i), r.typed.label(i))).collect::<Vec<_>>()).unwrap_or_default()));
    let losses = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| (0..r.typed.chars.len()).map(|i| r.loss_at(i)).collect::<Vec<_>>()).unwrap_or_default()));
    let cells = move || {
        chars
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, (c, unknown, label))| {
                let loss = move || losses.with(|l| l.get(i).copied().flatten());
                let title = move || loss().map(|l| tr!("text-char-loss", ch = show_char(c), loss = format!("{l:.2}"))).unwrap_or_else(|| tr!("text-first-char"));
                // Spaces stay spaces in running text; the axis labels make them visible.
                let text = if unknown || c == '\n' { label } else { c.to_string() };
                view! { <span class="ch" class:unknown=unknown class:newline=c == '\n' style=move || strip_style(loss()) title=title data-loss=move || loss().map(|l| format!("{l:.4}"))>{text}</span> }
            })
            .collect_view()
    };
    let save = move |_| {
        if let Some(r) = run.get_untracked() {
            download::text(&surprise_csv(&r), "text/csv", &format!("difflens-text-surprise-{}.csv", kind.slug()));
        }
    };
    view! {
        <div class="surprise" id=format!("strip-{}", kind.slug()) aria-label=tr!("text-strip-label")>{cells}</div>
        <button class="small" on:click=save>{tr!("text-strip-csv")}</button>
    }
}

#[component]
pub fn TextColumn(index: usize, state: RwSignal<TextState>, session: TextSession) -> impl IntoView {
    let kind = AttentionKind::ALL[index];
    let run: Signal<Option<Arc<TextRun>>> = session.runs[index].into();
    let where_ = Memo::new(move |_| state.with(|s| (s.layer, s.head)));
    // Memos: each map is pooled once per run, however many parts of its figure read it.
    let maps = move |pick: fn(&crate::engine::shared::HeadMaps) -> Option<PooledMap>| -> Signal<Option<PooledMap>> {
        Memo::new(move |_| {
            let (layer, head) = where_.get();
            run.with(|r| r.as_ref().and_then(|r| r.maps(layer, head).and_then(pick)))
        })
        .into()
    };
    let combined = maps(|m| Some(pooled(m.combined(), m.diff.is_some())));
    let a1 = maps(|m| Some(pooled(&m.a1, false)));
    let a2 = maps(|m| m.a2.as_ref().map(|a| pooled(a, false)));
    // Memos: a λ step keeps the characters, so the axis labels are not painted again.
    let n: Signal<usize> = Memo::new(move |_| run.with(|r| r.as_ref().map_or(1, |r| r.typed.tokens.len()))).into();
    let axis: Signal<Vec<AxisLabel>> = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| labels(r)).unwrap_or_default())).into();
    let last_row: Signal<Option<usize>> = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| r.typed.tokens.len() - 1))).into();
    let no_keys = Signal::derive(Vec::new);
    let hover = RwSignal::new(None::<Hover>);
    let file = move |what: &'static str| Signal::derive(move || state.with(|s| format!("difflens-text-{}-{what}-layer{}-head{}", kind.slug(), s.layer, s.head)));
    let mean = move || run.with(|r| r.as_ref().and_then(|r| r.mean_loss()).map(|l| tr!("text-mean", nats = format!("{l:.2}"), bits = format!("{:.2}", l / std::f32::consts::LN_2))));
    let lambda = move || {
        let (layer, head) = where_.get();
        run.with(|r| r.as_ref().and_then(|r| r.lambda_at(layer, head)).map(|l| tr!("text-lambda-used", lambda = format!("{l:.3}"))))
    };
    let top = move || run.with(|r| r.as_ref().map(|r| r.top.iter().map(|(c, p)| view! { <li><code>{show_char(*c)}</code>" "{format!("{:.0}%", p * 100.0)}</li> }).collect_view()));
    let caption = move || {
        let (layer, head) = where_.get();
        run.with(|r| r.as_ref().and_then(|r| locality_sentence(r, layer, head)))
    };
    let title = if kind == AttentionKind::Baseline { "A = softmax(QKᵀ/√d)".to_string() } else { "A1 − λ·A2".to_string() };
    let differential = kind != AttentionKind::Baseline;
    let branches_open = RwSignal::new(false);
    view! {
        <article class="panel column text-column" id=format!("text-{}", kind.slug()) data-kind=kind.slug()>
            <h3>{move || if session.own_column() == Some(index) { tr!("text-own-column", kind = kind_title(kind)) } else { kind_title(kind) }}</h3>
            <p class="mean" id=format!("mean-{}", kind.slug())>{mean}</p>
            <p class="axis-note">{tr!("text-top-label")}</p>
            <ol class="top5" id=format!("top-{}", kind.slug())>{top}</ol>
            <SurpriseStrip kind run />
            <Heatmap id=format!("text-map-{}", kind.slug()) title explain=tr!("text-map-explain") map=combined n signal_keys=no_keys hover marked_row=last_row marked_note="text-map-queries-marked" labels=axis file=file("map") />
            <p class="axis-note" id=format!("lambda-{}", kind.slug())>{lambda}</p>
            <p class="caption" id=format!("caption-{}", kind.slug())>{caption}</p>
            <TextHeadGrid kind state run />
            {differential.then(|| view! {
                // Drawn only while open: two more maps per column on every keystroke otherwise.
                <details class="branches" on:toggle=move |ev| branches_open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"))>
                    <summary>{tr!("text-branches")}</summary>
                    <Show when=move || branches_open.get()>
                        <Heatmap id=format!("text-a1-{}", kind.slug()) title="A1" map=a1 n signal_keys=no_keys hover marked_row=last_row marked_note="text-map-queries-marked" labels=axis file=file("A1") />
                        <Heatmap id=format!("text-a2-{}", kind.slug()) title="A2" map=a2 n signal_keys=no_keys hover marked_row=last_row marked_note="text-map-queries-marked" labels=axis file=file("A2") />
                    </Show>
                </details>
            })}
            <p class="axis-note where" id=format!("where-{}", kind.slug())>{move || session.computed_on[index].with(|c| c.as_ref().map(|p| p.sentence()))}</p>
            <p class="written" id=format!("written-{}", kind.slug())>{move || session.written[index].get()}</p>
        </article>
    }
}
