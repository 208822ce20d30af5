//! A heatmap drawn with direct pixel writes (one `putImageData` per update, never one
//! canvas call per cell), with a colour bar marked at round values and named, axes, signal-key ticks, a crosshair shared
//! with its sibling maps, keyboard navigation, and PNG, SVG and CSV downloads.

use crate::ui::components::announce::{announce, settled};
use crate::ui::components::as_table::MapAsTable;
use crate::ui::components::axis_labels::{Axis, AxisLabelStrip};
use crate::ui::components::canvas::context_2d;
use crate::ui::components::download;
use crate::ui::components::heatmap_export;
use crate::ui::components::readout::readable;
use crate::ui::theme;
use crate::viz::colormap::{Scale, ScaleWords};
use crate::viz::labels::{AxisLabel, MAX_LABELLED};
use crate::viz::map_figure::Figure;
use crate::viz::palette::{css, Palette};
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::Clamped;

/// Where the page holds a map unpooled: `(n, values)` on request, for the full CSV.
pub type FullMap = Callback<(), Option<(usize, Vec<f32>)>>;

/// A map already pooled to `r × r` values, with the scale that colours it.
#[derive(Clone, Debug)]
pub struct PooledMap {
    pub r: usize,
    pub values: Arc<Vec<f32>>,
    pub scale: Scale,
}

impl PartialEq for PooledMap {
    fn eq(&self, other: &Self) -> bool {
        self.r == other.r && Arc::ptr_eq(&self.values, &other.values) && self.scale == other.scale
    }
}

/// The cell under the pointer (or the keyboard cursor) and where to put the tooltip, in
/// page coordinates: the tooltip scrolls with the map it describes instead of staying
/// over whatever scrolls under it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hover {
    pub i: usize,
    pub j: usize,
    pub x: f64,
    pub y: f64,
}

fn page_offset() -> (f64, f64) {
    web_sys::window().map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0))).unwrap_or((0.0, 0.0))
}

impl Hover {
    /// The tooltip's position: beside the cell, on the side with room (on a phone a
    /// tooltip to the right of a cell near the edge would widen the page).
    pub fn tooltip_style(&self) -> String {
        let width = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1e9);
        let left_of_pointer = self.x - page_offset().0 > width / 2.0;
        let shift = if left_of_pointer { "transform:translateX(calc(-100% - 28px));" } else { "" };
        format!("left:{}px;top:{}px;{shift}", self.x + 14.0, self.y + 14.0)
    }
}

/// Sizes a canvas's bitmap, only when it changes: setting it, even to the same size,
/// reallocates and clears the bitmap (a measurable share of a repaint).
pub fn set_size(canvas: &web_sys::HtmlCanvasElement, w: u32, h: u32) {
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
}

/// Draws `map` at one canvas pixel per value (CSS scales it).
pub fn paint(canvas: &web_sys::HtmlCanvasElement, map: &PooledMap) -> Option<()> {
    let r = map.r as u32;
    set_size(canvas, r, r);
    let mut rgba = vec![0u8; map.values.len() * 4];
    map.scale.table().fill(&map.values, &mut rgba);
    let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), r, r).ok()?;
    context_2d(canvas)?.put_image_data(&image, 0.0, 0.0).ok()
}

/// The least distance between two colour-bar labels' places, in CSS px: an end label
/// ("−0.50") lies wholly inside the bar and its neighbour half over it, with a space.
const BAR_LABEL_PX: f32 = 58.0;

/// A colour-bar label centred on its colour; the end labels end at the bar's ends.
fn bar_tick_style(at: f32) -> String {
    let shift = if at <= 0.0 {
        0.0
    } else if at >= 1.0 {
        -100.0
    } else {
        -50.0
    };
    format!("left:{:.3}%;transform:translateX({shift}%)", at * 100.0)
}

fn paint_colorbar(canvas: &web_sys::HtmlCanvasElement, scale: &Scale) -> Option<()> {
    let w = 256u32;
    set_size(canvas, w, 1);
    let mut rgba = vec![255u8; w as usize * 4];
    for (k, px) in rgba.chunks_exact_mut(4).enumerate() {
        px[..3].copy_from_slice(&scale.color(scale.value_at(k as f32 / (w - 1) as f32)));
    }
    let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, 1).ok()?;
    context_2d(canvas)?.put_image_data(&image, 0.0, 0.0).ok()
}

