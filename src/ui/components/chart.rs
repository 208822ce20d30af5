//! Line charts drawn with plotters on a canvas, at the size the page gives the canvas
//! times the screen's pixel density. Log axes are drawn as log10 on a linear axis, so one
//! code path serves every chart; ticks (round values, decades) come from `viz::ticks` and
//! are drawn by hand, since plotters' own pick neither round log ticks nor tidy labels.
//! The legend is HTML under the canvas, where it can never cover a curve or a label.
//!
//! What moves with a slider (the current λ, the differential weights) goes on an
//! overlay canvas drawn with a few raw 2D calls in the chart's coordinates: plotters
//! measures every label by laying out a hidden element (a forced layout of the page),
//! which a chart redrawn on every frame of a drag cannot afford.

use crate::ui::components::announce::settled;
use crate::ui::components::as_table::ChartAsTable;
use crate::ui::components::download;
use crate::ui::components::figure_words::chart_summary;
use crate::ui::theme;
use crate::viz::palette::{css, Palette, Rgb};
use crate::viz::{export, ticks};
use leptos::html;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Drawn dashed, and so in the legend (a curve that lies on another, e.g. the
    /// expected value under the sampled one, stays visible as a different line).
    pub dashed: bool,
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
    left: f64,
    right: f64,
    /// Canvas px per CSS px.
    dpr: f64,
    /// Rows of static marker labels at the top of the plot (the overlay's go below them).
    label_rows: usize,
}

impl Frame {
    fn pixel(&self, (x, y): (f64, f64)) -> Option<(f64, f64)> {
        Some((self.x.0 * axis(x, self.x_log)? + self.x.1, self.y.0 * axis(y, self.y_log)? + self.y.1))
    }
}

pub use crate::viz::palette::{BLUE, GREY, ORANGE, RED};

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn axis(v: f64, log: bool) -> Option<f64> {
    match log {
        true if v > 0.0 && v.is_finite() => Some(v.log10()),
        true => None,
        false => v.is_finite().then_some(v),
    }
}

/// In presenter mode (`present=1`) lines and text are drawn heavier, for a projector.
fn presenting() -> bool {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()).is_some_and(|b| b.class_list().contains("present"))
}

/// Line width and text sizes in CSS px: tick labels, marker labels and axis titles at
/// `small`, the chart's title at `caption`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pens {
    line: f64,
    caption: f64,
    small: f64,
}

fn pens() -> Pens {
    if presenting() {
        Pens { line: 4.0, caption: 22.0, small: 17.0 }
    } else {
        Pens { line: 2.0, caption: 16.0, small: 13.0 }
    }
}

/// How big a chart is on screen (CSS px) and at what pixel density it is drawn: the
/// canvas holds `css × dpr` pixels, so its text is as sharp and as large on a phone at
/// devicePixelRatio 3 as on a desktop monitor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    css_w: f64,
    css_h: f64,
    dpr: f64,
    /// Font sizes are given to plotters times this (its SVG backend writes each size
    /// divided by 1.24; the canvas backend writes it as given).
    font_scale: f64,
}

impl Fit {
    /// The canvas's laid-out width (560 px while it is not laid out, e.g. in a closed
    /// panel) and a height that keeps a chart legible on a narrow phone.
    fn measure(canvas: &web_sys::HtmlCanvasElement) -> Fit {
        let w = canvas.get_bounding_client_rect().width();
        let css_w = if w >= 1.0 { w } else { 560.0 };
        let dpr = web_sys::window().map(|w| w.device_pixel_ratio()).filter(|d| d.is_finite() && *d > 0.0).unwrap_or(1.0).clamp(1.0, 3.0);
        Fit { css_w, css_h: (css_w * 0.6).clamp(240.0, 340.0), dpr, font_scale: 1.0 }
    }

    /// Gives `canvas` this fit's pixels (only when they differ: resizing clears it).
    fn apply(&self, canvas: &web_sys::HtmlCanvasElement) {
        let (w, h) = ((self.css_w * self.dpr).round() as u32, (self.css_h * self.dpr).round() as u32);
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
    }

    /// CSS px → canvas px.
    fn px(&self, v: f64) -> i32 {
        (v * self.dpr).round() as i32
    }
}

