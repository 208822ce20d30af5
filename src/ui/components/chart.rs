//! Line charts drawn with plotters on a canvas. Log axes are drawn as log10 on a linear
//! axis with labels written back as powers, so one code path serves every chart.
//!
//! What moves with a slider (the current λ, the differential weights) goes on an
//! overlay canvas drawn with a few raw 2D calls in the chart's coordinates: plotters
//! measures every label by laying out a hidden element (a forced layout of the page),
//! which a chart redrawn on every frame of a drag cannot afford.

use leptos::html;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub color: (u8, u8, u8),
    pub points: Vec<(f64, f64)>,
}

/// A vertical line with a label (best λ, current λ, where attention becomes unusable).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub x: f64,
    pub label: String,
    pub color: (u8, u8, u8),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartSpec {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub series: Vec<Series>,
    pub markers: Vec<Marker>,
    /// Highlighted points (e.g. signal keys), drawn as circles.
    pub dots: Vec<(f64, f64)>,
    /// Points the axes must cover without being drawn (where the overlay may go).
    pub extent: Vec<(f64, f64)>,
}

/// The moving part of a chart, drawn over its static part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    pub series: Vec<Series>,
    pub markers: Vec<Marker>,
    pub dots: Vec<(f64, f64)>,
}

/// Data → canvas pixels for a drawn chart: `pixel = a · axis(value) + b` on each axis,
/// read off plotters' own mapping, and the plotting area's vertical extent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    x_log: bool,
    y_log: bool,
    x: (f64, f64),
    y: (f64, f64),
    top: f64,
    bottom: f64,
}

impl Frame {
    fn pixel(&self, (x, y): (f64, f64)) -> Option<(f64, f64)> {
        Some((self.x.0 * axis(x, self.x_log)? + self.x.1, self.y.0 * axis(y, self.y_log)? + self.y.1))
    }
}

/// Colour-blind-safe pair (blue / orange) plus a neutral for markers.
pub const BLUE: (u8, u8, u8) = (33, 102, 172);
pub const ORANGE: (u8, u8, u8) = (230, 97, 1);
pub const GREY: (u8, u8, u8) = (90, 99, 117);
pub const RED: (u8, u8, u8) = (178, 24, 43);

fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn axis(v: f64, log: bool) -> Option<f64> {
    match log {
        true if v > 0.0 && v.is_finite() => Some(v.log10()),
        true => None,
        false => v.is_finite().then_some(v),
    }
}

fn label(v: f64, log: bool) -> String {
    let x = if log { 10f64.powf(v) } else { v };
    let a = x.abs();
    if a < 1e-9 {
        return "0".into();
    }
    if a >= 10_000.0 {
        return format!("{:.0}k", x / 1000.0);
    }
    // A log axis's ticks are evenly spaced powers (10^0.60, 10^0.65, …): two significant
    // digits keep neighbours apart ("4.0, 4.5", not "4, 4").
    match (log, a) {
        (true, a) if a >= 10.0 => format!("{x:.0}"),
        (false, a) if a >= 10.0 && (x - x.round()).abs() < 1e-6 => format!("{x:.0}"),
        (false, a) if a >= 10.0 => format!("{x:.1}"),
        (true, a) if a >= 1.0 => format!("{x:.1}"),
        (true, a) if a >= 0.1 => format!("{x:.2}"),
        (true, a) if a >= 0.01 => format!("{x:.3}"),
        (true, _) => format!("{x:.1e}"),
        (false, a) if a >= 1.0 => format!("{x:.1}"),
        (false, a) if a >= 0.01 => format!("{x:.2}"),
        (false, _) => format!("{x:.0e}"),
    }
}

/// In presenter mode (`present=1`) lines and text are drawn heavier, for a projector.
fn presenting() -> bool {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()).is_some_and(|b| b.class_list().contains("present"))
}