/// Ticks above the map at the signal keys' columns.
fn paint_ticks(canvas: &web_sys::HtmlCanvasElement, n: usize, keys: &[usize], pal: &Palette) -> Option<()> {
    let w = 512u32;
    set_size(canvas, w, 8);
    let ctx = context_2d(canvas)?;
    ctx.clear_rect(0.0, 0.0, w as f64, 8.0);
    ctx.set_fill_style_str(&css(pal.mark));
    for &j in keys {
        let x = (j as f64 + 0.5) / n as f64 * w as f64;
        ctx.fill_rect(x - 1.5, 0.0, 3.0, 8.0);
    }
    Some(())
}

/// Where an outline of cells lies over the map, as CSS percentages of the map's box:
/// row `i` (`Axis::Queries`) or column `j` (`Axis::Keys`) of `n`, or nothing.
///
/// The crosshair and the outlined row are HTML boxes, not an overlay canvas: a canvas
/// the size of the map (one per map, seven in the compare view) is a texture the
/// compositor handles in every frame, a large part of a λ step's frame (README, Performance).
fn outline_style(axis: Axis, at: Option<usize>, n: usize) -> String {
    let Some(k) = at.filter(|k| *k < n) else { return "display:none".into() };
    let (from, size) = (100.0 * k as f64 / n as f64, 100.0 / n as f64);
    match axis {
        Axis::Queries => format!("left:0;width:100%;top:{from}%;height:{size}%"),
        Axis::Keys => format!("top:0;height:100%;left:{from}%;width:{size}%"),
    }
}

/// What a key does on a focused map of `n` × `n` cells with the cursor at `h`.
enum KeyAction {
    Ignore,
    /// Plot this row (Enter or Space).
    Pick(usize),
    /// Move the cursor: arrows step n/64 cells, so any map is crossed in 64 presses.
    Move(usize, usize),
}

fn key_action(key: &str, h: Hover, n: usize) -> KeyAction {
    if n == 0 {
        return KeyAction::Ignore;
    }
    let step = (n / 64).max(1);
    match key {
        "ArrowUp" => KeyAction::Move(h.i.saturating_sub(step), h.j),
        "ArrowDown" => KeyAction::Move((h.i + step).min(n - 1), h.j),
        "ArrowLeft" => KeyAction::Move(h.i, h.j.saturating_sub(step)),
        "ArrowRight" => KeyAction::Move(h.i, (h.j + step).min(n - 1)),
        "Enter" | " " => KeyAction::Pick(h.i),
        _ => KeyAction::Ignore,
    }
}

/// Numbered positions along an axis of a map without token labels: a few round indices,
/// each at the centre of its cell.
#[component]
fn Ruler(axis: Axis, #[prop(into)] n: Signal<usize>) -> impl IntoView {
    let (class, side) = match axis {
        Axis::Keys => ("ruler keys", "left"),
        Axis::Queries => ("ruler queries", "top"),
    };
    let marks = move || {
        let n = n.get();
        crate::viz::ticks::indices(n, 6).into_iter().map(|t| view! { <span style=format!("{side}:{:.3}%", (t.at + 0.5) / n.max(1) as f64 * 100.0)>{t.label}</span> }).collect_view()
    };
    view! { <div class=class aria-hidden="true">{marks}</div> }
}

