//! The model explorer's work: where each column's pass runs (`columns`), the paper's
//! evidence over fresh prompts (`evidence`), a layer read from a reader's file
//! (`layer_file`), and the needle edits a reader makes to a prompt (`prompt_edit`).

pub mod columns;
pub mod evidence;
pub mod layer_file;
pub mod prompt_edit;
