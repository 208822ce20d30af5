//! The explorer's single view: one shipped model on a fresh multi-needle prompt, at any
//! checkpoint of its training, with every layer's and head's maps, one row of them over
//! the prompt, and the check of its WebGPU forward pass.

use crate::engine::explorer::columns::plan_columns;
use crate::engine::model::library::{compare_on_gpu, GpuComparison, ModelKey};
use crate::engine::model::{render, word, ColumnRun, Explained, LambdaTrace, RowSummary};
use crate::engine::placement::Placement;
use crate::state::model_state::{AttentionKind, ModelState};
use crate::tr;
use crate::ui::backend::{self, Backend};
use crate::ui::components::chart::{Chart, ChartSpec, Series, ORANGE};
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::notice::StateNotes;
use crate::ui::components::status_line::{Status, StatusLine};
use crate::ui::format::{cell_text, kind_title};
use crate::ui::model_files::Library;
use crate::ui::now_ms;
use crate::ui::pages::explorer::kept::Kept;
use crate::ui::pages::explorer::layer_view::LayerView;
use crate::ui::pages::explorer::own_model::OwnModelPanel;
use crate::ui::pages::explorer::prompt_editor::{EditablePrompt, PromptEditor};
use crate::ui::pages::explorer::ModelControls;
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::sync::Arc;

/// Fetches the card and the checkpoint (each once) when the model or checkpoint changes;
/// `loaded` names the one ready for the prompt.
fn load_models(which: Memo<ModelKey>, library: Library, status: RwSignal<Status>, loaded: RwSignal<Option<ModelKey>>, attempt: RwSignal<u32>) {
    Effect::new(move |_| {
        let (kind, ckpt) = which.get();
        attempt.track();
        if library.model(&(kind.clone(), ckpt)).is_some() {
            loaded.set(Some((kind, ckpt)));
            status.set(Status::Ready);
            return;
        }
        let title = AttentionKind::from_slug(&kind).map_or_else(|| tr!("loading-model"), kind_title);
        status.set(Status::Loading(tr!("loading-checkpoint", model = title, k = ckpt)));
        leptos::task::spawn_local(async move {
            let result = library.load(kind.clone(), ckpt).await;
            if which.try_get_untracked() != Some((kind.clone(), ckpt)) {
                return;
            }
            match result {
                Ok(_) => {
                    loaded.try_set(Some((kind, ckpt)));
                    status.try_set(Status::Ready);
                }
                Err(e) => {
                    status.try_set(Status::Failed(e.to_string()));
                }
            }
        });
    });
}

/// Runs the state's prompt through the loaded model whenever either changes (where the
/// placement says; on WebGPU asynchronously, an answer for an older state dropped), and
/// keeps layer, head and row inside what the model and prompt have.
fn explain_prompts(
    state: RwSignal<ModelState>,
    notes: StateNotes<ModelState>,
    library: Library,
    status: RwSignal<Status>,
    loaded: RwSignal<Option<ModelKey>>,
    backend: RwSignal<Backend>,
) -> (Signal<Option<Arc<Explained>>>, RwSignal<Option<Placement>>) {
    // Run the prompt through the loaded model whenever either changes. `prompt_key` is
    // read, not only tracked: a memo computes (and subscribes to the state) only when read.
    let explained = StoredValue::new_local(None::<Arc<Explained>>);
    let computed_on = RwSignal::new(None::<Placement>);
    let version = RwSignal::new(0u64);
    let prompt_key = Memo::new(move |_| state.with(ModelState::run_key));
    let adapter = Memo::new(move |_| backend.with(backend::adapter));
    let latest = StoredValue::new(0u64);
    let show = move |run: Result<ColumnRun, String>, s: ModelState| match run {
        Ok(run) => {
            let x = &run.explained;
            let heads = x.output.layers.first().map(|l| l.maps.len()).unwrap_or(1);
            let mut clamped = s.clone();
            let moved = clamped.clamp_to_model(x.output.layers.len(), heads, x.prompt.tokens.len());
            explained.set_value(Some(run.explained.clone()));
            computed_on.set(Some(run.computed_on));
            version.update(|v| *v += 1);
            if !moved.is_empty() {
                // The link's notes stay with the state they led to.
                notes.set(clamped.clone(), [notes.lines_for(&s), moved].concat());
                state.set(clamped);
            }
        }
        Err(e) => status.set(Status::RunFailed(e)),
    };
    Effect::new(move |_| {
        let (Some(key), _, adapter) = (loaded.get(), prompt_key.get(), adapter.get()) else { return };
        let Some(model) = library.model(&key) else { return };
        let s = state.get_untracked();
        let place = backend::placement(&adapter, &s);
        let (prompt, mut jobs) = plan_columns(&[&model], &s, &[], &[place]);
        let Some(job) = jobs.pop() else { return };
        latest.update_value(|v| *v += 1);
        let ticket = latest.get_value();
        if !job.needs_gpu() {
            return show(job.run_on_cpu(&model, &prompt, None), s);
        }
        let ctx = backend::gpu();
        let gpu = ctx.as_ref().and_then(|ctx| library.gpu_model(&key, ctx));
        leptos::task::spawn_local(async move {
            let run = job.run(&model, &prompt, ctx.as_deref().zip(gpu.as_deref())).await;
            if latest.try_get_value() == Some(ticket) {
                show(run, s);
            }
        });
    });
    (
        Signal::derive(move || {
            version.track();
            explained.get_value()
        }),
        computed_on,
    )
}

