//! What the side-by-side explorer says through the app's live region (issue 45): the
//! three models' predictions, once they have settled after the reader changed something
//! (a prompt, a λ, a checkpoint), never the ones the page opened with.

use crate::engine::model::word;
use crate::engine::shared::AttentionKind;
use crate::state::model_state::ModelState;
use crate::tr;
use crate::ui::components::announce::{announce, settled};
use crate::ui::format::kind_title;
use crate::ui::pages::explorer::compare::Columns;
use leptos::prelude::*;

/// "Baseline Transformer: query 1 predicts 15 (83%), right. DIFF Transformer V1: …".
fn predictions(c: &Columns) -> String {
    let each: Vec<String> = c
        .runs
        .iter()
        .zip(AttentionKind::ALL)
        .map(|(x, kind)| {
            let said: Vec<String> = x
                .predictions
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    tr!(if p.right() { "said-prediction-right" } else { "said-prediction-wrong" }, k = k + 1, predicted = word(p.predicted), percent = format!("{:.0}", 100.0 * p.probability))
                })
                .collect();
            tr!("said-model-predictions", model = kind_title(kind), predictions = said.join(&tr!("list-separator")))
        })
        .collect();
    each.join(&tr!("sentence-gap"))
}

/// Says the predictions once per new run key (a prompt, a λ, a checkpoint): not the ones
/// the page opened with, and not again when the same run is redone (WebGPU's columns can
/// replace the first ones a moment later).
pub(super) fn speak(state: RwSignal<ModelState>, columns: RwSignal<Option<Columns>>) {
    let key = move || state.with_untracked(|s| format!("{:?}", (s.run_key(), s.checkpoint)));
    let said = settled(Signal::derive(move || columns.with(|c| c.as_ref().map(predictions)).map(|text| (key(), text))));
    let last = StoredValue::new(None::<String>);
    Effect::new(move |_| {
        let Some((key, text)) = said.get().flatten() else { return };
        let first = last.with_value(Option::is_none);
        if last.with_value(|l| l.as_ref() == Some(&key)) {
            return;
        }
        last.set_value(Some(key));
        if !first {
            announce(text);
        }
    });
}
