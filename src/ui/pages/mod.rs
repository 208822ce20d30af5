pub mod arch;
pub mod bench;
pub mod explorer;
pub mod lab;
pub mod lesson;
pub mod text;
pub mod train;
