//! The paper's evidence live, under the compare view's columns: Table 3 (net weight on
//! the asked needle and on the context noise) and Table 5 (magnitudes) for the prompt on
//! screen, and two runs over fresh prompts in slices the page stays responsive through:
//! Table 2 (accuracy over 100 prompts) and Table 3's depth sweep.

use crate::engine::explorer::evidence::{Net, DEPTHS};
use crate::engine::jobs::runner::Runner;
use crate::engine::jobs::JobError;
use crate::engine::jobs::{self, chunks, sweep_chunks, AccuracyChunk, SweepChunk, SweepTotals};
use crate::engine::model::{LambdaTrace, Model};
use crate::engine::shared::LambdaOverride;
use crate::state::model_state::{AttentionKind, ModelState};
use crate::tr;
use crate::ui::after_paint;
use crate::ui::components::chart::{Chart, ChartSpec, Series, BLUE, GREY, ORANGE};
use crate::ui::format::{kind_title, signed};
use crate::ui::model_files::Library;
use crate::ui::pages::explorer::compare::Columns;
use crate::ui::worker_pool::WorkerPool;
use leptos::prelude::*;
use std::rc::Rc;

/// Each model's colour in the evidence charts (colour-blind-safe, as the lab's).
const COLOURS: [(u8, u8, u8); 3] = [GREY, BLUE, ORANGE];
/// Prompts per run: Table 2's batch, and the depth sweep's per depth.
const ACCURACY_PROMPTS: usize = 100;
const SWEEP_PROMPTS: usize = 20;
/// Prompts per worker job: small enough that the pool's workers share the batch evenly
/// and a cancel stops within a job, large enough that messages cost nothing beside it.
const ACCURACY_CHUNK: usize = 5;
/// The depth sweep's prompts per job (each forward keeps every map for the net weights).
const SWEEP_CHUNK: usize = 4;

#[component]
pub fn Evidence(state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>, library: Library, ready: RwSignal<Option<usize>>) -> impl IntoView {
    let models = Models { library, ready };
    // The tables follow the columns once they are painted: a λ drag's frame is theirs.
    let late = after_paint(columns.into());
    view! {
        <h3 class="section">{tr!("evidence-prompt")}</h3>
        <NetTable columns=late />
        <MagnitudeTable columns=late />
        <h3 class="section">{tr!("evidence-fresh")}</h3>
        <AccuracyRunPanel state models />
        <DepthSweepPanel state models />
    }
}

/// The three loaded models, in column order, for the runs.
#[derive(Clone, Copy)]
struct Models {
    library: Library,
    ready: RwSignal<Option<usize>>,
}

impl Models {
    fn get(self) -> Option<Vec<Rc<Model>>> {
        let c = self.ready.get_untracked()?;
        AttentionKind::ALL.iter().map(|k| self.library.model(&(k.slug().to_string(), c))).collect()
    }
}

