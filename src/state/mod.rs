//! Page state that lives in the URL: parsing, clamping and formatting, with no browser
//! types, so it is tested natively. A value out of range is clamped and reported, never
//! trusted; an unknown key is reported and ignored.

pub mod arch_state;
pub mod display;
pub mod lab_state;
pub mod lesson_state;
pub mod model_state;
pub mod query;
pub mod route;
pub mod table;
pub mod text_state;
pub mod train_state;
