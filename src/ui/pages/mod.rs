pub mod arch;
pub mod lab;
pub mod model;
