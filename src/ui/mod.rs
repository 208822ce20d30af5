//! The Leptos pages. They call the core (CPU) or the GPU through `engine` and own no math.

mod app;
mod backend;
mod components;
mod pages;
mod panic_banner;
mod route;

/// Milliseconds from the page's high-resolution clock (0 where there is none).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// Shows the fatal-error banner (what the panic hook does), for tests and for errors
/// that happen outside the reactive system.
pub fn show_error_banner(message: &str) {
    panic_banner::show(message);
}

/// Installs the panic banner and mounts the app on `<body>`.
pub fn start() {
    panic_banner::install();
    leptos::mount::mount_to_body(app::App);
}
