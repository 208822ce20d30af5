//! The pages, and what several of them share.

pub mod arch;
pub mod bench;
pub mod explorer;
pub mod lab;
pub mod lesson;
pub mod text;
pub mod train;

use crate::ui::components::notice::StateNotes;
use crate::ui::route::{Page, Router};
use leptos::prelude::*;

/// A page's link table's reader: the state a link describes, and a notice for each value
/// it refused.
pub(crate) type LinkReader<S> = fn(&[(String, String)]) -> (S, Vec<String>);

/// A page's state and its link: every change writes the link once the changes settle; a
/// link that arrives while the page is open is applied like the one it opened with, its
/// notices with it. `read` and `write` are the page's link table.
pub(crate) fn linked_state<S: Clone + PartialEq + Send + Sync + 'static>(router: Router, page: Page, read: LinkReader<S>, write: fn(&S) -> Vec<(String, String)>) -> (RwSignal<S>, StateNotes<S>) {
    let (initial, lines) = read(&router.asked.get_untracked().params);
    let state = RwSignal::new(initial.clone());
    let notes = StateNotes::new();
    notes.set(initial, lines);
    Effect::new(move |_| {
        let route = router.remember(page, state.with(write));
        router.write_address_soon(route, || {});
    });
    on_cleanup(move || router.cancel_pending());
    router.follow(page, move |params| {
        let (s, lines) = read(params);
        notes.set(s.clone(), lines);
        if state.with_untracked(|cur| *cur != s) {
            state.set(s);
        }
    });
    (state, notes)
}
