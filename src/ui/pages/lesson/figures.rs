//! The lesson's live figures: each lab step computes its own small problem on the CPU
//! core (N ≤ 256: a few milliseconds) when the step opens, and its sentence is made from
//! that problem (`engine::lesson_facts`), so the text stays true wherever the slider is.

use crate::engine::arch::ArchConfig;
use crate::engine::lab::{context_lengths, noise_mass_point, LabRun, MapKind};
use crate::engine::lesson::facts::{branches_sentence, context_sentence, cost_rows, cost_sentence, failure_sentence, lambda_init_table, noise_correlation, ChooseFacts, RowFacts, SubtractFacts};
use crate::engine::lesson::{Figure, Step, STEPS};
use crate::state::lab_state::LabState;
use crate::state::lesson_state::LessonState;
use crate::state::route::{Page, Route};
use crate::tr;
use crate::ui::components::chart::{Chart, ChartSpec, Series, BLUE};
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::readout::readable;
use crate::ui::components::slider::Slider;
use crate::ui::pages::lab::{context_chart, lambda_chart, lambda_marker};
use crate::ui::pages::lesson::models::{ModelsFigure, PaperFigure};
use crate::ui::pages::lesson::text_step::TextFigure;
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::sync::Arc;

/// The share of noise the earlier steps use: what the failure step compares against.
const REFERENCE_COMMON: f32 = 0.95;
/// The query whose row the first step plots.
const ROW: usize = 0;

/// A lab problem on screen, equal by identity (a new problem is a new run).
#[derive(Clone)]
struct Run(Arc<LabRun>);

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// `figure_link`: where "open this" goes, for a figure whose state is not a lab problem.
#[component]
pub fn StepFigure(step: usize, state: RwSignal<LessonState>, figure_link: RwSignal<Option<(usize, String)>>) -> impl IntoView {
    let s = STEPS[step];
    match s.figure {
        Figure::Cost => view! { <CostFigure step figure_link /> }.into_any(),
        Figure::Models => view! { <ModelsFigure /> }.into_any(),
        Figure::Paper => view! { <PaperFigure /> }.into_any(),
        Figure::Text => view! { <TextFigure /> }.into_any(),
        _ => view! { <LabFigure step=s state /> }.into_any(),
    }
}

/// A lab step: its slider, its figure and the sentence that reads the figure.
#[component]
fn LabFigure(step: Step, state: RwSignal<LessonState>) -> impl IntoView {
    let lab = Memo::new(move |_| state.with(|s| s.lab.clone()).unwrap_or_default());
    let problem = Memo::new(move |_| lab.with(LabState::lab_params));
    let lambda = Memo::new(move |_| lab.with(|l| l.lambda));
    let run = Memo::new(move |_| Run(Arc::new(LabRun::compute_cpu(&problem.get()))));
    let slider = step.knob.map(|knob| {
        let (min, max) = knob.slider_range();
        view! {
            <Slider id=knob.key label=knob.label() min max step=knob.step
                position=Signal::derive(move || lab.with(|l| knob.position(l)))
                shown=Signal::derive(move || lab.with(|l| (knob.show)((knob.get)(l))))
                on_input=Callback::new(move |v: f64| state.update(|s| { if let Some(l) = s.lab.as_mut() { knob.slide(l, v) } })) />
        }
    });
    let body = match step.figure {
        Figure::Row => row_figure(run).into_any(),
        Figure::Context => context_figure(problem, lambda, lab).into_any(),
        Figure::Branches => maps_figure(run, lambda, false).into_any(),
        Figure::Subtract => maps_figure(run, lambda, true).into_any(),
        Figure::Choose => choose_figure(run, lambda, None).into_any(),
        _ => choose_figure(run, lambda, Some(lab)).into_any(),
    };
    // The figure's SNRs at full precision, for a reader's script and the tests (the lab
    // shows the same problem's numbers).
    let snr = move |diff: bool| {
        let m = run.get().0.metrics(lambda.get());
        (if diff { m.differential.snr } else { m.standard.snr }).to_string()
    };
    view! {
        <figure class="lesson-figure panel" id="lesson-figure" data-figure=format!("{:?}", step.figure).to_lowercase()
            data-snr-standard=move || snr(false) data-snr-diff=move || snr(true)>
            <div class="controls">{slider}</div>
            {body}
        </figure>
    }
}

