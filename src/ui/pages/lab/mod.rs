//! The noise-floor lab: A1, A2 and A1 − λ·A2 side by side, the knobs that change them,
//! the numbers that summarise them, and the charts that explain them.

mod problem;

use crate::engine::jobs::runner::Runner;
use crate::engine::jobs::{ChartPart, ChartPoint, JobError, NoiseChartJob};
use crate::engine::lab::{self as engine, lambda_init_for_depth, LabMetrics, MapKind, NoiseMassPoint, NoiseSweepPoint, SnrPoint, Verification, LAMBDA_RANGE};
use crate::state::lab_state::{Knob, LabState, KNOBS, SEED};
use crate::tr;
use crate::ui::components::chart::{Chart, ChartSpec, Marker, Overlay, Series, BLUE, GREY, ORANGE, RED};
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::notice::{NoticeBar, StateNotes};
use crate::ui::components::readout::{readable, Readout};
use crate::ui::components::slider::Slider;
use crate::ui::now_ms;
use crate::ui::pages::lab::problem::{Runs, Timing};
use crate::ui::route::{self, Page, Route, Router};
use crate::ui::worker_pool::WorkerPool;
use crate::viz::colormap::{contrast_name, Contrast, Scale};
use crate::viz::pooling::pooled_size;
use leptos::prelude::*;
use std::sync::Arc;

/// Heatmaps are pooled to at most this many pixels a side.
const MAX_PX: usize = engine::MAP_PX;

/// What a failed worker left of the slow charts computes here in slices of about this
/// long, so an input that arrives meanwhile waits at most one slice, and a λ drag's
/// update still fits in its frame.
const CHART_SLICE_MS: f64 = 5.0;

/// The state, its link and the notices about it. The link follows a drag once it
/// settles (`Router::write_address_soon`), the navigation's link to the lab at once. A
/// new link while the page is open is applied like the one it was opened with;
/// `lambda_committed` follows it.
fn linked_state(router: Router) -> (RwSignal<LabState>, StateNotes<LabState>, RwSignal<f32>) {
    let (initial, lines) = LabState::from_params(&router.asked.get_untracked().params);
    let state = RwSignal::new(initial.clone());
    let lambda_committed = RwSignal::new(initial.lambda);
    let notes = StateNotes::new();
    notes.set(initial, lines);
    Effect::new(move |_| {
        // With the link, the same state as a JS object, for scripts and the browser tests:
        // both once a drag settles, not on every move.
        let publish = move || {
            if let (Some(w), Some(Ok(js))) = (web_sys::window(), state.try_with_untracked(serde_wasm_bindgen::to_value)) {
                let _ = js_sys::Reflect::set(&w, &"difflensLabState".into(), &js);
            }
        };
        router.write_address_soon(router.remember(Page::Lab, state.with(|s| s.to_params())), publish);
    });
    // Leaving the page drops a waiting write: it would put the lab's link over the next
    // page's.
    on_cleanup(move || router.cancel_pending());
    router.follow(Page::Lab, move |params| {
        let (s, lines) = LabState::from_params(params);
        notes.set(s.clone(), lines);
        lambda_committed.set(s.lambda);
        if state.with_untracked(|cur| *cur != s) {
            state.set(s);
        }
    });
    (state, notes, lambda_committed)
}

/// What the maps show for the run on screen at the current λ and colour scale.
#[derive(Clone, Copy)]
struct Pictures {
    /// N and the pooled side of the run on screen (not of the state being computed).
    n: Memo<usize>,
    px: Memo<usize>,
    signal_keys: Memo<Vec<usize>>,
    a1: Signal<Option<PooledMap>>,
    a2: Signal<Option<PooledMap>>,
    diff: Signal<Option<PooledMap>>,
    metrics: RwSignal<LabMetrics>,
}