/// Table 3 for the prompt on screen: each model's net weights at "→", by layer and
/// averaged, with what a negative λ does said where it happens.
#[component]
fn NetTable(columns: Signal<Option<Columns>>) -> impl IntoView {
    let body = move || {
        let c = columns.get()?;
        let layers = c.runs.iter().map(|x| x.output.layers.len()).min()?;
        let cells = |net: Net| view! { <td>{signed(net.answer)}</td><td>{signed(net.noise)}</td> };
        let rows = (0..layers).map(|l| view! { <tr><th scope="row">{tr!("grid-layer", layer = l)}</th>{c.runs.iter().map(|x| cells(x.net.layer_mean(l))).collect_view()}</tr> }).collect_view();
        let mean = view! { <tr class="mean"><th scope="row">{tr!("all-layers")}</th>{c.runs.iter().map(|x| cells(x.net.mean())).collect_view()}</tr> };
        Some(view! { {rows}{mean} })
    };
    view! {
        <figure class="panel" id="net-table">
            <figcaption class="explain">{tr!("net-table-explain")}</figcaption>
            <div class="table-scroll" tabindex="0"><table class="numbers">
                <thead>
                    <tr><th></th>{AttentionKind::ALL.map(|k| view! { <th colspan="2" scope="colgroup">{kind_title(k)}</th> }).into_iter().collect_view()}</tr>
                    <tr><th scope="col">{tr!("th-layer")}</th>{(0..3).map(|_| view! { <th scope="col">{tr!("th-needle")}</th><th scope="col">{tr!("th-rest")}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{body}</tbody>
            </table></div>
            <p class="explain" id="net-honesty">{move || columns.with(|c| c.as_ref().map(negative_lambdas))}</p>
        </figure>
    }
}

/// What a student sees in a layer whose learnt λ is negative, said for each such layer
/// (the shipped V1's layer 0 is one: it adds A2 and so spreads weight over the context).
///
/// A λ the reader set is said to be theirs, not learnt.
fn negative_lambdas(c: &Columns) -> String {
    let mut learnt_any = false;
    let found: Vec<String> = AttentionKind::ALL
        .iter()
        .zip(c.runs.iter())
        .flat_map(|(k, x)| {
            x.output.layers.iter().enumerate().filter_map(move |(l, layer)| match layer.lambda {
                LambdaTrace::Scalar(v) if v < 0.0 => {
                    let yours = matches!(&x.lambda, LambdaOverride::PerLayer(set) if set.get(l).copied().flatten().is_some());
                    Some((yours, tr!(if yours { "negative-yours" } else { "negative-learnt" }, model = kind_title(*k), lambda = format!("{:.2}", -v), layer = l)))
                }
                _ => None,
            })
        })
        .map(|(yours, line)| {
            learnt_any |= !yours;
            line
        })
        .collect();
    if found.is_empty() {
        return String::new();
    }
    let why = if learnt_any { format!("{}{}", tr!("sentence-gap"), tr!("negative-learnt-why")) } else { String::new() };
    format!("{}{}{}", tr!("negative-list", list = found.join(&tr!("list-separator"))), tr!("negative-explain"), why)
}

/// Table 5 for the prompt on screen: how large the attention logits and hidden states get.
#[component]
fn MagnitudeTable(columns: Signal<Option<Columns>>) -> impl IntoView {
    let body = move || {
        let c = columns.get()?;
        Some(AttentionKind::ALL.iter().zip(c.runs.iter()).map(|(k, x)| {
            let m = &x.magnitudes;
            view! { <tr><th scope="row">{kind_title(*k)}</th><td>{format!("{:.2}", m.logits.top1)}</td><td>{format!("{:.2}", m.logits.top10)}</td><td>{format!("{:.2}", m.logits.median)}</td><td>{format!("{:.2}", m.hidden_top1)}</td><td>{format!("{:.3}", m.hidden_median)}</td></tr> }
        }).collect_view())
    };
    view! {
        <figure class="panel" id="magnitude-table">
            <figcaption class="explain">{tr!("magnitude-explain")}</figcaption>
            <div class="table-scroll" tabindex="0"><table class="numbers">
                <thead><tr><th></th><th scope="col">{tr!("th-logits-top1")}</th><th scope="col">{tr!("th-top10")}</th><th scope="col">{tr!("th-median")}</th><th scope="col">{tr!("th-hidden-top1")}</th><th scope="col">{tr!("th-median")}</th></tr></thead>
                <tbody>{body}</tbody>
            </table></div>
        </figure>
    }
}

/// The settings a run was made with, in words (its results keep them).
fn run_settings(s: &ModelState) -> String {
    let precision = s.bits.map_or_else(|| tr!("settings-f32"), |b| tr!("settings-bits", bits = b));
    let moved = AttentionKind::ALL.iter().filter(|k| s.lambda_override(**k) != Default::default() || s.subln_override(**k).is_some()).map(|k| kind_title(*k)).collect::<Vec<_>>();
    let lambda = if moved.is_empty() { String::new() } else { tr!("settings-your-lambda", models = moved.join(&tr!("and"))) };
    tr!("settings", needles = s.needles, queries = s.queries, context = s.context, times = s.context / 64, precision = precision, lambda = lambda)
}

/// A run's state as its panel shows it.
#[derive(Clone, Debug, Default, PartialEq)]
struct RunView {
    running: bool,
    done: usize,
    total: usize,
    /// The settings the results are for.
    settings: String,
    /// Per model: (right, asked).
    counts: Vec<(usize, usize)>,
    error: Option<String>,
    /// Where the run computed, when it is worth saying (a worker failed and the main
    /// thread took over its prompts).
    note: Option<String>,
}

/// A run over fresh prompts as its panel drives it: a start drops any run before it, the
/// job steps in slices through the three models, Cancel stops it where it is.
#[derive(Clone, Copy)]
struct RunControl {
    view_of: RwSignal<RunView>,
    generation: StoredValue<u64>,
}

impl RunControl {
    fn new() -> Self {
        Self { view_of: RwSignal::new(RunView::default()), generation: StoredValue::new(0) }
    }

    /// A new run: the runs before it are dropped. Whether it is still the current run.
    fn next_run(self) -> impl Fn() -> bool + Copy + 'static {
        self.generation.update_value(|g| *g += 1);
        let (mine, generation) = (self.generation.get_value(), self.generation);
        move || generation.try_get_value() == Some(mine)
    }

    /// Stops the run at its first error, as a run on the page's thread does.
    fn fail(self, e: String) {
        self.generation.try_update_value(|g| *g += 1);
        self.view_of.try_update(|v| {
            v.error = Some(e);
            v.running = false;
        });
    }

    /// The runner for this panel's runs: whatever a failed worker left runs here, with
    /// the three models, and the panel says so.
    fn runner<'p>(self, pool: &'p WorkerPool, checkpoint: usize, models: &[Rc<Model>]) -> Runner<'p> {
        let view_of = self.view_of;
        let shipped = AttentionKind::ALL.iter().zip(models).map(|(k, m)| ((k.slug().to_string(), checkpoint), m.clone())).collect();
        Runner::new(pool).with_models(shipped).on_take_over(move |why| {
            let why = why.map_or_else(|| tr!("no-worker-answered"), str::to_string);
            view_of.try_update(|v| v.note = Some(tr!("worker-stopped", why = why)));
        })
    }

    /// Table 2's batch in chunks across the worker pool (or here, in slices, where no
    /// worker is left).
    fn start_pooled(self, state: ModelState, checkpoint: usize, models: Vec<Rc<Model>>) {
        let (alive, view_of) = (self.next_run(), self.view_of);
        leptos::task::spawn_local(async move {
            let jobs = chunks(ACCURACY_PROMPTS, ACCURACY_CHUNK).into_iter().map(|prompts| AccuracyChunk { state: state.clone(), checkpoint, count: ACCURACY_PROMPTS, prompts }).collect();
            let answer = move |job: &AccuracyChunk, counts: Result<Vec<(usize, usize)>, JobError>| match counts {
                Ok(_) if !alive() => {}
                Ok(c) => {
                    view_of.try_update(|v| {
                        jobs::add(&mut v.counts, &c);
                        v.done += job.prompts.len();
                    });
                }
                Err(e) => self.fail(e.to_string()),
            };
            self.runner(&WorkerPool::get(), checkpoint, &models).run(jobs, alive, answer).await;
            if alive() {
                view_of.try_update(|v| v.running = false);
            }
        });
    }

    /// Table 3's depth sweep in chunks across the worker pool, each chunk's sums kept by
    /// its place in the sweep (`SweepTotals`), so the curves are the same however many
    /// workers made them, or the page.
    fn start_pooled_sweep(self, state: ModelState, checkpoint: usize, models: Vec<Rc<Model>>, curves: RwSignal<Vec<Vec<(f32, Net)>>>) {
        let (alive, view_of, n) = (self.next_run(), self.view_of, models.len());
        let totals = Rc::new(std::cell::RefCell::new(SweepTotals::default()));
        leptos::task::spawn_local(async move {
            let jobs = sweep_chunks(SWEEP_PROMPTS, SWEEP_CHUNK).into_iter().map(|(depth, prompts)| SweepChunk { state: state.clone(), checkpoint, depth, count: SWEEP_PROMPTS, prompts }).collect();
            let answer = move |job: &SweepChunk, sums: Result<Vec<Net>, JobError>| match sums {
                Ok(_) if !alive() => {}
                Ok(sums) => {
                    let mut t = totals.borrow_mut();
                    t.add(job.depth, &job.prompts, sums);
                    view_of.try_update(|v| v.done = t.prompts());
                    curves.try_set((0..n).map(|m| t.curve(m)).collect());
                }
                Err(e) => self.fail(e.to_string()),
            };
            self.runner(&WorkerPool::get(), checkpoint, &models).run(jobs, alive, answer).await;
            if alive() {
                view_of.try_update(|v| v.running = false);
            }
        });
    }

    fn cancel(self) {
        self.generation.update_value(|g| *g += 1);
        self.view_of.update(|v| v.running = false);
    }
}

