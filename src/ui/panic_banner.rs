//! If a panic happens anyway, the page says so instead of freezing: the hook writes a
//! banner straight into the DOM (the reactive system may be unusable after a panic, and
//! on wasm32 the module aborts right after the hook returns).
//!
//! The banner covers the whole page with a Reload button: after the abort every control
//! that calls into the module would fail, so the page stops for real rather than looking
//! as if it still worked.

use wasm_bindgen::JsCast;

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&crate::tr!("panic", info = info.to_string()));
    }));
}

/// Shows (or replaces) the fatal-error banner at the top of the page.
pub fn show(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let banner = match document.get_element_by_id("fatal-error") {
        Some(el) => el,
        None => {
            let Ok(el) = document.create_element("div") else { return };
            el.set_id("fatal-error");
            let _ = el.set_attribute("role", "alert");
            if let Some(body) = document.body() {
                let _ = body.prepend_with_node_1(&el);
            }
            el
        }
    };
    banner.set_text_content(None);
    if let Ok(text) = document.create_element("p") {
        text.set_text_content(Some(message));
        let _ = banner.append_child(&text);
    }
    if let Ok(button) = document.create_element("button") {
        button.set_text_content(Some(&crate::tr!("reload")));
        // Plain JavaScript: the module may no longer run any Rust.
        let _ = button.set_attribute("onclick", "location.reload()");
        let _ = banner.append_child(&button);
    }
    if let Ok(html) = banner.dyn_into::<web_sys::HtmlElement>() {
        let _ = html.style().set_property("display", "block");
    }
}
