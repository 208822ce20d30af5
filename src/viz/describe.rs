//! What a figure shows, as facts a sentence or a table can carry: for a map, the key most
//! queries attend to most, how much of the weight falls on the marked keys (the signal
//! keys, the needles) and how much is negative; for a chart, each curve's trend and
//! extremes. A student who cannot see the colours reads these instead (issue 45), so they
//! are computed from the same numbers the picture and the CSV export hold. Pure functions
//! with no browser types, tested natively; the UI words them in the page's language.

use crate::core::pooling::{block_edges, outranks};
use std::ops::Range;

/// A map's facts, read from `side × side` values of an `n × n` map (`side < n`: the
/// pooled picture, each value its block's largest magnitude).
#[derive(Clone, Debug, PartialEq)]
pub struct MapFacts {
    pub n: usize,
    /// Read from the pooled picture rather than every entry: counts are of picture rows,
    /// and the shares below are not computed (a pooled value is not a sum).
    pub pooled: bool,
    /// The keys most rows put their largest weight on, and in how many of the rows.
    pub favourite: Option<Favourite>,
    /// Rows whose largest weight is on a marked key, of `rows`.
    pub rows_on_marked: usize,
    pub rows: usize,
    /// The share of the weight's total magnitude on the marked keys (every entry only).
    pub marked_share: Option<f64>,
    /// The share of the weight's total magnitude that is negative (every entry only).
    pub negative_share: Option<f64>,
    /// The marked row (the one that answers), where there is one.
    pub row: Option<RowFacts>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Favourite {
    /// Source key indices (one key unless pooled).
    pub keys: Range<usize>,
    pub rows: usize,
    pub marked: bool,
}

/// One row's strongest key.
#[derive(Clone, Debug, PartialEq)]
pub struct RowFacts {
    pub query: usize,
    pub keys: Range<usize>,
    pub value: f32,
    pub marked: bool,
    /// The share of this row's weight magnitude on the marked keys (every entry only).
    pub marked_share: Option<f64>,
}

/// The facts of `values` (`side × side`, row-major: row = query, column = key) for an
/// `n × n` map, `marked` keys (source indices) and an optional `marked_row` (a source
/// index).
pub fn map_facts(values: &[f32], side: usize, n: usize, marked: &[usize], marked_row: Option<usize>) -> Option<MapFacts> {
    if side == 0 || n == 0 || values.len() < side * side || side > n {
        return None;
    }
    let edges = block_edges(n, side);
    let column_marked: Vec<bool> = edges.windows(2).map(|w| marked.iter().any(|k| (w[0]..w[1]).contains(k))).collect();
    let exact = side == n;
    let mut picks = vec![0usize; side];
    let mut rows_on_marked = 0;
    let (mut total, mut on_marked, mut negative) = (0.0f64, 0.0f64, 0.0f64);
    for row in values.chunks_exact(side).take(side) {
        if let Some(j) = strongest(row) {
            picks[j] += 1;
            rows_on_marked += usize::from(column_marked[j]);
        }
        for (v, m) in row.iter().zip(&column_marked) {
            let a = v.abs() as f64;
            total += a;
            on_marked += if *m { a } else { 0.0 };
            negative += if *v < 0.0 { a } else { 0.0 };
        }
    }
    let share = |part: f64| (exact && total > 0.0).then(|| part / total);
    let favourite = picks.iter().enumerate().filter(|(_, c)| **c > 0).max_by_key(|(j, c)| (**c, std::cmp::Reverse(*j))).map(|(j, c)| Favourite {
        keys: edges[j]..edges[j + 1],
        rows: *c,
        marked: column_marked[j],
    });
    let row = marked_row.filter(|r| *r < n).and_then(|r| {
        let p = edges.windows(2).position(|w| (w[0]..w[1]).contains(&r))?;
        let cells = &values[p * side..(p + 1) * side];
        let j = strongest(cells)?;
        let sum: f64 = cells.iter().map(|v| v.abs() as f64).sum();
        let on: f64 = cells.iter().zip(&column_marked).filter(|(_, m)| **m).map(|(v, _)| v.abs() as f64).sum();
        Some(RowFacts { query: r, keys: edges[j]..edges[j + 1], value: cells[j], marked: column_marked[j], marked_share: (exact && sum > 0.0).then(|| on / sum) })
    });
    Some(MapFacts { n, pooled: !exact, favourite, rows_on_marked, rows: side, marked_share: share(on_marked), negative_share: share(negative), row })
}

/// The column of a row's largest value (the first of equals); none for a row with no
/// positive weight (a causal map's masked cells are zero).
fn strongest(row: &[f32]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (j, &v) in row.iter().enumerate() {
        if v > 0.0 && best.is_none_or(|(_, b)| v > b) {
            best = Some((j, v));
        }
    }
    best.map(|(j, _)| j)
}

/// A map as a table of at most `max × max` cells: each the largest-magnitude value of its
/// block of the `side × side` values (the rule that pooled the picture), with the source
/// queries and keys each row and column covers.
#[derive(Clone, Debug, PartialEq)]
pub struct MapTable {
    pub t: usize,
    /// Source index ranges (queries for rows, keys for columns: the map is square).
    pub spans: Vec<Range<usize>>,
    pub values: Vec<f32>,
}

pub fn map_table(values: &[f32], side: usize, n: usize, max: usize) -> Option<MapTable> {
    if side == 0 || n == 0 || values.len() < side * side || side > n || max == 0 {
        return None;
    }
    let t = side.min(max);
    let (outer, inner) = (block_edges(side, t), block_edges(n, side));
    let spans: Vec<Range<usize>> = outer.windows(2).map(|w| inner[w[0]]..inner[w[1]]).collect();
    let mut out = vec![0.0f32; t * t];
    for (a, rows) in outer.windows(2).enumerate() {
        for (b, cols) in outer.windows(2).enumerate() {
            let mut best = 0.0f32;
            for i in rows[0]..rows[1] {
                for &v in &values[i * side + cols[0]..i * side + cols[1]] {
                    if outranks(v, best) {
                        best = v;
                    }
                }
            }
            out[a * t + b] = best;
        }
    }
    Some(MapTable { t, spans, values: out })
}

/// Which way a curve goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    Rises,
    Falls,
    /// Highest inside the range, lower at both ends.
    Peaks,
    /// Lowest inside the range, higher at both ends.
    Dips,
    Flat,
}