impl Pictures {
    fn of(runs: Runs, lambda: Memo<f32>, contrast: RwSignal<Contrast>) -> Self {
        let n = Memo::new(move |_| runs.with(|r| r.n()).unwrap_or(0));
        let px = Memo::new(move |_| pooled_size(n.get().max(1), MAX_PX));
        let signal_keys = Memo::new(move |_| runs.with(|r| r.inputs.signal_keys.clone()).unwrap_or_default());
        // A1 and A2 share one scale so they can be compared; the difference uses the same
        // magnitude on a diverging scale, so "white" means "cancelled".
        // A1 and A2 were pooled with the problem's blocks, where the rows were at hand.
        let softmax = Memo::new(move |_| runs.with(|run| (run.pooled_softmax(MapKind::A1), run.pooled_softmax(MapKind::A2))));
        let vmax = Memo::new(move |_| softmax.with(|p| p.as_ref().map(|(a, b)| a.iter().chain(b.iter()).fold(0.0f32, |m, v| m.max(*v))).unwrap_or(1.0)));
        let scale = move |diverging| Scale { diverging, vmax: vmax.get(), contrast: contrast.get() };
        let a1 = Signal::derive(move || softmax.with(|p| p.as_ref().map(|(a, _)| PooledMap { r: px.get(), values: a.clone(), scale: scale(false) })));
        let a2 = Signal::derive(move || softmax.with(|p| p.as_ref().map(|(_, b)| PooledMap { r: px.get(), values: b.clone(), scale: scale(false) })));

        // Moving λ: the softmaxes stay; only the combine, the pooling and the sums rerun,
        // on both paths on the host copies of the maps: a GPU round trip (submit, then an
        // awaited buffer mapping) costs at least a frame in Chromium (README,
        // "Performance"). The GPU's own λ kernels still run for {tr!("lab-verify")}.
        let diff_values = RwSignal::new(None::<(usize, Arc<Vec<f32>>)>);
        let metrics = RwSignal::new(LabMetrics::default());
        Effect::new(move |_| {
            let (l, r) = (lambda.get(), px.get());
            let t0 = now_ms();
            if let Some((pooled, m)) = runs.with(|run| (run.pooled(MapKind::Diff, l, r), run.metrics(l))) {
                diff_values.set(Some((r, Arc::new(pooled))));
                metrics.set(m);
            }
            runs.timing.update(|t| t.lambda_ms = now_ms() - t0);
        });
        let diff = Signal::derive(move || diff_values.get().map(|(r, values)| PooledMap { r, values, scale: scale(true) }));
        Pictures { n, px, signal_keys, a1, a2, diff, metrics }
    }
}

/// The slow charts' points, restarted when a new problem is on screen or the committed λ
/// changes. The eight noise masses (one job) and the 25 noise levels (each a whole
/// problem) go to the worker pool through the runner, the points kept in σ order as they
/// arrive; whatever a failed worker left is computed here a small step at a time between
/// paints. They wait
/// for the problem's own run: started with the request, they would take CPU time from it
/// (on a software GPU adapter, from the GPU itself).
fn slow_charts(runs: Runs, lambda_committed: RwSignal<f32>) -> (RwSignal<Vec<NoiseSweepPoint>>, RwSignal<Vec<NoiseMassPoint>>) {
    let noise_points = RwSignal::new(Vec::<NoiseSweepPoint>::new());
    let mass_points = RwSignal::new(Vec::<NoiseMassPoint>::new());
    let latest = StoredValue::new(0u64);
    Effect::new(move |_| {
        let l = lambda_committed.get();
        let Some(params) = runs.with(|r| r.params.clone()) else { return };
        latest.update_value(|g| *g += 1);
        let mine = latest.get_value();
        // The page may be gone by the time a step or an answer comes (try_: disposed). A
        // new problem being computed stops them too: its blocks need the workers, and these
        // points are about to be replaced.
        let alive = move || latest.try_get_value() == Some(mine) && runs.pending.try_with_untracked(Option::is_none).unwrap_or(false);
        noise_points.set(vec![]);
        mass_points.set(vec![]);
        let add = move |p: NoiseSweepPoint| {
            noise_points.try_update(|v| {
                let at = v.partition_point(|q| q.noise < p.noise);
                v.insert(at, p);
            });
        };
        leptos::task::spawn_local(async move {
            let parts = std::iter::once(ChartPart::Masses).chain(engine::noise_grid().into_iter().map(ChartPart::Level));
            let jobs = parts.map(|part| NoiseChartJob { params: params.clone(), lambda: l, part }).collect();
            let answer = move |_: &NoiseChartJob, point: Result<ChartPoint, JobError>| match point {
                Ok(_) if !alive() => {}
                Ok(ChartPoint::Masses(m)) => {
                    mass_points.try_set(m);
                }
                Ok(ChartPoint::Level(p)) => add(p),
                Err(e) => leptos::logging::warn!("a part of the noise charts failed in a worker: {e}"),
            };
            Runner::new(&*WorkerPool::get()).slices_of(CHART_SLICE_MS).run(jobs, alive, answer).await;
        });
    });
    (noise_points, mass_points)
}

