//! The colours the page's canvases draw with, in the light and the dark theme (the HTML
//! takes its colours from the stylesheet's variables; a canvas cannot). The heatmaps'
//! colour maps are data and stay the same in both themes: only the frame around them,
//! the text and the chart lines change. Every text colour is checked against its paper
//! for WCAG's 4.5:1 here, natively, so a palette edit that hurts legibility fails a test.

use super::labels::Emphasis;

pub type Rgb = (u8, u8, u8);

/// The charts' series and markers as the pages name them (the light theme's values):
/// a colour-blind-safe pair (blue / orange), a neutral, and a red for marks.
pub const BLUE: Rgb = (33, 102, 172);
pub const ORANGE: Rgb = (230, 97, 1);
pub const GREY: Rgb = (90, 99, 117);
pub const RED: Rgb = (178, 24, 43);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub dark: bool,
    /// A chart's background (the panel's colour in the stylesheet).
    pub paper: Rgb,
    /// Tick labels, axis titles, the legend's text.
    pub ink: Rgb,
    pub axis: Rgb,
    pub grid: Rgb,
    /// The ticks above a map at the signal keys, and the dark half of the crosshair.
    pub mark: Rgb,
    /// `BLUE, ORANGE, GREY, RED` as drawn in this theme.
    hues: [Rgb; 4],
    /// Token labels beside a map: the asked needle, the other needles, the query and
    /// answer, the rest (weight tells them apart as well as colour).
    labels: [Rgb; 4],
}

impl Palette {
    pub const LIGHT: Palette = Palette {
        dark: false,
        paper: (255, 255, 255),
        ink: (61, 68, 82),
        axis: (140, 146, 160),
        grid: (228, 231, 238),
        mark: (17, 17, 17),
        hues: [BLUE, ORANGE, GREY, RED],
        labels: [(160, 63, 0), (84, 39, 136), (29, 35, 48), (77, 85, 102)],
    };

    /// Lighter members of the same hues, so blue stays blue and orange orange (the pair
    /// colour-blind readers tell apart) on a dark panel.
    pub const DARK: Palette = Palette {
        dark: true,
        paper: (26, 30, 38),
        ink: (205, 211, 222),
        axis: (120, 128, 144),
        grid: (52, 58, 70),
        mark: (230, 233, 239),
        hues: [(103, 169, 207), (253, 184, 99), (170, 178, 192), (255, 120, 130)],
        labels: [(253, 184, 99), (194, 165, 207), (230, 233, 239), (176, 184, 198)],
    };

    pub fn of(dark: bool) -> Palette {
        if dark {
            Palette::DARK
        } else {
            Palette::LIGHT
        }
    }

    /// A page's series or marker colour (one of `BLUE, ORANGE, GREY, RED`, or any other,
    /// which is drawn as given) in this theme.
    pub fn hue(&self, c: Rgb) -> Rgb {
        [BLUE, ORANGE, GREY, RED].iter().position(|h| *h == c).map_or(c, |k| self.hues[k])
    }

    pub fn label(&self, e: Emphasis) -> Rgb {
        match e {
            Emphasis::Asked => self.labels[0],
            Emphasis::Needle => self.labels[1],
            Emphasis::Query | Emphasis::Answer => self.labels[2],
            Emphasis::Plain => self.labels[3],
        }
    }
}

/// `rgb(r,g,b)` for a canvas's fill and stroke styles.
pub fn css((r, g, b): Rgb) -> String {
    format!("rgb({r},{g},{b})")
}

/// WCAG 2 relative luminance.
pub fn luminance((r, g, b): Rgb) -> f64 {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG 2 contrast ratio, 1 to 21.
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_matches_wcag_examples() {
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
        assert!((contrast((119, 119, 119), (255, 255, 255)) - 4.48).abs() < 0.01);
        assert_eq!(contrast((40, 50, 60), (40, 50, 60)), 1.0);
    }

    #[test]
    fn every_text_colour_reads_on_its_paper_in_both_themes() {
        for p in [Palette::LIGHT, Palette::DARK] {
            // Markers' labels are written in their colour (the pages mark with grey and red).
            let texts = [p.ink, p.mark, p.hue(GREY), p.hue(RED)].into_iter();
            for c in texts.chain([Emphasis::Asked, Emphasis::Needle, Emphasis::Query, Emphasis::Plain].map(|s| p.label(s))) {
                assert!(contrast(c, p.paper) >= 4.5, "{c:?} on {:?}: {:.2}", p.paper, contrast(c, p.paper));
            }
            // Lines and grid are not text: 3:1 for the curves (WCAG's non-text contrast),
            // and the grid visible but fainter than the axis.
            for h in [BLUE, ORANGE, GREY, RED] {
                assert!(contrast(p.hue(h), p.paper) >= 3.0, "{h:?} in {} theme", if p.dark { "dark" } else { "light" });
            }
            assert!(contrast(p.grid, p.paper) > 1.1 && contrast(p.grid, p.paper) < contrast(p.axis, p.paper));
        }
    }

    #[test]
    fn the_dark_theme_keeps_each_hue_and_unknown_colours_pass_through() {
        let d = Palette::DARK;
        let (b, o) = (d.hue(BLUE), d.hue(ORANGE));
        assert!(b.2 > b.0 && o.0 > o.2, "blue stays blue, orange orange: {b:?} {o:?}");
        assert!(luminance(d.paper) < 0.05 && luminance(d.ink) > 0.5);
        assert_eq!(d.hue((1, 2, 3)), (1, 2, 3));
        assert_eq!(Palette::LIGHT.hue(BLUE), BLUE);
    }
}
