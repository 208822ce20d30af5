//! The model explorer: the shipped tiny models (baseline, DIFF V1, DIFF V2) on a fresh
//! multi-needle prompt, at any checkpoint of their training, with every layer's and
//! head's maps.

use super::super::components::chart::{Chart, ChartSpec, Series, ORANGE};
use super::super::components::heatmap::{Heatmap, Hover, PooledMap};
use super::super::components::readout::readable;
use super::super::backend::{self, Backend};
use super::super::components::notice::{NoticeBar, StateNotes};
use super::super::route::{Page, Router};
use crate::engine::model::{explain, word, Explained, LambdaTrace, Model, RowSummary};
use crate::engine::model_session::{compare_on_gpu, GpuComparison, ModelKey, ModelLibrary};
use crate::state::model_state::{AttentionKind, Knob, ModelState, CHECKPOINT, CONTEXTS, DEPTH, NEEDLES, QUERIES};
use crate::ui::now_ms;
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::JsCast;

async fn fetch(url: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.map_err(|e| format!("could not fetch {url}: {e:?}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| format!("{url}: not a response"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    Ok(response)
}

async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let promise = fetch(url).await?.array_buffer().map_err(|e| format!("{url}: {e:?}"))?;
    let buffer = wasm_bindgen_futures::JsFuture::from(promise).await.map_err(|e| format!("{url}: {e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Loading(String),
    Ready,
    Failed(String),
}

fn kind_title(kind: AttentionKind) -> &'static str {
    match kind {
        AttentionKind::Baseline => "Baseline Transformer",
        AttentionKind::DiffV1 => "DIFF Transformer V1",
        AttentionKind::DiffV2 => "DIFF Transformer V2",
    }
}

/// The page's handle on the engine's model library, which fetches each shipped card and
/// checkpoint once per visit (through the browser's `fetch`, under the site's path).
#[derive(Clone, Copy)]
struct Library(StoredValue<Rc<ModelLibrary>, LocalStorage>);

impl Library {
    fn new() -> Self {
        Self(StoredValue::new_local(Rc::new(ModelLibrary::default())))
    }

    fn model(&self, key: &ModelKey) -> Option<Rc<Model>> {
        self.0.try_get_value()?.model(key)
    }

    async fn load(self, kind: String, ckpt: usize) -> Result<Rc<Model>, String> {
        let library = self.0.try_get_value().ok_or("the page was closed")?;
        library.load(&kind, ckpt, |path: String| async move { fetch_bytes(&path).await }).await
    }

    fn checkpoint_label(&self, kind: &str, i: usize) -> Option<String> {
        self.0.try_get_value()?.checkpoint_label(kind, i)
    }
}

/// The state, its link and the notices about it: a change of link while the page is open
/// (typed, pasted, Back) is applied like the link the page was opened with.
fn linked_state(router: Router) -> (RwSignal<ModelState>, StateNotes<ModelState>) {
    let (initial, lines) = ModelState::from_params(&router.asked.get_untracked().params);
    let state = RwSignal::new(initial.clone());
    let notes = StateNotes::new();
    notes.set(initial, lines);
    Effect::new(move |_| router.publish(Page::Model, state.with(|s| s.to_params())));
    router.follow(Page::Model, move |params| {
        let (s, lines) = ModelState::from_params(params);
        notes.set(s.clone(), lines);
        if state.with_untracked(|cur| *cur != s) {
            state.set(s);
        }
    });
    (state, notes)
}

/// Fetches the card and the checkpoint (each once) when the model or checkpoint changes;
/// `loaded` names the one ready for the prompt.
fn load_models(which: Memo<ModelKey>, library: Library, status: RwSignal<Status>, loaded: RwSignal<Option<ModelKey>>) {
    Effect::new(move |_| {
        let (kind, ckpt) = which.get();
        if library.model(&(kind.clone(), ckpt)).is_some() {
            loaded.set(Some((kind, ckpt)));
            status.set(Status::Ready);
            return;
        }
        let title = AttentionKind::from_slug(&kind).map_or("model", kind_title);
        status.set(Status::Loading(format!("{title} checkpoint {ckpt}")));
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
                    status.try_set(Status::Failed(e));
                }
            }
        });
    });

}

