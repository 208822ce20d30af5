//! The training page's charts: each model's training loss and held-out loss over the
//! steps (the mean over seeds, the least and the most seed as thin dashed lines: the band
//! over seeds), the needle task's retrieval accuracy, and each layer's λ for the DIFF
//! models.

use crate::engine::shared::AttentionKind;
use crate::engine::train::Board;
use crate::tr;
use crate::ui::components::chart::{Chart, ChartSpec, Series};
use crate::ui::format::kind_title;
use crate::ui::pages::train::session::TrainSession;
use crate::viz::palette::{Rgb, BLUE, GREY, ORANGE};
use leptos::prelude::*;

/// Steps the training loss is averaged over before it is drawn.
pub const SMOOTH: usize = 10;

pub fn colour(kind: AttentionKind) -> Rgb {
    match kind {
        AttentionKind::Baseline => GREY,
        AttentionKind::DiffV1 => BLUE,
        AttentionKind::DiffV2 => ORANGE,
    }
}

/// What a loss is counted in: per character of text, or per answer of the needle task.
pub fn unit(board: &Board) -> String {
    tr!(if board.data.is_needle() { "train-unit-needle" } else { "train-unit-text" })
}

/// A mean line and, with more than one seed, the least and most seeds dashed.
fn banded(board: &Board, kind: AttentionKind, band: Vec<(f64, f64, f64, f64)>) -> Vec<Series> {
    let line = |points: Vec<(f64, f64)>, dashed: bool, name: String| Series { dashed, name, color: colour(kind), points };
    let mut out = vec![line(band.iter().map(|b| (b.0, b.1)).collect(), false, kind_title(kind))];
    if board.seeds > 1 {
        out.push(line(band.iter().map(|b| (b.0, b.2)).collect(), true, String::new()));
        out.push(line(band.iter().map(|b| (b.0, b.3)).collect(), true, String::new()));
    }
    out
}

fn loss_spec(board: &Board, held_out: bool) -> Option<ChartSpec> {
    let series: Vec<Series> = board.kinds.iter().flat_map(|&k| banded(board, k, if held_out { board.held_out_band(k) } else { board.loss_band(k, SMOOTH) })).collect();
    series.iter().any(|s| s.points.len() > 1).then(|| ChartSpec {
        title: tr!(if held_out { "train-held-out-title" } else { "train-loss-title" }),
        x_label: tr!("train-x-step"),
        y_label: tr!("train-y-loss", unit = unit(board)),
        series,
        ..Default::default()
    })
}

fn accuracy_spec(board: &Board) -> Option<ChartSpec> {
    let series: Vec<Series> = board.kinds.iter().flat_map(|&k| banded(board, k, board.accuracy_band(k).into_iter().map(|(x, m, lo, hi)| (x, 100.0 * m, 100.0 * lo, 100.0 * hi)).collect())).collect();
    series.iter().any(|s| s.points.len() > 1).then(|| ChartSpec { title: tr!("train-accuracy-title"), x_label: tr!("train-x-step"), y_label: tr!("train-y-accuracy"), series, ..Default::default() })
}

fn lambda_spec(board: &Board) -> Option<ChartSpec> {
    let series: Vec<Series> = board
        .kinds
        .iter()
        .flat_map(|&k| {
            board.lambda_curves(k).into_iter().enumerate().map(move |(layer, points)| Series {
                dashed: layer % 2 == 1,
                name: tr!("train-lambda-series", kind = kind_title(k), layer = layer),
                color: colour(k),
                points,
            })
        })
        .collect();
    series.iter().any(|s| s.points.len() > 1).then(|| ChartSpec { title: tr!("train-lambda-title"), x_label: tr!("train-x-step"), y_label: "λ".into(), series, ..Default::default() })
}

#[component]
pub fn Curves(session: TrainSession) -> impl IntoView {
    let loss = Signal::derive(move || session.with_board(|b| loss_spec(b, false)).flatten());
    let held = Signal::derive(move || session.with_board(|b| loss_spec(b, true)).flatten());
    let lambda = Signal::derive(move || session.with_board(lambda_spec).flatten());
    let accuracy = Signal::derive(move || session.with_board(accuracy_spec).flatten());
    let needle = move || session.with_board(|b| b.data.is_needle()).unwrap_or(false);
    // The captions say "band" only where there is one (more than one seed).
    let band = move || if session.with_board(|b| b.seeds > 1).unwrap_or(true) { "yes" } else { "no" };
    let has_diff = move || session.with_board(|b| b.kinds.iter().any(|&k| k != AttentionKind::Baseline)).unwrap_or(false);
    // Where each model stands: its held-out loss untrained and now (the mean over seeds).
    let now = move || {
        session
            .with_board(|b| {
                b.kinds
                    .iter()
                    .filter_map(|&k| {
                        let band = b.held_out_band(k);
                        let (first, last) = (band.first()?, band.last()?);
                        let line = tr!("train-now", kind = kind_title(k), first = format!("{:.3}", first.1), step = last.0 as usize, last = format!("{:.3}", last.1), unit = unit(b));
                        let right = b.accuracy_band(k);
                        let line = match (right.first(), right.last()) {
                            (Some(a), Some(z)) => format!("{line} {}", tr!("train-now-accuracy", first = format!("{:.0}", 100.0 * a.1), last = format!("{:.0}", 100.0 * z.1))),
                            _ => line,
                        };
                        Some((k, first.1, last.0, last.1, line))
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    view! {
        <ul class="train-now" id="train-now" aria-live="off">
            {move || now().into_iter().map(|(k, first, step, last, line)| view! {
                <li data-kind=k.slug() data-step=step.to_string() data-first=format!("{first:.4}") data-last=format!("{last:.4}")>{line}</li>
            }).collect_view()}
        </ul>
        <div class="train-curves">
            <figure class="panel">
                <p class="explain">{move || tr!("train-loss-explain", smooth = SMOOTH, band = band())}</p>
                <Chart id="train-loss" spec=loss label=tr!("train-loss-title") empty=tr!("train-chart-empty") file=Signal::derive(|| "difflens-train-loss".to_string()) />
            </figure>
            <figure class="panel">
                <p class="explain">{move || tr!(if needle() { "train-held-out-explain-needle" } else { "train-held-out-explain" }, band = band())}</p>
                <Chart id="train-held-out" spec=held label=tr!("train-held-out-title") empty=tr!("train-chart-empty") file=Signal::derive(|| "difflens-train-held-out".to_string()) />
            </figure>
            <Show when=needle>
                <figure class="panel">
                    <p class="explain">{move || tr!("train-accuracy-explain", band = band())}</p>
                    <Chart id="train-accuracy" spec=accuracy label=tr!("train-accuracy-title") empty=tr!("train-chart-empty") file=Signal::derive(|| "difflens-train-accuracy".to_string()) />
                </figure>
            </Show>
            <Show when=has_diff>
                <figure class="panel">
                    <p class="explain">{tr!("train-lambda-explain")}</p>
                    <Chart id="train-lambda" spec=lambda label=tr!("train-lambda-title") empty=tr!("train-chart-empty") file=Signal::derive(|| "difflens-train-lambda".to_string()) />
                </figure>
            </Show>
        </div>
    }
}
