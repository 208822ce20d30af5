//! Browser-side Rust that only makes sense in a page, tested in headless Chromium with
//! wasm-bindgen-test (`cargo test --target wasm32-unknown-unknown --test web_ui`).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// The panic banner writes into the DOM directly (the reactive system may be gone by
/// then): it must appear, be announced, and be replaced rather than stacked.
#[wasm_bindgen_test]
fn the_error_banner_appears_and_is_replaced() {
    difflens::ui::show_error_banner("first failure");
    difflens::ui::show_error_banner("second failure");
    let banners = document().query_selector_all("#fatal-error").unwrap();
    assert_eq!(banners.length(), 1, "one banner, updated in place");
    let el: web_sys::HtmlElement = document().get_element_by_id("fatal-error").unwrap().dyn_into().unwrap();
    assert_eq!(el.query_selector("p").unwrap().unwrap().text_content().unwrap(), "second failure");
    assert_eq!(el.query_selector("button").unwrap().unwrap().text_content().unwrap(), "Reload", "the way on, one click away");
    assert_eq!(el.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(el.style().get_property_value("display").unwrap(), "block");
}

/// The route written to the URL comes back the same after the browser stores it.
#[wasm_bindgen_test]
fn routes_survive_the_browser_history() {
    use difflens::state::route::{Page, Route};
    let route = Route::to(Page::Arch, vec![("layers".into(), "12".into()), ("note".into(), "a b&c".into())]);
    let history = web_sys::window().unwrap().history().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route.to_hash())).unwrap();
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    assert_eq!(Route::parse(&hash), route);
}