fn font(size_css: f64, fit: &Fit) -> FontDesc<'static> {
    ("sans-serif", size_css * fit.dpr * fit.font_scale).into_font()
}

/// Width in canvas px of `text` at `size_css` (the 2D context's own measure: plotters'
/// lays out a hidden element per call).
fn text_width(canvas: &web_sys::HtmlCanvasElement, text: &str, size_css: f64, fit: &Fit) -> f64 {
    crate::ui::components::canvas::context_2d(canvas)
        .and_then(|ctx| {
            ctx.set_font(&format!("{}px sans-serif", size_css * fit.dpr));
            ctx.measure_text(text).ok()
        })
        .map_or(text.chars().count() as f64 * size_css * fit.dpr * 0.6, |m| m.width())
}

/// Where a marker's label goes: beside its line, on the left of it when the right has
/// no room, on the first row (from the top of the plot) where it overlaps no other label.
struct LabelRows {
    rows: Vec<Vec<(f64, f64)>>,
    gap: f64,
}

impl LabelRows {
    fn place(&mut self, x: f64, width: f64, (left, right): (f64, f64)) -> (f64, usize) {
        let start = if x + self.gap + width > right { (x - self.gap - width).max(left) } else { x + self.gap };
        let span = (start - self.gap, start + width + self.gap);
        let free = |row: &Vec<(f64, f64)>| row.iter().all(|(a, b)| span.1 <= *a || span.0 >= *b);
        let row = self.rows.iter().position(free).unwrap_or(self.rows.len());
        if row == self.rows.len() {
            self.rows.push(vec![]);
        }
        self.rows[row].push(span);
        (start, row)
    }
}

/// What a drawn chart shows along its axes, as written (for the page's tests and for
/// screen readers' users, who get them in the canvas's data attributes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AxisTicks {
    pub x: Vec<String>,
    pub y: Vec<String>,
}

/// Draws the static chart at `fit` in `pal`'s colours; returns its frame and ticks
/// (`None` when there was nothing to draw).
pub fn draw(canvas: web_sys::HtmlCanvasElement, spec: &ChartSpec, fit: &Fit, pal: &Palette) -> Result<Option<(Frame, AxisTicks)>, String> {
    let measure = canvas.clone();
    let root = CanvasBackend::with_canvas_object(canvas).ok_or("no 2D canvas context")?.into_drawing_area();
    draw_on(&root, spec, fit, pal, &|text, size| text_width(&measure, text, size, fit), false)
}

