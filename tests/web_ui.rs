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

/// In wasm, a row multiplied on its own (a kept pass's new token) equals the same row of
/// a whole product bit for bit: the text page compares losses after a key with losses
/// after a whole pass. Depths over one block of the library's product (256) included.
#[wasm_bindgen_test]
fn a_single_row_multiplies_as_the_whole_product_does_bit_for_bit() {
    use difflens::core::linalg::{linear, Mat};
    for (rows, depth, outputs) in [(7, 64, 77), (5, 344, 130), (9, 600, 9)] {
        let w = Mat::from_shape_fn((outputs, depth), |(i, j)| (((i * 31 + j * 17) % 23) as f32 / 11.0 - 1.0) * 0.37);
        let x = Mat::from_shape_fn((rows, depth), |(i, j)| (((i * 7 + j * 13) % 19) as f32 / 9.0 - 1.0) * 1.3);
        let whole = linear(&x.view(), &w.view());
        for r in 0..rows {
            let one = linear(&x.slice(ndarray::s![r..r + 1, ..]), &w.view());
            assert!(one.iter().zip(whole.row(r)).all(|(a, b)| a.to_bits() == b.to_bits()), "row {r} of {rows}×{depth}·{outputs}");
        }
    }
}
