//! Every layer × head of one text model as thumbnails of the map that multiplies V, each
//! with the share of the last character's weight that stays on the last few characters
//! (the caption's number); a click shows that layer and head in every column. Like the
//! explorer's grid, the buttons stay while the model's shape does and follow the column a
//! frame late, so a keystroke's frame shows the strip and the maps first.

use crate::engine::shared::AttentionKind;
use crate::engine::text::run::{TextRun, NEAR};
use crate::state::text_state::TextState;
use crate::tr;
use crate::ui::after_paint;
use crate::ui::components::heatmap::PooledMap;
use crate::ui::components::thumbnail::Thumbnail;
use crate::ui::pages::text::column::pooled;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn TextHeadGrid(kind: AttentionKind, state: RwSignal<TextState>, run: Signal<Option<Arc<TextRun>>>) -> impl IntoView {
    let run = after_paint(run);
    let dims = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| (0..r.layers()).map(|l| r.heads(l)).collect::<Vec<_>>()).unwrap_or_default()));
    let grid = move || {
        dims.get()
            .into_iter()
            .enumerate()
            .map(|(l, heads)| {
                let thumbs = (0..heads).map(|h| view! { <TextThumb l h state run /> }).collect_view();
                view! { <div class="grid-row"><span class="grid-label">{tr!("grid-layer", layer = l + 1)}</span>{thumbs}</div> }
            })
            .collect_view()
    };
    view! {
        <div class="head-grid" id=format!("text-grid-{}", kind.slug()) role="group" aria-label=tr!("grid-heads-of", model = crate::ui::format::kind_title(kind))>
            <p class="axis-note">{tr!("text-grid-explain", near = NEAR)}</p>
            {grid}
        </div>
    }
}

/// One head: its thumbnail and the weight its last row keeps near.
#[component]
fn TextThumb(l: usize, h: usize, state: RwSignal<TextState>, run: Signal<Option<Arc<TextRun>>>) -> impl IntoView {
    let near = Memo::new(move |_| run.with(|r| r.as_ref().and_then(|r| r.locality(l, h)).map(|loc| format!("{:.2}", loc.near))));
    let map = Memo::new(move |_| run.with(|r| r.as_ref().and_then(|r| r.maps(l, h)).map(|m| -> PooledMap { pooled(m.combined(), m.diff.is_some()) })));
    let shown = move || state.with(|s| (s.layer, s.head) == (l, h));
    let label = move || tr!("text-thumb", layer = l + 1, head = h + 1, near = NEAR, weight = near.get().unwrap_or_default());
    view! {
        <button class="thumb" aria-pressed=move || shown().to_string() aria-label=label data-layer=l data-head=h
            on:click=move |_| state.update(|s| { s.layer = l; s.head = h; })>
            <Thumbnail map />
            <span>{move || near.get()}</span>
        </button>
    }
}