/// Draws `spec` on any plotters backend (the page's canvas, an exported PNG's or SVG's);
/// `width` measures text in the backend's pixels; `legend` draws the legend in a strip
/// under the chart (an exported figure has no HTML around it).
fn draw_on<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    spec: &ChartSpec,
    fit: &Fit,
    pal: &Palette,
    width: &dyn Fn(&str, f64) -> f64,
    legend: bool,
) -> Result<Option<(Frame, AxisTicks)>, String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let p = pens();
    let px = |v: f64| fit.px(v);
    let (ink, hue) = (rgb(pal.ink), |c: Rgb| rgb(pal.hue(c)));
    area.fill(&rgb(pal.paper)).map_err(e)?;
    let named: Vec<&Series> = spec.series.iter().filter(|s| !s.name.is_empty()).collect();
    let root = if legend && named.len() > 1 {
        let strip = px(p.small * 1.6 * legend_rows(&named, fit, width) as f64 + p.small);
        let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 as i32 - strip);
        draw_legend(&bottom, &named, fit, pal, width).map_err(e)?;
        top
    } else {
        area.clone()
    };
    let map = |(x, y): (f64, f64)| Some((axis(x, spec.x_log)?, axis(y, spec.y_log)?));
    let all: Vec<(f64, f64)> = spec.series.iter().flat_map(|s| s.points.iter().copied()).chain(spec.dots.iter().copied()).chain(spec.extent.iter().copied()).filter_map(map).collect();
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
    // A long title shrinks (down to the label size) rather than run off a phone's chart.
    let room = fit.css_w * fit.dpr - 2.0 * px(8.0) as f64;
    let caption = (0..).map(|k| p.caption - k as f64).find(|c| *c <= p.small || width(&spec.title, *c) <= room).unwrap_or(p.small);
    let mut chart = ChartBuilder::on(&root)
        .caption(&spec.title, font(caption, fit).color(&ink))
        .margin(px(10.0))
        .x_label_area_size(px(p.small * 3.2))
        .y_label_area_size(px(p.small * 5.0))
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(e)?;
    let frame = frame_of(&chart, (&xr, &yr), spec, fit);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .axis_desc_style(font(p.small, fit).color(&ink))
        .axis_style(rgb(pal.axis).stroke_width(px(1.0).max(1) as u32))
        .draw()
        .map_err(e)?;
    let tick = |log: bool, range: &std::ops::Range<f64>, count: usize| if log { ticks::log(range.start, range.end, count) } else { ticks::linear(range.start, range.end, count) };
    // As many ticks as leave a clear gap between neighbouring labels.
    let fits = |t: &[ticks::Tick], room: &dyn Fn(&ticks::Tick) -> f64, at: &dyn Fn(f64) -> f64| {
        t.windows(2).all(|w| (at(w[1].at) - at(w[0].at)).abs() >= (room(&w[0]) + room(&w[1])) / 2.0 + px(p.small) as f64)
    };
    let most = |log: bool, range: &std::ops::Range<f64>, room: &dyn Fn(&ticks::Tick) -> f64, at: &dyn Fn(f64) -> f64| {
        (2..=10).rev().map(|count| tick(log, range, count)).find(|t| fits(t, room, at)).unwrap_or_else(|| tick(log, range, 2))
    };
    let x_ticks = most(spec.x_log, &xr, &|t| width(&t.label, p.small), &|v| frame.x.0 * v + frame.x.1);
    let y_ticks = most(spec.y_log, &yr, &|_| px(p.small) as f64, &|v| frame.y.0 * v + frame.y.1);
    let grid = rgb(pal.grid).stroke_width(px(1.0).max(1) as u32);
    for t in &x_ticks {
        chart.draw_series(std::iter::once(PathElement::new(vec![(t.at, yr.start), (t.at, yr.end)], grid))).map_err(e)?;
    }
    for t in &y_ticks {
        chart.draw_series(std::iter::once(PathElement::new(vec![(xr.start, t.at), (xr.end, t.at)], grid))).map_err(e)?;
    }
    let label_style = font(p.small, fit).color(&ink);
    for t in &x_ticks {
        let (x, y) = chart.backend_coord(&(t.at, yr.start));
        root.draw(&PathElement::new(vec![(x, y), (x, y + px(4.0))], ink.stroke_width(px(1.0).max(1) as u32))).map_err(e)?;
        root.draw(&Text::new(t.label.clone(), (x, y + px(6.0)), label_style.pos(Pos::new(HPos::Center, VPos::Top)))).map_err(e)?;
    }
    for t in &y_ticks {
        let (x, y) = chart.backend_coord(&(xr.start, t.at));
        root.draw(&PathElement::new(vec![(x - px(4.0), y), (x, y)], ink.stroke_width(px(1.0).max(1) as u32))).map_err(e)?;
        root.draw(&Text::new(t.label.clone(), (x - px(6.0), y), label_style.pos(Pos::new(HPos::Right, VPos::Center)))).map_err(e)?;
    }
    let line = px(p.line).max(1) as u32;
    for s in &spec.series {
        let style = hue(s.color).stroke_width(line);
        let points = s.points.iter().copied().filter_map(map);
        match s.dashed {
            true => chart.draw_series(DashedLineSeries::new(points, px(7.0), px(5.0), style)).map(|_| ()),
            false => chart.draw_series(LineSeries::new(points, style)).map(|_| ()),
        }
        .map_err(e)?;
    }
    chart.draw_series(spec.dots.iter().copied().filter_map(map).map(|p| Circle::new(p, px(4.0), hue(RED).filled()))).map_err(e)?;
    let label_rows = draw_markers(&mut chart, &root, spec, (&frame, &yr), (fit, pal), width).map_err(e)?;
    let written = |t: &[ticks::Tick]| t.iter().map(|t| t.label.clone()).collect();
    let axis_ticks = AxisTicks { x: written(&x_ticks), y: written(&y_ticks) };
    root.present().map_err(e).map(|_| Some((Frame { label_rows, ..frame }, axis_ticks)))
}

