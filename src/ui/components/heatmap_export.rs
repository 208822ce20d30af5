//! A heatmap saved as a figure: the map with its title, the state it shows, numbered
//! axes and the colour bar with its marks and scale, drawn on a detached canvas at twice
//! the size it would take on a slide; or its numbers as CSV.

use crate::viz::colormap::BarTick;
use crate::viz::ticks;
use wasm_bindgen::JsCast;

/// What goes around the map in the saved figure.
pub struct Figure<'a> {
    pub title: &'a str,
    /// The state the map shows, as its file name says it.
    pub params: &'a str,
    pub n: usize,
    pub bar: &'a [BarTick],
    pub scale_name: &'a str,
}

const S: f64 = 2.0;
const MAP: f64 = 512.0;
const LEFT: f64 = 64.0;
const TOP: f64 = 92.0;
const INK: &str = "#1d2330";
const MUTED: &str = "#4d5566";

/// The figure as a PNG data URL, or `None` when a canvas is not available.
pub fn png(map: &web_sys::HtmlCanvasElement, bar: &web_sys::HtmlCanvasElement, f: &Figure) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let (w, h) = (LEFT + MAP + 32.0, TOP + MAP + 100.0);
    canvas.set_width((w * S) as u32);
    canvas.set_height((h * S) as u32);
    let ctx = super::canvas::context_2d(&canvas)?;
    ctx.scale(S, S).ok()?;
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, w, h);
    let text = |s: &str, x: f64, y: f64, font: &str, colour: &str, align: &str| {
        ctx.set_font(font);
        ctx.set_fill_style_str(colour);
        ctx.set_text_align(align);
        let _ = ctx.fill_text(s, x, y);
    };
    text(f.title, 16.0, 28.0, "bold 18px sans-serif", INK, "left");
    text(f.params, 16.0, 48.0, "13px sans-serif", MUTED, "left");
    text("key j →", LEFT, TOP - 30.0, "13px sans-serif", MUTED, "left");
    ctx.set_image_smoothing_enabled(false);
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(map, LEFT, TOP, MAP, MAP).ok()?;
    ctx.set_stroke_style_str(INK);
    ctx.set_line_width(1.0);
    let n = f.n.max(1);
    for t in ticks::indices(n, 6) {
        let at = (t.at + 0.5) / n as f64 * MAP;
        text(&t.label, LEFT + at, TOP - 8.0, "12px sans-serif", INK, "center");
        text(&t.label, LEFT - 8.0, TOP + at + 4.0, "12px sans-serif", INK, "right");
        ctx.begin_path();
        ctx.move_to(LEFT + at, TOP - 4.0);
        ctx.line_to(LEFT + at, TOP);
        ctx.move_to(LEFT - 4.0, TOP + at);
        ctx.line_to(LEFT, TOP + at);
        ctx.stroke();
    }
    ctx.save();
    ctx.translate(18.0, TOP + MAP / 2.0).ok()?;
    ctx.rotate(-std::f64::consts::FRAC_PI_2).ok()?;
    text("query i ↓", 0.0, 0.0, "13px sans-serif", MUTED, "center");
    ctx.restore();
    let y = TOP + MAP + 20.0;
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(bar, LEFT, y, MAP, 14.0).ok()?;
    ctx.stroke_rect(LEFT, y, MAP, 14.0);
    for t in f.bar {
        let x = LEFT + t.at as f64 * MAP;
        let align = if t.at <= 0.0 { "left" } else if t.at >= 1.0 { "right" } else { "center" };
        text(&t.label, x, y + 32.0, "12px sans-serif", INK, align);
        ctx.begin_path();
        ctx.move_to(x, y + 14.0);
        ctx.line_to(x, y + 19.0);
        ctx.stroke();
    }
    text(f.scale_name, LEFT, y + 54.0, "13px sans-serif", MUTED, "left");
    canvas.to_data_url_with_type("image/png").ok()
}
