//! Prints what every page's link accepts, as JSON (`{"lab": [rows…], …}`): each key's
//! bounds, options or examples, from the pages' own state tables (`state::table::Accepts`).
//! The browser tests' random links (`tests/e2e/links.test.mjs`) are made from it, so the
//! tables are written once, in Rust.
//!
//! `cargo run --example link_tables`

use difflens::engine::lesson;
use difflens::state::arch_state;
use difflens::state::lab_state::LabState;
use difflens::state::lesson_state::LessonState;
use difflens::state::model_state::ModelState;
use difflens::state::route::Page;
use difflens::state::table::Accepts;
use difflens::state::text_state::TextState;
use difflens::state::train_state::TrainState;
use std::collections::BTreeMap;

/// A page's rows; every page is named, so a new one cannot be left out.
fn rows(page: Page) -> Vec<Accepts> {
    match page {
        Page::Learn => LessonState::link_rows(&lesson::links()),
        Page::Lab => LabState::link_rows(),
        Page::Model => ModelState::link_rows(),
        Page::Text => TextState::link_rows(),
        Page::Train => TrainState::link_rows(),
        Page::Arch => arch_state::link_rows(),
        Page::Bench => vec![],
    }
}

fn main() {
    let tables: BTreeMap<&str, Vec<Accepts>> = Page::ALL.into_iter().map(|p| (p.slug(), rows(p))).collect();
    println!("{}", serde_json::to_string_pretty(&tables).expect("the tables serialise"));
}