/// Table 2 live: "Run 100 prompts" through the three models, accuracy as bars with the
/// counts behind them, progress shown, cancellable.
#[component]
fn AccuracyRunPanel(state: RwSignal<ModelState>, models: Models) -> impl IntoView {
    let control = RunControl::new();
    let view_of = control.view_of;
    let start = move |_| {
        let (Some(list), Some(checkpoint)) = (models.get(), models.ready.get_untracked()) else { return };
        let s = state.get_untracked();
        view_of.set(RunView { running: true, total: ACCURACY_PROMPTS, settings: run_settings(&s), counts: vec![(0, 0); 3], ..Default::default() });
        control.start_pooled(s, checkpoint, list);
    };
    let workers = WorkerPool::get().size();
    let cancel = move |_| control.cancel();
    let bars = move || {
        let v = view_of.get();
        (!v.counts.is_empty()).then(|| AccuracyBars(v))
    };
    view! {
        <figure class="panel" id="accuracy-run">
            <h3>{tr!("accuracy-title")}</h3>
            <p class="explain">{move || tr!("accuracy-explain", prompts = ACCURACY_PROMPTS, settings = state.with(run_settings), workers = workers)}</p>
            <div class="buttons" data-key="run">
                <button id="run-accuracy" on:click=start disabled=move || view_of.with(|v| v.running)>{tr!("accuracy-run", prompts = ACCURACY_PROMPTS)}</button>
                <Show when=move || view_of.with(|v| v.running)>
                    <button id="cancel-accuracy" on:click=cancel>{tr!("cancel")}</button>
                </Show>
                <RunProgress view_of />
            </div>
            {bars}
        </figure>
    }
}