/// The live sentence under a figure: what it shows and its key numbers, for every reader
/// (it is also the figure's text alternative).
fn facts(text: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    view! { <figcaption class="facts" id="figure-facts" aria-live="polite">{text}</figcaption> }
}

fn row_figure(run: Memo<Run>) -> impl IntoView {
    let spec = Signal::derive(move || {
        let r = run.get().0;
        let (a1, _) = r.row(ROW, 0.0);
        Some(ChartSpec {
            title: tr!("fig-row-title", row = ROW, n = r.n()),
            x_label: tr!("fig-row-x"),
            y_label: tr!("fig-row-y"),
            y_log: true,
            series: vec![Series { dashed: false, name: tr!("fig-row-series"), color: BLUE, points: a1.iter().enumerate().map(|(j, w)| (j as f64, *w as f64)).collect() }],
            dots: r.inputs.signal_keys.iter().map(|&j| (j as f64, a1[j] as f64)).collect(),
            ..Default::default()
        })
    });
    view! {
        <Chart id="fig-row" label=tr!("fig-row-label") spec />
        {facts(move || RowFacts::of(&run.get().0, ROW).sentence())}
    }
}

fn context_figure(problem: Memo<crate::engine::lab::LabParams>, lambda: Memo<f32>, lab: Memo<LabState>) -> impl IntoView {
    let points = Memo::new(move |_| {
        let (p, l) = (problem.get(), lambda.get());
        context_lengths().into_iter().map(|n| noise_mass_point(&p, l, n)).collect::<Vec<_>>()
    });
    view! {
        <Chart id="fig-context" label=tr!("fig-context-label") spec=Signal::derive(move || context_chart(&points.get())) />
        {facts(move || context_sentence(&points.get(), lab.with(|l| l.noise)).unwrap_or_default())}
    }
}

/// A1 beside A2, or A1 beside A1 − λ·A2, on one colour scale; hovering a cell reads all
/// three values.
fn maps_figure(run: Memo<Run>, lambda: Memo<f32>, subtract: bool) -> impl IntoView {
    let n = Memo::new(move |_| run.get().0.n());
    let signal_keys = Memo::new(move |_| run.get().0.inputs.signal_keys.clone());
    let vmax = Memo::new(move |_| {
        let r = run.get().0;
        r.maps.a1.iter().chain(r.maps.a2.iter()).fold(0.0f32, |m, v| m.max(*v))
    });
    let map = move |kind: MapKind| {
        Signal::derive(move || {
            let (r, l) = (run.get().0, if kind == MapKind::Diff { lambda.get() } else { 0.0 });
            let side = r.n();
            Some(PooledMap { r: side, values: Arc::new(r.pooled(kind, l, side)), scale: Scale { diverging: kind == MapKind::Diff, vmax: vmax.get(), contrast: Contrast::Sqrt } })
        })
    };
    let hover = RwSignal::new(None::<Hover>);
    let tooltip = move || {
        let (h, r, l) = (hover.get()?, run.get().0, lambda.get());
        (h.i < r.n() && h.j < r.n()).then(|| {
            let v = |k| readable(r.value(k, l, h.i, h.j) as f64);
            let text = format!("{}\nA1 = {}\nA2 = {}\nA1 − λ·A2 = {}", tr!("fig-tooltip", i = h.i, j = h.j), v(MapKind::A1), v(MapKind::A2), v(MapKind::Diff));
            view! { <div class="tooltip" style=h.tooltip_style()>{text}</div> }
        })
    };
    let (second_id, second_title, second_kind, second_explain) =
        if subtract { ("fig-diff", "A1 − λ·A2", MapKind::Diff, tr!("fig-diff-explain")) } else { ("fig-a2", "A2 = softmax(Q2·K2ᵀ/√d)", MapKind::A2, tr!("fig-a2-explain")) };
    view! {
        <div class="maps lesson-maps">
            <Heatmap id="fig-a1" title="A1 = softmax(Q1·K1ᵀ/√d)" explain=tr!("fig-a1-explain") map=map(MapKind::A1) n signal_keys hover />
            <Heatmap id=second_id title=second_title explain=second_explain map=map(second_kind) n signal_keys hover />
        </div>
        {tooltip}
        {facts(move || {
            let r = run.get().0;
            if subtract { SubtractFacts::of(&r, lambda.get()).sentence() } else { branches_sentence(r.params.common, noise_correlation(&r)) }
        })}
    }
}

