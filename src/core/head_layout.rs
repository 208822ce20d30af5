//! Which columns of a layer's projections each head reads and where it writes: the one
//! description the CPU core's three attention kinds and the GPU model both follow (the
//! GPU reads heads in place from Q, K and V by these offsets).

/// One head: the first column of each slice it uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadSlices {
    /// Branch 1's query and key (`d` columns each).
    pub q1: usize,
    pub k1: usize,
    /// Branch 2's query and key, for a differential head.
    pub branch2: Option<(usize, usize)>,
    /// Its values (`dv` columns) and where its output goes in the concatenated heads.
    pub v: usize,
    pub out: usize,
}

/// Every head of a layer, with the sizes and the score scale they share.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadLayout {
    /// Query/key head size.
    pub d: usize,
    /// Value (and output) head size: `d`, or `2d` for DIFF V1.
    pub dv: usize,
    /// d^−½, the scale of every head's scores.
    pub scale: f32,
    pub heads: Vec<HeadSlices>,
}

/// The attention score scale d^−½ (computed in f32, as the official code's float32 run).
pub fn score_scale(d: usize) -> f32 {
    (d as f32).powf(-0.5)
}

impl HeadLayout {
    /// Standard attention: head h reads query h and the KV group of `group` query heads.
    pub fn baseline(n_heads: usize, n_kv_heads: usize, d: usize) -> Self {
        let group = n_heads / n_kv_heads;
        let heads = (0..n_heads).map(|h| HeadSlices { q1: h * d, k1: (h / group) * d, branch2: None, v: (h / group) * d, out: h * d }).collect();
        Self { d, dv: d, scale: score_scale(d), heads }
    }

    /// DIFF V1: head h's sub-heads are query columns 2h and 2h+1; `kv(h)` gives its two
    /// key sub-heads and its value head (2d wide), by the module's KV pairing.
    pub fn diff_v1(n_heads: usize, d: usize, kv: impl Fn(usize) -> (usize, usize, usize)) -> Self {
        let heads = (0..n_heads)
            .map(|h| {
                let (k1, k2, vh) = kv(h);
                HeadSlices { q1: 2 * h * d, k1: k1 * d, branch2: Some(((2 * h + 1) * d, k2 * d)), v: vh * 2 * d, out: h * 2 * d }
            })
            .collect();
        Self { d, dv: 2 * d, scale: score_scale(d), heads }
    }

    /// DIFF V2: 2H query heads in pairs (2h, 2h+1) sharing one KV head, `group(q)` for
    /// query head q; the output is one d-wide head per pair.
    pub fn diff_v2(n_heads: usize, d: usize, group: impl Fn(usize) -> usize) -> Self {
        let heads = (0..n_heads)
            .map(|h| {
                let g = group(2 * h);
                debug_assert_eq!(g, group(2 * h + 1), "both branches of a V2 head read one KV head");
                HeadSlices { q1: 2 * h * d, k1: g * d, branch2: Some(((2 * h + 1) * d, g * d)), v: g * d, out: h * d }
            })
            .collect();
        Self { d, dv: d, scale: score_scale(d), heads }
    }

    /// Width of the concatenated head outputs.
    pub fn out_width(&self) -> usize {
        self.heads.len() * self.dv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_tile_their_projections() {
        let b = HeadLayout::baseline(4, 2, 16);
        assert_eq!(b.heads[3], HeadSlices { q1: 48, k1: 16, branch2: None, v: 16, out: 48 });
        assert_eq!((b.out_width(), b.scale), (64, 0.25));
        let v1 = HeadLayout::diff_v1(2, 8, |h| (2 * h, 2 * h + 1, h));
        assert_eq!(v1.heads[1], HeadSlices { q1: 16, k1: 16, branch2: Some((24, 24)), v: 16, out: 16 });
        assert_eq!(v1.out_width(), 32);
        let v2 = HeadLayout::diff_v2(4, 16, |q| q / 4);
        assert_eq!(v2.heads[3], HeadSlices { q1: 96, k1: 16, branch2: Some((112, 16)), v: 16, out: 48 });
    }
}