/// One curve's shape: where it starts and ends, its extremes and its trend.
#[derive(Clone, Debug, PartialEq)]
pub struct CurveFacts {
    pub first: (f64, f64),
    pub last: (f64, f64),
    pub min: (f64, f64),
    pub max: (f64, f64),
    pub trend: Trend,
}

/// The facts of a curve's finite points (none if it has none).
pub fn curve_facts(points: &[(f64, f64)]) -> Option<CurveFacts> {
    let finite: Vec<(f64, f64)> = points.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite()).collect();
    let (&first, &last) = (finite.first()?, finite.last()?);
    let by_y = |a: &&(f64, f64), b: &&(f64, f64)| a.1.total_cmp(&b.1);
    let min = *finite.iter().min_by(by_y)?;
    // The first of equal maxima: a curve that saturates peaks where it first gets there.
    let max = *finite.iter().rev().max_by(by_y)?;
    let range = max.1 - min.1;
    let scale = max.1.abs().max(min.1.abs());
    let trend = if range <= 1e-12 || range < 0.02 * scale {
        Trend::Flat
    } else if (last.1 - first.1).abs() >= 0.5 * range {
        if last.1 > first.1 {
            Trend::Rises
        } else {
            Trend::Falls
        }
    } else if max.1 - first.1.max(last.1) >= 0.5 * range {
        Trend::Peaks
    } else if first.1.min(last.1) - min.1 >= 0.5 * range {
        Trend::Dips
    } else {
        Trend::Flat
    };
    Some(CurveFacts { first, last, min, max, trend })
}