type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;

/// Where the chart's plotting area lies in the backend's pixels, and how data maps there.
fn frame_of<DB: DrawingBackend>(chart: &Plot<'_, DB>, (xr, yr): (&std::ops::Range<f64>, &std::ops::Range<f64>), spec: &ChartSpec, fit: &Fit) -> Frame {
    let (p0, p1) = (chart.backend_coord(&(xr.start, yr.start)), chart.backend_coord(&(xr.end, yr.end)));
    let slope = |a: i32, b: i32, lo: f64, hi: f64| (b - a) as f64 / (hi - lo);
    let (sx, sy) = (slope(p0.0, p1.0, xr.start, xr.end), slope(p0.1, p1.1, yr.start, yr.end));
    Frame {
        x_log: spec.x_log,
        y_log: spec.y_log,
        x: (sx, p0.0 as f64 - sx * xr.start),
        y: (sy, p0.1 as f64 - sy * yr.start),
        top: p1.1 as f64,
        bottom: p0.1 as f64,
        left: p0.0 as f64,
        right: p1.0 as f64,
        dpr: fit.dpr,
        label_rows: 0,
    }
}

/// The vertical markers and their labels, in rows that do not overlap; returns the rows used.
fn draw_markers<DB: DrawingBackend>(
    chart: &mut Plot<'_, DB>,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    spec: &ChartSpec,
    (frame, yr): (&Frame, &std::ops::Range<f64>),
    (fit, pal): (&Fit, &Palette),
    width: &dyn Fn(&str, f64) -> f64,
) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>> {
    let (p, px) = (pens(), |v: f64| fit.px(v));
    let (y0, y1) = (yr.start, yr.end);
    let mut rows = LabelRows { rows: vec![], gap: px(4.0) as f64 };
    let mut markers: Vec<&Marker> = spec.markers.iter().collect();
    markers.sort_by(|a, b| a.x.total_cmp(&b.x));
    for m in markers {
        let Some(x) = axis(m.x, spec.x_log) else { continue };
        let color = rgb(pal.hue(m.color));
        chart.draw_series(std::iter::once(PathElement::new(vec![(x, y0), (x, y1)], color.stroke_width(px(1.0).max(1) as u32))))?;
        let bx = chart.backend_coord(&(x, y1)).0 as f64;
        let (start, row) = rows.place(bx, width(&m.label, p.small), (frame.left, frame.right));
        let y = frame.top + px(3.0) as f64 + row as f64 * px(p.small * 1.3) as f64;
        root.draw(&Text::new(m.label.clone(), (start.round() as i32, y.round() as i32), font(p.small, fit).color(&color).pos(Pos::new(HPos::Left, VPos::Top))))?;
    }
    Ok(rows.rows.len())
}

/// Rows the legend takes at `fit`'s width: entries flow left to right and wrap.
fn legend_rows(named: &[&Series], fit: &Fit, width: &dyn Fn(&str, f64) -> f64) -> usize {
    legend_places(named, fit, width).last().map_or(0, |(_, row)| row + 1)
}

/// Each entry's left edge and row.
fn legend_places(named: &[&Series], fit: &Fit, width: &dyn Fn(&str, f64) -> f64) -> Vec<(f64, usize)> {
    let small = pens().small;
    let (mut x, mut row, edge) = (fit.px(10.0) as f64, 0, fit.css_w * fit.dpr - fit.px(10.0) as f64);
    named
        .iter()
        .map(|s| {
            let w = fit.px(small * 2.2) as f64 + width(&s.name, small);
            if x + w > edge && x > fit.px(10.0) as f64 {
                (x, row) = (fit.px(10.0) as f64, row + 1);
            }
            let at = (x, row);
            x += w + fit.px(small * 1.2) as f64;
            at
        })
        .collect()
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    named: &[&Series],
    fit: &Fit,
    pal: &Palette,
    width: &dyn Fn(&str, f64) -> f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let small = pens().small;
    let px = |v: f64| fit.px(v);
    for (s, (x, row)) in named.iter().zip(legend_places(named, fit, width)) {
        let y = px(small * 0.8) + row as i32 * px(small * 1.6);
        let (x, color) = (x.round() as i32, rgb(pal.hue(s.color)));
        let sample = vec![(x, y), (x + px(small * 1.6), y)];
        let style = color.stroke_width(px(pens().line).max(1) as u32);
        match s.dashed {
            true => area.draw(&PathElement::new(vec![sample[0], (x + px(small * 0.6), y)], style)).and_then(|_| area.draw(&PathElement::new(vec![(x + px(small), y), sample[1]], style)))?,
            false => area.draw(&PathElement::new(sample, style))?,
        }
        area.draw(&Text::new(s.name.clone(), (x + px(small * 2.2), y), font(small, fit).color(&rgb(pal.ink)).pos(Pos::new(HPos::Left, VPos::Center))))?;
    }
    Ok(())
}

