//! The web app's entry point. Trunk builds it for wasm32; natively there is no page.

#[cfg(target_arch = "wasm32")]
fn main() {
    difflens::ui::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("DiffLens is a web app: serve it with `./scripts/serve.sh` (see README.md).");
    eprintln!("The native command-line tool is `cargo run --release --bin difflens-layer -- --help`.");
}