/// A chart's curves as one table: a row per x value any curve has (ascending), a column
/// per curve, `None` where a curve has no point at that x.
pub fn chart_rows(curves: &[&[(f64, f64)]]) -> Vec<(f64, Vec<Option<f64>>)> {
    let mut xs: Vec<f64> = curves.iter().flat_map(|c| c.iter().map(|p| p.0)).filter(|x| x.is_finite()).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs.into_iter().map(|x| (x, curves.iter().map(|c| c.iter().find(|p| p.0 == x).map(|p| p.1)).collect())).collect()
}

/// Where a chart's keyboard cursor goes on `key` from `at` among `len` x values (none: the
/// key is not the cursor's): arrows one value, Page Up and Down a tenth, Home and End the
/// ends; the first arrow starts at the first value.
pub fn cursor_step(key: &str, at: Option<usize>, len: usize) -> Option<usize> {
    let last = len.checked_sub(1)?;
    let page = (len / 10).max(1);
    Some(match (key, at) {
        ("ArrowRight" | "ArrowUp" | "ArrowLeft" | "ArrowDown" | "PageUp" | "PageDown", None) => 0,
        ("ArrowRight" | "ArrowUp", Some(a)) => (a + 1).min(last),
        ("ArrowLeft" | "ArrowDown", Some(a)) => a.saturating_sub(1),
        ("PageUp", Some(a)) => (a + page).min(last),
        ("PageDown", Some(a)) => a.saturating_sub(page),
        ("Home", _) => 0,
        ("End", _) => last,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A softmax-like 4 × 4 map: rows 0–2 attend most to key 1 (marked), row 3 to key 3.
    fn map() -> Vec<f32> {
        vec![
            0.1, 0.7, 0.1, 0.1, //
            0.2, 0.6, 0.1, 0.1, //
            0.0, 0.5, 0.25, 0.25, //
            0.1, 0.1, 0.1, 0.7,
        ]
    }

    #[test]
    fn a_map_says_which_key_most_rows_attend_to_and_the_share_on_the_marked_keys() {
        let f = map_facts(&map(), 4, 4, &[1], Some(3)).unwrap();
        assert_eq!(f.favourite, Some(Favourite { keys: 1..2, rows: 3, marked: true }));
        assert_eq!((f.rows_on_marked, f.rows, f.pooled), (3, 4, false));
        // (0.7 + 0.6 + 0.5 + 0.1) / 4: each row sums to 1.
        assert!((f.marked_share.unwrap() - 0.475).abs() < 1e-6);
        assert_eq!(f.negative_share, Some(0.0));
        let row = f.row.unwrap();
        assert_eq!((row.query, row.keys, row.value, row.marked), (3, 3..4, 0.7, false));
        assert!((row.marked_share.unwrap() - 0.1).abs() < 1e-6);
    }

    #[test]
    fn negative_weight_is_a_share_of_the_magnitude() {
        let f = map_facts(&[0.75, -0.25, 0.5, -0.5], 2, 2, &[], None).unwrap();
        assert!((f.negative_share.unwrap() - 0.375).abs() < 1e-9);
        assert_eq!(f.marked_share, Some(0.0));
        assert_eq!(f.favourite.unwrap().keys, 0..1);
    }

    #[test]
    fn a_pooled_picture_counts_picture_rows_and_claims_no_shares() {
        // 2 × 2 picture of an 8 × 8 map: each pixel covers 4 queries and 4 keys.
        let f = map_facts(&[0.1, 0.9, 0.8, 0.2], 2, 8, &[5], Some(6)).unwrap();
        assert!(f.pooled);
        assert_eq!((f.marked_share, f.negative_share), (None, None));
        // One picture row each way: the tie goes to the first keys.
        assert_eq!(f.favourite, Some(Favourite { keys: 0..4, rows: 1, marked: false }));
        assert_eq!(f.rows_on_marked, 1);
        let row = f.row.unwrap();
        assert_eq!((row.query, row.keys, row.marked, row.marked_share), (6, 0..4, false, None));
        let f = map_facts(&[0.1, 0.9, 0.2, 0.8], 2, 8, &[5], None).unwrap();
        assert_eq!(f.favourite, Some(Favourite { keys: 4..8, rows: 2, marked: true }));
    }

    #[test]
    fn rows_without_weight_pick_nothing_and_bad_shapes_are_refused() {
        let f = map_facts(&[0.0; 4], 2, 2, &[], None).unwrap();
        assert_eq!((f.favourite, f.rows_on_marked), (None, 0));
        assert_eq!(map_facts(&[1.0], 2, 2, &[], None), None);
        assert_eq!(map_facts(&[1.0; 16], 4, 2, &[], None), None);
    }

    #[test]
    fn a_table_pools_as_the_picture_does_and_names_its_spans() {
        // 4 × 4 values of an 8 × 8 map into 2 × 2: spans in source indices.
        let mut v = map();
        v[6] = -0.95;
        let t = map_table(&v, 4, 8, 2).unwrap();
        assert_eq!(t.spans, vec![0..4, 4..8]);
        assert_eq!(t.values, vec![0.7, -0.95, 0.5, 0.7]);
        // Small enough: the values themselves.
        let same = map_table(&map(), 4, 4, 32).unwrap();
        assert_eq!((same.t, same.values), (4, map()));
        assert_eq!(same.spans[2], 2..3);
    }

    #[test]
    fn a_curve_rises_falls_peaks_dips_or_stays() {
        let trend = |ys: &[f64]| curve_facts(&ys.iter().enumerate().map(|(i, y)| (i as f64, *y)).collect::<Vec<_>>()).unwrap().trend;
        assert_eq!(trend(&[1.0, 2.0, 3.0]), Trend::Rises);
        assert_eq!(trend(&[3.0, 2.9, 1.0]), Trend::Falls);
        assert_eq!(trend(&[1.0, 3.0, 1.2]), Trend::Peaks);
        assert_eq!(trend(&[3.0, 1.0, 2.9]), Trend::Dips);
        assert_eq!(trend(&[2.0, 2.01, 2.0]), Trend::Flat);
        let f = curve_facts(&[(0.0, 1.0), (0.5, f64::NAN), (1.0, 4.0), (2.0, 4.0)]).unwrap();
        assert_eq!((f.first, f.last, f.min, f.max), ((0.0, 1.0), (2.0, 4.0), (0.0, 1.0), (1.0, 4.0)));
        assert_eq!(curve_facts(&[(0.0, f64::NAN)]), None);
    }

    #[test]
    fn a_charts_cursor_steps_through_its_x_values_and_stops_at_the_ends() {
        assert_eq!(cursor_step("ArrowRight", None, 5), Some(0));
        assert_eq!(cursor_step("ArrowRight", Some(4), 5), Some(4));
        assert_eq!(cursor_step("ArrowLeft", Some(0), 5), Some(0));
        assert_eq!(cursor_step("End", None, 5), Some(4));
        assert_eq!(cursor_step("PageUp", Some(3), 40), Some(7));
        assert_eq!(cursor_step("PageDown", Some(3), 40), Some(0));
        assert_eq!(cursor_step("Tab", Some(3), 40), None);
        assert_eq!(cursor_step("Home", None, 0), None);
    }

    #[test]
    fn a_charts_table_has_a_row_per_x_and_gaps_where_a_curve_has_no_point() {
        let rows = chart_rows(&[&[(0.0, 1.0), (1.0, 2.0)], &[(1.0, 5.0), (2.0, 6.0)]]);
        assert_eq!(rows, vec![(0.0, vec![Some(1.0), None]), (1.0, vec![Some(2.0), Some(5.0)]), (2.0, vec![None, Some(6.0)])]);
    }
}
