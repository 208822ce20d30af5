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

/// Whether `v` replaces `best` in max-magnitude pooling: a larger magnitude wins, and
/// between equal magnitudes the larger value, so the result does not depend on the
/// order in which a block is scanned (the GPU kernel scans differently).
#[inline]
pub fn outranks(v: f32, best: f32) -> bool {
    rank(v) > rank(best)
}

/// The pooling order as one integer: the magnitude's bits (ordered like the magnitudes
/// for finite floats), then the sign (positive above negative). An integer compare
/// keeps the pooling loop branch-free and vectorisable.
#[inline]
fn rank(v: f32) -> u32 {
    (v.abs().to_bits() << 1) | u32::from(v.is_sign_positive())
}

/// Pools `value(i, j)` over an `n × n` map into `r × r` (row-major).
pub fn pool_max_magnitude(n: usize, r: usize, value: impl Fn(usize, usize) -> f32) -> Vec<f32> {
    pool_rows_max_magnitude(n, r, |i, row| {
        for (j, v) in row.iter_mut().enumerate() {
            *v = value(i, j);
        }
    })
}

/// The same pooling with the map given a row at a time (`fill(i, row)` writes row i):
/// the rows of a block are first merged element by element (a loop the compiler
/// vectorises), then the merged row is pooled across its column blocks once. That keeps
/// a λ drag on a 1024² map well inside a frame.
pub fn pool_rows_max_magnitude(n: usize, r: usize, fill: impl FnMut(usize, &mut [f32])) -> Vec<f32> {
    pool_pixel_rows(n, r, 0..r, fill)
}

/// Pixel rows `pixels` of [`pool_rows_max_magnitude`]'s `r × r` picture (row-major,
/// `pixels.len() × r`): they depend on the source rows `block_edges(n, r)[pixels]` only,
/// so a block of rows computed elsewhere can be pooled there.
pub fn pool_pixel_rows(n: usize, r: usize, pixels: std::ops::Range<usize>, mut fill: impl FnMut(usize, &mut [f32])) -> Vec<f32> {
    let mut row = vec![0.0f32; n];
    pool_merged_rows(n, r, pixels, |i, merged| {
        fill(i, &mut row);
        merge_into(merged, row.iter().copied());
    })
}

/// The pooling loop itself: `merge(i, merged)` folds source row i into the running
/// element-wise maximum of a block's rows, which is then pooled across its columns.
fn pool_merged_rows(n: usize, r: usize, pixels: std::ops::Range<usize>, mut merge: impl FnMut(usize, &mut [f32])) -> Vec<f32> {
    let edges = block_edges(n, r);
    let mut out = vec![0.0f32; pixels.len() * r];
    let mut merged = vec![0.0f32; n];
    for (k, pi) in pixels.enumerate() {
        merged.fill(0.0);
        for i in edges[pi]..edges[pi + 1] {
            merge(i, &mut merged);
        }
        for (o, cols) in out[k * r..(k + 1) * r].iter_mut().zip(edges.windows(2)) {
            *o = merged[cols[0]..cols[1]].iter().fold(0.0, |best, &v| if outranks(v, best) { v } else { best });
        }
    }
    out
}

/// `merged[j]` becomes whichever of itself and `row[j]` outranks the other.
#[inline(always)]
fn merge_into(merged: &mut [f32], row: impl Iterator<Item = f32>) {
    for (m, v) in merged.iter_mut().zip(row) {
        *m = if outranks(v, *m) { v } else { *m };
    }
}

/// `a − λ·b` over an `n × n` map (row-major slices), or `a` alone, pooled to `r × r`:
/// the lab's λ drag. The difference is merged as it is computed, without a row buffer;
/// and the function is not generic, so it is compiled with the core's optimisation level
/// (the web build compiles the UI for size) wherever it is called from.
pub fn pool_difference(n: usize, r: usize, a: &[f32], b: Option<(&[f32], f32)>) -> Vec<f32> {
    let row = |i: usize| i * n..(i + 1) * n;
    match b {
        None => pool_merged_rows(n, r, 0..r, |i, merged| merge_into(merged, a[row(i)].iter().copied())),
        Some((b, lambda)) => pool_merged_rows(n, r, 0..r, |i, merged| merge_into(merged, a[row(i)].iter().zip(&b[row(i)]).map(|(x, y)| x - lambda * y))),
    }
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

    /// The row-at-a-time pooling against the definition, block by block, on values with
    /// ties of magnitude and sign flips (the larger value must win whatever the order).
    #[test]
    fn row_pooling_is_the_block_definition() {
        let value = |i: usize, j: usize| ((i * 7 + j * 13) % 11) as f32 * if (i + j).is_multiple_of(3) { -1.0 } else { 1.0 };
        for (n, r) in [(10, 4), (1024, 384), (37, 37), (300, 7)] {
            let edges = block_edges(n, r);
            let mut want = vec![0.0f32; r * r];
            for pi in 0..r {
                for pj in 0..r {
                    let mut best = 0.0f32;
                    for i in edges[pi]..edges[pi + 1] {
                        for j in edges[pj]..edges[pj + 1] {
                            let v = value(i, j);
                            if v.abs() > best.abs() || (v.abs() == best.abs() && v > best) {
                                best = v;
                            }
                        }
                    }
                    want[pi * r + pj] = best;
                }
            }
            assert_eq!(pool_max_magnitude(n, r, value), want, "n {n}, r {r}");
            // Pooled a band of pixel rows at a time, from their source rows only.
            let fill = |i: usize, row: &mut [f32]| row.iter_mut().enumerate().for_each(|(j, v)| *v = value(i, j));
            let split = r / 3;
            let bands = [pool_pixel_rows(n, r, 0..split, fill), pool_pixel_rows(n, r, split..r, fill)].concat();
            assert_eq!(bands, want, "n {n}, r {r}, in two bands");
        }
    }

    #[test]
    fn the_lambda_drag_s_pooling_is_the_general_one_bit_for_bit() {
        let (a, b): (Vec<f32>, Vec<f32>) = (0..300 * 300).map(|k| (((k * 37) % 101) as f32 / 97.0, ((k * 53) % 89) as f32 / 83.0)).unzip();
        for (n, r) in [(300, 300), (300, 128), (300, 7)] {
            let (a, b) = (&a[..n * n], &b[..n * n]);
            for lambda in [0.0f32, 0.35, 0.8, 1.0] {
                let want = pool_max_magnitude(n, r, |i, j| a[i * n + j] - lambda * b[i * n + j]);
                let got = pool_difference(n, r, a, Some((b, lambda)));
                assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "n {n}, r {r}, λ {lambda}");
            }
            assert_eq!(pool_difference(n, r, a, None), pool_max_magnitude(n, r, |i, j| a[i * n + j]));
        }
    }

    #[test]
    fn identity_when_the_map_fits() {
        let pooled = pool_max_magnitude(3, pooled_size(3, 512), |i, j| (i * 3 + j) as f32);
        assert_eq!(pooled, (0..9).map(|v| v as f32).collect::<Vec<_>>());
        assert_eq!(block_edges(10, 4), vec![0, 2, 5, 7, 10]);
        assert_eq!(pixel_to_index(4096, 512, 511), 4088);
    }
}
