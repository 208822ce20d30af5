//! The Leptos pages. They call the core (CPU) or the GPU through `engine` and own no math.

mod app;
mod backend;
mod components;
mod pages;
mod panic_banner;
mod route;

/// Installs the panic banner and mounts the app on `<body>`.
pub fn start() {
    panic_banner::install();
    leptos::mount::mount_to_body(app::App);
}
