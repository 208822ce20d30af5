//! Line charts drawn with plotters on a canvas. Log axes are drawn as log10 on a linear
//! axis with labels written back as powers, so one code path serves every chart.

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
    if a >= 10_000.0 { format!("{:.0}k", x / 1000.0) } else if a >= 100.0 || (log && a >= 1.0) { format!("{x:.0}") } else if a >= 1.0 { format!("{x:.1}") } else if a == 0.0 { "0".into() } else if a >= 0.01 { format!("{x:.2}") } else { format!("{x:.0e}") }
}

pub fn draw(canvas: web_sys::HtmlCanvasElement, spec: &ChartSpec) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<_>| e.to_string();
    let root = CanvasBackend::with_canvas_object(canvas).ok_or("no 2D canvas context")?.into_drawing_area();
    root.fill(&WHITE).map_err(e)?;
    let map = |(x, y): (f64, f64)| Some((axis(x, spec.x_log)?, axis(y, spec.y_log)?));
    let all: Vec<(f64, f64)> = spec.series.iter().flat_map(|s| s.points.iter().copied()).chain(spec.dots.iter().copied()).filter_map(map).collect();
    if all.is_empty() {
        return root.present().map_err(e);
    }
    let range = |vals: Vec<f64>| {
        let (lo, hi) = vals.iter().fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
        let pad = if hi > lo { 0.04 * (hi - lo) } else { 0.5 };
        (lo - pad)..(hi + pad)
    };
    let xr = range(all.iter().map(|p| p.0).collect());
    let yr = range(all.iter().map(|p| p.1).collect());
    let mut chart = ChartBuilder::on(&root)
        .caption(&spec.title, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(52)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(e)?;
    let (xl, yl) = (spec.x_log, spec.y_log);
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .x_label_formatter(&|v| label(*v, xl))
        .y_label_formatter(&|v| label(*v, yl))
        .light_line_style(RGBColor(235, 237, 242))
        .draw()
        .map_err(e)?;
    for s in &spec.series {
        let color = rgb(s.color);
        chart
            .draw_series(LineSeries::new(s.points.iter().copied().filter_map(map), color.stroke_width(2)))
            .map_err(e)?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart.draw_series(spec.dots.iter().copied().filter_map(map).map(|p| Circle::new(p, 4, rgb(RED).filled()))).map_err(e)?;
    for m in &spec.markers {
        if let Some(x) = axis(m.x, spec.x_log) {
            let color = rgb(m.color);
            chart.draw_series(LineSeries::new(vec![(x, yr.start), (x, yr.end)], color.stroke_width(1))).map_err(e)?;
            chart.draw_series(std::iter::once(Text::new(m.label.clone(), (x, yr.end), ("sans-serif", 12).into_font().color(&color)))).map_err(e)?;
        }
    }
    if spec.series.len() > 1 {
        chart.configure_series_labels().position(SeriesLabelPosition::UpperRight).background_style(WHITE.mix(0.85)).border_style(RGBColor(200, 200, 200)).draw().map_err(e)?;
    }
    root.present().map_err(e)
}

#[component]
pub fn Chart(id: &'static str, #[prop(into)] spec: Signal<Option<ChartSpec>>, #[prop(into)] label: String) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        if let (Some(s), Some(c)) = (spec.get(), canvas.get()) {
            if let Err(err) = draw(c, &s) {
                leptos::logging::warn!("chart {id}: {err}");
            }
        }
    });
    view! { <canvas node_ref=canvas id=id width="560" height="320" role="img" aria-label=label></canvas> }
}
