//! {tr!("layer-open")}: a file in the command-line tool's format, or one layer of
//! a whole-model checkpoint, run on a random or uploaded `x`; each head's A1, A2 and
//! A1 − λ·A2. The file is read in the page and never sent anywhere.

use crate::engine::explorer::layer_file::{load_layer, random_x, read_x, run_layer, LayerChoice, MAX_TOKENS};
use crate::engine::shared::{LambdaTrace, LayerOutput};
use crate::state::model_state::AttentionKind;
use crate::tr;
use crate::ui::components::heatmap::{Heatmap, Hover, PooledMap};
use crate::ui::components::readout::readable;
use crate::ui::pages::explorer::own_model::{bytes_of, files_of};
use crate::viz::colormap::{Contrast, Scale};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// A file the reader chose: its name and bytes.
type Picked = Option<Arc<(String, Vec<u8>)>>;

/// What the view shows of one run of the layer.
struct Shown {
    out: LayerOutput,
    summary: String,
    prefixes: Vec<String>,
    prefix: String,
}

/// The reader's settings: what the file does not say about the layer, and the `x`.
#[derive(Clone, Copy)]
struct Settings {
    kind: RwSignal<AttentionKind>,
    heads: RwSignal<usize>,
    depth: RwSignal<usize>,
    prefix: RwSignal<Option<String>>,
    tokens: RwSignal<usize>,
    seed: RwSignal<u64>,
}

impl Settings {
    /// Shows the layer under `prefix`; a whole model's "layers.N.attn" is at depth N,
    /// which sets DIFF V1's λ_init as the model had it.
    fn pick_layer(self, prefix: String) {
        if let Some(n) = prefix.strip_prefix("layers.").and_then(|r| r.split('.').next()).and_then(|n| n.parse().ok()) {
            self.depth.set(n);
        }
        self.prefix.set(Some(prefix));
    }

    /// Loads and runs the layer, or says what is wrong with the files or the settings.
    fn run(self, layer_file: &(String, Vec<u8>), x_file: Option<&(String, Vec<u8>)>) -> Result<Shown, String> {
        let choice = LayerChoice { kind: self.kind.get(), heads: self.heads.get(), kv_heads: None, depth: self.depth.get() };
        let layer = load_layer(&layer_file.0, &layer_file.1, choice, self.prefix.get().as_deref())?;
        let (x, from) = match x_file {
            Some((name, bytes)) => (read_x(name, bytes, layer.width)?, tr!("layer-x-from", name = name)),
            None => {
                let (t, seed) = (self.tokens.get(), self.seed.get());
                (random_x(t, layer.width, seed), tr!("layer-random-x", tokens = t.clamp(1, MAX_TOKENS), seed = seed))
            }
        };
        let out = run_layer(&layer, &x);
        let ignored = match layer.ignored.len() {
            0 => String::new(),
            n => tr!("layer-ignored", n = n),
        };
        let summary = tr!(
            "layer-opened",
            prefix = layer.prefix.as_str(),
            file = layer_file.0.as_str(),
            kind = choice.kind.slug(),
            heads = layer.layer.n_heads(),
            width = layer.width,
            from = from,
            ignored = ignored
        );
        Ok(Shown { out, summary, prefixes: layer.prefixes, prefix: layer.prefix })
    }
}

/// The layer's file, its `x` and the reader's settings (kept above the page: `Kept`).
#[derive(Clone, Copy)]
pub struct LayerKept {
    layer_file: RwSignal<Picked>,
    x_file: RwSignal<Picked>,
    settings: Settings,
    head: RwSignal<usize>,
}

impl LayerKept {
    pub fn new() -> Self {
        let settings =
            Settings { kind: RwSignal::new(AttentionKind::DiffV1), heads: RwSignal::new(2), depth: RwSignal::new(0), prefix: RwSignal::new(None), tokens: RwSignal::new(32), seed: RwSignal::new(1) };
        LayerKept { layer_file: RwSignal::new(None), x_file: RwSignal::new(None), settings, head: RwSignal::new(0) }
    }
}