#[component]
pub fn Heatmap(
    #[prop(into)] id: String,
    #[prop(into)] title: String,
    /// A sentence under the title; none in the compare view's small multiples.
    #[prop(optional, into)]
    explain: String,
    #[prop(into)] map: Signal<Option<PooledMap>>,
    #[prop(into)] n: Signal<usize>,
    #[prop(into)] signal_keys: Signal<Vec<usize>>,
    hover: RwSignal<Option<Hover>>,
    /// What Enter or a click on a row does (plot it); none where rows are not plotted.
    #[prop(optional)]
    on_pick: Option<Callback<usize>>,
    /// A row to outline (the explorer's "→", the position that answers).
    #[prop(optional, into)]
    marked_row: Option<Signal<Option<usize>>>,
    /// The catalogue key of the sentence that names the outlined row ("the row of “→”,
    /// which predicts the answer" unless told).
    #[prop(optional)]
    marked_note: Option<&'static str>,
    /// What the ticks above the map mark ("the signal keys" unless told).
    #[prop(optional, into)]
    ticks_mark: Option<Signal<String>>,
    /// Each token's label, drawn along both axes when there are at most `MAX_LABELLED`.
    #[prop(optional, into)]
    labels: Option<Signal<Vec<AxisLabel>>>,
    /// The downloaded files' name without extension, saying the state the map shows
    /// (`difflens-lab-A1-n1024-lambda0.80`); `difflens-<id>` unless told.
    #[prop(optional, into)]
    file: Option<Signal<String>>,
    /// The whole map, unpooled, as `(n, values)`, where the page holds it: its CSV is then
    /// the full n × n map up to `viz::export::FULL_CSV_MAX`, not the pooled picture.
    #[prop(optional)]
    full: Option<FullMap>,
    /// Say this map's summary through the app's live region when it settles after a
    /// change (the page's main figure; three maps speaking at once would be noise).
    #[prop(optional)]
    announce: bool,
    /// A sentence the page adds to the summary (how this map compares with the baseline's).
    #[prop(optional, into)]
    also: Option<Signal<String>>,
) -> impl IntoView {
    let (canvas, ticks, bar) = (NodeRef::<html::Canvas>::new(), NodeRef::<html::Canvas>::new(), NodeRef::<html::Canvas>::new());

    let scale = Memo::new(move |_| map.with(|m| m.as_ref().map(|m| m.scale)));
    paint_layers(map, canvas, scale, bar, ticks, n, signal_keys);

    let cell_at = move |ev: &leptos::ev::MouseEvent| cell_under(canvas, n.get_untracked(), ev);
    let whole: Whole = StoredValue::new(None);
    let (on_key, read) = cursor_keys(canvas, map, n, hover, on_pick, full, whole);
    let (aria_title, table_title) = (title.clone(), title.clone());
    let stem = stem_of(id.clone(), file);
    let all_labels = Signal::derive(move || labels_of(labels, n.get()));
    let labels = shown_labels(labels, n);
    let labelled = Memo::new(move |_| labels.with(|l| !l.is_empty()));
    let resized = resize_count();
    let bar_ticks = colour_bar_ticks(bar, scale, resized);

    let save = export_callback(MapExport { title: title.clone(), map, n, canvas, bar, bar_ticks, stem: Callback::new(move |_| stem()), full });
    let (summary, shown) = summarised(map, n, MapWords { title: title.clone(), signal_keys, marked_row, ticks_mark, labels: all_labels, full, also, whole }, announce);
    let summary_id = format!("{id}-summary");
    view! {
        <figure class="panel" id=id>
            <h3>{title}</h3>
            {(!explain.is_empty()).then(|| view! { <p class="explain">{explain}</p> })}
            <div class="axis-note">{move || keys_note(signal_keys, n, ticks_mark)}</div>
            <div class="map-frame" class:labelled=labelled>
            <div class="above">
                <canvas node_ref=ticks class="ticks" style="width:100%;height:8px;display:block" aria-hidden="true"></canvas>
                <Show when=move || labelled.get() fallback=move || view! { <Ruler axis=Axis::Keys n /> }>
                    <AxisLabelStrip axis=Axis::Keys labels hovered=Signal::derive(move || hover.get().map(|h| h.j)) resized />
                </Show>
            </div>
            <Show when=move || labelled.get() fallback=move || view! { <Ruler axis=Axis::Queries n /> }>
                <AxisLabelStrip axis=Axis::Queries labels hovered=Signal::derive(move || hover.get().map(|h| h.i)) resized />
            </Show>
            <div class="heatmap-wrap">
                <canvas node_ref=canvas class="map" tabindex="0" role="img" aria-describedby=summary_id.clone()
                    aria-label=move || crate::tr!(if on_pick.is_some() { "map-aria-pick" } else { "map-aria" }, title = aria_title.clone(), n = n.get())
                    on:mousemove=move |ev| hover.set(cell_at(&ev))
                    on:mouseleave=move |_| hover.set(None)
                    on:click=move |ev| {
                        // A tap (no pointer hovers on a touch screen) reads the cell as a hover does.
                        let cell = cell_at(&ev);
                        hover.set(cell);
                        if let (Some(h), Some(pick)) = (cell, on_pick) { pick.run(h.i) }
                    }
                    on:keydown=on_key
                    on:blur=move |_| hover.set(None)></canvas>
                <Outlines marked_row hover n />
            </div>
            </div>
            <div class="axis-note">{move || queries_note(marked_row, marked_note, n)}</div>
            <p class="map-summary" id=summary_id>{move || summary.get()}</p><p class="sr-only cursor-read" aria-live="polite">{move || read.get()}</p>
            <ColorBar bar scale bar_ticks />
            <ExportButtons save />
            <MapAsTable title=table_title map=shown labels=all_labels />
        </figure>
    }
}

