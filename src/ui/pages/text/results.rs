//! What the three models do on the held-out plays, from `eval.json`: each model's
//! long-context loss over its seeds (each seed shown), its window loss, each DIFF
//! model's difference from the baseline with the interval that counts both the text's
//! and the seeds' variation, the Kneser–Ney n-gram as a fourth row, and a table per
//! play; the verdicts said plainly, whichever way they went.

use crate::engine::shared::AttentionKind;
use crate::engine::text::results::{EvalSummary, LongContext};
use crate::engine::text::FOLDER;
use crate::tr;
use crate::ui::format::kind_title;
use crate::ui::model_files::fetch_bytes;
use leptos::prelude::*;
use std::cmp::Ordering;

fn f3(x: f64) -> String {
    format!("{x:.3}")
}

/// "+0.0047", "−0.0158": a difference in nats per character, with a true minus sign.
fn signed(x: f64) -> String {
    format!("{x:+.4}").replace('-', "−")
}

fn row(summary: &EvalSummary, long: &LongContext, kind: AttentionKind) -> impl IntoView {
    let m = long.model(kind);
    let loss = m.map(|m| if m.seed_losses.len() > 1 { format!("{:.3} ± {:.3}", m.mean, m.sd) } else { f3(m.mean) }).unwrap_or_default();
    let seeds = m.map(|m| m.seed_losses.iter().map(|l| f3(*l)).collect::<Vec<_>>().join(" · ")).unwrap_or_default();
    let bits = m.map(|m| f3(m.mean / std::f64::consts::LN_2)).unwrap_or_default();
    let window = summary.result(kind).map(|r| f3(r.held_out_loss)).unwrap_or_default();
    let versus = long.versus(kind).map(|d| format!("{} [{}, {}]", signed(d.mean), signed(d.low95), signed(d.high95))).unwrap_or_else(|| "–".into());
    let text_alone = long.versus(kind).map(|d| format!("[{}, {}]", signed(d.data_low95), signed(d.data_high95))).unwrap_or_else(|| "–".into());
    view! { <tr data-kind=kind.slug()><th scope="row">{kind_title(kind)}</th><td>{loss}</td><td>{seeds}</td><td>{bits}</td><td>{window}</td><td>{versus}</td><td>{text_alone}</td></tr> }
}

fn ngram_row(long: &LongContext) -> impl IntoView {
    let n = &long.ngram;
    view! {
        <tr data-kind="ngram"><th scope="row">{tr!("text-ngram-name", order = n.order)}</th>
        <td>{f3(n.loss)}</td><td>{tr!("text-ngram-no-seed")}</td><td>{f3(n.loss / std::f64::consts::LN_2)}</td><td>"–"</td><td>"–"</td><td>"–"</td></tr>
    }
}

fn verdicts(long: &LongContext) -> String {
    let mut out: Vec<String> = AttentionKind::ALL[1..]
        .iter()
        .filter_map(|k| {
            let d = long.versus(*k)?;
            let key = match crate::engine::text::results::verdict(d.low95, d.high95) {
                Ordering::Less => "text-verdict-better",
                Ordering::Greater => "text-verdict-worse",
                Ordering::Equal => "text-verdict-same",
            };
            let seeds = d.seed_differences.iter().map(|x| signed(*x)).collect::<Vec<_>>().join(", ");
            Some(tr!(key, model = kind_title(*k), diff = signed(d.mean), low = signed(d.low95), high = signed(d.high95), seeds = seeds))
        })
        .collect();
    if long.seeds.len() < 2 {
        out.push(tr!("text-verdict-one-seed"));
    }
    out.join(&tr!("sentence-gap"))
}

/// What the n-gram's row means: how far ahead it is of the best transformer, on how many
/// blocks, and why at this size that is no surprise.
fn ngram_sentence(long: &LongContext) -> String {
    let best = long.models.iter().min_by(|a, b| a.mean.total_cmp(&b.mean));
    let Some(best) = best else { return String::new() };
    let fewest = long.models.iter().map(|m| m.ngram_better_blocks).fold(f64::INFINITY, f64::min);
    let key = if long.ngram.loss < best.mean { "text-ngram-ahead" } else { "text-ngram-behind" };
    tr!(
        key,
        order = long.ngram.order,
        loss = f3(long.ngram.loss),
        gap = format!("{:.3}", (best.mean - long.ngram.loss).abs()),
        share = (100.0 * fewest).floor() as usize,
        seconds = format!("{:.0}", long.ngram.fit_seconds)
    )
}

fn play_title(slug: &str) -> String {
    tr!(&format!("play-{slug}"))
}

fn per_play(long: &LongContext) -> impl IntoView {
    let cols = || AttentionKind::ALL.iter().map(|k| view! { <th scope="col">{kind_title(*k)}</th> }).collect_view();
    let versus = || AttentionKind::ALL[1..].iter().map(|k| view! { <th scope="col">{tr!("text-th-play-versus", model = kind_title(*k))}</th> }).collect_view();
    let rows = long
        .plays
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let losses = long.models.iter().map(|m| view! { <td>{f3(m.per_play[i])}</td> }).collect_view();
            let diffs = long.versus.iter().map(|v| view! { <td>{signed(v.per_play[i])}</td> }).collect_view();
            view! { <tr data-play=p.clone()><th scope="row">{play_title(p)}</th>{losses}<td>{f3(long.ngram.per_play[i])}</td>{diffs}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0"><table class="numbers" id="text-per-play">
            <caption>{tr!("text-per-play-caption", seeds = long.seeds.len())}</caption>
            <thead><tr><th scope="col">{tr!("text-th-play")}</th>{cols()}<th scope="col">{tr!("text-ngram-name", order = long.ngram.order)}</th>{versus()}</tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
    }
}

fn tables(s: EvalSummary) -> AnyView {
    let Some(long) = s.long_context.clone() else { return view! { <p class="notice">{tr!("text-results-old")}</p> }.into_any() };
    view! {
        <div class="table-scroll" tabindex="0"><table class="numbers" id="text-results">
            <caption>{tr!("text-results-caption")}</caption>
            <thead><tr><th scope="col">{tr!("th-model")}</th><th scope="col">{tr!("text-th-loss", seeds = long.seeds.len())}</th><th scope="col">{tr!("text-th-seeds")}</th>
            <th scope="col">{tr!("text-th-bits")}</th><th scope="col">{tr!("text-th-window")}</th><th scope="col">{tr!("text-th-versus")}</th><th scope="col">{tr!("text-th-text-alone")}</th></tr></thead>
            <tbody>{AttentionKind::ALL.iter().map(|k| row(&s, &long, *k)).collect_view()}{ngram_row(&long)}</tbody>
        </table></div>
        <p class="facts" id="text-verdict">{verdicts(&long)}</p>
        <p class="facts" id="text-ngram">{ngram_sentence(&long)}</p>
        {per_play(&long)}
        <p class="axis-note">{tr!("text-results-method", characters = long.characters, context = long.min_context, seeds = long.seeds.len(), blocks = long.blocks, block = long.block, windows = s.result(AttentionKind::Baseline).map_or(0, |r| r.windows), length = crate::engine::text::CONTEXT + 1)}</p>
    }
    .into_any()
}

#[component]
pub fn Results() -> impl IntoView {
    let summary = LocalResource::new(|| async { fetch_bytes(&format!("{FOLDER}/eval.json")).await.and_then(|b| EvalSummary::parse(&String::from_utf8_lossy(&b))) });
    let body = move || {
        summary.get().map(|got| match got {
            Ok(s) => tables(s),
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
