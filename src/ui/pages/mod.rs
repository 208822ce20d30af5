pub mod arch;
pub mod bench;
mod compare;
mod evidence;
mod explorer;
pub mod lab;
pub mod model;
mod single;