/// The chart as it is on screen, moving part included: the overlay's curves fill the
/// static series they stand for (same colour, no points of its own), its markers and
/// dots join the static ones.
fn merged(spec: &ChartSpec, overlay: Option<&Overlay>) -> ChartSpec {
    let mut out = spec.clone();
    let Some(o) = overlay else { return out };
    for s in &o.series {
        match out.series.iter_mut().find(|t| t.color == s.color && t.points.is_empty()) {
            Some(t) => t.points = s.points.clone(),
            None => out.series.push(s.clone()),
        }
    }
    out.markers.extend(o.markers.iter().cloned());
    out.dots.extend(o.dots.iter().cloned());
    out
}

/// The size an exported chart is drawn at, in CSS px (a slide's half width). Exports are
/// drawn light whatever the theme on screen: they go on slides and paper.
const EXPORT_FIT: Fit = Fit { css_w: 720.0, css_h: 432.0, dpr: 1.0, font_scale: 1.0 };

/// Text width for exports: measured on a detached canvas, which no page layout touches.
fn detached_width(fit: Fit) -> impl Fn(&str, f64) -> f64 {
    let canvas = web_sys::window().and_then(|w| w.document()).and_then(|d| d.create_element("canvas").ok()).and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlCanvasElement>(c).ok());
    move |text: &str, size: f64| canvas.as_ref().map_or(text.chars().count() as f64 * size * fit.dpr * 0.6, |c| text_width(c, text, size, &fit))
}

/// The figure as an SVG document (plotters' SVG backend; text stays text).
fn export_svg(spec: &ChartSpec) -> Result<String, String> {
    let fit = Fit { font_scale: 1.24, ..EXPORT_FIT };
    let mut svg = String::new();
    {
        let root = plotters::backend::SVGBackend::with_string(&mut svg, ((fit.css_w) as u32, (fit.css_h + legend_room(spec, &fit)) as u32)).into_drawing_area();
        draw_on(&root, spec, &fit, &Palette::LIGHT, &detached_width(fit), true)?;
    }
    Ok(svg)
}

/// The figure as a PNG at twice the export size, as a data URL.
fn export_png(spec: &ChartSpec) -> Result<String, String> {
    let fit = Fit { dpr: 2.0, ..EXPORT_FIT };
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement = wasm_bindgen::JsCast::dyn_into(document.create_element("canvas").map_err(|_| "no canvas")?).map_err(|_| "no canvas")?;
    canvas.set_width((fit.css_w * fit.dpr) as u32);
    canvas.set_height(((fit.css_h + legend_room(spec, &fit)) * fit.dpr) as u32);
    let measure = canvas.clone();
    let root = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("no 2D canvas context")?.into_drawing_area();
    draw_on(&root, spec, &fit, &Palette::LIGHT, &|text, size| text_width(&measure, text, size, &fit), true)?;
    canvas.to_data_url_with_type("image/png").map_err(|_| "the canvas cannot be read".to_string())
}

/// Extra height (CSS px) an exported figure needs for its legend strip.
fn legend_room(spec: &ChartSpec, fit: &Fit) -> f64 {
    let named: Vec<&Series> = spec.series.iter().filter(|s| !s.name.is_empty()).collect();
    if named.len() < 2 {
        return 0.0;
    }
    let rows = legend_rows(&named, fit, &detached_width(*fit));
    pens().small * 1.6 * rows as f64 + pens().small
}

