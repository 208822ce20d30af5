//! The one small interface the pages call: each computation the page shows, whichever
//! path (CPU core or GPU) runs it. The pages hold no math; this module holds no UI.

pub mod arch;
pub mod bench;
pub mod explorer;
pub mod jobs;
pub mod lab;
pub mod lesson;
pub mod model;
pub mod placement;
pub mod shared;
pub mod text;
pub mod train;