#[component]
pub fn SingleView(state: RwSignal<ModelState>, notes: StateNotes<ModelState>, library: Library) -> impl IntoView {
    let backend = crate::ui::backend::from_context();
    let status = RwSignal::new(Status::Loading(tr!("loading-model")));
    let loaded = RwSignal::new(None::<ModelKey>);
    let own = Kept::get().own;
    // The reader's model while one is loaded, else the state's shipped model.
    let which = Memo::new(move |_| own.with(|o| o.as_ref().map(|o| (o.key.clone(), 0))).unwrap_or_else(|| state.with(|s| (s.kind.slug().to_string(), s.checkpoint))));
    // The card names its checkpoints; until it has arrived, say which one of five.
    let checkpoint_label = Signal::derive(move || {
        let (kind, i) = which.get();
        loaded.track();
        library.checkpoint_label(&kind, i).unwrap_or_else(|| tr!("checkpoint-of-five", k = i + 1))
    });
    let attempt = RwSignal::new(0u32);
    load_models(which, library, status, loaded, attempt);
    let (current, computed_on) = explain_prompts(state, notes, library, status, loaded, backend);
    let view_state = ExplainedView { state, current };
    let hover = RwSignal::new(None::<Hover>);
    view! {
        <ModelControls state checkpoint_label shape=view_state.shape() single=true own />
        <OwnModelPanel library own />
        <LayerView />
        <StatusLine status attempt />
        <PromptView state current />
        <p class="axis-note where" id="where-single">{move || computed_on.get().map(|p| p.sentence())}</p>
        <PromptEditor state shown=Signal::derive(move || current.get().map(|x| render(&x.prompt.tokens))) />
        <HeadMaps view_state hover />
        <RowPanel view_state />
        <details class="dev" id="model-dev">
            <summary>{tr!("lab-dev-summary")}</summary>
            <p class="explain">{tr!("single-dev-explain", logits = format!("{:.0e}", GpuComparison::LOGITS_TOLERANCE), maps = format!("{:.0e}", GpuComparison::MAP_TOLERANCE))}</p>
            <GpuCheck state loaded library current />
        </details>
    }
}

/// What the maps and charts below the controls read: the state and the prompt's run.
#[derive(Clone, Copy)]
struct ExplainedView {
    state: RwSignal<ModelState>,
    current: Signal<Option<Arc<Explained>>>,
}

impl ExplainedView {
    /// Layers and heads of the model on screen (three layers of four heads until one is).
    fn shape(self) -> Memo<(usize, usize)> {
        let current = self.current;
        Memo::new(move |_| current.with(|x| x.as_ref().map(|x| (x.output.layers.len(), x.output.layers.first().map_or(1, |l| l.maps.len())))).unwrap_or((3, 4)))
    }

    /// The row the chart shows: the picked one, else the first query's "→".
    fn focus_row(self) -> Option<usize> {
        let x = self.current.get()?;
        Some(self.state.with(|s| s.row).filter(|r| *r < x.prompt.tokens.len()).unwrap_or(x.prompt.answer_positions[0]))
    }
}