#[component]
pub fn LabPage() -> impl IntoView {
    let backend = crate::ui::backend::from_context();
    let (state, notes, lambda_committed) = linked_state(Router::get());
    let problem = Memo::new(move |_| state.with(|s| s.lab_params()));
    let lambda = Memo::new(move |_| state.with(|s| s.lambda));
    let contrast = RwSignal::new(Contrast::Sqrt);
    let runs = Runs::follow(problem, backend);
    let pictures = Pictures::of(runs, lambda, contrast);
    let (noise_points, mass_points) = slow_charts(runs, lambda_committed);
    let Runs { pending, gpu_note, computed_on, timing, .. } = runs;
    let n = pictures.n;
    view! {
        // The lab's state in no language, for scripts and tests: a problem on screen and none coming.
        <section class="page lab" data-status=move || match (pending.with(Option::is_some), n.get()) { (true, _) => "computing", (false, 0) => "loading", _ => "ready" }>
            <h2>{tr!("lab-title")}</h2>
            <p class="explain">{tr!("lab-intro")}</p>
            <NoticeBar id="link-notices" heading=tr!("notice-adjusted") lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <Controls state lambda_committed />
            <p class="busy" id="busy-note" role="status" aria-live="polite">{move || pending.get().map(|want| match n.get() {
                0 => tr!("lab-computing", n = want),
                have => tr!("lab-computing-new", n = want, have = have),
            })}</p>
            <LabMaps state runs pictures lambda contrast />
            <Show when=move || gpu_note.with(|n| n.is_some())>
                <p class="notice" id="gpu-note" role="status">{move || gpu_note.get().unwrap_or_default()}</p>
            </Show>
            <Readouts metrics=pictures.metrics computed_on timing />
            <details class="dev" id="lab-dev">
                <summary>{tr!("lab-dev-summary")}</summary>
                <p class="explain">{tr!("lab-dev-explain")}</p>
                <Verify runs lambda px=pictures.px />
            </details>
            <RowChart state runs lambda />
            <LabCharts state runs lambda lambda_committed metrics=pictures.metrics noise_points mass_points />
        </section>
    }
}

