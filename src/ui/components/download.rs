//! Saving a figure as a file: the browser's download of a data URL or of text made in
//! the page (nothing leaves the machine).

use wasm_bindgen::JsCast;

/// Downloads `url` (a data or object URL) as `name`.
pub fn url(url: &str, name: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(url);
    a.set_download(name);
    a.click();
    Some(())
}

/// Downloads `content` as a file `name` of type `mime`.
pub fn text(content: &str, mime: &str, name: &str) -> Option<()> {
    blob(&js_sys::Array::of1(&content.into()), mime, name)
}

/// Downloads `content` (binary: a checkpoint) as a file `name` of type `mime`.
pub fn bytes(content: &[u8], mime: &str, name: &str) -> Option<()> {
    blob(&js_sys::Array::of1(&js_sys::Uint8Array::from(content).into()), mime, name)
}

fn blob(parts: &js_sys::Array, mime: &str, name: &str) -> Option<()> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(parts, &options).ok()?;
    let href = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    url(&href, name);
    // Freed once the download has surely started.
    leptos::prelude::set_timeout(move || drop(web_sys::Url::revoke_object_url(&href)), std::time::Duration::from_secs(30));
    Some(())
}
