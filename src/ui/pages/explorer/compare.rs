//! The explorer's compare view: one prompt through the three shipped models, a column
//! each (its predictions, the chosen layer's maps of its chosen head on one colour scale
//! shared by the columns, and a grid of every head to pick another), then the paper's
//! evidence for this prompt and over fresh prompts (`evidence`).

use crate::engine::explorer::columns::{plan_columns, ColumnJob};
use crate::engine::model::{lambda_sentence, learnt_lambdas, render, word, ColumnRun, Explained, Model};
use crate::state::model_state::{column_of, AttentionKind, ModelState};
use crate::tr;
use crate::ui::backend::{self, Backend};
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::notice::StateNotes;
use crate::ui::components::status_line::{Status, StatusLine};
use crate::ui::components::thumbnail::Thumbnail;
use crate::ui::format::{cell_text, kind_title, signed};
use crate::ui::model_files::Library;
use crate::ui::pages::explorer::columns_in_workers::outputs_from_workers;
use crate::ui::pages::explorer::evidence::Evidence;
use crate::ui::pages::explorer::lambda_panel::LambdaPanel;
use crate::ui::pages::explorer::prompt_editor::{EditablePrompt, PromptEditor};
use crate::ui::pages::explorer::ModelControls;
use crate::ui::{after_paint, now_ms, yield_to_browser};
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

/// The three models' runs of one prompt, in `AttentionKind::ALL` order, what each was
/// run with (so an unchanged model is not run again), each one's learnt λ (where the λ
/// sliders start), and how long the last update's forward passes took.
#[derive(Clone)]
pub(super) struct Columns {
    pub runs: Vec<Arc<Explained>>,
    cache: Vec<ColumnRun>,
    /// The checkpoint the runs are of (a new one reruns everything).
    checkpoint: usize,
    pub learnt: Vec<Vec<Option<f32>>>,
    /// How many models the last update ran, where, and in how long.
    pub reran: usize,
    pub reran_on: String,
    pub ms: f64,
    /// Counts the updates (the timing line's `data-version`, which benchmarks wait on).
    pub version: u64,
}

/// One column's run, compared by identity: a column repaints only when its own model ran.
#[derive(Clone)]
pub(super) struct RunRef(pub Arc<Explained>);

impl PartialEq for RunRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Loads checkpoint `ckpt` of every model (each file once per visit); the returned
/// signal names the checkpoint once all three are in.
fn load_all(ckpt: Memo<usize>, library: Library, status: RwSignal<Status>, attempt: RwSignal<u32>) -> RwSignal<Option<usize>> {
    let ready = RwSignal::new(None::<usize>);
    let have = move |c: usize| AttentionKind::ALL.iter().all(|k| library.model(&(k.slug().to_string(), c)).is_some());
    Effect::new(move |_| {
        let c = ckpt.get();
        attempt.track();
        // The columns are run next; they say "Computed" once they are.
        if have(c) {
            ready.set(Some(c));
            status.set(Status::Computing);
            return;
        }
        status.set(Status::Loading(tr!("loading-checkpoint-three", k = c + 1)));
        leptos::task::spawn_local(async move {
            for kind in AttentionKind::ALL {
                let result = library.load(kind.slug().to_string(), c).await;
                if ckpt.try_get_untracked() != Some(c) {
                    return;
                }
                if let Err(e) = result {
                    status.try_set(Status::Failed(e.to_string()));
                    return;
                }
            }
            ready.try_set(Some(c));
            status.try_set(Status::Computing);
        });
    });
    ready
}