/// The three maps, their tooltip, and what the pooling and the colour scale do.
#[component]
fn LabMaps(state: RwSignal<LabState>, runs: Runs, pictures: Pictures, lambda: Memo<f32>, contrast: RwSignal<Contrast>) -> impl IntoView {
    let Pictures { n, px, signal_keys, .. } = pictures;
    let stem = move |figure: &'static str| Signal::derive(move || state.with(|s| s.file_stem(figure, n.get())));
    let hover = RwSignal::new(None::<Hover>);
    let pick_row = Callback::new(move |i: usize| state.update(|s| s.row = Some(i)));
    // A CSV's whole map: the page holds every entry on the host, on both paths.
    let whole = move |kind: MapKind| Callback::new(move |_: ()| runs.run.with_value(|r| r.as_ref().map(|run| (run.n(), run.pooled(kind, lambda.get_untracked(), run.n())))));
    let tooltip = move || {
        let h = hover.get()?;
        let l = lambda.get();
        let text = runs
            .with(|run| {
                (h.i < run.n() && h.j < run.n()).then(|| {
                    let v = |k| readable(run.value(k, l, h.i, h.j) as f64);
                    let cell = tr!(if run.inputs.signal_keys.contains(&h.j) { "lab-cell-signal" } else { "lab-cell" }, i = h.i, j = h.j);
                    format!("{cell}\nA1 = {}\nA2 = {}\nA1 − λ·A2 = {}", v(MapKind::A1), v(MapKind::A2), v(MapKind::Diff))
                })
            })
            .flatten()?;
        Some(view! { <div class="tooltip" id="map-tooltip" style=h.tooltip_style()>{text}</div> })
    };
    let pending = runs.pending;
    view! {
        <div class="maps" class:stale=move || pending.get().is_some() aria-busy=move || pending.get().is_some().to_string() data-n=move || n.get()>
            <Heatmap id="map-a1" title="A1 = softmax(Q1·K1ᵀ/√d)" explain=tr!("lab-a1-explain")
                map=pictures.a1 n signal_keys hover on_pick=pick_row file=stem("A1") full=whole(MapKind::A1) />
            <Heatmap id="map-a2" title="A2 = softmax(Q2·K2ᵀ/√d)" explain=tr!("lab-a2-explain")
                map=pictures.a2 n signal_keys hover on_pick=pick_row file=stem("A2") full=whole(MapKind::A2) />
            <Heatmap id="map-diff" title="A1 − λ·A2" explain=tr!("lab-diff-explain")
                map=pictures.diff n signal_keys hover on_pick=pick_row file=stem("A1-minus-lambda-A2") full=whole(MapKind::Diff) announce=true />
        </div>
        {tooltip}
        <p class="axis-note" id="pooling-note">{move || {
            let (n, r) = (n.get(), px.get());
            if n > r { tr!("lab-pooled", n = n, r = r) } else { tr!("lab-not-pooled", n = n) }
        }}</p>
        <div class="buttons" data-key="contrast">
            <label for="contrast">{tr!("lab-colour-scale")}</label>
            <select id="contrast" on:change=move |ev| {
                let v = event_target_value(&ev);
                if let Some(c) = Contrast::ALL.into_iter().find(|c| contrast_name(*c) == v) { contrast.set(c) }
            }>
                {Contrast::ALL.into_iter().map(|c| view! { <option value=contrast_name(c) selected=move || contrast.get() == c>{contrast_name(c)}</option> }).collect_view()}
            </select>
            <span class="axis-note">{tr!("lab-contrast-explain")}</span>
        </div>
    }
}