/// The downloads' file stem: the page's, else `difflens-<id>`.
fn stem_of(id: String, file: Option<Signal<String>>) -> impl Fn() -> String + Clone + Send + Sync + 'static {
    move || file.map(|f| f.get()).unwrap_or_else(|| format!("difflens-{id}"))
}

/// The sentence under the map: the queries' range, and which row is outlined.
fn queries_note(marked_row: Option<Signal<Option<usize>>>, marked_note: Option<&'static str>, n: Signal<usize>) -> String {
    match marked_row.and_then(|m| m.get()) {
        Some(i) => crate::tr!(marked_note.unwrap_or("map-queries-marked"), last = n.get().saturating_sub(1), row = i),
        None => crate::tr!("map-queries", last = n.get().saturating_sub(1)),
    }
}

/// Every token's label where the page gives one per token (for the words; the axes draw
/// only some).
fn labels_of(labels: Option<Signal<Vec<AxisLabel>>>, n: usize) -> Vec<AxisLabel> {
    labels.map(|l| l.get()).filter(|l| l.len() == n).unwrap_or_default()
}

/// What a map's sentences need beside its numbers.
#[derive(Clone)]
struct MapWords {
    title: String,
    signal_keys: Signal<Vec<usize>>,
    marked_row: Option<Signal<Option<usize>>>,
    ticks_mark: Option<Signal<String>>,
    labels: Signal<Vec<AxisLabel>>,
    full: Option<FullMap>,
    also: Option<Signal<String>>,
    whole: Whole,
}

/// The page's whole map for one picture, kept so the summary and every arrow key of the
/// cursor read it once per picture, not once each (it is up to 1024² entries).
type Whole = StoredValue<Option<(usize, Arc<Vec<f32>>)>>;

/// Every entry of the map behind picture `m` where the page holds it and it is small
/// enough to read at once.
fn every_entry(full: Option<FullMap>, m: &PooledMap, n: usize, kept: Whole) -> Option<Arc<Vec<f32>>> {
    let key = Arc::as_ptr(&m.values) as usize;
    if let Some(v) = kept.with_value(|k| k.as_ref().filter(|(at, _)| *at == key).map(|(_, v)| v.clone())) {
        return Some(v);
    }
    let v = Arc::new(full.filter(|_| n <= crate::viz::export::FULL_CSV_MAX).and_then(|f| f.run(())).filter(|(side, v)| *side == n && v.len() == n * n).map(|(_, v)| v)?);
    kept.set_value(Some((key, v.clone())));
    Some(v)
}