/// Runs the state's prompt through the three models whenever the prompt, the logit
/// precision, the checkpoint or the placement changes (on WebGPU asynchronously: an
/// answer for an older state is dropped); keeps the layer and the head picks inside the
/// models (the single view's own head is checked when that view opens).
fn compare_prompts(
    state: RwSignal<ModelState>,
    notes: StateNotes<ModelState>,
    library: Library,
    ready: RwSignal<Option<usize>>,
    status: RwSignal<Status>,
    backend: RwSignal<Backend>,
) -> RwSignal<Option<Columns>> {
    let columns = RwSignal::new(None::<Columns>);
    let key = Memo::new(move |_| state.with(ModelState::run_key));
    let adapter = Memo::new(move |_| backend.with(backend::adapter));
    let latest = StoredValue::new(0u64);
    let finish = Finish { state, notes, status, columns };
    Effect::new(move |_| {
        let (Some(c), _, adapter) = (ready.get(), key.get(), adapter.get()) else { return };
        let Some(models) = AttentionKind::ALL.iter().map(|k| library.model(&(k.slug().to_string(), c))).collect::<Option<Vec<_>>>() else { return };
        let s = state.get_untracked();
        let place = backend::placement(&adapter, &s);
        // A new checkpoint's models share nothing with the previous runs.
        let previous = columns.with_untracked(|prev| prev.as_ref().filter(|p| p.checkpoint == c).map(|p| p.cache.clone())).unwrap_or_default();
        let refs: Vec<&Model> = models.iter().map(|m| m.as_ref()).collect();
        let (prompt, jobs) = plan_columns(&refs, &s, &previous, &[place.clone(), place.clone(), place]);
        let t0 = now_ms();
        latest.update_value(|v| *v += 1);
        let ticket = latest.get_value();
        // One model to run on the CPU core (a λ drag moves one): at once, so the step is
        // painted in the frame that delivered it. Several (a new prompt): in background
        // workers, side by side, when they are listening; else here, one per task, so no
        // task holds the page for all three forwards. On WebGPU each is awaited anyway.
        if !jobs.iter().any(ColumnJob::needs_gpu) && jobs.iter().filter(|j| !j.is_kept()).count() <= 1 {
            let cache = jobs.into_iter().zip(&refs).map(|(job, m)| job.run_on_cpu(m, &prompt, None)).collect();
            finish.apply(cache, &models, &previous, s, c, t0);
            return;
        }
        let ctx = backend::gpu();
        // A model is uploaded to the GPU only for a pass placed there: on a software
        // adapter the upload and its pipelines hold both cores for seconds.
        let gpus: Vec<_> = AttentionKind::ALL.iter().zip(&jobs).map(|(k, job)| ctx.as_ref().filter(|_| job.needs_gpu()).and_then(|ctx| library.gpu_model(&(k.slug().to_string(), c), ctx))).collect();
        leptos::task::spawn_local(async move {
            let alive = move || latest.try_get_value() == Some(ticket);
            let pooled = outputs_from_workers(&jobs, &s, c, alive).await;
            let mut cache = Vec::with_capacity(jobs.len());
            let mut computed = false;
            for (((job, m), g), pooled) in jobs.into_iter().zip(&models).zip(&gpus).zip(pooled) {
                if computed && !job.is_kept() {
                    yield_to_browser().await;
                }
                if !alive() {
                    return;
                }
                computed |= !job.is_kept();
                cache.push(match pooled {
                    Some(output) => Ok(job.with_output(&prompt, output)),
                    None => job.run(m, &prompt, ctx.as_deref().zip(g.as_deref())).await,
                });
            }
            if alive() {
                finish.apply(cache.into_iter().collect(), &models, &previous, s, c, t0);
            }
        });
    });
    columns
}

/// What a finished update writes: the columns, the clamped state and its notes.
#[derive(Clone, Copy)]
struct Finish {
    state: RwSignal<ModelState>,
    notes: StateNotes<ModelState>,
    status: RwSignal<Status>,
    columns: RwSignal<Option<Columns>>,
}

impl Finish {
    fn apply(self, cache: Result<Vec<ColumnRun>, String>, models: &[Rc<Model>], previous: &[ColumnRun], s: ModelState, c: usize, t0: f64) {
        let cache = match cache {
            Ok(cache) => cache,
            Err(e) => return self.status.set(Status::RunFailed(e)),
        };
        if !matches!(self.status.get_untracked(), Status::Ready) {
            self.status.set(Status::Ready);
        }
        let runs: Vec<Arc<Explained>> = cache.iter().map(|r| r.explained.clone()).collect();
        let layers = runs.iter().map(|x| x.output.layers.len()).min().unwrap_or(1);
        let mut clamped = s.clone();
        let mut moved = clamped.clamp_to_model(layers, usize::MAX, runs[0].prompt.tokens.len());
        for (kind, x) in AttentionKind::ALL.into_iter().zip(runs.iter()) {
            moved.extend(clamped.clamp_pick(kind, x.output.layers.first().map_or(1, |l| l.maps.len())));
        }
        let learnt = models.iter().map(|m| learnt_lambdas(m)).collect();
        let fresh: Vec<&ColumnRun> = cache.iter().enumerate().filter(|(i, r)| previous.get(*i).is_none_or(|p| !Arc::ptr_eq(&p.explained, &r.explained))).map(|(_, r)| r).collect();
        let mut places: Vec<String> = fresh.iter().map(|r| r.short()).collect();
        places.sort_unstable();
        places.dedup();
        let (mut reran, mut reran_on, mut ms) = (fresh.len(), places.join(&tr!("and")), now_ms() - t0);
        // Every run kept (only a column's reason for the CPU core changed): the timing line
        // still describes the last passes made.
        if reran == 0 {
            if let Some(last) = self.columns.with_untracked(|c| c.as_ref().map(|c| (c.reran, c.reran_on.clone(), c.ms))) {
                (reran, reran_on, ms) = last;
            }
        }
        let version = self.columns.with_untracked(|c| c.as_ref().map_or(0, |c| c.version + 1));
        self.columns.set(Some(Columns { runs, reran, reran_on, cache, checkpoint: c, learnt, ms, version }));
        if !moved.is_empty() {
            self.notes.set(clamped.clone(), [self.notes.lines_for(&s), moved].concat());
            self.state.set(clamped);
        }
    }
}