/// SNR against λ, against the noise amplitude, and the noise mass against context length.
#[component]
fn LabCharts(
    state: RwSignal<LabState>,
    runs: Runs,
    lambda: Memo<f32>,
    lambda_committed: RwSignal<f32>,
    metrics: RwSignal<LabMetrics>,
    noise_points: RwSignal<Vec<NoiseSweepPoint>>,
    mass_points: RwSignal<Vec<NoiseMassPoint>>,
) -> impl IntoView {
    // The SNR-against-λ curve walks every kink of the sweep (≈ 1.4 million at N = 2048):
    // it follows a new problem one painted frame after its maps.
    let shown = crate::ui::after_paint::<u64>(runs.version.into());
    let lambda_curve = Memo::new(move |_| {
        shown.track();
        runs.run.with_value(|r| r.as_ref().map(|run| run.lambda_curve(121)))
    });
    let n = Memo::new(move |_| runs.with(|r| r.n()).unwrap_or(0));
    let stem = move |figure: &'static str| Signal::derive(move || state.with(|s| s.file_stem(figure, n.get())));
    view! {
        <div class="charts">
            <figure class="panel">
                <Chart id="chart-lambda" label=tr!("lab-chart-lambda-label") spec=Signal::derive(move || lambda_chart(lambda_curve.get())) file=stem("snr-against-lambda")
                    overlay=Signal::derive(move || Some(lambda_marker(lambda.get(), metrics.get()))) />
                <figcaption class="explain">{tr!("lab-chart-lambda-explain")}</figcaption>
            </figure>
            <figure class="panel">
                <Chart id="chart-noise" label=tr!("lab-chart-noise-label") spec=Signal::derive(move || noise_chart(&noise_points.get(), lambda_committed.get())) empty=tr!("lab-chart-noise-empty") file=stem("snr-against-noise") />
                <p class="axis-note" id="noise-progress" data-points=move || noise_points.with(|p| p.len())>{move || {
                    let (done, all) = (noise_points.with(|p| p.len()), engine::noise_grid().len());
                    if done < all { tr!("lab-noise-progress", k = done + 1, all = all) } else { tr!("lab-noise-done", all = all) }
                }}</p>
                <figcaption class="explain">{tr!("lab-chart-noise-explain")}</figcaption>
            </figure>
            <figure class="panel">
                <Chart id="chart-context" label=tr!("chart-context-title") spec=Signal::derive(move || context_chart(&mass_points.get())) empty=tr!("lab-chart-context-empty") file=stem("noise-mass-against-context") />
                <figcaption class="explain">{tr!("lab-chart-context-explain")}</figcaption>
            </figure>
        </div>
    }
}

/// "Verify": recompute the same problem on the CPU and compare it with what the GPU
/// produces: the maps it computed, and its own λ kernels (the fused combine + pooling and
/// the metric reductions) run once on its resident maps at the current λ; and both again
/// from the other row layout's kernels.
#[component]
fn Verify(runs: Runs, lambda: Memo<f32>, px: Memo<usize>) -> impl IntoView {
    let on_gpu = Memo::new(move |_| runs.with(|r| r.on_gpu).unwrap_or(false));
    let result = RwSignal::new(None::<Verification>);
    let verify = move |_| {
        let (l, r, mine) = (lambda.get_untracked(), px.get_untracked(), runs.version.get_untracked());
        let (Some(sess), Some(n_signal)) = (runs.session.get_value(), runs.run.with_value(|run| run.as_ref().map(|r| r.inputs.signal_keys.len()))) else { return };
        result.set(None);
        leptos::task::spawn_local(async move {
            let gpu = match sess.lambda_update(l, r) {
                Ok(readback) => readback.read(&sess.ctx, n_signal).await,
                Err(e) => Err(e),
            };
            let Some(inputs) = runs.run.try_with_value(|run| run.as_ref().map(|run| run.inputs.clone())).flatten() else { return };
            let other = sess.in_other_layout(&inputs, l, r).await;
            if runs.version.try_get_untracked() != Some(mine) {
                return; // a newer problem replaced the one on the GPU: its result means nothing
            }
            let outcome = match gpu {
                Err(e) => Some(Verification { worst: f64::INFINITY, sentence: tr!("lab-verify-failed", error = e.to_string()) }),
                Ok((pooled, gpu_metrics)) => runs.run.try_with_value(|run| run.as_ref().map(|run| Verification::of(run, l, r, &pooled, &gpu_metrics, Some(other)))).flatten(),
            };
            result.try_set(outcome);
        });
    };
    view! {
        <Show when=move || on_gpu.get() fallback=|| view! { <p class="axis-note">{tr!("lab-verify-cpu")}</p> }>
            <div class="buttons">
                <button id="verify" on:click=verify>{tr!("lab-verify")}</button>
                <span class="axis-note" id="verify-result" data-max-abs=move || result.get().map(|r| r.worst.to_string()).unwrap_or_default()>
                    {move || result.get().map(|r| r.sentence).unwrap_or_default()}
                </span>
            </div>
        </Show>
    }
}

