//! Colour-blind-safe colour maps: viridis (perceptually uniform, sequential) for the
//! softmax maps, ColorBrewer RdBu (diverging, centred on 0: blue negative, red positive)
//! for the signed difference A1 − λ·A2.
//!
//! Here, in the core, so that the web build compiles the per-pixel lookup for speed (a λ
//! drag colours a whole map every frame); the colour bar's words are in `viz::colormap`.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// viridis sampled at 0, 0.1, …, 1 (matplotlib's values).
const VIRIDIS: [[u8; 3]; 11] = [
    [0x44, 0x01, 0x54],
    [0x48, 0x24, 0x75],
    [0x41, 0x44, 0x87],
    [0x35, 0x5f, 0x8d],
    [0x2a, 0x78, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x22, 0xa8, 0x84],
    [0x44, 0xbf, 0x70],
    [0x7a, 0xd1, 0x51],
    [0xbd, 0xdf, 0x26],
    [0xfd, 0xe7, 0x25],
];

/// RdBu (11 classes) from −1 (dark blue) through white at 0 to +1 (dark red).
const RDBU: [[u8; 3]; 11] = [
    [0x05, 0x30, 0x61],
    [0x21, 0x66, 0xac],
    [0x43, 0x93, 0xc3],
    [0x92, 0xc5, 0xde],
    [0xd1, 0xe5, 0xf0],
    [0xf7, 0xf7, 0xf7],
    [0xfd, 0xdb, 0xc7],
    [0xf4, 0xa5, 0x82],
    [0xd6, 0x60, 0x4d],
    [0xb2, 0x18, 0x2b],
    [0x67, 0x00, 0x1f],
];

fn lerp(anchors: &[[u8; 3]], t: f32) -> [u8; 3] {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let x = t * (anchors.len() - 1) as f32;
    let i = (x.floor() as usize).min(anchors.len() - 2);
    let f = x - i as f32;
    let (a, b) = (anchors[i], anchors[i + 1]);
    std::array::from_fn(|c| (a[c] as f32 + f * (b[c] as f32 - a[c] as f32)).round() as u8)
}

/// How values map to colour: small weights (the noise floor) vanish on a linear scale,
/// so the page offers a square-root and a log scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Contrast {
    Linear,
    #[default]
    Sqrt,
    /// Four decades below the maximum.
    Log,
}

impl Contrast {
    pub const ALL: [Contrast; 3] = [Contrast::Linear, Contrast::Sqrt, Contrast::Log];

    /// Maps a magnitude ratio m = |v|/vmax ∈ [0, 1] to a colour position in [0, 1].
    pub fn apply(self, m: f32) -> f32 {
        let m = m.clamp(0.0, 1.0);
        match self {
            Contrast::Linear => m,
            Contrast::Sqrt => m.sqrt(),
            Contrast::Log => {
                if m <= 1e-4 {
                    0.0
                } else {
                    (m.log10() + 4.0) / 4.0
                }
            }
        }
    }

    /// The inverse of [`apply`](Self::apply): the magnitude ratio at colour position t
    /// (for colour-bar tick labels).
    pub fn invert(self, t: f32) -> f32 {
        let t = t.clamp(0.0, 1.0);
        match self {
            Contrast::Linear => t,
            Contrast::Sqrt => t * t,
            Contrast::Log => 10f32.powf(4.0 * t - 4.0),
        }
    }
}

/// A colour scale: sequential over [0, vmax] or diverging over [−vmax, vmax].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub diverging: bool,
    pub vmax: f32,
    pub contrast: Contrast,
}

impl Scale {
    pub fn color(&self, v: f32) -> [u8; 3] {
        lerp(self.anchors(), self.position(v))
    }

    /// Where `v` falls on the colour map, 0 … 1 (the diverging map's centre, 0.5, is 0).
    pub fn position(&self, v: f32) -> f32 {
        let v = if v.is_finite() { v } else { 0.0 };
        let vmax = if self.vmax > 0.0 { self.vmax } else { 1.0 };
        let t = self.contrast.apply(v.abs() / vmax);
        if self.diverging {
            0.5 + 0.5 * t * v.signum()
        } else if v > 0.0 {
            t
        } else {
            0.0
        }
    }

    fn anchors(&self) -> &'static [[u8; 3]] {
        if self.diverging {
            &RDBU
        } else {
            &VIRIDIS
        }
    }

    /// The value at colour-bar position p ∈ [0, 1] (left to right).
    pub fn value_at(&self, p: f32) -> f32 {
        if self.diverging {
            let t = 2.0 * p - 1.0;
            t.signum() * self.contrast.invert(t.abs()) * self.vmax
        } else {
            self.contrast.invert(p) * self.vmax
        }
    }
}

/// Steps of a [`ColorTable`]: finer than one 8-bit level of any anchor gradient.
const TABLE_STEPS: usize = 4096;

