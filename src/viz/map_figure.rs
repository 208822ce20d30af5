//! A heatmap as a saved figure: where its title, state, numbered axes, colour bar, marks
//! and scale name go. One layout, drawn two ways: on a canvas for the PNG, and as SVG
//! (the map and the bar's colours as embedded images, everything else vector lines and
//! text, so a paper's figure can be restyled and its labels searched).

use super::colormap::BarTick;
use super::ticks;

/// The figure's size in CSS px before the PNG's ×2.
pub const WIDTH: f64 = LEFT + MAP + 32.0;
pub const HEIGHT: f64 = TOP + MAP + 100.0;
const MAP: f64 = 512.0;
const LEFT: f64 = 64.0;
const TOP: f64 = 92.0;
const BAR_H: f64 = 14.0;
pub const INK: &str = "#1d2330";
pub const MUTED: &str = "#4d5566";

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Align {
    Left,
    Center,
    Right,
}

impl Align {
    pub fn canvas(self) -> &'static str {
        match self {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
        }
    }

    fn svg(self) -> &'static str {
        match self {
            Align::Left => "start",
            Align::Center => "middle",
            Align::Right => "end",
        }
    }
}

/// Which picture an [`Mark::Image`] shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Picture {
    Map,
    Bar,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// `size` in px; `rotated`: written upwards (the query axis's name).
    Text {
        text: String,
        x: f64,
        y: f64,
        size: f64,
        bold: bool,
        colour: &'static str,
        align: Align,
        rotated: bool,
    },
    Line {
        from: (f64, f64),
        to: (f64, f64),
    },
    Frame {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
    },
    Image {
        picture: Picture,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
    },
}

/// What goes around the map in the saved figure.
pub struct Figure<'a> {
    pub title: &'a str,
    /// The state the map shows, as its file name says it.
    pub params: &'a str,
    pub n: usize,
    pub bar: &'a [BarTick],
    pub scale_name: &'a str,
}

fn text(text: &str, x: f64, y: f64, size: f64, colour: &'static str, align: Align) -> Mark {
    Mark::Text { text: text.to_string(), x, y, size, bold: false, colour, align, rotated: false }
}