#[component]
fn Controls(state: RwSignal<LabState>, lambda_committed: RwSignal<f32>) -> impl IntoView {
    // Releasing a slider commits λ (the slow charts follow the committed λ only).
    let commit = Callback::new(move |_: f64| {
        let l = state.with_untracked(|s| s.lambda);
        if lambda_committed.get_untracked() != l {
            lambda_committed.set(l);
        }
    });
    let slider = move |knob: Knob<LabState>| {
        let (min, max) = knob.slider_range();
        view! {
            <Slider id=knob.key label=knob.label() min max step=knob.step
                position=Signal::derive(move || state.with(|s| knob.position(s)))
                shown=Signal::derive(move || state.with(|s| (knob.show)((knob.get)(s))))
                on_input=Callback::new(move |v: f64| state.update(|s| knob.slide(s, v))) on_commit=commit />
        }
    };
    let depth = RwSignal::new(3usize);
    // "Link copied" describes one state: it goes when the state (and so the link) changes.
    let copied = StateNotes::<LabState>::new();
    let copy_link = move |_| {
        let link = route::permalink(&Route::to(Page::Lab, state.with_untracked(|s| s.to_params())));
        let Some(w) = web_sys::window() else { return };
        let copying = wasm_bindgen_futures::JsFuture::from(w.navigator().clipboard().write_text(&link));
        let at = state.get_untracked();
        leptos::task::spawn_local(async move {
            // A browser may refuse the clipboard (permissions, no focus): then the link is
            // shown to be copied by hand.
            let line = match copying.await {
                Ok(_) => tr!("link-copied", link = link.as_str()),
                Err(_) => tr!("link-not-copied", link = link.as_str()),
            };
            copied.set(at, vec![line]);
        });
    };
    let new_sample = move |_| state.update(|s| s.seed = (js_sys::Math::random() * SEED.1 as f64) as u64);
    view! {
        <div class="controls">{KNOBS.into_iter().map(slider).collect_view()}
        </div>
        <div class="buttons" data-key="lambda_init">
            <label for="depth">{tr!("lab-lambda-init-depth")}</label>
            <select id="depth" on:change=move |ev| depth.set(event_target_value(&ev).parse().unwrap_or(0))>
                {(0..12usize).map(|d| view! { <option value=d.to_string() selected=move || depth.get() == d>{d.to_string()}</option> }).collect_view()}
            </select>
            <button id="set-lambda-init" on:click=move |_| { let l = lambda_init_for_depth(depth.get()); state.update(|s| s.lambda = (l * 100.0).round() / 100.0); lambda_committed.set(l); }>
                {move || tr!("lab-set-lambda-init", value = format!("{:.3}", lambda_init_for_depth(depth.get())))}
            </button>
            <span class="axis-note">{tr!("lab-lambda-init-explain")}</span>
        </div>
        <div class="buttons" data-key="seed">
            <span>{tr!("lab-seed")}" "<strong id="seed-value">{move || state.with(|s| s.seed)}</strong></span>
            <button id="new-sample" on:click=new_sample>{tr!("lab-new-sample")}</button>
            <button id="copy-link" on:click=copy_link>{tr!("lab-copy-link")}</button>
            <span class="axis-note" id="copied" role="status">{move || state.with(|s| copied.lines_for(s).join(""))}</span>
        </div>
    }
}