/// Draws the static chart; returns its frame (`None` when there was nothing to draw).
pub fn draw(canvas: web_sys::HtmlCanvasElement, spec: &ChartSpec) -> Result<Option<Frame>, String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let (line, caption, small) = if presenting() { (4, 22, 17) } else { (2, 15, 12) };
    let root = CanvasBackend::with_canvas_object(canvas).ok_or("no 2D canvas context")?.into_drawing_area();
    root.fill(&WHITE).map_err(e)?;
    let map = |(x, y): (f64, f64)| Some((axis(x, spec.x_log)?, axis(y, spec.y_log)?));
    let all: Vec<(f64, f64)> =
        spec.series.iter().flat_map(|s| s.points.iter().copied()).chain(spec.dots.iter().copied()).chain(spec.extent.iter().copied()).filter_map(map).collect();
    if all.is_empty() {
        return root.present().map_err(e).map(|_| None);
    }
    let range = |vals: Vec<f64>| {
        let (lo, hi) = vals.iter().fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
        let pad = if hi > lo { 0.04 * (hi - lo) } else { 0.5 };
        (lo - pad)..(hi + pad)
    };
    let xr = range(all.iter().map(|p| p.0).collect());
    let yr = range(all.iter().map(|p| p.1).collect());
    let mut chart = ChartBuilder::on(&root)
        .caption(&spec.title, ("sans-serif", caption))
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(64)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(e)?;
    let frame = {
        let (p0, p1) = (chart.backend_coord(&(xr.start, yr.start)), chart.backend_coord(&(xr.end, yr.end)));
        let slope = |a: i32, b: i32, lo: f64, hi: f64| (b - a) as f64 / (hi - lo);
        let (sx, sy) = (slope(p0.0, p1.0, xr.start, xr.end), slope(p0.1, p1.1, yr.start, yr.end));
        Frame { x_log: spec.x_log, y_log: spec.y_log, x: (sx, p0.0 as f64 - sx * xr.start), y: (sy, p0.1 as f64 - sy * yr.start), top: p1.1 as f64, bottom: p0.1 as f64 }
    };
    let (xl, yl) = (spec.x_log, spec.y_log);
    let (xf, yf) = (|v: &f64| label(*v, xl), |v: &f64| label(*v, yl));
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(&spec.x_label).y_desc(&spec.y_label).x_label_formatter(&xf).y_label_formatter(&yf).light_line_style(RGBColor(235, 237, 242));
    if line > 2 {
        mesh.label_style(("sans-serif", small)).axis_desc_style(("sans-serif", small));
    }
    mesh.draw().map_err(e)?;
    for s in &spec.series {
        let color = rgb(s.color);
        chart
            .draw_series(LineSeries::new(s.points.iter().copied().filter_map(map), color.stroke_width(line)))
            .map_err(e)?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(line)));
    }
    chart.draw_series(spec.dots.iter().copied().filter_map(map).map(|p| Circle::new(p, 4, rgb(RED).filled()))).map_err(e)?;
    for m in &spec.markers {
        if let Some(x) = axis(m.x, spec.x_log) {
            let color = rgb(m.color);
            chart.draw_series(LineSeries::new(vec![(x, yr.start), (x, yr.end)], color.stroke_width(1))).map_err(e)?;
            chart.draw_series(std::iter::once(Text::new(m.label.clone(), (x, yr.end), ("sans-serif", small).into_font().color(&color)))).map_err(e)?;
        }
    }
    if spec.series.len() > 1 {
        chart.configure_series_labels().position(SeriesLabelPosition::UpperRight).background_style(WHITE.mix(0.85)).border_style(RGBColor(200, 200, 200)).draw().map_err(e)?;
    }
    root.present().map_err(e).map(|_| Some(frame))
}