/// The (layer, head) on screen in each column: the picked head, else the one with the
/// most net weight on the asked needle.
fn shown_heads(state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>) -> Memo<Option<[(usize, usize, bool); 3]>> {
    Memo::new(move |_| {
        let c = columns.get()?;
        let s = state.get();
        Some(AttentionKind::ALL.map(|kind| {
            let best = c.runs[column_of(kind)].net.best_head(s.layer);
            let head = s.head_for(kind, best);
            (s.layer, head, s.picks[column_of(kind)].is_none())
        }))
    })
}

#[component]
pub fn CompareView(state: RwSignal<ModelState>, notes: StateNotes<ModelState>, library: Library) -> impl IntoView {
    let backend = crate::ui::backend::from_context();
    let status = RwSignal::new(Status::Loading(tr!("loading-models")));
    let ckpt = Memo::new(move |_| state.with(|s| s.checkpoint));
    let attempt = RwSignal::new(0u32);
    let ready = load_all(ckpt, library, status, attempt);
    let columns = compare_prompts(state, notes, library, ready, status, backend);
    super::spoken::speak(state, columns);
    let shown = shown_heads(state, columns);
    // One colour scale for every column: the largest A1 or A2 value among the heads shown.
    let vmax = Memo::new(move |_| {
        let (c, heads) = (columns.get()?, shown.get()?);
        let maps = c.runs.iter().zip(heads).filter_map(|(x, (l, h, _))| x.output.layers.get(l)?.maps.get(h));
        Some(maps.flat_map(|m| m.a1.iter().chain(m.a2.iter().flatten())).fold(0.0f32, |a, b| a.max(*b)))
    });
    let shape = Memo::new(move |_| columns.with(|c| c.as_ref().map(|c| (c.runs[0].output.layers.len(), 1))).unwrap_or((3, 1)));
    // A memo: a λ step reruns one model on the same prompt, and the prompt's word
    // buttons are not rebuilt for it.
    let prompt = Memo::new(move |_| columns.with(|c| c.as_ref().map(|c| c.runs[0].prompt.clone())));
    let checkpoint_label = Signal::derive(move || {
        let i = ckpt.get();
        ready.track();
        let labels: Vec<_> = AttentionKind::ALL.iter().map(|k| library.checkpoint_label(k.slug(), i)).collect();
        match &labels[..] {
            [Some(a), rest @ ..] if rest.iter().all(|l| l.as_ref() == Some(a)) => a.clone(),
            _ => tr!("checkpoint-of-five", k = i + 1),
        }
    });
    view! {
        <ModelControls state checkpoint_label shape single=false />
        <StatusLine status attempt />
        <EditablePrompt state id="prompt" prompt=prompt />
        <PromptEditor state shown=Signal::derive(move || prompt.with(|p| p.as_ref().map(|p| render(&p.tokens)))) />
        <p class="explain">{tr!("compare-explain")}</p>
        <div class="compare" id="compare">
            {AttentionKind::ALL.map(|kind| view! { <Column kind state columns shown vmax /> }).into_iter().collect_view()}
        </div>
        <Evidence state columns library ready />
        <p class="axis-note" id="compare-timing" data-version=move || columns.with(|c| c.as_ref().map_or(0, |c| c.version))>{move || columns.get().map(|c| match c.reran {
            0 => tr!("compare-nothing-ran"),
            n => tr!("compare-timing", n = n, ms = format!("{:.0}", c.ms), on = c.reran_on.clone()),
        })}</p>
    }
}