fn summarised(map: Signal<Option<PooledMap>>, n: Signal<usize>, w: MapWords, speak: bool) -> (Memo<String>, Signal<Option<(PooledMap, usize)>>) {
    let state = settled(Signal::derive(move || (map.get(), n.get())));
    let shown = Signal::derive(move || state.get().and_then(|(m, n)| m.map(|m| (m, n))));
    let title = w.title.clone();
    let summary = Memo::new(move |_| {
        let Some((m, n)) = shown.get() else { return String::new() };
        // Only the settled map makes a new summary: the rest is read as it is then. (A new
        // lab problem's keys arrive before its map; reading them tracked would summarise
        // the old map at once, reading the page's whole new map to do so.)
        let keys = w.signal_keys.get_untracked();
        let row = w.marked_row.and_then(|r| r.get_untracked());
        let whole = if m.r < n { every_entry(w.full, &m, n, w.whole) } else { None };
        let facts = match &whole {
            Some(v) => crate::viz::describe::map_facts(v, n, n, &keys, row),
            None => crate::viz::describe::map_facts(&m.values, m.r, n, &keys, row),
        };
        let what = match keys.is_empty() {
            true => String::new(),
            false => w.ticks_mark.map_or_else(|| crate::tr!("map-signal-keys"), |t| t.get_untracked()),
        };
        let labels = w.labels.get_untracked();
        let mut said = facts.map(|f| crate::ui::components::figure_words::map_summary(&f, &what, (!labels.is_empty()).then_some(labels.as_slice()))).unwrap_or_default();
        if let Some(also) = w.also.map(|a| a.get_untracked()).filter(|a| !a.is_empty() && !said.is_empty()) {
            said = format!("{said}{}{also}", crate::tr!("sentence-gap"));
        }
        said
    });
    if speak {
        let first = StoredValue::new(true);
        Effect::new(move |_| {
            let s = summary.get();
            if s.is_empty() {
                return;
            }
            match first.get_value() {
                true => first.set_value(false),
                false => announce(format!("{title}: {s}")),
            }
        });
    }
    (summary, shown)
}

/// The map's key handler (arrows move the cursor, Enter picks the row) and what the
/// cursor reads aloud after an arrow, for the polite region under the map.
fn cursor_keys(
    canvas: NodeRef<html::Canvas>,
    map: Signal<Option<PooledMap>>,
    n: Signal<usize>,
    hover: RwSignal<Option<Hover>>,
    on_pick: Option<Callback<usize>>,
    full: Option<FullMap>,
    whole: Whole,
) -> (impl Fn(leptos::ev::KeyboardEvent) + Clone + 'static, RwSignal<String>) {
    let read = RwSignal::new(String::new());
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        on_map_key(&ev, canvas, n.get_untracked(), hover, on_pick);
        if let (true, Some(h), Some(m)) = (ev.key().starts_with("Arrow"), hover.get_untracked(), map.get_untracked()) {
            read.set(cell_reading(h, &m, n.get_untracked(), full, whole));
        }
    };
    (on_key, read)
}

/// What the keyboard cursor reads aloud at `h`: the entry itself where the picture or the
/// page holds it, else the picture's value, which is its block's largest magnitude.
fn cell_reading(h: Hover, m: &PooledMap, n: usize, full: Option<FullMap>, whole: Whole) -> String {
    if h.i >= n || h.j >= n || m.r == 0 {
        return String::new();
    }
    if m.r == n {
        return crate::tr!("map-cell-read", i = h.i, j = h.j, value = readable(m.values[h.i * n + h.j] as f64));
    }
    if let Some(v) = every_entry(full, m, n, whole) {
        return crate::tr!("map-cell-read", i = h.i, j = h.j, value = readable(v[h.i * n + h.j] as f64));
    }
    let pixel = |k: usize| (k * m.r / n).min(m.r - 1);
    let edges = crate::viz::pooling::block_edges(n, m.r);
    // The pixel whose block holds k (edges are floors, so the estimate may be one early).
    let block = |k: usize| (pixel(k)..m.r).find(|p| edges[p + 1] > k).unwrap_or(m.r - 1);
    crate::tr!("map-cell-read-pooled", i = h.i, j = h.j, value = readable(m.values[block(h.i) * m.r + block(h.j)] as f64))
}

/// The labels to draw: the page's, when there is one a token and not too many.
fn shown_labels(labels: Option<Signal<Vec<AxisLabel>>>, n: Signal<usize>) -> Signal<Vec<AxisLabel>> {
    Signal::derive(move || {
        let n = n.get();
        labels.map(|l| l.get()).filter(|l| l.len() == n && n <= MAX_LABELLED).unwrap_or_default()
    })
}

/// The sentence above the map: the keys' range, and what the ticks mark where there are any.
fn keys_note(signal_keys: Signal<Vec<usize>>, n: Signal<usize>, ticks_mark: Option<Signal<String>>) -> String {
    match signal_keys.with(Vec::is_empty) {
        true => crate::tr!("map-keys", last = n.get().saturating_sub(1)),
        false => crate::tr!("map-keys-ticks", last = n.get().saturating_sub(1), ticks = ticks_mark.map_or_else(|| crate::tr!("map-signal-keys"), |t| t.get())),
    }
}