/// SNR against λ with the current λ marked; on the failure step (`reference` given) the
/// sentence compares the current share of noise with the earlier steps' share.
fn choose_figure(run: Memo<Run>, lambda: Memo<f32>, failure: Option<Memo<LabState>>) -> impl IntoView {
    let curve = Memo::new(move |_| run.get().0.lambda_curve(121));
    let chose = move || {
        let (r, (points, best)) = (run.get().0, curve.get());
        ChooseFacts::of(&r, &points, best, lambda.get())
    };
    // The earlier steps' share of noise does not move with this step's slider: its problem
    // is computed again only when its parameters change (the memo of the parameters holds
    // still while "shared" is dragged), not on every move.
    let reference = failure.map(|lab| {
        let params = Memo::new(move |_| lab.with(|l| LabState { common: REFERENCE_COMMON, ..l.clone() }.lab_params()));
        let run = Memo::new(move |_| Run(Arc::new(LabRun::compute_cpu(&params.get()))));
        let curve = Memo::new(move |_| run.get().0.lambda_curve(121));
        Memo::new(move |_| {
            let (points, best) = curve.get();
            ChooseFacts::of(&run.get().0, &points, best, lab.with(|l| l.lambda))
        })
    });
    let sentence = move || match (failure, reference) {
        (Some(lab), Some(reference)) => failure_sentence(lab.with(|l| l.common), &chose(), REFERENCE_COMMON, &reference.get()),
        _ => chose().sentence(),
    };
    view! {
        <Chart id="fig-lambda" label=tr!("fig-lambda-label")
            spec=Signal::derive(move || lambda_chart(Some(curve.get())))
            overlay=Signal::derive(move || Some(lambda_marker(lambda.get(), run.get().0.metrics(lambda.get())))) />
        {facts(sentence)}
        {failure.is_none().then(|| view! {
            <div class="table-scroll" tabindex="0"><table class="numbers" id="lambda-init-table">
                <caption>{tr!("lambda-init-caption")}</caption>
                <thead><tr><th>{tr!("th-depth")}</th>{lambda_init_table().into_iter().map(|(d, _)| view! { <th>{d}</th> }).collect_view()}</tr></thead>
                <tbody><tr><td>"λ_init"</td>{lambda_init_table().into_iter().map(|(_, l)| view! { <td>{format!("{l:.3}")}</td> }).collect_view()}</tr></tbody>
            </table></div>
        })}
    }
}

/// The calculator's arithmetic for a 7B-class config, with or without grouped KV heads.
#[component]
fn CostFigure(step: usize, figure_link: RwSignal<Option<(usize, String)>>) -> impl IntoView {
    let config = RwSignal::new(ArchConfig::default());
    let gqa = Memo::new(move |_| config.with(|c| c.kv_heads != c.heads));
    Effect::new(move |_| {
        let params = config.with(crate::state::arch_state::to_params);
        figure_link.set(Some((step, Route::to(Page::Arch, params).to_hash())));
    });
    let set = move |kv: Option<usize>| move |_| config.set(ArchConfig { kv_heads: kv.unwrap_or(ArchConfig::default().heads), ..ArchConfig::default() });
    view! {
        <figure class="lesson-figure panel" id="lesson-figure" data-figure="cost">
            <div class="buttons" role="group" aria-label=tr!("cost-kv-heads")>
                <button id="cost-mha" aria-pressed=move || (!gqa.get()).to_string() on:click=set(None)>{tr!("cost-mha")}</button>
                <button id="cost-gqa" aria-pressed=move || gqa.get().to_string() on:click=set(Some(8))>{tr!("cost-gqa")}</button>
            </div>
            <div class="table-scroll" tabindex="0"><table class="numbers" id="cost-table">
                <thead><tr><th>{tr!("th-model")}</th><th>{tr!("th-attention-params")}</th><th>{tr!("th-whole-model")}</th><th>{tr!("th-vs-baseline")}</th><th>{tr!("th-kv-cache")}</th><th>{tr!("th-kv-read")}</th></tr></thead>
                <tbody>{move || cost_rows(&config.get()).into_iter().map(|r| view! {
                    <tr><td>{r.name}</td><td>{r.attention}</td><td>{r.model}</td><td>{r.model_vs_baseline}</td><td>{r.cache}</td><td>{r.read}</td></tr>
                }).collect_view()}</tbody>
            </table></div>
            {facts(move || cost_sentence(&config.get()))}
        </figure>
    }
}
