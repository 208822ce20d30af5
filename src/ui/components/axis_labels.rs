//! The token labels beside a heatmap: keys along the top (read upwards), queries down the
//! left. Drawn on canvases at the screen's pixel density; which tokens get a label when
//! the cells are smaller than the text is `viz::labels::place`'s choice.

use crate::ui::components::canvas::context_2d;
use crate::ui::theme;
use crate::viz::labels::{place, AxisLabel, Emphasis};
use crate::viz::palette::{css, Palette};
use leptos::html;
use leptos::prelude::*;

/// Label text size in CSS px (the smallest the figures use, readable on a projector).
const FONT_PX: f64 = 12.0;
/// Room a label needs across the axis.
const PITCH_PX: f64 = FONT_PX + 2.0;

/// Which axis a strip labels.
#[derive(Clone, Copy, PartialEq)]
pub enum Axis {
    /// Keys j, above the map, text rotated to read upwards.
    Keys,
    /// Queries i, left of the map, text right-aligned against it.
    Queries,
}

/// Weight tells the emphases apart without colour; the palette's colours read at 4.5:1
/// or more on the panel in either theme.
fn weight(e: Emphasis) -> &'static str {
    if e == Emphasis::Plain {
        "normal"
    } else {
        "bold"
    }
}

/// Paints `labels` along `axis` of a canvas whose CSS box is `w × h`; `hovered` is the
/// token under the crosshair, always labelled and highlighted.
fn paint(canvas: &web_sys::HtmlCanvasElement, (w, h): (f64, f64), axis: Axis, labels: &[AxisLabel], hovered: Option<usize>, pal: &Palette) -> Option<()> {
    let dpr = web_sys::window()?.device_pixel_ratio().max(1.0);
    crate::ui::components::heatmap::set_size(canvas, (w * dpr).round() as u32, (h * dpr).round() as u32);
    let ctx = context_2d(canvas)?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0).ok()?;
    ctx.clear_rect(0.0, 0.0, w, h);
    let length = if axis == Axis::Keys { w } else { h };
    let emphasis: Vec<Emphasis> = labels.iter().map(|l| l.emphasis).collect();
    let cell = length / labels.len().max(1) as f64;
    // Set once (a font is parsed each time it is set); restore() brings it back after a
    // bold label.
    ctx.set_font(&format!("normal {FONT_PX}px system-ui, sans-serif"));
    for i in place(&emphasis, length, PITCH_PX, hovered) {
        let (weight, colour) = (weight(labels[i].emphasis), css(pal.label(labels[i].emphasis)));
        let centre = (i as f64 + 0.5) * cell;
        ctx.save();
        match axis {
            Axis::Keys => {
                ctx.translate(centre, h - 3.0).ok()?;
                ctx.rotate(-std::f64::consts::FRAC_PI_2).ok()?;
            }
            Axis::Queries => ctx.translate(w - 4.0, centre).ok()?,
        }
        if weight != "normal" {
            ctx.set_font(&format!("{weight} {FONT_PX}px system-ui, sans-serif"));
        }
        // Rotated a quarter turn back, +x points up: key labels start at the map's edge
        // and read upwards; query labels end at the map's edge.
        let (align, sign) = if axis == Axis::Keys { ("left", 1.0) } else { ("right", -1.0) };
        ctx.set_text_align(align);
        ctx.set_text_baseline("middle");
        let text = &labels[i].text;
        if Some(i) == hovered {
            let width = ctx.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
            ctx.set_fill_style_str("#f0a500");
            let start = if sign > 0.0 { -3.0 } else { -width - 3.0 };
            ctx.fill_rect(start, -PITCH_PX / 2.0, width + 6.0, PITCH_PX);
            ctx.set_fill_style_str("#1d2330");
        } else {
            ctx.set_fill_style_str(&colour);
        }
        ctx.fill_text(text, 0.0, 0.5).ok()?;
        ctx.restore();
    }
    Some(())
}

/// One strip of labels. `hovered` is the crosshair's index along this axis; `resized`
/// changes when the window does (the strip repaints at its new size).
#[component]
pub fn AxisLabelStrip(axis: Axis, #[prop(into)] labels: Signal<Vec<AxisLabel>>, #[prop(into)] hovered: Signal<Option<usize>>, #[prop(into)] resized: Signal<u32>) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    // The strip's CSS box, read again only after a resize (or while it has none yet):
    // reading it forces a layout, and new labels (a keystroke) do not move the box.
    let boxed = StoredValue::new(None::<(u32, (f64, f64))>);
    Effect::new(move |_| {
        let r = resized.get();
        let h = hovered.get();
        let pal = theme::palette();
        labels.with(|l| {
            let Some(c) = canvas.get() else { return };
            let size = match boxed.get_value() {
                Some((at, size)) if at == r && size.0 > 0.0 && size.1 > 0.0 => size,
                _ => {
                    let rect = c.get_bounding_client_rect();
                    let size = (rect.width(), rect.height());
                    boxed.set_value(Some((r, size)));
                    size
                }
            };
            paint(&c, size, axis, l, h, &pal);
        });
    });
    let class = if axis == Axis::Keys { "labels keys" } else { "labels queries" };
    view! { <div class=class aria-hidden="true"><canvas node_ref=canvas></canvas></div> }
}