/// Runs the state's prompt through the loaded model whenever either changes, and keeps
/// layer, head and row inside what the model and prompt have.
fn explain_prompts(state: RwSignal<ModelState>, notes: StateNotes<ModelState>, library: Library, status: RwSignal<Status>, loaded: RwSignal<Option<ModelKey>>) -> Signal<Option<Arc<Explained>>> {
    // Run the prompt through the loaded model whenever either changes. `prompt_key` is
    // read, not only tracked: a memo computes (and subscribes to the state) only when read.
    let explained = StoredValue::new_local(None::<Arc<Explained>>);
    let version = RwSignal::new(0u64);
    let prompt_key = Memo::new(move |_| state.with(|s| (s.needles, s.queries, s.context, s.depth, s.seed)));
    Effect::new(move |_| {
        let (Some(key), _) = (loaded.get(), prompt_key.get()) else { return };
        let Some(model) = library.model(&key) else { return };
        let s = state.get_untracked();
        match explain(&model, &s) {
            Ok(x) => {
                let heads = x.output.layers.first().map(|l| l.maps.len()).unwrap_or(1);
                let mut clamped = s.clone();
                let moved = clamped.clamp_to_model(x.output.layers.len(), heads, x.prompt.tokens.len());
                explained.set_value(Some(Arc::new(x)));
                version.update(|v| *v += 1);
                if !moved.is_empty() {
                    // The link's notes stay with the state they led to.
                    notes.set(clamped.clone(), [notes.lines_for(&s), moved].concat());
                    state.set(clamped);
                }
            }
            Err(e) => status.set(Status::Failed(e)),
        }
    });
    Signal::derive(move || {
        version.track();
        explained.get_value()
    })
}

#[component]
pub fn ModelPage(backend: RwSignal<Backend>) -> impl IntoView {
    let (state, notes) = linked_state(Router::get());
    let library = Library::new();
    let status = RwSignal::new(Status::Loading("model".into()));
    let loaded = RwSignal::new(None::<ModelKey>);
    let which = Memo::new(move |_| state.with(|s| (s.kind.slug().to_string(), s.checkpoint)));
    // The card names its checkpoints; until it has arrived, say which one of five.
    let checkpoint_label = Signal::derive(move || {
        let (kind, i) = which.get();
        loaded.track();
        library.checkpoint_label(&kind, i).unwrap_or_else(|| format!("checkpoint {} of 5", i + 1))
    });

    load_models(which, library, status, loaded);
    let current = explain_prompts(state, notes, library, status, loaded);
    let view_state = ExplainedView { state, current };
    let hover = RwSignal::new(None::<Hover>);

    view! {
        <section class="page model">
            <h2>"Model explorer"</h2>
            <p class="explain">"Three tiny models, trained in this repository to find a city's number among filler words: a baseline Transformer, DIFF V1 and DIFF V2 with matched parameter counts. Pick one, scrub through its training, and see where the position that must answer looks."</p>
            <NoticeBar id="link-notices" lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <ModelControls state checkpoint_label shape=view_state.shape() />
            <p class="axis-note" id="model-status" role="status">{move || match status.get() {
                Status::Loading(what) => format!("Loading {what}…"),
                Status::Ready => "Computed on the CPU core (WebAssembly).".to_string(),
                Status::Failed(e) => format!("Could not load the model: {e}"),
            }}</p>
            <Show when=move || matches!(status.get(), Status::Failed(_))>
                <p class="notice" id="model-error" role="alert">{move || match status.get() { Status::Failed(e) => e, _ => String::new() }}</p>
            </Show>
            <PromptView state current />
            <HeadMaps view_state hover />
            <RowPanel view_state />
            <details class="dev" id="model-dev">
                <summary>"For developers: checking the GPU"</summary>
                <p class="explain">{format!("The WebGPU forward pass of these models is checked against this CPU result in the project's tests (logits within {:.0e}, maps within {:.0e}).", GpuComparison::LOGITS_TOLERANCE, GpuComparison::MAP_TOLERANCE)}</p>
                <GpuCheck backend state loaded library current />
            </details>
        </section>
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
    let is_diff = move || state.with(|s| s.kind != AttentionKind::Baseline);
    let pick = Callback::new(move |i: usize| state.update(|s| s.row = Some(i)));
    let tooltip = move || {
        let h = hover.get()?;
        let x = current.get()?;
        let (l, hd) = state.with(|s| (s.layer, s.head));
        let m = x.output.layers.get(l)?.maps.get(hd)?;
        let (tq, tk) = (word(*x.prompt.tokens.get(h.i)?), word(*x.prompt.tokens.get(h.j)?));
        let mut text = format!("query {} “{tq}” → key {} “{tk}”\nA1 = {}", h.i, h.j, readable(m.a1[[h.i, h.j]] as f64));
        if let (Some(a2), Some(d)) = (&m.a2, &m.diff) {
            text += &format!("\nA2 = {}\nA1 − λ·A2 = {}", readable(a2[[h.i, h.j]] as f64), readable(d[[h.i, h.j]] as f64));
        }
        Some(view! { <div class="tooltip" id="model-tooltip" style=h.tooltip_style()>{text}</div> })
    };
    view! {
        <div class="maps">
            <Heatmap id="model-a1" title="A1" explain="The first softmax map of the head (for the baseline, its only map). Ticks mark the needle being asked about. Click a row (or press Enter on it) to plot it below."
                map=Signal::derive(move || head_maps.get().map(|m| m.0)) n=n_tokens signal_keys=answer_span hover on_pick=pick />
            <Show when=is_diff>
                <Heatmap id="model-a2" title="A2" explain="The second softmax map: what the head subtracts."
                    map=Signal::derive(move || head_maps.get().and_then(|m| m.1)) n=n_tokens signal_keys=answer_span hover on_pick=pick />
                <Heatmap id="model-diff" title="A1 − λ·A2" explain="The map that multiplies the values. Red adds, blue subtracts, white ignores."
                    map=Signal::derive(move || head_maps.get().and_then(|m| m.2)) n=n_tokens signal_keys=answer_span hover on_pick=pick />
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
            title: format!("Row {} (“{token}”) over the prompt, layer {l} head {hd}", s.position),
            x_label: "key position".into(),
            y_label: "weight".into(),
            series: vec![Series { name: if diff { "A1 − λ·A2".into() } else { "A".into() }, color: ORANGE, points: row.iter().enumerate().map(|(j, w)| (j as f64, *w as f64)).collect() }],
            dots: span.map(|j| (j as f64, row[j] as f64)).collect(),
            ..Default::default()
        })
    });
    let picked = move || state.with(|s| s.row.is_some());
    view! {
        <figure class="panel" id="row-panel">
            <Chart id="chart-answer-row" label="Attention of one query row over the prompt" spec />
            <figcaption class="explain" id="row-caption">{move || summary.get().map(|(s, _, token, _, diff, _)| {
                let which = if picked() { format!("Row {} (“{token}”), picked on a map.", s.position) } else { format!("The row of “→” (position {}), the token that must produce the answer.", s.position) };
                format!("{which} Red dots mark the asked needle “KEY is VALUE .”. {}", s.caption(diff))
            })}</figcaption>
            <Show when=picked>
                <button id="row-reset" on:click=move |_| state.update(|s| s.row = None)>"Back to the “→” row"</button>
            </Show>
        </figure>
    }
}