#[component]
fn HeadMaps(view_state: ExplainedView, hover: RwSignal<Option<Hover>>) -> impl IntoView {
    let ExplainedView { state, current } = view_state;
    let head_maps = Memo::new(move |_| {
        let (l, h) = state.with(|s| (s.layer, s.head));
        let x = current.get()?;
        let m = x.output.layers.get(l)?.maps.get(h)?;
        let t = m.a1.nrows();
        let vmax = m.a1.iter().chain(m.a2.iter().flat_map(|a| a.iter())).fold(0.0f32, |a, b| a.max(*b));
        let seq = Scale { diverging: false, vmax, contrast: Contrast::Sqrt };
        let pooled = |v: &ndarray::Array2<f32>, scale| PooledMap { r: t, values: Arc::new(v.iter().copied().collect()), scale };
        Some((pooled(&m.a1, seq), m.a2.as_ref().map(|a| pooled(a, seq)), m.diff.as_ref().map(|d| pooled(d, Scale { diverging: true, vmax, contrast: Contrast::Sqrt }))))
    });
    let n_tokens = Memo::new(move |_| current.with(|x| x.as_ref().map(|x| x.prompt.tokens.len()).unwrap_or(1)));
    let answer_span = Memo::new(move |_| current.with(|x| x.as_ref().map(|x| x.prompt.answer_spans[0].clone().collect::<Vec<_>>()).unwrap_or_default()));
    // Read off the run on screen (a reader's own model may be of any kind).
    let is_diff = move || current.with(|x| x.as_ref().and_then(|x| x.output.layers.first()?.maps.first().map(|m| m.a2.is_some())).unwrap_or(false));
    let marked = Signal::derive(move || current.get().map(|x| x.answer_row()));
    let ticks = Signal::derive(move || current.get().map(|x| x.needle_words()).unwrap_or_default());
    let pick = Callback::new(move |i: usize| state.update(|s| s.row = Some(i)));
    let labels = Memo::new(move |_| current.with(|x| x.as_ref().map(|x| x.axis_labels()).unwrap_or_default()));
    let tooltip = move || {
        let h = hover.get()?;
        let x = current.get()?;
        let (l, hd) = state.with(|s| (s.layer, s.head));
        let text = cell_text(&x, l, hd, h)?;
        Some(view! { <div class="tooltip" id="model-tooltip" style=h.tooltip_style()>{text}</div> })
    };
    view! {
        <div class="maps">
            <Heatmap id="model-a1" title="A1" explain=tr!("single-a1-explain")
                map=Signal::derive(move || head_maps.get().map(|m| m.0)) n=n_tokens signal_keys=answer_span hover on_pick=pick marked_row=marked ticks_mark=ticks labels />
            <Show when=is_diff>
                <Heatmap id="model-a2" title="A2" explain=tr!("single-a2-explain")
                    map=Signal::derive(move || head_maps.get().and_then(|m| m.1)) n=n_tokens signal_keys=answer_span hover on_pick=pick marked_row=marked ticks_mark=ticks labels />
                <Heatmap id="model-diff" title="A1 − λ·A2" explain=tr!("single-diff-explain")
                    map=Signal::derive(move || head_maps.get().and_then(|m| m.2)) n=n_tokens signal_keys=answer_span hover on_pick=pick marked_row=marked ticks_mark=ticks labels announce=true />
            </Show>
        </div>
        {tooltip}
    }
}

/// One row of the selected head's map over the prompt: the "→" row unless a row was
/// picked on a map; the caption states what that row does, in numbers.
#[component]
fn RowPanel(view_state: ExplainedView) -> impl IntoView {
    let ExplainedView { state, current } = view_state;
    let summary = Memo::new(move |_| {
        let i = view_state.focus_row()?;
        let x = current.get()?;
        let (l, hd) = state.with(|s| (s.layer, s.head));
        let m = x.output.layers.get(l)?.maps.get(hd)?;
        let row = m.combined().row(i).to_vec();
        let summary = RowSummary::of(i, &row, &x.prompt.answer_spans[0], &x.prompt.context);
        Some((summary, row, word(x.prompt.tokens[i]), x.prompt.answer_spans[0].clone(), m.diff.is_some(), (l, hd)))
    });
    let spec = Signal::derive(move || {
        let (s, row, token, span, diff, (l, hd)) = summary.get()?;
        Some(ChartSpec {
            title: tr!("single-row-title", row = s.position, token = token, layer = l, head = hd),
            x_label: tr!("single-key-position"),
            y_label: tr!("lab-weight"),
            series: vec![Series {
                dashed: false,
                name: if diff { "A1 − λ·A2".into() } else { "A".into() },
                color: ORANGE,
                points: row.iter().enumerate().map(|(j, w)| (j as f64, *w as f64)).collect(),
            }],
            dots: span.map(|j| (j as f64, row[j] as f64)).collect(),
            ..Default::default()
        })
    });
    let picked = move || state.with(|s| s.row.is_some());
    view! {
        <figure class="panel" id="row-panel">
            <Chart id="chart-answer-row" label=tr!("single-row-label") spec />
            <figcaption class="explain" id="row-caption">{move || summary.get().map(|(s, _, token, _, diff, _)| {
                let which = if picked() { tr!("single-row-picked", row = s.position, token = token) } else { tr!("single-row-answer", row = s.position) };
                format!("{which}{}{}{}{}", tr!("sentence-gap"), tr!("single-row-dots"), tr!("sentence-gap"), s.caption(diff))
            })}</figcaption>
            <Show when=picked>
                <button id="row-reset" on:click=move |_| state.update(|s| s.row = None)>{tr!("single-row-reset")}</button>
            </Show>
        </figure>
    }
}

