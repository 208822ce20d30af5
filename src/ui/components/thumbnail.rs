//! A map as a small canvas (a head grid's button face), repainted when its map changes.

use crate::ui::components::heatmap::{paint, PooledMap};
use leptos::html;
use leptos::prelude::*;

#[component]
pub fn Thumbnail(map: Memo<Option<PooledMap>>) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        if let (Some(c), Some(m)) = (canvas.get(), map.get()) {
            paint(&c, &m);
        }
    });
    view! { <canvas node_ref=canvas aria-hidden="true"></canvas> }
}
