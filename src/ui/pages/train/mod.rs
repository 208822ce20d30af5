//! The training page (`#/train`): a student picks a text, a size, the models and the
//! number of seeds, presses Train, and watches baseline, DIFF V1 and DIFF V2 learn side by
//! side: the losses with their spread over seeds, λ, the attention maps on a fixed probe,
//! and at the end what the numbers support. The runs are `engine::train`'s; this module
//! wires controls and figures.

mod curves;
mod maps;
mod session;
mod verdict;

use crate::engine::shared::AttentionKind;
use crate::engine::train::{needle, Preset, TaskData, NEEDLE};
use crate::state::train_state::{TrainState, TrainTask, MAX_SEEDS, SIZES};
use crate::tr;
use crate::ui::components::notice::NoticeBar;
use crate::ui::format::kind_title;
use crate::ui::route::{Page, Router};
use curves::Curves;
use leptos::prelude::*;
use maps::ProbeFigures;
use session::{Phase, TrainSession};
use verdict::{Keep, VerdictTable};

fn preset_of(state: &TrainState) -> Preset {
    match state.task {
        TrainTask::Needle => NEEDLE,
        _ => Preset::by_id(&state.size).unwrap_or(crate::engine::train::PRESETS[0]),
    }
}

/// The task's name in the reader's words.
fn task_name(task: TrainTask) -> String {
    tr!(match task {
        TrainTask::Plays => "train-task-plays",
        TrainTask::Pasted => "train-task-pasted",
        TrainTask::Needle => "train-task-needle",
    })
}

/// The sentence under the status: steps, speed, time left, or why it stopped.
fn progress(session: TrainSession) -> String {
    let phase = session.phase.get();
    let failed = |b: &crate::engine::train::Board| b.runs.iter().filter(|r| r.failure.is_some()).count();
    let Some(((done, total), tokens, needle, (failed, runs), answered)) =
        session.with_board(|b| (b.progress(), b.tokens_per_step(), b.data.is_needle(), (failed(b), b.runs.len()), b.runs.iter().any(|r| !r.evals.is_empty())))
    else {
        return match phase {
            Phase::Refused(why) => why,
            _ => tr!("train-idle"),
        };
    };
    // Before the first answer the workers may still be fetching and compiling their wasm.
    if phase == Phase::Running && !answered && failed == 0 {
        return tr!("train-starting");
    }
    if failed == runs {
        return tr!("train-all-failed");
    }
    let seconds = session.elapsed_ms.get() / 1000.0;
    let rate = if seconds > 0.0 { done as f64 / seconds } else { 0.0 };
    let mut line = match needle {
        // No step finished yet: no speed to give ("0 characters per second" reads as a stalled run).
        _ if done == 0 => tr!("train-progress-start", total = total),
        true => tr!("train-progress-needle", done = done, total = total, prompts = format!("{:.0}", rate * NEEDLE.batch as f64)),
        false => tr!("train-progress", done = done, total = total, chars = format!("{:.0}", rate * tokens as f64)),
    };
    if matches!(phase, Phase::Running | Phase::Paused) && rate > 0.0 {
        line = format!("{line} {}", tr!("train-left", left = format!("{:.0}", (total - done) as f64 / rate)));
    }
    if failed > 0 {
        line = format!("{line} {}", tr!("train-failed-runs", count = failed));
        if matches!(phase, Phase::Running | Phase::Paused) {
            line = format!("{line} {}", tr!("train-others-go-on"));
        }
    }
    let said = match phase {
        Phase::Running => tr!("train-running"),
        Phase::Paused if session.in_flight.get() => tr!("train-pausing"),
        Phase::Paused => tr!("train-paused"),
        Phase::Stopped => tr!("train-stopped"),
        Phase::Done => tr!("train-done"),
        Phase::Idle | Phase::Refused(_) => String::new(),
    };
    format!("{said} {line}")
}