#[component]
pub fn LayerView() -> impl IntoView {
    let LayerKept { layer_file, x_file, settings, head } = crate::ui::pages::explorer::kept::Kept::get().layer;
    let shown = RwSignal::new(None::<Result<Arc<Shown>, String>>);
    Effect::new(move |_| {
        let Some(file) = layer_file.get() else { return };
        let result = settings.run(&file, x_file.get().as_deref()).map(Arc::new);
        if let Ok(s) = &result {
            head.update(|h| *h = (*h).min(s.out.maps.len().saturating_sub(1)));
        }
        shown.set(Some(result));
    });
    // A new layer file starts on its first layer.
    let read_into = move |target: RwSignal<Picked>, is_layer: bool| {
        move |ev: leptos::ev::Event| {
            let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
            let Some(file) = files_of(input.and_then(|i| i.files())).into_iter().next() else { return };
            leptos::task::spawn_local(async move {
                match bytes_of(&file).await {
                    Ok(bytes) => {
                        if is_layer {
                            settings.prefix.set(None);
                        }
                        target.set(Some(Arc::new((file.name(), bytes))));
                    }
                    Err(e) => shown.set(Some(Err(e))),
                }
            });
        }
    };
    let number = move |ev: leptos::ev::Event, max: usize| event_target_value(&ev).parse::<usize>().ok().map(|v| v.clamp(1, max));
    view! {
        <details class="own-model" data-key="own-layer" id="own-layer">
            <summary>{tr!("layer-open")}</summary>
            <p class="explain">{tr!("layer-explain")}</p>
            <div class="controls">
                <div class="control"><label for="layer-file">{tr!("layer-file")}</label><input type="file" id="layer-file" accept=".safetensors" on:change=read_into(layer_file, true) /></div>
                <div class="control"><label for="layer-kind">{tr!("layer-kind")}</label>
                    <select id="layer-kind" on:change=move |ev| settings.kind.set(AttentionKind::from_slug(&event_target_value(&ev)).unwrap_or(AttentionKind::DiffV1))>
                        {AttentionKind::ALL.map(|k| view! { <option value=k.slug() prop:selected=move || settings.kind.get() == k>{k.slug()}</option> }).into_iter().collect_view()}
                    </select></div>
                <div class="control"><label for="layer-heads">{tr!("layer-heads")}</label><input type="number" id="layer-heads" min="1" max="64" prop:value=move || settings.heads.get().to_string() on:change=move |ev| { if let Some(v) = number(ev, 64) { settings.heads.set(v) } } /></div>
                <Show when=move || settings.kind.get() == AttentionKind::DiffV1>
                    <div class="control"><label for="layer-depth">{tr!("layer-depth")}</label><input type="number" id="layer-depth" min="0" max="63" prop:value=move || settings.depth.get().to_string() on:change=move |ev| settings.depth.set(event_target_value(&ev).parse::<usize>().map_or(0, |v| v.min(63))) /></div>
                </Show>
                <div class="control"><label for="layer-tokens">{tr!("layer-tokens")}</label><input type="number" id="layer-tokens" min="1" max=MAX_TOKENS prop:value=move || settings.tokens.get().to_string() on:change=move |ev| { if let Some(v) = number(ev, MAX_TOKENS) { settings.tokens.set(v); x_file.set(None) } } /></div>
                <div class="control"><label for="layer-x">{tr!("layer-x")}</label><input type="file" id="layer-x" accept=".safetensors" on:change=read_into(x_file, false) /></div>
            </div>
            <LayerResult shown settings head />
        </details>
    }
}

