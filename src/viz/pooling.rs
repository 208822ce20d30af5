//! Downsampling an N × N map to at most R × R pixels with max-magnitude pooling: each
//! pixel shows the entry of largest |value| in its block (sign kept), so a single spike
//! (a signal key, a negative dip) stays visible however large N is.

/// Block boundaries: pixel p covers source indices `[p·n/r, (p+1)·n/r)`.
pub fn block_edges(n: usize, r: usize) -> Vec<usize> {
    (0..=r).map(|p| p * n / r).collect()
}

/// The pixel side for an `n`-wide map displayed at most `max_px` wide.
pub fn pooled_size(n: usize, max_px: usize) -> usize {
    n.min(max_px).max(1)
}

/// Pools `value(i, j)` over an `n × n` map into `r × r` (row-major).
pub fn pool_max_magnitude(n: usize, r: usize, value: impl Fn(usize, usize) -> f32) -> Vec<f32> {
    let edges = block_edges(n, r);
    let mut out = vec![0.0f32; r * r];
    for (pi, rows) in edges.windows(2).enumerate() {
        for (pj, cols) in edges.windows(2).enumerate() {
            let mut best = 0.0f32;
            for i in rows[0]..rows[1] {
                for j in cols[0]..cols[1] {
                    let v = value(i, j);
                    if v.abs() > best.abs() {
                        best = v;
                    }
                }
            }
            out[pi * r + pj] = best;
        }
    }
    out
}

/// The source block a pixel shows, for hover: pixel → (first index, one past last).
pub fn pixel_to_index(n: usize, r: usize, pixel: usize) -> usize {
    (pixel.min(r - 1) * n / r).min(n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_spike_survives_pooling() {
        let n = 1000;
        let pooled = pool_max_magnitude(n, 100, |i, j| if (i, j) == (537, 12) { -0.9 } else { 0.001 });
        assert_eq!(pooled.len(), 100 * 100);
        assert_eq!(pooled[53 * 100 + 1], -0.9, "the negative spike keeps its sign and value");
        assert_eq!(pooled[0], 0.001);
    }

    #[test]
    fn identity_when_the_map_fits() {
        let pooled = pool_max_magnitude(3, pooled_size(3, 512), |i, j| (i * 3 + j) as f32);
        assert_eq!(pooled, (0..9).map(|v| v as f32).collect::<Vec<_>>());
        assert_eq!(block_edges(10, 4), vec![0, 2, 5, 7, 10]);
        assert_eq!(pixel_to_index(4096, 512, 511), 4088);
    }
}
