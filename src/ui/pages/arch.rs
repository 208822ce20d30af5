//! placeholder, replaced below
use leptos::prelude::*;
use super::super::route::Route;
#[component]
pub fn ArchPage(route: RwSignal<Route>) -> impl IntoView { let _ = route; view! { <section class="page"><h2>"Architecture calculator"</h2></section> } }