#[component]
fn Readouts(metrics: RwSignal<LabMetrics>, computed_on: RwSignal<String>, timing: RwSignal<Timing>) -> impl IntoView {
    let m = move |f: fn(&LabMetrics) -> f64| Signal::derive(move || metrics.with(f));
    view! {
        <div class="readouts">
            <Readout id="snr-standard" label=tr!("lab-readout-standard") value=m(|m| m.standard.snr) />
            <Readout id="snr-diff" label=tr!("lab-readout-diff") value=m(|m| m.differential.snr) />
            <Readout id="snr-gain" label=tr!("lab-readout-gain") value=m(|m| m.snr_gain()) suffix="×" />
            <Readout id="row-sum" label=tr!("lab-readout-row-sum") value=m(|m| m.diff_row_sum) />
        </div>
        <div class="mass">
        <p class="explain">{tr!("lab-mass-explain")}</p>
        <table class="numbers" id="mass-table">
            <thead><tr><th>{tr!("th-attention")}</th><th>{tr!("th-on-signal")}</th><th>{tr!("th-on-noise")}</th></tr></thead>
            <tbody>
                <tr><td>{tr!("lab-standard-a1")}</td><td id="mass-signal-standard">{move || readable(metrics.with(|m| m.standard.signal_mass))}</td><td id="mass-noise-standard">{move || readable(metrics.with(|m| m.standard.noise_mass))}</td></tr>
                <tr><td>{tr!("series-differential")}</td><td id="mass-signal-diff">{move || readable(metrics.with(|m| m.differential.signal_mass))}</td><td id="mass-noise-diff">{move || readable(metrics.with(|m| m.differential.noise_mass))}</td></tr>
            </tbody>
        </table>
        </div>
        <p class="axis-note" id="compute-note">{move || {
            // Nothing to say until a problem is on screen (the busy note says it is coming).
            if computed_on.with(String::is_empty) {
                return String::new();
            }
            let t = timing.get();
            tr!("lab-compute-note", on = computed_on.get(), problem = format!("{:.1}", t.problem_ms), lambda = format!("{:.1}", t.lambda_ms))
        }}</p>
    }
}

/// The chart of one query's weights, opened by clicking a row.
#[component]
fn RowChart(state: RwSignal<LabState>, runs: Runs, lambda: Memo<f32>) -> impl IntoView {
    let row = Memo::new(move |_| state.with(|s| s.row));
    // Static: standard attention's weights, the signal keys, and axes that hold the
    // differential weights for every λ of the slider (A1 − λ·A2 is linear in λ, so its
    // extremes are at the ends). The differential weights at the current λ are the overlay.
    let spec = Signal::derive(move || {
        let i = row.get()?;
        runs.with(|run| {
            let run = Some(run).filter(|r| i < r.n())?;
            let (a1, lo) = run.row(i, LAMBDA_RANGE.0);
            let (_, hi) = run.row(i, LAMBDA_RANGE.1);
            let pts = |v: &[f32]| v.iter().enumerate().map(|(j, w)| (j as f64, *w as f64)).collect::<Vec<_>>();
            Some(ChartSpec {
                title: tr!("lab-row-title", i = i),
                x_label: tr!("fig-row-x"),
                y_label: tr!("lab-weight"),
                series: vec![
                    Series { dashed: false, name: tr!("lab-standard-a1"), color: BLUE, points: pts(&a1) },
                    Series { dashed: false, name: tr!("lab-differential-a1-a2"), color: ORANGE, points: vec![] },
                ],
                dots: run.inputs.signal_keys.iter().map(|&j| (j as f64, a1[j] as f64)).collect(),
                extent: [pts(&lo), pts(&hi)].concat(),
                ..Default::default()
            })
        })
        .flatten()
    });
    let overlay = Signal::derive(move || {
        let i = row.get()?;
        let l = lambda.get();
        runs.with(|run| {
            let run = Some(run).filter(|r| i < r.n())?;
            let (_, diff) = run.row(i, l);
            Some(Overlay {
                series: vec![Series { dashed: false, name: String::new(), color: ORANGE, points: diff.iter().enumerate().map(|(j, w)| (j as f64, *w as f64)).collect() }],
                ..Default::default()
            })
        })
        .flatten()
    });
    view! {
        <Show when=move || row.get().is_some()>
            <figure class="panel" id="row-panel">
                <Chart id="chart-row" label=tr!("lab-chart-row-label") spec overlay />
                <figcaption class="explain">{tr!("lab-row-explain")}</figcaption>
                <button on:click=move |_| state.update(|s| s.row = None)>{tr!("close")}</button>
            </figure>
        </Show>
    }
}

