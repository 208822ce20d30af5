//! Training and evaluation of DiffLens's tiny multi-needle retrieval models: a native
//! tool, never compiled into the web app. Training uses candle's autodiff; evaluation
//! uses the DiffLens core, exactly what the page runs.

pub mod batch;
pub mod card;
pub mod configs;
pub mod eval;
pub mod model;
pub mod text;
pub mod text_commands;
pub mod train;
pub mod warmup;
