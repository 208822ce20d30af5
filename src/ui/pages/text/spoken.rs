//! What the text page says through the app's live region (issue 45): each model's guess
//! for the next character once the typing has paused, and what each model wrote once
//! "Write on" ends, never every keystroke or every character written.

use crate::engine::shared::AttentionKind;
use crate::engine::text::typed::show_char;
use crate::state::text_state::TextState;
use crate::tr;
use crate::ui::components::announce::{announce, settled};
use crate::ui::format::kind_title;
use crate::ui::pages::text::session::TextSession;
use leptos::prelude::*;

/// "Next character: baseline “e” (34%); DIFF V1 …", or none before the models have read.
fn guesses(session: TextSession) -> Option<String> {
    let each: Vec<String> = (0..3)
        .filter_map(|i| {
            session.runs[i].with(|r| {
                let (c, p) = *r.as_ref()?.top.first()?;
                Some(tr!("text-said-guess", model = kind_title(AttentionKind::ALL[i]), ch = show_char(c), p = format!("{:.0}%", p * 100.0)))
            })
        })
        .collect();
    (!each.is_empty()).then(|| tr!("text-said-next", guesses = each.join(&tr!("list-separator"))))
}

/// Says the guesses when they settle after the reader has changed the text (the text the
/// page opened with is shown, not said), and the written texts when writing stops.
pub fn speak(state: RwSignal<TextState>, session: TextSession) {
    let settled_guesses = settled(Signal::derive(move || guesses(session)));
    let opened = StoredValue::new(Some(state.with_untracked(|s| s.text.clone())));
    let last = StoredValue::new(None::<(String, String)>);
    Effect::new(move |_| {
        let Some(said) = settled_guesses.get().flatten() else { return };
        if let Some(text) = opened.get_value() {
            if state.with_untracked(|s| s.text == text) {
                return;
            }
            opened.set_value(None);
        }
        // The same guesses for the same text are not news (a column redone on WebGPU).
        let now = Some((state.with_untracked(|s| s.text.clone()), said.clone()));
        if !session.writing.get_untracked() && last.with_value(|l| *l != now) {
            last.set_value(now);
            announce(said);
        }
    });
    Effect::new(move |was: Option<bool>| {
        let now = session.writing.get();
        match (was, now) {
            (Some(false) | None, true) => announce(tr!("text-said-writing")),
            (Some(true), false) => {
                let each: Vec<String> = (0..3).map(|i| tr!("text-said-wrote", model = kind_title(AttentionKind::ALL[i]), text = session.written[i].get_untracked())).collect();
                announce(each.join(&tr!("sentence-gap")));
            }
            _ => {}
        }
        now
    });
}