/// The curves' numbers as CSV.
fn export_csv(spec: &ChartSpec) -> String {
    let series: Vec<(&str, &[(f64, f64)])> = spec.series.iter().map(|s| (s.name.as_str(), s.points.as_slice())).collect();
    let markers: Vec<(&str, f64)> = spec.markers.iter().map(|m| (m.label.as_str(), m.x)).collect();
    export::series_csv(&spec.title, &spec.x_label, &spec.y_label, &series, &markers)
}

/// The canvas's 2D context, cleared.
fn cleared(canvas: &web_sys::HtmlCanvasElement) -> Option<web_sys::CanvasRenderingContext2d> {
    let ctx = crate::ui::components::canvas::context_2d(canvas)?;
    ctx.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
    Some(ctx)
}

/// A blank chart with one line of text in the middle.
fn draw_message(canvas: &web_sys::HtmlCanvasElement, text: &str, fit: &Fit, pal: &Palette) -> Option<()> {
    let ctx = cleared(canvas)?;
    ctx.set_fill_style_str(&css(pal.paper));
    ctx.fill_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64);
    ctx.set_fill_style_str(&css(pal.ink));
    ctx.set_font(&format!("{}px sans-serif", pens().small * fit.dpr));
    ctx.set_text_align("center");
    let _ = ctx.fill_text(text, canvas.width() as f64 / 2.0, canvas.height() as f64 / 2.0);
    ctx.set_text_align("start");
    Some(())
}

/// Clears the overlay canvas and draws the moving part in the static chart's frame.
pub fn draw_overlay(canvas: &web_sys::HtmlCanvasElement, frame: &Frame, overlay: &Overlay, pal: &Palette) -> Option<()> {
    let ctx = cleared(canvas)?;
    let (p, s) = (pens(), frame.dpr);
    ctx.set_line_width(p.line * s);
    for series in &overlay.series {
        ctx.set_stroke_style_str(&css(pal.hue(series.color)));
        ctx.begin_path();
        let mut first = true;
        for (x, y) in series.points.iter().filter_map(|p| frame.pixel(*p)) {
            if first {
                ctx.move_to(x, y)
            } else {
                ctx.line_to(x, y)
            }
            first = false;
        }
        ctx.stroke();
    }
    ctx.set_line_width(s.max(1.0));
    ctx.set_font(&format!("{}px sans-serif", p.small * s));
    ctx.set_text_baseline("top");
    // Below the static markers' labels, which fill `label_rows` rows at the top of the plot.
    let y = frame.top + (3.0 + frame.label_rows as f64 * p.small * 1.3) * s;
    for m in &overlay.markers {
        let Some((x, _)) = frame.pixel((m.x, if frame.y_log { 1.0 } else { 0.0 })) else { continue };
        ctx.set_stroke_style_str(&css(pal.hue(m.color)));
        ctx.begin_path();
        ctx.move_to(x, frame.top);
        ctx.line_to(x, frame.bottom);
        ctx.stroke();
        ctx.set_fill_style_str(&css(pal.hue(m.color)));
        let width = ctx.measure_text(&m.label).map(|t| t.width()).unwrap_or(0.0);
        let start = if x + 4.0 * s + width > frame.right { (x - 4.0 * s - width).max(frame.left) } else { x + 4.0 * s };
        let _ = ctx.fill_text(&m.label, start, y);
    }
    ctx.set_text_baseline("alphabetic");
    ctx.set_fill_style_str(&css(pal.hue(RED)));
    for (x, y) in overlay.dots.iter().filter_map(|p| frame.pixel(*p)) {
        ctx.begin_path();
        let _ = ctx.arc(x, y, 4.0 * s, 0.0, std::f64::consts::TAU);
        ctx.fill();
    }
    Some(())
}

/// Calls `changed` with the element's new width whenever its layout box changes size
/// (a window resize, a panel opening, presenter mode), until the component is dropped.
fn watch_width(el: &web_sys::Element, changed: impl Fn(f64) + 'static) {
    use leptos::__reexports::send_wrapper::SendWrapper;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(entry) = entries.get(0).dyn_ref::<web_sys::ResizeObserverEntry>() {
            changed(entry.content_rect().width());
        }
    });
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else { return };
    observer.observe(el);
    let keep = SendWrapper::new((observer, callback));
    on_cleanup(move || keep.0.disconnect());
}