/// The outlined row and the crosshair's row and column. Outlines in dark and light, not a
/// colour: they show on any colour of the map, and a crosshair of hue alone merges with
/// the green and yellow signal columns under deuteranopia and protanopia.
#[component]
fn Outlines(marked_row: Option<Signal<Option<usize>>>, hover: RwSignal<Option<Hover>>, n: Signal<usize>) -> impl IntoView {
    view! {
        <div class="overlay" aria-hidden="true">
            <div class="outline marked" style=move || outline_style(Axis::Queries, marked_row.and_then(|m| m.get()), n.get())></div>
            <div class="outline" style=move || outline_style(Axis::Queries, hover.get().map(|h| h.i), n.get())></div>
            <div class="outline" style=move || outline_style(Axis::Keys, hover.get().map(|h| h.j), n.get())></div>
        </div>
    }
}

/// The cell of an `n × n` map under the pointer, in the canvas's drawn box.
fn cell_under(canvas: NodeRef<html::Canvas>, n: usize, ev: &leptos::ev::MouseEvent) -> Option<Hover> {
    let c = canvas.get()?;
    let rect = c.get_bounding_client_rect();
    let fx = (ev.client_x() as f64 - rect.left()) / rect.width();
    let fy = (ev.client_y() as f64 - rect.top()) / rect.height();
    if !(0.0..1.0).contains(&fx) || !(0.0..1.0).contains(&fy) || n == 0 {
        return None;
    }
    let idx = |f: f64| ((f * n as f64) as usize).min(n - 1);
    Some(Hover { i: idx(fy), j: idx(fx), x: ev.page_x() as f64, y: ev.page_y() as f64 })
}

/// A key on the focused map: arrows move the cursor cell (the tooltip follows it), Enter
/// picks its row where rows can be picked.
fn on_map_key(ev: &leptos::ev::KeyboardEvent, canvas: NodeRef<html::Canvas>, n: usize, hover: RwSignal<Option<Hover>>, on_pick: Option<Callback<usize>>) {
    let h = hover.get_untracked().unwrap_or(Hover { i: 0, j: 0, x: 0.0, y: 0.0 });
    match key_action(&ev.key(), h, n) {
        KeyAction::Ignore => return,
        KeyAction::Pick(i) => match on_pick {
            Some(pick) => pick.run(i),
            None => return,
        },
        KeyAction::Move(i, j) => {
            let Some(c) = canvas.get_untracked() else { return };
            let rect = c.get_bounding_client_rect();
            let at = |k: usize, lo: f64, size: f64| lo + (k as f64 + 0.5) / n as f64 * size;
            let (sx, sy) = page_offset();
            hover.set(Some(Hover { i, j, x: sx + at(j, rect.left(), rect.width()), y: sy + at(i, rect.top(), rect.height()) }));
        }
    }
    ev.prevent_default();
}

/// What a map's downloads read: the figure's title, the map and its canvases, the colour
/// bar's ticks, the files' stem, and the whole unpooled map where the page holds it.
struct MapExport {
    title: String,
    map: Signal<Option<PooledMap>>,
    n: Signal<usize>,
    canvas: NodeRef<html::Canvas>,
    bar: NodeRef<html::Canvas>,
    bar_ticks: Memo<Vec<crate::viz::colormap::BarTick>>,
    stem: Callback<(), String>,
    full: Option<FullMap>,
}