/// One model's column.
#[component]
fn Column(kind: AttentionKind, state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>, shown: Memo<Option<[(usize, usize, bool); 3]>>, vmax: Memo<Option<f32>>) -> impl IntoView {
    let col = column_of(kind);
    let slug = kind.slug();
    let mine = Memo::new(move |_| columns.with(|c| c.as_ref().map(|c| RunRef(c.runs[col].clone()))));
    let run = move || mine.get().map(|r| r.0);
    let here = Memo::new(move |_| shown.get().map(|s| s[col]));
    let maps = Memo::new(move |_| {
        let ((l, h, _), vmax, x) = (here.get()?, vmax.get()?, run()?);
        let m = x.output.layers.get(l)?.maps.get(h)?;
        let t = m.a1.nrows();
        let pooled = |v: &ndarray::Array2<f32>, diverging| PooledMap { r: t, values: Arc::new(v.iter().copied().collect()), scale: Scale { diverging, vmax, contrast: Contrast::Sqrt } };
        // Every column's large map on one diverging scale (the baseline's never goes below 0).
        Some((pooled(m.combined(), true), m.a2.as_ref().map(|a2| (pooled(&m.a1, false), pooled(a2, false)))))
    });
    let n = Memo::new(move |_| run().map_or(1, |x| x.prompt.tokens.len()));
    let span = Memo::new(move |_| run().map(|x| x.prompt.answer_spans[0].clone().collect::<Vec<_>>()).unwrap_or_default());
    let marked = Memo::new(move |_| run().map(|x| x.answer_row()));
    let ticks = Memo::new(move |_| run().map(|x| x.needle_words()).unwrap_or_default());
    let labels = Memo::new(move |_| run().map(|x| x.axis_labels()).unwrap_or_default());
    let hover = RwSignal::new(None::<Hover>);
    let tooltip = move || {
        let (h, (l, hd, _), x) = (hover.get()?, here.get()?, run()?);
        let text = cell_text(&x, l, hd, h)?;
        Some(view! { <div class="tooltip" style=h.tooltip_style()>{text}</div> })
    };
    let diff = kind != AttentionKind::Baseline;
    let versus = Signal::derive(move || if diff { baseline_row_share(columns, shown).unwrap_or_default() } else { String::new() });
    let main_title = if diff { "A1 − λ·A2".to_string() } else { tr!("map-softmax") };
    let stem =
        move |figure: &'static str| Signal::derive(move || here.get().map(|(l, h, _)| state.with(|s| s.file_stem(slug, figure, l, h))).unwrap_or_else(|| format!("difflens-explorer-{slug}-{figure}")));
    view! {
        <article class="panel column" id=format!("col-{slug}")>
            <h3>{kind_title(kind)}</h3>
            <Predictions mine />
            <p class="axis-note where" id=format!("where-{slug}")>{move || columns.with(|c| c.as_ref().map(|c| c.cache[col].sentence()))}</p>
            <LambdaPanel kind state columns />
            <p class="axis-note" id=format!("which-{slug}")>{move || here.get().map(|(l, h, auto)| tr!(if auto { "which-auto" } else { "which-picked" }, layer = l, head = h))}</p>
            <Heatmap id=format!("cmp-{slug}-main") title=main_title map=Signal::derive(move || maps.get().map(|m| m.0)) n signal_keys=span hover marked_row=marked ticks_mark=ticks labels
                file=stem(if diff { "A1-minus-lambda-A2" } else { "A" }) also=versus />
            {diff.then(|| view! {
                <div class="pair">
                    <Heatmap id=format!("cmp-{slug}-a1") title="A1" map=Signal::derive(move || maps.get().and_then(|m| m.1.map(|p| p.0))) n signal_keys=span hover marked_row=marked ticks_mark=ticks labels file=stem("A1") />
                    <Heatmap id=format!("cmp-{slug}-a2") title="A2" map=Signal::derive(move || maps.get().and_then(|m| m.1.map(|p| p.1))) n signal_keys=span hover marked_row=marked ticks_mark=ticks labels file=stem("A2") />
                </div>
            })}
            <p class="axis-note" id=format!("lambda-{slug}")>{move || { let (l, _, _) = here.get()?; let x = run()?; Some(lambda_sentence(&x, l)) }}</p>
            <p class="explain" id=format!("net-{slug}")>{move || {
                let ((l, h, _), x) = (here.get()?, run()?);
                let net = x.net.0.get(l)?.get(h)?;
                Some(tr!("net-sentence", answer = signed(net.answer), noise = signed(net.noise)))
            }}</p>
            <HeadGrid kind state mine=after_paint(mine.into()) here />
            {tooltip}
        </article>
    }
}

