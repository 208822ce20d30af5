//! The lesson's last two figures: the three shipped models on one prompt (the explorer's
//! default), and the paper's numbers beside what our models do with that prompt.

use crate::engine::lesson::facts::{negative_lambda_note, ModelFacts};
use crate::engine::lesson::paper;
use crate::engine::model::{explain_each, Explained};
use crate::state::model_state::{AttentionKind, ModelState};
use crate::tr;
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::status_line::{Status, StatusLine};
use crate::ui::format::{cell_text, kind_title, signed};
use crate::ui::model_files::Library;
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::sync::Arc;

/// The lesson's prompt: the explorer's default, so "open the explorer" shows the same.
fn prompt_state() -> ModelState {
    ModelState::default()
}

/// The three models' runs of the lesson's prompt, in `AttentionKind::ALL` order, once per
/// logit precision asked for.
type Runs = RwSignal<Option<Vec<Vec<Arc<Explained>>>>>;

/// Loads the three models (once per visit of the step) and runs the lesson's prompt at
/// each of `bits` (`None`: f32, as trained).
fn lesson_runs(bits: &'static [Option<u32>]) -> (RwSignal<Status>, RwSignal<u32>, Runs) {
    let library = Library::new();
    let status = RwSignal::new(Status::Loading(tr!("lesson-three-models")));
    let attempt = RwSignal::new(0u32);
    let runs: Runs = RwSignal::new(None);
    Effect::new(move |_| {
        attempt.track();
        status.set(Status::Loading(tr!("lesson-three-models")));
        leptos::task::spawn_local(async move {
            let state = prompt_state();
            let mut models = Vec::new();
            for kind in AttentionKind::ALL {
                match library.load(kind.slug().to_string(), state.checkpoint).await {
                    Ok(m) => models.push(m),
                    Err(e) => {
                        status.try_set(Status::Failed(e.to_string()));
                        return;
                    }
                }
            }
            let refs: Vec<_> = models.iter().map(|m| m.as_ref()).collect();
            let each =
                bits.iter().map(|b| explain_each(&refs, &ModelState { bits: *b, ..state.clone() }, &[]).map(|cols| cols.into_iter().map(|c| c.explained).collect())).collect::<Result<Vec<_>, _>>();
            match each {
                Ok(all) => {
                    runs.try_set(Some(all));
                    status.try_set(Status::Ready);
                }
                Err(e) => {
                    status.try_set(Status::RunFailed(e));
                }
            }
        });
    });
    (status, attempt, runs)
}

fn facts_of(runs: &[Arc<Explained>]) -> Vec<ModelFacts> {
    AttentionKind::ALL.iter().zip(runs).map(|(k, x)| ModelFacts::of(*k, x)).collect()
}

#[component]
pub fn ModelsFigure() -> impl IntoView {
    let (status, attempt, all) = lesson_runs(&[None]);
    let runs = Signal::derive(move || all.with(|a| a.as_ref().map(|a| a[0].clone())));
    // One colour scale for the three maps, so the columns compare.
    let vmax = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref().map(|r| {
                facts_of(r)
                    .iter()
                    .zip(r)
                    .filter_map(|(f, x)| x.output.layers.last()?.maps.get(f.best_head))
                    .flat_map(|m| m.combined().iter().map(|v| v.abs()).collect::<Vec<_>>())
                    .fold(0.0f32, f32::max)
            })
        })
    });
    let column = move |col: usize| {
        let kind = AttentionKind::ALL[col];
        let run = move || runs.with(|r| r.as_ref().map(|r| r[col].clone()));
        let fact = move || run().map(|x| ModelFacts::of(kind, &x));
        let map = Signal::derive(move || {
            let (x, f, vmax) = (run()?, fact()?, vmax.get()?);
            let m = x.output.layers.last()?.maps.get(f.best_head)?;
            Some(PooledMap { r: m.a1.nrows(), values: Arc::new(m.combined().iter().copied().collect()), scale: Scale { diverging: true, vmax, contrast: Contrast::Sqrt } })
        });
        let n = Signal::derive(move || run().map_or(1, |x| x.prompt.tokens.len()));
        let span = Signal::derive(move || run().map(|x| x.prompt.answer_spans[0].clone().collect::<Vec<_>>()).unwrap_or_default());
        let labels = Signal::derive(move || run().map(|x| x.axis_labels()).unwrap_or_default());
        let marked = Signal::derive(move || run().map(|x| x.answer_row()));
        let ticks = Signal::derive(move || run().map(|x| x.needle_words()).unwrap_or_default());
        let hover = RwSignal::new(None::<Hover>);
        let tooltip = move || {
            let (h, x, f) = (hover.get()?, run()?, fact()?);
            let text = cell_text(&x, x.output.layers.len() - 1, f.best_head, h)?;
            Some(view! { <div class="tooltip" style=h.tooltip_style()>{text}</div> })
        };
        let title = if kind == AttentionKind::Baseline { tr!("map-softmax") } else { "A1 − λ·A2".to_string() };
        view! {
            <article class="panel column" id=format!("lesson-{}", kind.slug())>
                <h3>{kind_title(kind)}</h3>
                <p class="prediction" data-right=move || fact().map(|f| f.right.to_string())>{move || fact().map(|f| tr!("lesson-it-answers", what = f.prediction()))}</p>
                <Heatmap id=format!("fig-{}", kind.slug()) title map n signal_keys=span hover marked_row=marked ticks_mark=ticks labels />
                <p class="axis-note">{move || fact().map(|f| tr!("lesson-best-head", head = f.best_head, answer = signed(f.best.answer), noise = signed(f.best.noise)))}</p>
                {tooltip}
            </article>
        }
    };
    view! {
        <figure class="lesson-figure panel" id="lesson-figure" data-figure="models">
            <StatusLine status attempt ready=tr!("lesson-computed") />
            <p class="prompt-text" id="lesson-prompt">{move || runs.with(|r| r.as_ref().map(|r| tr!("lesson-prompt", prompt = r[0].prompt.tokens.iter().map(|t| crate::engine::model::word(*t)).collect::<Vec<_>>().join(" "))))}</p>
            <div class="compare">{(0..3).map(column).collect_view()}</div>
            <figcaption class="facts" id="figure-facts">{move || runs.with(|r| r.as_ref().map(|r| {
                let f = facts_of(r);
                let right = f.iter().filter(|m| m.right).count();
                let each = f.iter().map(|m| tr!("lesson-model-answers", model = kind_title(m.kind), what = m.prediction())).collect::<Vec<_>>().join(&tr!("sentence-gap"));
                tr!("lesson-models-facts", right = right, each = each)
            }))}</figcaption>
        </figure>
    }
}