/// Saves the map as PNG, SVG or CSV (the argument: the file's extension).
fn export_callback(x: MapExport) -> Callback<&'static str> {
    Callback::new(move |ext: &'static str| {
        let (Some(m), Some(c), Some(b)) = (x.map.get_untracked(), x.canvas.get_untracked(), x.bar.get_untracked()) else { return };
        let stem = x.stem.run(());
        let name = crate::viz::export::file_name(&stem, ext);
        let n = x.n.get_untracked();
        let (ticks, scale_name) = (x.bar_ticks.get_untracked(), m.scale.describe());
        let figure = Figure { title: &x.title, params: &stem, n, bar: &ticks, scale_name: &scale_name };
        let done = match ext {
            "png" => heatmap_export::png(&c, &b, &figure).and_then(|u| download::url(&u, &name)),
            "svg" => heatmap_export::svg(&c, &b, &figure).and_then(|s| download::text(&s, "image/svg+xml", &name)),
            _ => {
                let whole = x.full.filter(|_| m.r < n && n <= crate::viz::export::FULL_CSV_MAX).and_then(|f| f.run(())).filter(|(side, _)| *side == n);
                let csv = match &whole {
                    Some((side, values)) => crate::viz::export::map_csv(&x.title, values, *side, n),
                    None => crate::viz::export::map_csv(&x.title, &m.values, m.r, n),
                };
                download::text(&csv, "text/csv", &name)
            }
        };
        if done.is_none() {
            leptos::logging::warn!("map: the {ext} download failed");
        }
    })
}

/// The colour bar: its canvas, the round values marked along it and the scale's name.
#[component]
fn ColorBar(bar: NodeRef<html::Canvas>, scale: Memo<Option<Scale>>, bar_ticks: Memo<Vec<crate::viz::colormap::BarTick>>) -> impl IntoView {
    view! {
        <div class="colorbar">
            <canvas node_ref=bar aria-hidden="true"></canvas>
            <div class="colorbar-ticks">{move || bar_ticks.get().into_iter().map(|t| view! {
                <span style=bar_tick_style(t.at) data-at=t.at.to_string()>{t.label}</span>
            }).collect_view()}</div>
            <div class="colorbar-name">{move || scale.get().map(|s| s.describe()).unwrap_or_default()}</div>
        </div>
    }
}

#[component]
fn ExportButtons(save: Callback<&'static str>) -> impl IntoView {
    view! {
        <div class="exports" role="group" aria-label=crate::tr!("map-download-group")>
            <span>{crate::tr!("download")}</span>
            <button class="export-png" on:click=move |_| save.run("png")>"PNG"</button>
            <button class="export-svg" on:click=move |_| save.run("svg")>"SVG"</button>
            <button class="export-csv" on:click=move |_| save.run("csv")>"CSV"</button>
        </div>
    }
}

/// Repaints each layer of the map only when its own inputs change: a λ drag changes the
/// values, not the colour bar, and every repainted canvas is another texture for the
/// compositor to upload before the frame can show.
fn paint_layers(
    map: Signal<Option<PooledMap>>,
    canvas: NodeRef<html::Canvas>,
    scale: Memo<Option<Scale>>,
    bar: NodeRef<html::Canvas>,
    ticks: NodeRef<html::Canvas>,
    n: Signal<usize>,
    signal_keys: Signal<Vec<usize>>,
) {
    Effect::new(move |_| {
        if let (Some(m), Some(c)) = (map.get(), canvas.get()) {
            paint(&c, &m);
        }
    });
    Effect::new(move |_| {
        if let (Some(s), Some(b)) = (scale.get(), bar.get()) {
            paint_colorbar(&b, &s);
        }
    });
    Effect::new(move |_| {
        if let Some(t) = ticks.get() {
            paint_ticks(&t, n.get().max(1), &signal_keys.get(), &theme::palette());
        }
    });
}

/// The colour bar's round values: as many as its width fits (read after layout, and
/// again on every resize).
fn colour_bar_ticks(bar: NodeRef<html::Canvas>, scale: Memo<Option<Scale>>, resized: RwSignal<u32>) -> Memo<Vec<crate::viz::colormap::BarTick>> {
    let bar_width = RwSignal::new(0.0f64);
    Effect::new(move |_| {
        resized.track();
        if let Some(b) = bar.get() {
            bar_width.set(b.get_bounding_client_rect().width());
        }
    });
    Memo::new(move |_| {
        let w = bar_width.get();
        let gap = if w > 1.0 { (BAR_LABEL_PX / w as f32).min(0.5) } else { 0.25 };
        scale.get().map(|s| s.ticks(gap)).unwrap_or_default()
    })
}

/// Counts the window's resizes while the component lives (what re-measures its labels).
fn resize_count() -> RwSignal<u32> {
    let resized = RwSignal::new(0u32);
    let listener = window_event_listener(leptos::ev::resize, move |_| resized.update(|r| *r = r.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    resized
}