/// How the baseline's shown head spends the row that answers: the sentence a DIFF column's
/// summary ends with, so a reader compares without finding the other column.
fn baseline_row_share(columns: RwSignal<Option<Columns>>, shown: Memo<Option<[(usize, usize, bool); 3]>>) -> Option<String> {
    let (l, h, _) = shown.get()?[column_of(AttentionKind::Baseline)];
    columns.with(|c| {
        let x = &c.as_ref()?.runs[column_of(AttentionKind::Baseline)];
        let m = x.output.layers.get(l)?.maps.get(h)?.combined();
        let row = m.row(x.answer_row());
        let total: f32 = row.iter().map(|v| v.abs()).sum();
        let on: f32 = x.prompt.answer_spans[0].clone().filter_map(|j| row.get(j)).map(|v| v.abs()).sum();
        (total > 0.0).then(|| tr!("map-sum-versus-baseline", share = crate::ui::components::figure_words::percent((on / total) as f64), what = x.needle_words()))
    })
}

/// Each query's prediction: the value, its probability, right or wrong.
#[component]
fn Predictions(mine: Memo<Option<RunRef>>) -> impl IntoView {
    let rows = move || {
        let x = mine.get()?.0;
        Some(x.predictions.iter().enumerate().map(|(k, p)| {
            let verdict = if p.right() { "right" } else { "wrong" };
            view! { <li class=verdict data-right=p.right().to_string()>{tr!(if p.right() { "prediction-right" } else { "prediction-wrong" }, k = k + 1, predicted = word(p.predicted), percent = format!("{:.0}", 100.0 * p.probability), answer = word(p.answer))}</li> }
        }).collect_view())
    };
    view! { <ul class="predictions">{rows}</ul> }
}

/// Every layer × head of one model as thumbnails of the map that multiplies V, each
/// with its net weight on the asked needle; a click shows that head in the column. The
/// buttons stay while the model's shape does: a rerun repaints their canvases and
/// numbers instead of rebuilding them (a λ drag reruns one model many times a second).
/// It follows the column a frame late (`after_paint`): a drag's frame shows the
/// prediction and the maps, the grid's twelve thumbnails come right after.
#[component]
fn HeadGrid(kind: AttentionKind, state: RwSignal<ModelState>, mine: Signal<Option<RunRef>>, here: Memo<Option<(usize, usize, bool)>>) -> impl IntoView {
    let col = column_of(kind);
    let dims = Memo::new(move |_| mine.get().map(|r| r.0.output.layers.iter().map(|l| l.maps.len()).collect::<Vec<_>>()).unwrap_or_default());
    let grid = move || {
        dims.get()
            .into_iter()
            .enumerate()
            .map(|(l, heads)| {
                let thumbs = (0..heads).map(|h| view! { <GridThumb l h col state mine here /> }).collect_view();
                view! { <div class="grid-row"><span class="grid-label">{tr!("grid-layer", layer = l)}</span>{thumbs}</div> }
            })
            .collect_view()
    };
    let picked = move || state.with(|s| s.picks[col].is_some());
    view! {
        <div class="head-grid" data-key="head" id=format!("grid-{}", kind.slug()) role="group" aria-label=tr!("grid-heads-of", model = kind_title(kind))>
            <p class="axis-note">{tr!("grid-explain")}</p>
            {grid}
            <Show when=picked>
                <button class="grid-reset" on:click=move |_| state.update(|s| s.picks[col] = None)>{tr!("grid-reset")}</button>
            </Show>
        </div>
    }
}

/// One head of the grid: its thumbnail, its net weight, whether it is the layer's best.
#[component]
fn GridThumb(l: usize, h: usize, col: usize, state: RwSignal<ModelState>, mine: Signal<Option<RunRef>>, here: Memo<Option<(usize, usize, bool)>>) -> impl IntoView {
    let facts = Memo::new(move |_| mine.get().and_then(|r| Some((r.0.net.0.get(l)?.get(h)?.answer, r.0.net.best_head(l) == h))));
    let map = Memo::new(move |_| {
        let x = mine.get()?.0;
        let m = x.output.layers.get(l)?.maps.get(h)?;
        let vmax = m.combined().iter().fold(0.0f32, |a, b| a.max(b.abs()));
        Some(PooledMap { r: m.a1.nrows(), values: Arc::new(m.combined().iter().copied().collect()), scale: Scale { diverging: true, vmax, contrast: Contrast::Sqrt } })
    });
    let net = move || facts.get().map(|f| signed(f.0)).unwrap_or_default();
    let best = move || facts.get().is_some_and(|f| f.1);
    let label = move || tr!(if best() { "thumb-best" } else { "thumb" }, layer = l, head = h, net = net());
    view! {
        <button class="thumb" class:best=best aria-pressed=move || (here.get().map(|(sl, sh, _)| (sl, sh)) == Some((l, h))).to_string() aria-label=label
            on:click=move |_| state.update(|s| { s.layer = l; s.picks[col] = Some(h); })>
            <Thumbnail map />
            <span>{net}</span>
        </button>
    }
}
