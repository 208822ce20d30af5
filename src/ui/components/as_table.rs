//! "Show as table": a figure's numbers as a real `<table>` with row and column headers,
//! for a reader who cannot see the colours or the curves (issue 45). Built only while
//! open, from the figure's settled state (never at every step of a drag). A map's table
//! pools to at most `MAP_TABLE_MAX` × `MAP_TABLE_MAX` by the picture's own rule and says
//! so; a chart's holds every point of its CSV export, one row per x value.

use crate::ui::components::chart::ChartSpec;
use crate::ui::components::heatmap::PooledMap;
use crate::ui::components::readout::readable;
use crate::viz::describe::{chart_rows, map_table};
use crate::viz::labels::AxisLabel;
use leptos::html;
use leptos::prelude::*;
use std::ops::Range;

/// The most rows and columns a map's table has.
pub const MAP_TABLE_MAX: usize = 32;

/// "7", "7 (“k”)" or "8–15": the queries or keys a row or column covers.
fn span_words(span: &Range<usize>, labels: &[AxisLabel]) -> String {
    match (span.len(), labels.get(span.start)) {
        (1, Some(l)) => format!("{} (“{}”)", span.start, l.text),
        (1, None) => span.start.to_string(),
        _ => format!("{}–{}", span.start, span.end.saturating_sub(1)),
    }
}

/// A number cell: rounded for reading, the full value in `data-value`.
fn cell(v: f64) -> impl IntoView {
    view! { <td data-value=v.to_string()>{readable(v)}</td> }
}

/// The disclosure both tables open from; `body` builds the table while it is open.
#[component]
fn Disclosure<F, V>(class: &'static str, body: F) -> impl IntoView
where
    F: Fn() -> Option<V> + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let node = NodeRef::<html::Details>::new();
    let open = RwSignal::new(false);
    view! {
        <details class=format!("as-table {class}") node_ref=node on:toggle=move |_| open.set(node.get_untracked().is_some_and(|d| d.open()))>
            <summary>{crate::tr!("show-as-table")}</summary>
            <div class="figure-table-scroll" tabindex="0">{move || open.get().then(&body).flatten()}</div>
        </details>
    }
}

#[component]
pub fn MapAsTable(title: String, map: Signal<Option<(PooledMap, usize)>>, #[prop(into)] labels: Signal<Vec<AxisLabel>>) -> impl IntoView {
    let body = move || {
        let (m, n) = map.get()?;
        let t = map_table(&m.values, m.r, n, MAP_TABLE_MAX)?;
        let names = labels.with(|l| if l.len() == n { l.clone() } else { vec![] });
        let caption = match t.t == n {
            true => crate::tr!("table-map-caption", title = title.as_str(), n = n),
            false => crate::tr!("table-map-pooled", title = title.as_str(), t = t.t, n = n),
        };
        let heads: Vec<String> = t.spans.iter().map(|s| span_words(s, &names)).collect();
        let columns = heads.iter().zip(&t.spans).map(|(h, s)| view! { <th scope="col" data-from=s.start data-to=s.end>{h.clone()}</th> }).collect_view();
        let rows = t
            .values
            .chunks(t.t)
            .zip(heads.iter().zip(&t.spans))
            .map(|(row, (h, s))| view! { <tr><th scope="row" data-from=s.start data-to=s.end>{h.clone()}</th>{row.iter().map(|v| cell(*v as f64)).collect_view()}</tr> })
            .collect_view();
        Some(view! {
            <table class="figure-table">
                <caption>{caption}</caption>
                <thead><tr><th scope="col">{crate::tr!("table-corner")}</th>{columns}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        })
    };
    view! { <Disclosure class="map-table" body /> }
}

#[component]
pub fn ChartAsTable(label: String, spec: Signal<Option<ChartSpec>>) -> impl IntoView {
    let body = move || {
        let s = spec.get()?;
        let curves: Vec<&[(f64, f64)]> = s.series.iter().map(|c| c.points.as_slice()).collect();
        let rows = chart_rows(&curves);
        if rows.is_empty() {
            return None;
        }
        let columns = s.series.iter().map(|c| view! { <th scope="col">{if c.name.is_empty() { s.y_label.clone() } else { c.name.clone() }}</th> }).collect_view();
        let body = rows
            .into_iter()
            .map(|(x, ys)| view! { <tr><th scope="row" data-value=x.to_string()>{readable(x)}</th>{ys.into_iter().map(|y| match y { Some(y) => cell(y).into_any(), None => view! { <td></td> }.into_any() }).collect_view()}</tr> })
            .collect_view();
        Some(view! {
            <table class="figure-table">
                <caption>{crate::tr!("table-chart-caption", label = label.as_str(), x = s.x_label.as_str())}</caption>
                <thead><tr><th scope="col">{s.x_label.clone()}</th>{columns}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        })
    };
    view! { <Disclosure class="chart-table" body /> }
}