/// The message, the layer select (for a file of several layers), λ and one head's maps.
#[component]
fn LayerResult(shown: RwSignal<Option<Result<Arc<Shown>, String>>>, settings: Settings, head: RwSignal<usize>) -> impl IntoView {
    let ok = move || shown.get().and_then(Result::ok);
    let message = move || match shown.get() {
        None => view! { <p class="axis-note" id="layer-message" role="status">{tr!("layer-choose")}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="notice" id="layer-message" role="alert">{e}</p> }.into_any(),
        Some(Ok(s)) => view! { <p class="axis-note" id="layer-message" role="status">{s.summary.clone()}</p> }.into_any(),
    };
    let maps = Memo::new(move |_| {
        let s = ok()?;
        let m = s.out.maps.get(head.get())?;
        let t = m.a1.nrows();
        let vmax = m.a1.iter().chain(m.a2.iter().flatten()).fold(0.0f32, |a, b| a.max(*b));
        let pooled = |v: &ndarray::Array2<f32>, diverging| PooledMap { r: t, values: Arc::new(v.iter().copied().collect()), scale: Scale { diverging, vmax, contrast: Contrast::Sqrt } };
        Some((pooled(&m.a1, false), m.a2.as_ref().map(|a| pooled(a, false)), m.diff.as_ref().map(|d| pooled(d, true))))
    });
    let n = Memo::new(move |_| ok().and_then(|s| s.out.maps.first().map(|m| m.a1.nrows())).unwrap_or(1));
    let hover = RwSignal::new(None::<Hover>);
    let tooltip = move || {
        let (h, s) = (hover.get()?, ok()?);
        let m = s.out.maps.get(head.get())?;
        let mut text = format!("{}\nA1 = {}", tr!("layer-cell", i = h.i, j = h.j), readable(*m.a1.get((h.i, h.j))? as f64));
        if let (Some(a2), Some(d)) = (&m.a2, &m.diff) {
            text += &format!("\nA2 = {}\nA1 − λ·A2 = {}", readable(a2[[h.i, h.j]] as f64), readable(d[[h.i, h.j]] as f64));
        }
        Some(view! { <div class="tooltip" id="layer-tooltip" style=h.tooltip_style()>{text}</div> })
    };
    let lambda = move || {
        ok().map(|s| match &s.out.lambda {
            LambdaTrace::Scalar(l) => tr!("layer-lambda", lambda = format!("{l:.3}")),
            LambdaTrace::PerToken(m) => {
                tr!("layer-lambda-per-token", from = format!("{:.2}", m.iter().fold(f32::INFINITY, |a, b| a.min(*b))), to = format!("{:.2}", m.iter().fold(f32::NEG_INFINITY, |a, b| a.max(*b))))
            }
            LambdaTrace::None => tr!("layer-no-lambda"),
        })
    };
    let no_keys = Signal::derive(Vec::new);
    view! {
        {message}
        <Show when=move || ok().is_some_and(|s| s.prefixes.len() > 1)>
            <div class="control"><label for="layer-prefix">{tr!("layer-several")}</label>
                <select id="layer-prefix" on:change=move |ev| settings.pick_layer(event_target_value(&ev))>
                    {move || ok().map(|s| s.prefixes.iter().map(|p| { let selected = *p == s.prefix; view! { <option value=p.clone() selected=selected>{p.clone()}</option> } }).collect_view())}
                </select></div>
        </Show>
        <Show when=move || ok().is_some()>
            <p class="axis-note" id="layer-lambda">{lambda}</p>
            <div class="control"><label for="layer-head">{tr!("model-head")}</label>
                <select id="layer-head" on:change=move |ev| head.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || ok().map(|s| (0..s.out.maps.len()).map(|h| view! { <option value=h.to_string() prop:selected=move || head.get() == h>{h.to_string()}</option> }).collect_view())}
                </select></div>
            <div class="maps">
                <Heatmap id="layer-a1" title="A1" explain=tr!("layer-a1-explain") map=Signal::derive(move || maps.get().map(|m| m.0)) n signal_keys=no_keys hover />
                <Show when=move || maps.with(|m| m.as_ref().is_some_and(|m| m.1.is_some()))>
                    <Heatmap id="layer-a2" title="A2" explain=tr!("single-a2-explain") map=Signal::derive(move || maps.get().and_then(|m| m.1)) n signal_keys=no_keys hover />
                    <Heatmap id="layer-diff" title="A1 − λ·A2" explain=tr!("layer-diff-explain") map=Signal::derive(move || maps.get().and_then(|m| m.2)) n signal_keys=no_keys hover />
                </Show>
            </div>
            {tooltip}
        </Show>
    }
}