fn css(c: (u8, u8, u8)) -> String {
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

/// The canvas's 2D context, cleared.
fn cleared(canvas: &web_sys::HtmlCanvasElement) -> Option<web_sys::CanvasRenderingContext2d> {
    let ctx = super::canvas::context_2d(canvas)?;
    ctx.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
    Some(ctx)
}

/// A blank chart with one line of text in the middle.
fn draw_message(canvas: &web_sys::HtmlCanvasElement, text: &str) -> Option<()> {
    let ctx = cleared(canvas)?;
    ctx.set_fill_style_str(&css(GREY));
    ctx.set_font("15px sans-serif");
    ctx.set_text_align("center");
    let _ = ctx.fill_text(text, canvas.width() as f64 / 2.0, canvas.height() as f64 / 2.0);
    ctx.set_text_align("start");
    Some(())
}

/// Clears the overlay canvas and draws the moving part in the static chart's frame.
pub fn draw_overlay(canvas: &web_sys::HtmlCanvasElement, frame: &Frame, overlay: &Overlay) -> Option<()> {
    let ctx = cleared(canvas)?;
    let heavy = presenting();
    ctx.set_line_width(if heavy { 4.0 } else { 2.0 });
    for s in &overlay.series {
        ctx.set_stroke_style_str(&css(s.color));
        ctx.begin_path();
        let mut first = true;
        for (x, y) in s.points.iter().filter_map(|p| frame.pixel(*p)) {
            if first { ctx.move_to(x, y) } else { ctx.line_to(x, y) }
            first = false;
        }
        ctx.stroke();
    }
    ctx.set_line_width(if heavy { 2.0 } else { 1.0 });
    ctx.set_font(if heavy { "17px sans-serif" } else { "12px sans-serif" });
    for m in &overlay.markers {
        let Some((x, _)) = frame.pixel((m.x, if frame.y_log { 1.0 } else { 0.0 })) else { continue };
        ctx.set_stroke_style_str(&css(m.color));
        ctx.begin_path();
        ctx.move_to(x, frame.top);
        ctx.line_to(x, frame.bottom);
        ctx.stroke();
        ctx.set_fill_style_str(&css(m.color));
        // Below the static markers' labels, which sit at the top of the plot.
        let _ = ctx.fill_text(&m.label, x + 3.0, frame.top + if heavy { 44.0 } else { 26.0 });
    }
    ctx.set_fill_style_str(&css(RED));
    for (x, y) in overlay.dots.iter().filter_map(|p| frame.pixel(*p)) {
        ctx.begin_path();
        let _ = ctx.arc(x, y, 4.0, 0.0, std::f64::consts::TAU);
        ctx.fill();
    }
    Some(())
}

/// A chart: `spec` is drawn with plotters when it changes; `overlay` (optional) on a
/// transparent canvas above it whenever it changes.
#[component]
pub fn Chart(
    id: &'static str,
    #[prop(into)] spec: Signal<Option<ChartSpec>>,
    #[prop(into)] label: String,
    #[prop(optional, into)] overlay: Option<Signal<Option<Overlay>>>,
    /// Said on the blank canvas while there is nothing to draw (the data is computing),
    /// rather than leaving an older chart or empty axes there.
    #[prop(optional)]
    empty: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    let top = NodeRef::<html::Canvas>::new();
    let frame = RwSignal::new(None::<Frame>);
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        match spec.get() {
            Some(s) => match draw(c, &s) {
                Ok(f) => frame.set(f),
                Err(err) => leptos::logging::warn!("chart {id}: {err}"),
            },
            None => {
                frame.set(None);
                draw_message(&c, empty);
            }
        }
    });
    Effect::new(move |_| {
        let (Some(o), Some(t)) = (overlay.and_then(|o| o.get()), top.get()) else { return };
        match frame.get() {
            Some(f) => draw_overlay(&t, &f, &o),
            None => cleared(&t).map(|_| ()),
        };
    });
    view! {
        <div class="chart-wrap">
            <canvas node_ref=canvas id=id width="560" height="320" role="img" aria-label=label data-drawn=move || frame.get().is_some().to_string()></canvas>
            {overlay.is_some().then(|| view! { <canvas node_ref=top class="chart-overlay" width="560" height="320" aria-hidden="true"></canvas> })}
        </div>
    }
}
