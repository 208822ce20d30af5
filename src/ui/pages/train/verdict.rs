//! The end of a session: each model's final held-out loss (the mean over seeds and every
//! seed's), each DIFF model's paired difference from the baseline with its interval over
//! seeds and over held-out blocks, and the one sentence the numbers support. Beside it,
//! the trained models to keep (weights, config and card; the explorer's "your own
//! checkpoint" reads the first two) and the curves as CSV.

use crate::engine::shared::AttentionKind;
use crate::engine::train::{Board, Comparison, Finding};
use crate::tr;
use crate::ui::components::download;
use crate::ui::format::kind_title;
use crate::ui::pages::train::session::TrainSession;
use leptos::prelude::*;

fn signed(v: f64) -> String {
    format!("{v:+.4}").replace('-', "−")
}

fn interval((lo, hi): (f64, f64)) -> String {
    format!("[{}, {}]", signed(lo), signed(hi))
}

/// The sentence `c` supports about `kind`, its losses counted in `unit`.
pub fn sentence(kind: AttentionKind, c: &Comparison, unit: &str) -> String {
    let (k, n, diff) = (kind_title(kind), c.per_seed.len(), signed(c.mean));
    match c.finding {
        Finding::OneSeed => tr!("train-verdict-one-seed", kind = k, diff = diff, blocks = interval(c.blocks), unit = unit),
        Finding::NotDistinguishable => tr!("train-verdict-same", kind = k, n = n, diff = diff, unit = unit),
        Finding::Better => tr!("train-verdict-better", kind = k, n = n, diff = signed(-c.mean), unit = unit),
        Finding::Worse => tr!("train-verdict-worse", kind = k, n = n, diff = diff, unit = unit),
    }
}

fn rows(board: &Board) -> Vec<(AttentionKind, String, String, Option<Comparison>)> {
    let verdicts = board.verdicts();
    board
        .kinds
        .iter()
        .map(|&k| {
            let losses = board.final_losses(k);
            let mean = losses.iter().map(|l| l.1).sum::<f64>() / losses.len().max(1) as f64;
            let each = losses.iter().map(|(s, l)| format!("{s}: {l:.4}")).collect::<Vec<_>>().join(", ");
            (k, if losses.is_empty() { "–".into() } else { format!("{mean:.4}") }, each, verdicts.iter().find(|v| v.0 == k).map(|v| v.1.clone()))
        })
        .collect()
}

#[component]
pub fn VerdictTable(session: TrainSession) -> impl IntoView {
    let table = move || session.with_board(|b| b.finished().then(|| rows(b))).flatten();
    view! {
        <Show when=move || table().is_some()>
            <section class="panel" id="train-verdict">
                <h3>{tr!("train-verdict-title")}</h3>
                <p class="explain">{move || tr!(if session.with_board(|b| b.data.is_needle()).unwrap_or(false) { "train-verdict-explain-needle" } else { "train-verdict-explain" })}</p>
                <table class="train-verdict-table">
                    <thead><tr>
                        <th scope="col">{tr!("train-col-model")}</th>
                        <th scope="col">{tr!("train-col-final")}</th>
                        <th scope="col">{tr!("train-col-seeds")}</th>
                        <th scope="col">{tr!("train-col-diff")}</th>
                        <th scope="col">{tr!("train-col-seed-interval")}</th>
                        <th scope="col">{tr!("train-col-block-interval")}</th>
                    </tr></thead>
                    <tbody>
                        {move || table().unwrap_or_default().into_iter().map(|(k, mean, each, c)| view! {
                            <tr data-kind=k.slug()>
                                <th scope="row">{kind_title(k)}</th>
                                <td>{mean}</td>
                                <td>{each}</td>
                                <td>{c.as_ref().map(|c| format!("{} ({})", signed(c.mean), c.per_seed.iter().map(|d| signed(*d)).collect::<Vec<_>>().join(", "))).unwrap_or_else(|| "–".into())}</td>
                                <td>{c.as_ref().and_then(|c| c.seeds).map(interval).unwrap_or_else(|| "–".into())}</td>
                                <td>{c.as_ref().map(|c| interval(c.blocks)).unwrap_or_else(|| "–".into())}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <ul class="train-verdict-sentences" id="train-verdict-sentences">
                    {move || {
                        let unit = session.with_board(crate::ui::pages::train::curves::unit).unwrap_or_default();
                        table().unwrap_or_default().into_iter().filter_map(|(k, _, _, c)| c.map(|c| view! { <li data-kind=k.slug()>{sentence(k, &c, &unit)}</li> })).collect_view()
                    }}
                </ul>
            </section>
        </Show>
    }
}

/// The trained models to keep, once a run has a state, and the curves as CSV.
#[component]
pub fn Keep(session: TrainSession, task: Signal<String>) -> impl IntoView {
    let runs = move || session.with_board(|b| b.runs.iter().enumerate().filter(|(_, r)| r.step > 0).map(|(i, r)| (i, r.spec.kind, r.spec.seed, r.step)).collect::<Vec<_>>()).unwrap_or_default();
    let save = move |index: usize, what: &'static str| {
        session.with_board(|b| {
            let run = &b.runs[index];
            let stem = format!("difflens-train-{}-{}-seed{}-step{}", run.spec.kind.slug(), b.preset.id, run.spec.seed, run.step);
            match what {
                "weights" => {
                    if let Some(w) = run.weights() {
                        crate::ui::components::download::bytes(&w.to_bytes(), "application/octet-stream", &format!("{stem}.safetensors"));
                    }
                }
                "config" => {
                    let config = b.preset.config(run.spec.kind, run.spec.vocab);
                    download::text(&serde_json::to_string_pretty(&config).unwrap_or_default(), "application/json", &format!("{stem}.json"));
                }
                _ => {
                    download::text(&b.card(run, &task.get_untracked()), "text/markdown", &format!("{stem}-card.md"));
                }
            };
        });
    };
    let csv = move |_| {
        session.with_board(|b| download::text(&b.csv(), "text/csv", "difflens-train-curves.csv"));
    };
    view! {
        <Show when=move || !runs().is_empty()>
            <details class="panel train-keep" id="train-keep">
                <summary>{tr!("train-keep-title")}</summary>
                <p class="explain">{tr!("train-keep-explain")}</p>
                <button id="train-csv" on:click=csv>{tr!("train-curves-csv")}</button>
                <ul>
                    {move || runs().into_iter().map(|(i, kind, seed, step)| view! {
                        <li data-run=format!("{}-{seed}", kind.slug())>
                            {tr!("train-keep-run", kind = kind_title(kind), seed = seed, step = step)} " "
                            <button class="train-save-weights" on:click=move |_| save(i, "weights")>{tr!("train-save-weights")}</button>
                            <button class="train-save-config" on:click=move |_| save(i, "config")>{tr!("train-save-config")}</button>
                            <button class="train-save-card" on:click=move |_| save(i, "card")>{tr!("train-save-card")}</button>
                        </li>
                    }).collect_view()}
                </ul>
            </details>
        </Show>
    }
}
