//! The one small interface the pages call: each computation the page shows, whichever
//! path (CPU core or GPU) runs it. The pages hold no math; this module holds no UI.

pub mod arch;
pub mod bench;
pub mod columns;
pub mod evidence;
pub mod jobs;
pub mod lab;
pub mod lab_blocks;
pub mod lab_charts;
pub mod layer_file;
pub mod lesson;
pub mod lesson_facts;
pub mod model;
pub mod model_session;
pub mod placement;
pub mod prompt_edit;
pub mod shared;
pub mod text;
