//! The training workers' wasm: the training code (`core::train`, the chunk's steps) and
//! nothing of the page. The training page starts these workers (`ui::worker_pool`'s
//! training pool) when it first trains, so a visit that never trains never downloads
//! it; the page's own wasm holds no training code at all.

#[cfg(target_arch = "wasm32")]
fn main() {
    difflens::ui::worker::start(&difflens::engine::jobs::table::TRAINING_JOBS);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("difflens-train is the training page's worker, a wasm that Trunk builds beside the app (index.html).");
}