/// Each run that stopped early, and why.
fn failures(session: TrainSession) -> Vec<String> {
    use crate::engine::train::RunFailure;
    session
        .with_board(|b| {
            b.runs
                .iter()
                .filter_map(|r| {
                    let who = tr!("train-run-name", kind = kind_title(r.spec.kind), seed = r.spec.seed);
                    match r.failure.as_ref()? {
                        RunFailure::NotFinite { step } => Some(tr!("train-not-finite", run = who, step = *step)),
                        RunFailure::Worker(why) => Some(tr!("train-worker-failed", run = who, why = why.as_str())),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

#[component]
fn Setup(state: RwSignal<TrainState>, pasted: RwSignal<String>, session: TrainSession) -> impl IntoView {
    let busy = move || matches!(session.phase.get(), Phase::Running | Phase::Paused);
    let toggle = move |kind: AttentionKind, on: bool| {
        state.update(|s| {
            let mut picked: Vec<AttentionKind> = s.models.iter().copied().filter(|&k| k != kind).collect();
            if on {
                picked.push(kind);
            }
            let ordered: Vec<AttentionKind> = AttentionKind::ALL.into_iter().filter(|k| picked.contains(k)).collect();
            if !ordered.is_empty() {
                s.models = ordered;
            }
        })
    };
    let size_note = move || {
        let p = preset_of(&state.get());
        tr!("train-size-note", dim = p.dim, layers = p.layers, context = p.context, batch = p.batch, steps = p.steps)
    };
    view! {
        <fieldset class="train-setup" disabled=busy>
            <legend>{tr!("train-setup")}</legend>
            <div class="control" data-key="task">
                <label for="train-task">{tr!("train-task")}</label>
                <select id="train-task" on:change=move |ev| { let v = event_target_value(&ev); state.update(|s| s.task = TrainTask::ALL.into_iter().find(|t| t.slug() == v).unwrap_or(TrainTask::Plays)) }>
                    {TrainTask::ALL.into_iter().map(|t| view! { <option value=t.slug() selected=move || state.with(|s| s.task == t)>{task_name(t)}</option> }).collect_view()}
                </select>
            </div>
            <Show when=move || state.with(|s| s.task == TrainTask::Needle)>
                <p class="axis-note" id="train-needle-note">{tr!("train-needle-note", steps = NEEDLE.steps, batch = NEEDLE.batch, checkpoint = needle::WARMUP_CHECKPOINT)}</p>
            </Show>
            <Show when=move || state.with(|s| s.task == TrainTask::Pasted)>
                <div class="control text-box" data-key="pasted">
                    <label for="train-text">{tr!("train-paste-label")}</label>
                    <textarea id="train-text" rows="6" spellcheck="false" prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
                </div>
            </Show>
            <Show when=move || state.with(|s| s.task != TrainTask::Needle)>
                <div class="control" data-key="size">
                    <label for="train-size">{tr!("train-size")}</label>
                    <select id="train-size" on:change=move |ev| { let v = event_target_value(&ev); state.update(|s| s.size = v) }>
                        {SIZES.iter().map(|&id| view! { <option value=id selected=move || state.with(|s| s.size == id)>{tr!("train-size-name", size = id)}</option> }).collect_view()}
                    </select>
                    <span class="axis-note" id="train-size-note">{size_note}</span>
                </div>
            </Show>
            <div class="control" data-key="models" role="group" aria-label=tr!("train-models")>
                <span>{tr!("train-models")}</span>
                {AttentionKind::ALL.into_iter().map(|k| view! {
                    <label class="check"><input type="checkbox" id=format!("train-model-{}", k.slug()) prop:checked=move || state.with(|s| s.models.contains(&k))
                        on:change=move |ev| toggle(k, event_target_checked(&ev)) />{kind_title(k)}</label>
                }).collect_view()}
            </div>
            <div class="control" data-key="seeds">
                <label for="train-seeds">{tr!("train-seeds")}</label>
                <select id="train-seeds" on:change=move |ev| { let v = event_target_value(&ev).parse().unwrap_or(1); state.update(|s| s.seeds = v) }>
                    {(1..=MAX_SEEDS).map(|n| view! { <option value=n.to_string() selected=move || state.with(|s| s.seeds == n)>{n}</option> }).collect_view()}
                </select>
            </div>
        </fieldset>
    }
}

#[component]
fn Buttons(state: RwSignal<TrainState>, pasted: RwSignal<String>, session: TrainSession) -> impl IntoView {
    let start = move |_| {
        let s = state.get_untracked();
        let preset = preset_of(&s);
        match session.data(&s, &pasted.get_untracked(), &preset) {
            Ok((data, vocab)) => session.train(&s, preset, data, vocab),
            Err(why) => session.phase.set(Phase::Refused(why)),
        }
    };
    let phase = move || session.phase.get();
    view! {
        <div class="train-buttons">
            <button id="train-start" class="primary" on:click=start disabled=move || (state.with(|s| s.task != TrainTask::Needle) && session.texts.with(|t| !matches!(t, Some(Ok(_))))) || matches!(phase(), Phase::Running | Phase::Paused)>{tr!("train-start")}</button>
            <button id="train-pause" on:click=move |_| if phase() == Phase::Paused { session.resume() } else { session.pause() } disabled=move || !matches!(phase(), Phase::Running | Phase::Paused)>
                {move || tr!(if phase() == Phase::Paused { "train-resume" } else { "train-pause" })}
            </button>
            <button id="train-stop" on:click=move |_| session.stop() disabled=move || !matches!(phase(), Phase::Running | Phase::Paused)>{tr!("train-stop")}</button>
        </div>
    }
}

#[component]
pub fn TrainPage() -> impl IntoView {
    let (state, notes) = crate::ui::pages::linked_state(Router::get(), Page::Train, TrainState::from_params, TrainState::to_params);
    let session = TrainSession::new();
    let pasted = RwSignal::new(String::new());
    let task = Signal::derive(move || task_name(state.with(|s| s.task)));
    let probe = Signal::derive(move || {
        let vocab = session.texts.with(|t| t.as_ref().and_then(|t| t.as_ref().ok()).map(|t| t.vocab.clone()));
        session
            .with_board(|b| match &*b.data {
                TaskData::Text(text) => vocab.map(|v| v.decode(&text.held_out[..b.preset.context])),
                TaskData::Needle => Some(needle::probe_text()),
            })
            .flatten()
            .unwrap_or_default()
    });
    let loading = move || match session.texts.get() {
        None => Some(tr!("train-loading")),
        Some(Err(e)) => Some(e),
        Some(Ok(_)) => None,
    };
    let held_note = move || {
        let s = state.get();
        (s.task == TrainTask::Pasted).then(|| match session.data(&s, &pasted.get(), &preset_of(&s)) {
            Ok((TaskData::Text(d), _)) => tr!("train-held-out-part", chars = d.held_out.len(), train = d.train.len()),
            Ok((TaskData::Needle, _)) => String::new(),
            Err(why) => why,
        })
    };
    view! {
        <section class="page train" data-phase=move || format!("{:?}", session.phase.get()).to_lowercase()>
            <h2>{tr!("page-train")}</h2>
            <p class="explain">{tr!("train-intro")}</p>
            <NoticeBar id="link-notices" lines=Signal::derive(move || state.with(|s| notes.lines_for(s))) on_dismiss=Callback::new(move |_| notes.clear()) />
            <p class="notice" id="train-loading" role="status" class:hidden=move || loading().is_none()>{loading}</p>
            <Setup state pasted session />
            <p class="axis-note" id="train-held-note" class:hidden=move || held_note().is_none()>{held_note}</p>
            <Buttons state pasted session />
            <p id="train-status" role="status" aria-live="polite">{move || progress(session)}</p>
            <ul class="notice" id="train-failures" class:hidden=move || failures(session).is_empty()>{move || failures(session).into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
            <p class="explain">{tr!("train-where")}</p>
            <Curves session />
            <ProbeFigures session probe />
            <VerdictTable session />
            <Keep session task />
        </section>
    }
}