/// Bumps `resized` when the chart's box (`wrap`) takes a width it was not drawn for.
fn count_width_changes(wrap: NodeRef<html::Div>, fitted: RwSignal<Option<Fit>>, resized: RwSignal<u32>) {
    Effect::new(move |_| {
        let Some(w) = wrap.get() else { return };
        watch_width(&w, move |width| {
            let drawn = fitted.get_untracked().map(|f| f.css_w);
            if width >= 1.0 && drawn.is_none_or(|d| (d - width).abs() >= 0.5) {
                resized.update(|r| *r = r.wrapping_add(1));
            }
        });
    });
}

/// Saves the chart with its overlay as PNG, SVG or CSV (`ext`), named by `file`
/// (`difflens-<id>` unless told).
fn export_chart(id: &'static str, spec: Signal<Option<ChartSpec>>, overlay: Option<Signal<Option<Overlay>>>, file: Option<Signal<String>>, ext: &'static str) {
    let Some(s) = spec.get_untracked() else { return };
    let figure = merged(&s, overlay.and_then(|o| o.get_untracked()).as_ref());
    let stem = file.map(|f| f.get_untracked()).unwrap_or_else(|| format!("difflens-{id}"));
    let name = export::file_name(&stem, ext);
    let done = match ext {
        "png" => export_png(&figure).ok().and_then(|u| download::url(&u, &name)),
        "svg" => export_svg(&figure).ok().and_then(|svg| download::text(&svg, "image/svg+xml", &name)),
        _ => download::text(&export_csv(&figure), "text/csv", &name),
    };
    if done.is_none() {
        leptos::logging::warn!("chart {id}: the {ext} download failed");
    }
}

/// A key on the focused chart: arrows, Page Up/Down, Home and End move the cursor along
/// every curve's x values, and the sentence under the chart reads each curve there.
fn point_at(ev: &leptos::ev::KeyboardEvent, spec: Signal<Option<ChartSpec>>, overlay: Option<Signal<Option<Overlay>>>, cursor: RwSignal<Option<usize>>, reading: RwSignal<String>) {
    let Some(s) = spec.get_untracked().map(|s| merged(&s, overlay.and_then(|o| o.get_untracked()).as_ref())) else { return };
    let rows = crate::viz::describe::chart_rows(&s.series.iter().map(|c| c.points.as_slice()).collect::<Vec<_>>());
    let Some(k) = crate::viz::describe::cursor_step(&ev.key(), cursor.get_untracked(), rows.len()) else { return };
    ev.prevent_default();
    reading.set(crate::ui::components::figure_words::point_words(&s, rows[k].0, &rows[k].1));
    cursor.set(Some(k));
}

