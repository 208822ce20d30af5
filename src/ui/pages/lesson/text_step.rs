//! The lesson's last figure: the three Shakespeare models on the text page's opening line
//! (from *Macbeth*, a play they never saw), each with its last layer's first head over
//! the characters, and a sentence computed from all the last layer's heads: how much of
//! the last character's weight stays on characters far back.

use crate::engine::model::library::ModelLibrary;
use crate::engine::shared::AttentionKind;
use crate::engine::text::run::{TextRun, NEAR};
use crate::engine::text::session::load;
use crate::engine::text::FOLDER;
use crate::state::text_state::{TextState, DEFAULT_TEXT};
use crate::tr;
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::status_line::{Status, StatusLine};
use crate::ui::format::kind_title;
use crate::ui::model_files::fetch_bytes;
use crate::ui::yield_to_browser;
use crate::viz::colormap::{Contrast, Scale};
use crate::viz::labels::{AxisLabel, Emphasis};
use leptos::prelude::*;
use std::sync::Arc;

/// Loads the three models at the text page's default checkpoint and runs the line, one
/// model per browser task.
fn lesson_text_runs(status: RwSignal<Status>, attempt: RwSignal<u32>, runs: RwSignal<Option<Vec<Arc<TextRun>>>>) {
    Effect::new(move |_| {
        attempt.track();
        status.set(Status::Loading(tr!("text-models-loading")));
        leptos::task::spawn_local(async move {
            let library = ModelLibrary::in_folder(FOLDER);
            let models = match load(&library, TextState::default().checkpoint, |path: String| async move { fetch_bytes(&path).await }).await {
                Ok(m) => m,
                Err(e) => {
                    status.try_set(Status::Failed(e));
                    return;
                }
            };
            let mut made = vec![];
            for i in 0..models.models.len() {
                yield_to_browser().await;
                match models.run(i, DEFAULT_TEXT) {
                    Ok(run) => made.push(Arc::new(run)),
                    Err(e) => {
                        status.try_set(Status::RunFailed(e));
                        return;
                    }
                }
            }
            runs.try_set(Some(made));
            status.try_set(Status::Ready);
        });
    });
}

/// The sentence under the figure, from the runs (in `AttentionKind::ALL` order).
fn facts(runs: &[Arc<TextRun>]) -> Option<String> {
    let far = |r: &TextRun| r.mean_far(r.layers().checked_sub(1)?).map(|f| format!("{f:.2}"));
    let loss = |r: &TextRun| r.mean_loss().map(|l| format!("{l:.2}"));
    let [b, v1, v2] = runs else { return None };
    Some(tr!("lesson-text-facts", near = NEAR, base = far(b)?, v1 = far(v1)?, v2 = far(v2)?, base_loss = loss(b)?, v1_loss = loss(v1)?, v2_loss = loss(v2)?))
}

#[component]
pub fn TextFigure() -> impl IntoView {
    let (status, attempt) = (RwSignal::new(Status::Loading(tr!("text-models-loading"))), RwSignal::new(0u32));
    let runs = RwSignal::new(None::<Vec<Arc<TextRun>>>);
    lesson_text_runs(status, attempt, runs);
    let column = move |col: usize| {
        let kind = AttentionKind::ALL[col];
        let run = move || runs.with(|r| r.as_ref().map(|r| r[col].clone()));
        let map = Signal::derive(move || {
            let x = run()?;
            let m = x.maps(x.layers() - 1, 0)?.combined();
            let vmax = m.iter().fold(0.0f32, |a, v| a.max(v.abs())).max(1e-6);
            Some(PooledMap { r: m.nrows(), values: Arc::new(m.iter().copied().collect()), scale: Scale { diverging: kind != AttentionKind::Baseline, vmax, contrast: Contrast::Sqrt } })
        });
        let n = Signal::derive(move || run().map_or(1, |x| x.typed.tokens.len()));
        let last = Signal::derive(move || run().map(|x| x.typed.tokens.len() - 1));
        let labels = Signal::derive(move || {
            run()
                .map(|x| (0..x.typed.chars.len()).map(|i| AxisLabel { text: x.typed.label(i), emphasis: if i + 1 == x.typed.chars.len() { Emphasis::Answer } else { Emphasis::Plain } }).collect())
                .unwrap_or_default()
        });
        let title = if kind == AttentionKind::Baseline { tr!("map-softmax") } else { "A1 − λ·A2".to_string() };
        let mean = move || run().and_then(|x| x.mean_loss()).map(|l| tr!("text-mean", nats = format!("{l:.2}"), bits = format!("{:.2}", l / std::f32::consts::LN_2)));
        view! {
            <article class="panel column" id=format!("lesson-{}", kind.slug())>
                <h3>{kind_title(kind)}</h3>
                <p class="mean">{mean}</p>
                <Heatmap id=format!("fig-text-{}", kind.slug()) title map n signal_keys=Signal::derive(Vec::new) hover=RwSignal::new(None::<Hover>) marked_row=last marked_note="text-map-queries-marked" labels />
                <p class="axis-note">{move || run().map(|x| tr!("lesson-text-head", layer = x.layers()))}</p>
            </article>
        }
    };
    view! {
        <figure class="lesson-figure panel" id="lesson-figure" data-figure="text">
            <StatusLine status attempt ready=tr!("lesson-computed") />
            <p class="prompt-text" id="lesson-prompt"><q>{DEFAULT_TEXT}</q></p>
            <div class="compare">{(0..3).map(column).collect_view()}</div>
            <figcaption class="facts" id="figure-facts">{move || runs.with(|r| r.as_deref().and_then(facts))}</figcaption>
        </figure>
    }
}