/// The progress bar and count of a run, or where it stopped.
#[component]
fn RunProgress(view_of: RwSignal<RunView>) -> impl IntoView {
    let text = move || {
        let v = view_of.get();
        match (&v.error, v.running, v.total) {
            (Some(e), _, _) => tr!("run-stopped", error = e.as_str()),
            (_, _, 0) => String::new(),
            (_, true, t) => tr!("run-progress", done = v.done, total = t),
            (_, false, t) if v.done < t => tr!("run-cancelled", done = v.done, total = t),
            (_, false, t) => tr!("run-done", total = t),
        }
    };
    view! {
        <Show when=move || view_of.with(|v| v.total > 0)>
            <progress max=move || view_of.with(|v| v.total) value=move || view_of.with(|v| v.done)></progress>
        </Show>
        <span class="axis-note run-progress" role="status">{text}</span>
        {move || view_of.with(|v| v.note.clone()).map(|n| view! { <p class="axis-note run-note">{n}</p> })}
    }
}

/// One bar per model: its accuracy, and the count it comes from.
#[allow(non_snake_case)]
fn AccuracyBars(v: RunView) -> impl IntoView {
    let rows = AttentionKind::ALL
        .iter()
        .zip(&v.counts)
        .map(|(k, (right, asked))| {
            let share = *right as f64 / (*asked).max(1) as f64;
            let width = format!("width:{:.1}%", 100.0 * share);
            view! {
                <div class="bar-row" data-model=k.slug() data-right=*right data-asked=*asked>
                    <span class="bar-label">{kind_title(*k)}</span>
                    <span class="bar"><span class="fill" style=width></span></span>
                    <span class="bar-value">{tr!("bar-value", percent = format!("{:.0}", 100.0 * share), right = *right, asked = *asked)}</span>
                </div>
            }
        })
        .collect_view();
    view! { <div class="bars" id="accuracy-bars"><p class="axis-note">{tr!("bars-for", settings = v.settings.clone())}</p>{rows}</div> }
}