/// What the chart shows, in words (the canvas's description, `id`) and as a table, once
/// it has held still: a drag moves the overlay every frame.
#[component]
fn ChartWords(id: String, label: String, spec: Signal<Option<ChartSpec>>, overlay: Option<Signal<Option<Overlay>>>) -> impl IntoView {
    let whole = settled(Signal::derive(move || spec.get().map(|s| merged(&s, overlay.and_then(|o| o.get()).as_ref()))));
    let whole = Signal::derive(move || whole.get().flatten());
    let summary = Memo::new(move |_| whole.with(|s| s.as_ref().map(chart_summary).unwrap_or_default()));
    view! {
        <p class="chart-summary" id=id>{move || summary.get()}</p>
        <ChartAsTable label spec=whole />
    }
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
    #[prop(optional, into)]
    empty: String,
    /// The downloaded files' name without extension, saying the state the chart shows
    /// (`difflens-lab-snr-lambda-n1024-lambda0.80`); `difflens-<id>` unless told.
    #[prop(optional, into)]
    file: Option<Signal<String>>,
) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    let top = NodeRef::<html::Canvas>::new();
    let wrap = NodeRef::<html::Div>::new();
    let frame = RwSignal::new(None::<Frame>);
    let fitted = RwSignal::new(None::<Fit>);
    let drawn_ticks = RwSignal::new(AxisTicks::default());
    // Bumped when the chart's box changes width: the chart is redrawn for its new size.
    let resized = RwSignal::new(0u32);
    let measured_for = StoredValue::new(None::<u32>);
    Effect::new(move |_| {
        let size = resized.get();
        let Some(c) = canvas.get() else { return };
        // Measured once per size (a measure forces a layout, and the slow charts redraw
        // for every point they gain while the page is still loading).
        let fit = match (fitted.get_untracked(), measured_for.get_value()) {
            (Some(f), Some(at)) if at == size => f,
            _ => {
                measured_for.set_value(Some(size));
                Fit::measure(&c)
            }
        };
        fit.apply(&c);
        if let Some(t) = top.get_untracked() {
            fit.apply(&t);
        }
        fitted.set(Some(fit));
        let pal = theme::palette();
        match spec.get() {
            Some(s) => match draw(c, &s, &fit, &pal) {
                Ok(drawn) => {
                    let (f, t) = drawn.unzip();
                    frame.set(f);
                    drawn_ticks.set(t.unwrap_or_default());
                }
                Err(err) => leptos::logging::warn!("chart {id}: {err}"),
            },
            None => {
                frame.set(None);
                draw_message(&c, &empty, &fit, &pal);
            }
        }
    });
    count_width_changes(wrap, fitted, resized);
    Effect::new(move |_| {
        let (Some(o), Some(t)) = (overlay.and_then(|o| o.get()), top.get()) else { return };
        let pal = theme::palette();
        match frame.get() {
            Some(f) => draw_overlay(&t, &f, &o, &pal),
            None => cleared(&t).map(|_| ()),
        };
    });
    // Text size in CSS px as drawn: the font's canvas px over the canvas's px per CSS px.
    let text_px = move || fitted.get().map(|f| format!("{:.1}", pens().small * f.dpr / (f.dpr * f.css_w).round() * f.css_w)).unwrap_or_default();
    let legend = move || spec.with(|s| s.as_ref().map(|s| s.series.iter().filter(|s| !s.name.is_empty()).map(|s| (s.name.clone(), s.color, s.dashed)).collect::<Vec<_>>()).unwrap_or_default());
    let has_data = move || frame.with(Option::is_some);
    let group_label = crate::tr!("chart-download-group", label = label.as_str());
    let export = move |ext: &'static str| export_chart(id, spec, overlay, file, ext);
    let (summary_id, table_label) = (format!("{id}-summary"), label.clone());
    let (cursor, reading) = (RwSignal::new(None::<usize>), RwSignal::new(String::new()));
    view! {
        <div class="chart-wrap" node_ref=wrap>
            <canvas node_ref=canvas id=id width="560" height="336" role="img" tabindex="0" aria-label=crate::tr!("chart-aria", label = label.as_str()) aria-describedby=summary_id.clone()
                on:keydown=move |ev| point_at(&ev, spec, overlay, cursor, reading) on:blur=move |_| cursor.set(None) data-drawn=move || frame.get().is_some().to_string() data-text-px=text_px
                data-points=move || spec.with(|s| s.as_ref().map_or(0, |s| s.series.iter().map(|x| x.points.len()).max().unwrap_or(0)))
                data-x-ticks=move || drawn_ticks.with(|t| t.x.join("|")) data-y-ticks=move || drawn_ticks.with(|t| t.y.join("|"))></canvas>
            {overlay.is_some().then(|| view! { <canvas node_ref=top class="chart-overlay" width="560" height="336" aria-hidden="true"></canvas> })}
            <Show when=move || { legend().len() > 1 }>
                <ul class="chart-legend" aria-label=crate::tr!("legend")>
                    {move || legend().into_iter().map(|(name, c, dashed)| view! {
                        <li><span class="swatch" class:dashed=dashed style=format!("color:{}", css(theme::palette().hue(c)))></span>{name}</li>
                    }).collect_view()}
                </ul>
            </Show>
            <div class="exports" role="group" aria-label=group_label>
                <span>{crate::tr!("download")}</span>
                <button class="export-png" disabled=move || !has_data() on:click=move |_| export("png")>"PNG"</button>
                <button class="export-svg" disabled=move || !has_data() on:click=move |_| export("svg")>"SVG"</button>
                <button class="export-csv" disabled=move || !has_data() on:click=move |_| export("csv")>"CSV"</button>
            </div>
            <p class="axis-note chart-cursor" aria-live="polite">{move || cursor.get().map(|_| reading.get())}</p>
            <ChartWords id=summary_id label=table_label spec overlay />
        </div>
    }
}
