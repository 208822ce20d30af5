//! Messages about one state of a page ("n=99999 is above 4096", "Link copied: …"): each
//! is tied to the state it describes and disappears as soon as the page leaves that
//! state, so a notice never outlives its cause.

use leptos::prelude::*;

/// Notes and the state they belong to.
pub struct StateNotes<S: Clone + PartialEq + Send + Sync + 'static> {
    notes: RwSignal<Option<(S, Vec<String>)>>,
}

impl<S: Clone + PartialEq + Send + Sync + 'static> Clone for StateNotes<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Clone + PartialEq + Send + Sync + 'static> Copy for StateNotes<S> {}

impl<S: Clone + PartialEq + Send + Sync + 'static> StateNotes<S> {
    pub fn new() -> Self {
        Self { notes: RwSignal::new(None) }
    }

    /// Shows `lines` while the page is in `state` (nothing if `lines` is empty).
    pub fn set(&self, state: S, lines: Vec<String>) {
        self.notes.set((!lines.is_empty()).then_some((state, lines)));
    }

    pub fn clear(&self) {
        self.notes.set(None);
    }

    /// The lines that describe `current`, if any.
    pub fn lines_for(&self, current: &S) -> Vec<String> {
        self.notes.with(|n| n.as_ref().filter(|(s, _)| s == current).map(|(_, l)| l.clone()).unwrap_or_default())
    }
}

impl<S: Clone + PartialEq + Send + Sync + 'static> Default for StateNotes<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// The notice bar: the lines, a heading, and a Dismiss button.
#[component]
pub fn NoticeBar(id: &'static str, #[prop(into)] lines: Signal<Vec<String>>, #[prop(optional, into)] heading: String, on_dismiss: Callback<()>) -> impl IntoView {
    view! {
        <Show when=move || !lines.with(|l| l.is_empty())>
            <div class="notice" id=id role="status">
                {(!heading.is_empty()).then(|| view! { <strong>{heading.clone()}" "</strong> })}
                {move || lines.get().join(&crate::tr!("list-separator"))}
                " "<button on:click=move |_| on_dismiss.run(())>{crate::tr!("dismiss")}</button>
            </div>
        </Show>
    }
}