/// Table 3's depth sweep live: net weights on the needle and on the noise against the
/// asked needle's depth, each model a line.
#[component]
fn DepthSweepPanel(state: RwSignal<ModelState>, models: Models) -> impl IntoView {
    let control = RunControl::new();
    let view_of = control.view_of;
    let curves = RwSignal::new(Vec::<Vec<(f32, Net)>>::new());
    let start = move |_| {
        let (Some(list), Some(checkpoint)) = (models.get(), models.ready.get_untracked()) else { return };
        let s = state.get_untracked();
        view_of.set(RunView { running: true, total: SWEEP_PROMPTS * DEPTHS.len(), settings: run_settings(&ModelState { queries: 1, ..s.clone() }), ..Default::default() });
        curves.set(vec![]);
        control.start_pooled_sweep(s, checkpoint, list, curves);
    };
    let cancel = move |_| control.cancel();
    let chart = move |answer: bool| {
        Signal::derive(move || {
            let c = curves.get();
            (!c.is_empty()).then(|| ChartSpec {
                title: tr!(if answer { "sweep-answer-title" } else { "sweep-noise-title" }),
                x_label: tr!("sweep-x"),
                y_label: tr!("sweep-y"),
                series: AttentionKind::ALL
                    .iter()
                    .zip(&c)
                    .zip(COLOURS)
                    .map(|((k, pts), color)| Series {
                        dashed: false,
                        name: kind_title(*k),
                        color,
                        points: pts.iter().map(|(d, n)| (100.0 * *d as f64, if answer { n.answer } else { n.noise })).collect(),
                    })
                    .collect(),
                ..Default::default()
            })
        })
    };
    view! {
        <figure class="panel" id="depth-sweep">
            <h3>{tr!("sweep-title")}</h3>
            <p class="explain">{move || tr!("sweep-explain", prompts = SWEEP_PROMPTS, settings = state.with(|s| run_settings(&ModelState { queries: 1, ..s.clone() })))}</p>
            <div class="buttons" data-key="sweep">
                <button id="run-sweep" on:click=start disabled=move || view_of.with(|v| v.running)>{tr!("sweep-run")}</button>
                <Show when=move || view_of.with(|v| v.running)>
                    <button id="cancel-sweep" on:click=cancel>{tr!("cancel")}</button>
                </Show>
                <RunProgress view_of />
            </div>
            <div class="charts-pair">
                <Chart id="chart-sweep-answer" label=tr!("sweep-answer-label") spec=chart(true) empty=tr!("sweep-empty") />
                <Chart id="chart-sweep-noise" label=tr!("sweep-noise-label") spec=chart(false) empty="" />
            </div>
        </figure>
    }
}