/// "Run on WebGPU": the same prompt through the GPU forward pass, compared with the CPU
/// core's (`GpuComparison`: its tolerances); `data-score` is the larger error in units
/// of its tolerance (≤ 1 passes).
#[component]
fn GpuCheck(state: RwSignal<ModelState>, loaded: RwSignal<Option<(String, usize)>>, library: Library, current: Signal<Option<Arc<Explained>>>) -> impl IntoView {
    let backend = crate::ui::backend::from_context();
    let result = RwSignal::new(None::<GpuComparison>);
    let run = move |_| {
        let (Some(ctx), Some(key)) = (backend::gpu(), loaded.get_untracked()) else { return };
        let (Some(model), Some(x)) = (library.model(&key), current.get_untracked()) else { return };
        let (layer, head) = state.with_untracked(|s| (s.layer, s.head));
        result.set(Some(GpuComparison { score: f32::NAN, sentence: tr!("single-running-gpu") }));
        leptos::task::spawn_local(async move {
            let outcome = compare_on_gpu(&ctx, &model, &x, layer, head, now_ms).await;
            result.try_set(Some(outcome));
        });
    };
    view! {
        <Show when=move || backend.with(|b| matches!(b, Backend::WebGpu { .. })) fallback=|| view! { <p class="axis-note">{tr!("single-no-gpu")}</p> }>
            <div class="buttons">
                <button id="model-gpu-check" on:click=run>{tr!("single-gpu-check")}</button>
                <span class="axis-note" id="model-gpu-result" data-score=move || result.get().map(|r| r.score.to_string()).unwrap_or_default()>{move || result.get().map(|r| r.sentence).unwrap_or_default()}</span>
            </div>
        </Show>
    }
}

#[component]
fn PromptView(state: RwSignal<ModelState>, current: Signal<Option<Arc<Explained>>>) -> impl IntoView {
    let predictions = move || {
        let x = current.get()?;
        let layer = state.with(|s| s.layer);
        let lambda = match x.output.layers.get(layer).map(|l| &l.lambda) {
            Some(LambdaTrace::Scalar(l)) => tr!("single-lambda", layer = layer, lambda = format!("{l:.3}")),
            Some(LambdaTrace::PerToken(m)) => {
                tr!("single-lambda-per-token", layer = layer, values = m.row(x.prompt.answer_positions[0]).iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(", "))
            }
            _ => tr!("single-no-lambda"),
        };
        let rows = x.predictions.iter().enumerate().map(|(k, p)| {
            let verdict = if p.right() { "right" } else { "wrong" };
            view! { <li class=verdict data-right=p.right().to_string()>{tr!(if p.right() { "single-prediction-right" } else { "single-prediction-wrong" }, k = k + 1, predicted = word(p.predicted), percent = format!("{:.0}", 100.0 * p.probability), answer = word(p.answer), answer_percent = format!("{:.0}", 100.0 * p.answer_probability))}</li> }
        }).collect_view();
        Some(view! { <ul id="predictions">{rows}</ul><p class="axis-note" id="lambda-note">{lambda}</p> })
    };
    view! {
        <EditablePrompt state id="prompt" prompt=Signal::derive(move || current.with(|x| x.as_ref().map(|x| x.prompt.clone()))) />
        {predictions}
    }
}
