pub mod arch;
pub mod bench;
mod compare;
mod evidence;
mod explorer;
pub mod lab;
mod lambda_panel;
pub mod model;
mod single;