/// "Run on WebGPU": the same prompt through the GPU forward pass, compared with the CPU
/// core's (`GpuComparison`: its tolerances); `data-score` is the larger error in units
/// of its tolerance (≤ 1 passes).
#[component]
fn GpuCheck(
    backend: RwSignal<Backend>,
    state: RwSignal<ModelState>,
    loaded: RwSignal<Option<(String, usize)>>,
    library: Library,
    current: Signal<Option<Arc<Explained>>>,
) -> impl IntoView {
    let result = RwSignal::new(None::<GpuComparison>);
    let run = move |_| {
        let (Some(ctx), Some(key)) = (backend::gpu(), loaded.get_untracked()) else { return };
        let (Some(model), Some(x)) = (library.model(&key), current.get_untracked()) else { return };
        let (layer, head) = state.with_untracked(|s| (s.layer, s.head));
        result.set(Some(GpuComparison { score: f32::NAN, sentence: "running on WebGPU…".into() }));
        leptos::task::spawn_local(async move {
            let outcome = compare_on_gpu(&ctx, &model, &x, layer, head, now_ms).await;
            result.try_set(Some(outcome));
        });
    };
    view! {
        <Show when=move || backend.with(|b| matches!(b, Backend::WebGpu { .. })) fallback=|| view! { <p class="axis-note">"This browser runs the CPU path, so there is no GPU to compare here."</p> }>
            <div class="buttons">
                <button id="model-gpu-check" on:click=run>"Run on WebGPU and compare"</button>
                <span class="axis-note" id="model-gpu-result" data-score=move || result.get().map(|r| r.score.to_string()).unwrap_or_default()>{move || result.get().map(|r| r.sentence).unwrap_or_default()}</span>
            </div>
        </Show>
    }
}

/// `<option>`s for a select; `prop:selected` (not the attribute) so that a state set by
/// a link or a clamp shows even after the user has touched the select.
fn options(values: Vec<(String, String)>, selected: impl Fn() -> String + Clone + Send + Sync + 'static) -> impl IntoView {
    values.into_iter().map(|(v, label)| { let sel = selected.clone(); let v2 = v.clone(); view! { <option value=v prop:selected=move || sel() == v2>{label}</option> } }).collect_view()
}