pub(super) fn lambda_chart(curve: Option<(Vec<SnrPoint>, SnrPoint)>) -> Option<ChartSpec> {
    let (curve, best) = curve?;
    Some(ChartSpec {
        title: tr!("chart-snr-lambda"),
        x_label: "λ".into(),
        y_label: tr!("chart-snr-log"),
        y_log: true,
        series: vec![Series { dashed: false, name: "A1 − λ·A2".into(), color: ORANGE, points: curve.iter().map(|p| (p.x, p.snr)).collect() }],
        markers: vec![Marker { x: best.x, label: tr!("chart-best-lambda", lambda = format!("{:.2}", best.x)), color: RED }],
        ..Default::default()
    })
}

/// The current λ on the SNR-against-λ chart: it moves with the slider.
pub(super) fn lambda_marker(lambda: f32, m: LabMetrics) -> Overlay {
    Overlay { markers: vec![Marker { x: lambda as f64, label: format!("λ = {:.2}", lambda), color: GREY }], dots: vec![(lambda as f64, m.differential.snr)], ..Default::default() }
}

fn noise_chart(points: &[NoiseSweepPoint], lambda: f32) -> Option<ChartSpec> {
    if points.is_empty() {
        return None;
    }
    let markers = engine::unusable_noise(points).map(|x| Marker { x, label: tr!("lab-unusable", sigma = format!("{x:.2}")), color: RED }).into_iter().collect();
    let grid = engine::noise_grid();
    Some(ChartSpec {
        title: tr!("lab-chart-noise-label"),
        x_label: tr!("lab-noise-x"),
        y_label: tr!("chart-snr-log"),
        y_log: true,
        series: vec![
            Series { dashed: false, name: tr!("series-standard"), color: BLUE, points: points.iter().map(|p| (p.noise, p.standard_snr)).collect() },
            Series { dashed: false, name: tr!("series-differential-at", lambda = format!("{lambda:.2}")), color: ORANGE, points: points.iter().map(|p| (p.noise, p.differential_snr)).collect() },
        ],
        markers,
        // The σ axis spans the whole sweep from the first point on, so the chart fills in
        // left to right instead of rescaling around one or two points.
        extent: [grid[0], grid[grid.len() - 1]].iter().map(|&x| (x as f64, points[0].standard_snr)).collect(),
        ..Default::default()
    })
}

pub(super) fn context_chart(points: &[NoiseMassPoint]) -> Option<ChartSpec> {
    if points.is_empty() {
        return None;
    }
    Some(ChartSpec {
        title: tr!("chart-context-title"),
        x_label: tr!("chart-context-x"),
        y_label: tr!("chart-context-y"),
        x_log: true,
        series: vec![
            Series { dashed: false, name: tr!("series-standard-sampled"), color: BLUE, points: points.iter().map(|p| (p.n as f64, p.standard)).collect() },
            Series { dashed: true, name: tr!("series-standard-expected"), color: GREY, points: points.iter().map(|p| (p.n as f64, p.standard_expected)).collect() },
            Series { dashed: false, name: tr!("series-differential"), color: ORANGE, points: points.iter().map(|p| (p.n as f64, p.differential)).collect() },
        ],
        ..Default::default()
    })
}
