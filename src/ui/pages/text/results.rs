//! What the three models do on the held-out plays, from `eval.json`: each model's loss
//! and bits per character, and each DIFF model's difference from the baseline with its
//! 95% interval, said plainly, whichever way it went.

use crate::engine::shared::AttentionKind;
use crate::engine::text::session::EvalSummary;
use crate::engine::text::FOLDER;
use crate::tr;
use crate::ui::format::kind_title;
use crate::ui::model_files::fetch_bytes;
use leptos::prelude::*;
use std::cmp::Ordering;

fn row(summary: &EvalSummary, kind: AttentionKind) -> impl IntoView {
    let r = summary.result(kind);
    let loss = r.map(|r| format!("{:.3}", r.held_out_loss)).unwrap_or_default();
    let bits = r.map(|r| format!("{:.3}", r.bits_per_char)).unwrap_or_default();
    let versus = summary.versus(kind).map(|d| format!("{:+.4} [{:+.4}, {:+.4}]", d.mean, d.low95, d.high95)).unwrap_or_else(|| "–".into());
    view! { <tr data-kind=kind.slug()><td>{kind_title(kind)}</td><td>{loss}</td><td>{bits}</td><td>{versus}</td></tr> }
}

fn verdicts(summary: &EvalSummary) -> String {
    AttentionKind::ALL[1..]
        .iter()
        .filter_map(|k| {
            let d = summary.versus(*k)?;
            let key = match d.verdict() {
                Ordering::Less => "text-verdict-better",
                Ordering::Greater => "text-verdict-worse",
                Ordering::Equal => "text-verdict-same",
            };
            Some(tr!(key, model = kind_title(*k), diff = format!("{:+.4}", d.mean), low = format!("{:+.4}", d.low95), high = format!("{:+.4}", d.high95)))
        })
        .collect::<Vec<_>>()
        .join(&tr!("sentence-gap"))
}

/// How the numbers were made, in the page's language (`eval.json`'s own sentence is English).
fn method(summary: &EvalSummary) -> String {
    let windows = summary.result(AttentionKind::Baseline).map_or(0, |r| r.windows);
    tr!("text-results-method", windows = windows, length = crate::engine::text::CONTEXT + 1)
}

#[component]
pub fn Results() -> impl IntoView {
    let summary = LocalResource::new(|| async { fetch_bytes(&format!("{FOLDER}/eval.json")).await.and_then(|b| EvalSummary::parse(&String::from_utf8_lossy(&b))) });
    let body = move || {
        summary.get().map(|got| match got {
            Ok(s) => view! {
                <div class="table-scroll"><table class="numbers" id="text-results">
                    <caption>{tr!("text-results-caption")}</caption>
                    <thead><tr><th>{tr!("th-model")}</th><th>{tr!("text-th-loss")}</th><th>{tr!("text-th-bits")}</th><th>{tr!("text-th-versus")}</th></tr></thead>
                    <tbody>{AttentionKind::ALL.iter().map(|k| row(&s, *k)).collect_view()}</tbody>
                </table></div>
                <p class="facts" id="text-verdict">{verdicts(&s)}</p>
                <p class="axis-note">{method(&s)}</p>
            }
            .into_any(),
            Err(e) => view! { <p class="notice">{e}</p> }.into_any(),
        })
    };
    view! {
        <section class="panel" id="text-honest">
            <h3>{tr!("text-results-title")}</h3>
            {body}
        </section>
    }
}