#[component]
fn ModelControls(state: RwSignal<ModelState>, checkpoint_label: Signal<String>, shape: Memo<(usize, usize)>) -> impl IntoView {
    let set = move |f: fn(&mut ModelState, String)| move |ev: leptos::ev::Event| { let v = event_target_value(&ev); state.update(|s| f(s, v)) };
    let numbered = |n: usize| (0..n).map(|i| (i.to_string(), i.to_string())).collect::<Vec<_>>();
    // A range input for one of the state's knobs, with the table's bounds and label.
    let slider = move |knob: Knob, shown: Signal<String>| view! {
        <div class="control"><label for=knob.id><span>{knob.label}</span><span class="value">{move || shown.get()}</span></label>
            <input type="range" id=knob.id min=knob.min max=knob.max step=knob.step prop:value=move || state.with(|s| (knob.get)(s)).to_string() aria-valuetext=move || shown.get()
                on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse() { state.update(|s| knob.set(s, v)) } }/></div>
    };
    view! {
        <div class="controls">
            <div class="control"><label for="model-kind">"Model"</label>
                <select id="model-kind" on:change=set(|s, v| s.kind = AttentionKind::from_slug(&v).unwrap_or(s.kind))>
                    {options(AttentionKind::ALL.into_iter().map(|k| (k.slug().to_string(), kind_title(k).to_string())).collect(), move || state.with(|s| s.kind.slug().to_string()))}
                </select></div>
            {slider(CHECKPOINT, checkpoint_label)}
            {slider(NEEDLES, Signal::derive(move || state.with(|s| s.needles.to_string())))}
            {slider(QUERIES, Signal::derive(move || state.with(|s| s.queries.to_string())))}
            {slider(DEPTH, Signal::derive(move || state.with(|s| s.depth.map(|d| format!("{d}%")).unwrap_or_else(|| "random".into()))))}
            <div class="control"><label for="context">"Context length"</label>
                <select id="context" on:change=set(|s, v| s.context = v.parse().unwrap_or(64))>
                    {options(CONTEXTS.iter().map(|c| (c.to_string(), if *c == 64 { "64 (training length)".to_string() } else { format!("{c} ({}× training)", c / 64) })).collect(), move || state.with(|s| s.context.to_string()))}
                </select></div>
            <div class="control"><label for="layer">"Layer"</label>
                <select id="layer" on:change=set(|s, v| s.layer = v.parse().unwrap_or(0))>
                    {move || options(numbered(shape.get().0), move || state.with(|s| s.layer.to_string()))}
                </select></div>
            <div class="control"><label for="head">"Head"</label>
                <select id="head" on:change=set(|s, v| s.head = v.parse().unwrap_or(0))>
                    {move || options(numbered(shape.get().1), move || state.with(|s| s.head.to_string()))}
                </select></div>
        </div>
        <div class="buttons">
            <span>"Prompt seed " <strong id="prompt-seed">{move || state.with(|s| s.seed)}</strong></span>
            <button id="new-prompt" on:click=move |_| state.update(|s| { s.seed = (js_sys::Math::random() * 1e9) as u64; s.row = None; })>"New prompt"</button>
        </div>
    }
}

#[component]
fn PromptView(state: RwSignal<ModelState>, current: Signal<Option<Arc<Explained>>>) -> impl IntoView {
    let view_tokens = move || {
        let x = current.get()?;
        let p = &x.prompt;
        let tokens = p.tokens.iter().enumerate().map(|(i, &t)| {
            let class = if p.answer_spans[0].contains(&i) { "tok answer" } else if p.needle_spans.iter().any(|s| s.contains(&i)) { "tok needle" } else if i >= p.context.end { "tok query" } else { "tok" };
            view! { <span class=class title=format!("position {i}")>{word(t)}</span> }
        }).collect_view();
        Some(tokens)
    };
    let predictions = move || {
        let x = current.get()?;
        let layer = state.with(|s| s.layer);
        let lambda = match x.output.layers.get(layer).map(|l| &l.lambda) {
            Some(LambdaTrace::Scalar(l)) => format!("λ of layer {layer}: {l:.3}"),
            Some(LambdaTrace::PerToken(m)) => format!("λ of layer {layer} at “→” (per head): {}", m.row(x.prompt.answer_positions[0]).iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(", ")),
            _ => "no λ: the baseline subtracts nothing".into(),
        };
        let rows = x.predictions.iter().enumerate().map(|(k, p)| {
            let verdict = if p.right() { "right" } else { "wrong" };
            view! { <li class=verdict data-right=p.right().to_string()>{format!("Query {}: predicts {} ({:.0}%), the answer is {} ({:.0}%) — {verdict}", k + 1, word(p.predicted), 100.0 * p.probability, word(p.answer), 100.0 * p.answer_probability)}</li> }
        }).collect_view();
        Some(view! { <ul id="predictions">{rows}</ul><p class="axis-note" id="lambda-note">{lambda}</p> })
    };
    view! {
        <div class="panel prompt" id="prompt">{view_tokens}</div>
        {predictions}
    }
}
