//! placeholder, replaced below
use leptos::prelude::*;
use super::super::route::Route;
use super::super::backend::Backend;
#[component]
pub fn LabPage(route: RwSignal<Route>, backend: RwSignal<Backend>) -> impl IntoView { let _ = (route, backend); view! { <section class="page"><h2>"Noise-floor lab"</h2></section> } }
