pub mod arch;
pub mod lab;
pub mod model;
pub mod bench;