/// A scale's colours tabulated over the colour-map position, so painting a heatmap costs
/// a contrast transform and a lookup per pixel instead of an interpolation (the λ drag
/// repaints 147 456 pixels per update). Colours differ from [`Scale::color`] by at most
/// one 8-bit level (the position is rounded to 1/4095). The two colour maps' tables are
/// made once: a drag repaints fifteen small canvases per step, and building a table for
/// each cost more than painting it.
pub struct ColorTable {
    scale: Scale,
    rgba: &'static [[u8; 4]],
}

fn tabulate(anchors: &[[u8; 3]]) -> Vec<[u8; 4]> {
    (0..TABLE_STEPS)
        .map(|k| {
            let [r, g, b] = lerp(anchors, k as f32 / (TABLE_STEPS - 1) as f32);
            [r, g, b, 255]
        })
        .collect()
}

static SEQUENTIAL_TABLE: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
static DIVERGING_TABLE: OnceLock<Vec<[u8; 4]>> = OnceLock::new();

impl Scale {
    pub fn table(&self) -> ColorTable {
        let cell = if self.diverging { &DIVERGING_TABLE } else { &SEQUENTIAL_TABLE };
        ColorTable { scale: *self, rgba: cell.get_or_init(|| tabulate(self.anchors())) }
    }
}

impl ColorTable {
    pub fn rgba(&self, v: f32) -> [u8; 4] {
        // Ties to even: one wasm instruction, where `round` is a library call.
        self.rgba[(self.scale.position(v).clamp(0.0, 1.0) * (TABLE_STEPS - 1) as f32).round_ties_even() as usize]
    }

    /// Writes the colours of `values` into `rgba`, four bytes each.
    pub fn fill(&self, values: &[f32], rgba: &mut [u8]) {
        for (px, v) in rgba.chunks_exact_mut(4).zip(values) {
            px.copy_from_slice(&self.rgba(*v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_centre_are_the_anchor_colours() {
        let seq = Scale { diverging: false, vmax: 2.0, contrast: Contrast::Linear };
        assert_eq!(seq.color(0.0), VIRIDIS[0]);
        assert_eq!(seq.color(2.0), VIRIDIS[10]);
        assert_eq!(seq.color(9.0), VIRIDIS[10], "values beyond vmax saturate");
        let div = Scale { diverging: true, vmax: 1.0, contrast: Contrast::Linear };
        assert_eq!(div.color(0.0), RDBU[5], "zero is white");
        assert_eq!(div.color(-1.0), RDBU[0]);
        assert_eq!(div.color(1.0), RDBU[10]);
        assert_eq!(div.color(f32::NAN), RDBU[5]);
    }

    #[test]
    fn fill_writes_each_value_s_colour_and_tables_follow_their_own_scale() {
        let values = [-0.3f32, 0.0, 0.01, 0.2, 0.9, f32::NAN];
        for scale in [
            Scale { diverging: true, vmax: 0.3, contrast: Contrast::Sqrt },
            Scale { diverging: true, vmax: 3.0, contrast: Contrast::Linear },
            Scale { diverging: false, vmax: 0.9, contrast: Contrast::Log },
        ] {
            let table = scale.table();
            let mut rgba = vec![0u8; values.len() * 4];
            table.fill(&values, &mut rgba);
            for (px, v) in rgba.chunks_exact(4).zip(values) {
                assert_eq!(px, table.rgba(v));
                let want = scale.color(v);
                assert!((0..3).all(|c| (want[c] as i32 - px[c] as i32).abs() <= 1), "{scale:?} at {v}");
            }
        }
    }

    #[test]
    fn the_table_matches_the_scale_within_one_level() {
        for diverging in [false, true] {
            for contrast in Contrast::ALL {
                let scale = Scale { diverging, vmax: 0.37, contrast };
                let table = scale.table();
                for k in 0..=2000 {
                    let v = -0.5 + k as f32 * 0.0005;
                    let (want, got) = (scale.color(v), table.rgba(v));
                    for c in 0..3 {
                        assert!((want[c] as i32 - got[c] as i32).abs() <= 1, "{scale:?} at {v}: {want:?} vs {got:?}");
                    }
                    assert_eq!(got[3], 255);
                }
                assert_eq!(table.rgba(f32::NAN), table.rgba(0.0));
            }
        }
    }

    #[test]
    fn contrast_inverts() {
        for c in Contrast::ALL {
            for t in [0.1f32, 0.5, 0.9] {
                assert!((c.apply(c.invert(t)) - t).abs() < 1e-5, "{c:?}");
            }
        }
        let div = Scale { diverging: true, vmax: 0.5, contrast: Contrast::Sqrt };
        assert!((div.value_at(0.0) + 0.5).abs() < 1e-6 && div.value_at(0.5).abs() < 1e-6);
    }
}
