//! A figure's facts (`viz::describe`) in sentences of the page's language: the summary
//! under each map and chart, its description for a screen reader, and what the live
//! region says when a control settles (issue 45).

use crate::ui::components::chart::ChartSpec;
use crate::ui::components::readout::readable;
use crate::viz::describe::{curve_facts, MapFacts, Trend};
use crate::viz::labels::AxisLabel;
use std::ops::Range;

/// "47%", "0.4%", "<0.1%", "99.7%": a share as the summaries print it, never rounded to
/// a "0%" or "100%" that it is not.
pub fn percent(share: f64) -> String {
    let p = 100.0 * share;
    match p {
        _ if p <= 0.0 || p >= 100.0 => format!("{p:.0}%"),
        _ if p < 0.1 => "<0.1%".into(),
        _ if p > 99.9 => ">99.9%".into(),
        _ if !(1.0..=99.0).contains(&p) => format!("{p:.1}%"),
        _ => format!("{p:.0}%"),
    }
}

/// "key 41", "key 41 (“k”)" or "keys 40–47".
pub fn keys_words(keys: &Range<usize>, labels: Option<&[AxisLabel]>) -> String {
    if keys.len() > 1 {
        return crate::tr!("map-keys-range", from = keys.start, to = keys.end - 1);
    }
    match labels.and_then(|l| l.get(keys.start)) {
        Some(l) => crate::tr!("map-key-label", j = keys.start, label = l.text.as_str()),
        None => crate::tr!("map-key-one", j = keys.start),
    }
}

/// The summary of a map: where most queries look, the share on the marked keys (`what`
/// names them; empty when there are none), the negative share, and the marked row.
pub fn map_summary(f: &MapFacts, what: &str, labels: Option<&[AxisLabel]>) -> String {
    let mut out: Vec<String> = vec![];
    let all = f.rows;
    match (&f.favourite, f.pooled) {
        (None, _) => out.push(crate::tr!("map-sum-none")),
        (Some(fav), false) => out.push(crate::tr!("map-sum-favourite", rows = fav.rows, all = all, key = keys_words(&fav.keys, labels))),
        (Some(fav), true) => out.push(crate::tr!("map-sum-favourite-pooled", rows = fav.rows, all = all, key = keys_words(&fav.keys, None))),
    }
    if !what.is_empty() {
        // With negative weights the shares are of the magnitude, and the sentence says so.
        let signed = f.negative_share.is_some_and(|s| s >= 0.001);
        out.push(match f.marked_share {
            Some(s) => crate::tr!(if signed { "map-sum-marked-magnitude" } else { "map-sum-marked" }, rows = f.rows_on_marked, all = all, what = what, share = percent(s), rest = percent(1.0 - s)),
            None => crate::tr!("map-sum-marked-pooled", rows = f.rows_on_marked, all = all, what = what),
        });
    }
    if let Some(s) = f.negative_share.filter(|s| *s >= 0.001) {
        out.push(crate::tr!("map-sum-negative", share = percent(s)));
    }
    if let Some(r) = &f.row {
        let key = keys_words(&r.keys, if f.pooled { None } else { labels });
        out.push(crate::tr!("map-sum-row", query = r.query, value = readable(r.value as f64), key = key));
        if let (Some(s), false) = (r.marked_share, what.is_empty()) {
            out.push(crate::tr!("map-sum-row-share", share = percent(s), what = what));
        }
    }
    if f.pooled {
        out.push(crate::tr!("map-sum-pooled", r = all, n = f.n));
    }
    out.join(&crate::tr!("sentence-gap"))
}

fn trend_words(t: Trend) -> String {
    crate::tr!(match t {
        Trend::Rises => "chart-trend-rises",
        Trend::Falls => "chart-trend-falls",
        Trend::Peaks => "chart-trend-peaks",
        Trend::Dips => "chart-trend-dips",
        Trend::Flat => "chart-trend-flat",
    })
}

/// At most this many curves are described in words; the table holds every one.
const CURVES_SAID: usize = 6;

/// The summary of a chart: each named curve's trend and extremes, then its markers.
pub fn chart_summary(spec: &ChartSpec) -> String {
    let named: Vec<_> = spec.series.iter().filter(|s| !s.name.is_empty() && !s.points.is_empty()).collect();
    let curves: Vec<(&str, &[(f64, f64)])> = match named.is_empty() {
        true => spec.series.iter().filter(|s| !s.points.is_empty()).take(1).map(|s| (spec.y_label.as_str(), s.points.as_slice())).collect(),
        false => named.iter().map(|s| (s.name.as_str(), s.points.as_slice())).collect(),
    };
    let x = |v: f64| readable(v);
    let mut out: Vec<String> = curves
        .iter()
        .take(CURVES_SAID)
        .filter_map(|(name, points)| {
            let f = curve_facts(points)?;
            Some(crate::tr!(
                "chart-sum-curve",
                name = *name,
                trend = trend_words(f.trend),
                xname = spec.x_label.as_str(),
                x0 = x(f.first.0),
                y0 = x(f.first.1),
                x1 = x(f.last.0),
                y1 = x(f.last.1),
                xmin = x(f.min.0),
                ymin = x(f.min.1),
                xmax = x(f.max.0),
                ymax = x(f.max.1)
            ))
        })
        .collect();
    if curves.len() > CURVES_SAID {
        out.push(crate::tr!("chart-sum-more", n = curves.len() - CURVES_SAID));
    }
    if !spec.markers.is_empty() {
        let list: Vec<&str> = spec.markers.iter().map(|m| m.label.as_str()).collect();
        out.push(crate::tr!("chart-sum-markers", list = list.join(&crate::tr!("list-separator"))));
    }
    out.join(&crate::tr!("sentence-gap"))
}

/// What a chart's keyboard cursor reads at `x`: each curve's value there.
pub fn point_words(spec: &ChartSpec, x: f64, ys: &[Option<f64>]) -> String {
    let each: Vec<String> = spec.series.iter().zip(ys).filter_map(|(s, y)| y.map(|y| format!("{} {}", if s.name.is_empty() { &spec.y_label } else { &s.name }, readable(y)))).collect();
    crate::tr!("chart-point", xname = spec.x_label.as_str(), x = readable(x), values = each.join(&crate::tr!("list-separator")))
}