#[component]
pub fn PaperFigure() -> impl IntoView {
    let (status, attempt, all) = lesson_runs(&[None, Some(4)]);
    let facts = Memo::new(move |_| all.with(|a| a.as_ref().map(|a| facts_of(&a[0]))));
    // The same prompt with every attention logit stored in 4 bits (absmax), as Figure 8.
    let four = Memo::new(move |_| all.with(|a| a.as_ref().map(|a| facts_of(&a[1]))));
    let at_four = move |kind: AttentionKind| {
        four.with(|f| {
            f.as_ref()
                .and_then(|f| f.iter().find(|m| m.kind == kind))
                .map(|m| tr!(if m.right { "right-percent" } else { "wrong-percent" }, percent = crate::engine::lesson::facts::percent(m.probability as f64)))
                .unwrap_or_default()
        })
    };
    let paper_row = |k: usize| {
        let (a, n) = (paper::mean(&paper::TABLE3_ANSWER[k].1), paper::mean(&paper::TABLE3_NOISE[k].1));
        let (_, top1, median) = paper::TABLE5_LOGITS[k];
        view! { <tr class="paper"><td>{tr!(if k == 0 { "paper-transformer" } else { "paper-diff" })}</td><td>{format!("{a:.2}")}</td><td>{format!("{n:.2}")}</td><td>{format!("{top1:.1}")}</td><td>{format!("{median:.1}")}</td><td>"–"</td></tr> }
    };
    view! {
        <figure class="lesson-figure panel" id="lesson-figure" data-figure="paper">
            <StatusLine status attempt ready=tr!("lesson-computed") />
            <div class="table-scroll" tabindex="0"><table class="numbers" id="paper-table">
                <caption>{tr!("paper-caption")}</caption>
                <thead><tr><th>{tr!("th-model")}</th><th>{tr!("th-on-answer")}</th><th>{tr!("th-on-context")}</th><th>{tr!("th-largest-logit")}</th><th>{tr!("th-median-logit")}</th><th>{tr!("th-four-bit")}</th></tr></thead>
                <tbody>
                    {paper_row(0)}
                    {paper_row(1)}
                    {move || facts.get().map(|f| f.into_iter().map(|m| view! {
                        <tr class="ours" data-kind=m.kind.slug()><td>{tr!("ours-tiny", model = kind_title(m.kind))}</td><td>{signed(m.mean.answer)}</td><td>{signed(m.mean.noise)}</td><td>{format!("{:.1}", m.logit_top1)}</td><td>{format!("{:.1}", m.logit_median)}</td><td class="four-bit">{at_four(m.kind)}</td></tr>
                    }).collect_view())}
                </tbody>
            </table></div>
            <p class="explain">{paper::figure8()}{tr!("sentence-gap")}{tr!("paper-four-bit-explain")}</p>
            <figcaption class="facts" id="figure-facts">{move || facts.get().map(|f| {
                let line = f.iter().map(|m| tr!("paper-model-line", model = kind_title(m.kind), answer = signed(m.mean.answer), noise = signed(m.mean.noise))).collect::<Vec<_>>().join(&tr!("list-separator"));
                let note = negative_lambda_note(&f).map(|n| format!("{}{n}", tr!("sentence-gap"))).unwrap_or_default();
                format!("{}{note}", tr!("paper-facts", line = line))
            })}</figcaption>
        </figure>
    }
}
