//! A heatmap saved as a figure (`viz::map_figure` lays it out): as a PNG drawn on a
//! detached canvas at twice the size it would take on a slide, or as an SVG with the
//! map and the colour bar embedded as images and everything else vector.

use crate::viz::map_figure::{layout, svg as svg_of, Figure, Mark, Picture, HEIGHT, INK, WIDTH};
use wasm_bindgen::JsCast;

const S: f64 = 2.0;

/// The figure as a PNG data URL, or `None` when a canvas is not available.
pub fn png(map: &web_sys::HtmlCanvasElement, bar: &web_sys::HtmlCanvasElement, f: &Figure) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    canvas.set_width((WIDTH * S) as u32);
    canvas.set_height((HEIGHT * S) as u32);
    let ctx = crate::ui::components::canvas::context_2d(&canvas)?;
    ctx.scale(S, S).ok()?;
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, WIDTH, HEIGHT);
    ctx.set_image_smoothing_enabled(false);
    ctx.set_stroke_style_str(INK);
    ctx.set_line_width(1.0);
    for m in layout(f) {
        match m {
            Mark::Text { text, x, y, size, bold, colour, align, rotated } => {
                ctx.save();
                ctx.set_font(&format!("{}{size}px sans-serif", if bold { "bold " } else { "" }));
                ctx.set_fill_style_str(colour);
                ctx.set_text_align(align.canvas());
                ctx.translate(x, y).ok()?;
                if rotated {
                    ctx.rotate(-std::f64::consts::FRAC_PI_2).ok()?;
                }
                let _ = ctx.fill_text(&text, 0.0, 0.0);
                ctx.restore();
            }
            Mark::Line { from, to } => {
                ctx.begin_path();
                ctx.move_to(from.0, from.1);
                ctx.line_to(to.0, to.1);
                ctx.stroke();
            }
            Mark::Frame { x, y, w, h } => ctx.stroke_rect(x, y, w, h),
            Mark::Image { picture, x, y, w, h } => {
                let source = if picture == Picture::Map { map } else { bar };
                ctx.draw_image_with_html_canvas_element_and_dw_and_dh(source, x, y, w, h).ok()?;
            }
        }
    }
    canvas.to_data_url_with_type("image/png").ok()
}

/// The figure as SVG text, or `None` when a canvas cannot be read.
pub fn svg(map: &web_sys::HtmlCanvasElement, bar: &web_sys::HtmlCanvasElement, f: &Figure) -> Option<String> {
    let (map_url, bar_url) = (map.to_data_url_with_type("image/png").ok()?, bar.to_data_url_with_type("image/png").ok()?);
    Some(svg_of(&layout(f), &map_url, &bar_url))
}
