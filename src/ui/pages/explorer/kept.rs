//! What the reader brought from disk (their own model, a layer's file and its `x`, with
//! the settings they gave the layer), kept above the pages: a language switch draws every
//! page again from its link, and a visit to another page leaves the explorer, but neither
//! may lose a file the reader chose (a link cannot carry it).

use crate::ui::model_files::Library;
use crate::ui::pages::explorer::layer_view::LayerKept;
use crate::ui::pages::explorer::own_model::OwnModel;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct Kept {
    /// The explorer's models, the reader's own among them.
    pub library: Library,
    pub own: RwSignal<Option<OwnModel>>,
    /// How many models the reader has loaded: each gets its own key in the library.
    pub own_loads: StoredValue<u64>,
    pub layer: LayerKept,
}

impl Kept {
    fn new() -> Self {
        Kept { library: Library::new(), own: RwSignal::new(None), own_loads: StoredValue::new(0), layer: LayerKept::new() }
    }

    /// Made once by the shell, above what a language switch draws again.
    pub fn provide() {
        provide_context(Kept::new());
    }

    /// The shell's; a page mounted without the shell (a component test) gets its own.
    pub fn get() -> Self {
        use_context::<Kept>().unwrap_or_else(Kept::new)
    }
}