/// The figure's marks, in drawing order.
pub fn layout(f: &Figure) -> Vec<Mark> {
    let mut marks = vec![
        Mark::Text { text: f.title.to_string(), x: 16.0, y: 28.0, size: 18.0, bold: true, colour: INK, align: Align::Left, rotated: false },
        text(f.params, 16.0, 48.0, 13.0, MUTED, Align::Left),
        text(&crate::tr!("figure-keys"), LEFT, TOP - 30.0, 13.0, MUTED, Align::Left),
        Mark::Image { picture: Picture::Map, x: LEFT, y: TOP, w: MAP, h: MAP },
    ];
    let n = f.n.max(1);
    for t in ticks::indices(n, 6) {
        let at = (t.at + 0.5) / n as f64 * MAP;
        marks.push(text(&t.label, LEFT + at, TOP - 8.0, 12.0, INK, Align::Center));
        marks.push(text(&t.label, LEFT - 8.0, TOP + at + 4.0, 12.0, INK, Align::Right));
        marks.push(Mark::Line { from: (LEFT + at, TOP - 4.0), to: (LEFT + at, TOP) });
        marks.push(Mark::Line { from: (LEFT - 4.0, TOP + at), to: (LEFT, TOP + at) });
    }
    marks.push(Mark::Text { text: crate::tr!("figure-queries"), x: 18.0, y: TOP + MAP / 2.0, size: 13.0, bold: false, colour: MUTED, align: Align::Center, rotated: true });
    let y = TOP + MAP + 20.0;
    marks.push(Mark::Image { picture: Picture::Bar, x: LEFT, y, w: MAP, h: BAR_H });
    marks.push(Mark::Frame { x: LEFT, y, w: MAP, h: BAR_H });
    for t in f.bar {
        let x = LEFT + t.at as f64 * MAP;
        let align = if t.at <= 0.0 {
            Align::Left
        } else if t.at >= 1.0 {
            Align::Right
        } else {
            Align::Center
        };
        marks.push(text(&t.label, x, y + 32.0, 12.0, INK, align));
        marks.push(Mark::Line { from: (x, y + BAR_H), to: (x, y + BAR_H + 5.0) });
    }
    marks.push(text(f.scale_name, LEFT, y + 54.0, 13.0, MUTED, Align::Left));
    marks
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The figure as an SVG document; `map` and `bar` are the pictures' PNG data URLs.
pub fn svg(marks: &[Mark], map: &str, bar: &str) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    );
    for m in marks {
        let line = match m {
            Mark::Text { text, x, y, size, bold, colour, align, rotated } => {
                let turn = if *rotated { format!(" transform=\"rotate(-90 {x} {y})\"") } else { String::new() };
                let weight = if *bold { " font-weight=\"bold\"" } else { "" };
                format!("<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\"{weight} fill=\"{colour}\" text-anchor=\"{}\"{turn}>{}</text>", align.svg(), escape(text))
            }
            Mark::Line { from, to } => format!("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/>", from.0, from.1, to.0, to.1),
            Mark::Frame { x, y, w, h } => format!("<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"1\"/>"),
            Mark::Image { picture, x, y, w, h } => {
                let href = if *picture == Picture::Map { map } else { bar };
                // Pixelated: one cell of the map is one block of colour, as on screen.
                format!("<image x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"{}\"/>", escape(href))
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(bar: &[BarTick]) -> Vec<Mark> {
        layout(&Figure { title: "A1 − λ·A2 <layer 2>", params: "difflens-lab-diff-n256", n: 256, bar, scale_name: "colour scale: square root" })
    }

    #[test]
    fn the_layout_numbers_both_axes_and_marks_the_bar() {
        let bar = [BarTick { at: 0.0, label: "0".into() }, BarTick { at: 0.5, label: "0.25".into() }, BarTick { at: 1.0, label: "1".into() }];
        let marks = figure(&bar);
        let texts: Vec<&str> = marks.iter().filter_map(|m| if let Mark::Text { text, .. } = m { Some(text.as_str()) } else { None }).collect();
        for t in ["0", "100", "200", "0.25", "1", "colour scale: square root", "query i ↓", "key j →"] {
            assert!(texts.contains(&t), "{t} in {texts:?}");
        }
        // Each axis index is written twice (keys and queries), each with its tick line.
        let axis = ticks::indices(256, 6).len();
        let lines = marks.iter().filter(|m| matches!(m, Mark::Line { .. })).count();
        assert_eq!(lines, 2 * axis + bar.len());
        let images: Vec<Picture> = marks.iter().filter_map(|m| if let Mark::Image { picture, .. } = m { Some(*picture) } else { None }).collect();
        assert_eq!(images, [Picture::Map, Picture::Bar]);
        // The bar's end labels are aligned inwards, so they never run off the figure.
        let aligns: Vec<Align> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Text { text, align, .. } if text == "0.25" || text == "1" => Some(*align),
                _ => None,
            })
            .collect();
        assert_eq!(aligns, [Align::Center, Align::Right]);
    }

    #[test]
    fn the_svg_has_vector_text_and_embedded_pictures() {
        let marks = figure(&[BarTick { at: 1.0, label: "1".into() }]);
        let s = svg(&marks, "data:image/png;base64,AAAA", "data:image/png;base64,BBBB");
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(s.trim_end().ends_with("</svg>"));
        assert!(s.contains(">A1 − λ·A2 &lt;layer 2&gt;</text>"), "titles are escaped text");
        assert!(s.contains("href=\"data:image/png;base64,AAAA\"") && s.contains("href=\"data:image/png;base64,BBBB\""));
        assert!(s.contains("rotate(-90"), "the query axis's name reads upwards");
        assert_eq!(s.matches("<text").count(), marks.iter().filter(|m| matches!(m, Mark::Text { .. })).count());
        assert!(s.contains("text-anchor=\"end\">1</text>"));
    }
}
