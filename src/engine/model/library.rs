//! The explorer's models as the page uses them: each model card and checkpoint fetched
//! once per visit and kept, and the comparison of a GPU forward pass with the CPU core's,
//! with its tolerances in one place. The fetching itself is the caller's (the browser's
//! `fetch` in the page, files on disk in the tests), so all of this runs natively.

use crate::core::analysis::max_abs_diff;
use crate::core::attention::MapRequest;
use crate::core::model::{Model, ModelOutput};
use crate::engine::model::{load_checkpoint, CardInfo, CheckpointInfo, Explained, ModelFileError};
use crate::gpu::context::GpuContext;
use crate::gpu::model::GpuModel;
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

/// A model kind and the index of one of its checkpoints.
pub type ModelKey = (String, usize);

/// A model's weights on a GPU, with the context they live on.
type OnGpu = (Rc<GpuContext>, Rc<GpuModel>);

/// The cards and checkpoints loaded so far, and the models uploaded to a GPU.
pub struct ModelLibrary {
    /// The folder under the site holding `<kind>/card.json` and the checkpoints.
    folder: String,
    cards: RefCell<HashMap<String, CardInfo>>,
    models: RefCell<HashMap<ModelKey, Rc<Model>>>,
    /// Each model's weights on the GPU, with the context they live on (a new context
    /// after a lost device uploads them again).
    on_gpu: RefCell<HashMap<ModelKey, OnGpu>>,
}

impl Default for ModelLibrary {
    /// The needle models under `models/`.
    fn default() -> Self {
        Self::in_folder("models")
    }
}

impl ModelLibrary {
    /// The models under `folder` (the text page's are under `text-models/`).
    pub fn in_folder(folder: &str) -> Self {
        Self { folder: folder.to_string(), cards: RefCell::default(), models: RefCell::default(), on_gpu: RefCell::default() }
    }

    pub fn model(&self, key: &ModelKey) -> Option<Rc<Model>> {
        self.models.borrow().get(key).cloned()
    }

    /// Keeps a model that did not come from the shipped cards (one a reader loaded).
    pub fn put(&self, key: ModelKey, model: Model) {
        self.on_gpu.borrow_mut().remove(&key);
        self.models.borrow_mut().insert(key, Rc::new(model));
    }

    /// The loaded model `key` with its weights on `ctx`'s GPU, uploaded once.
    pub fn gpu_model(&self, key: &ModelKey, ctx: &Rc<GpuContext>) -> Option<Rc<GpuModel>> {
        if let Some((c, g)) = self.on_gpu.borrow().get(key) {
            if Rc::ptr_eq(c, ctx) {
                return Some(g.clone());
            }
        }
        let model = self.model(key)?;
        let gpu = Rc::new(GpuModel::new(ctx, &model));
        self.on_gpu.borrow_mut().insert(key.clone(), (ctx.clone(), gpu.clone()));
        Some(gpu)
    }

    /// "fully trained: step 3200 (100%)", once the card is in.
    pub fn checkpoint_label(&self, kind: &str, i: usize) -> Option<String> {
        self.cards.borrow().get(kind).and_then(|card| card.checkpoints.get(i)).map(CheckpointInfo::describe)
    }

    /// The checkpoint `ckpt` of `kind`, from the cache or through `fetch` (a path under
    /// the models folder → its bytes). Every failure names the file.
    pub async fn load<F, Fut>(&self, kind: &str, ckpt: usize, fetch: F) -> Result<Rc<Model>, ModelFileError>
    where
        F: Fn(String) -> Fut,
        Fut: Future<Output = Result<Vec<u8>, String>>,
    {
        if let Some(model) = self.model(&(kind.to_string(), ckpt)) {
            return Ok(model);
        }
        let cached = self.cards.borrow().get(kind).cloned();
        let card = match cached {
            Some(c) => c,
            None => {
                let path = format!("{}/{kind}/card.json", self.folder);
                let bytes = fetch(path.clone()).await.map_err(ModelFileError::Fetch)?;
                let text = String::from_utf8(bytes).map_err(|_| ModelFileError::NotText { file: path.clone() })?;
                let c = CardInfo::parse(&path, &text)?;
                self.cards.borrow_mut().insert(kind.to_string(), c.clone());
                c
            }
        };
        let entry = card.checkpoints.get(ckpt).ok_or_else(|| ModelFileError::TooFewCheckpoints { kind: kind.to_string(), count: card.checkpoints.len(), wanted: ckpt + 1 })?;
        let path = format!("{}/{kind}/{}", self.folder, entry.file);
        let bytes = fetch(path.clone()).await.map_err(ModelFileError::Fetch)?;
        let model = Rc::new(load_checkpoint(&card.config, &bytes).map_err(|error| ModelFileError::Weights { file: path, error })?);
        self.models.borrow_mut().insert((kind.to_string(), ckpt), model.clone());
        Ok(model)
    }
}

/// The explained prompt through the GPU forward pass, keeping the map of (`layer`,
/// `head`) only, compared with the CPU core's result; the time is the caller's clock's.
pub async fn compare_on_gpu(ctx: &GpuContext, model: &Model, cpu: &Explained, layer: usize, head: usize, clock: impl Fn() -> f64) -> GpuComparison {
    let gpu = GpuModel::new(ctx, model);
    let t0 = clock();
    match gpu.forward(ctx, &cpu.prompt.tokens, &MapRequest::Only(vec![(layer, head)])).await {
        Ok(out) => GpuComparison::of(&out, cpu, layer, head, clock() - t0),
        Err(e) => GpuComparison { score: f32::INFINITY, sentence: crate::tr!("gpu-forward-failed", error = e.to_string()) },
    }
}

/// How far a GPU forward pass is from the CPU core's on the same prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuComparison {
    /// The larger error in units of its tolerance: at most 1 passes.
    pub score: f32,
    pub sentence: String,
}

impl GpuComparison {
    /// Logits are sums over E·L products of O(1) values in f32 in different orders
    /// (tiled GEMM vs the CPU's), a few hundred ulps of margin; maps are probabilities.
    pub const LOGITS_TOLERANCE: f32 = 1e-4;
    pub const MAP_TOLERANCE: f32 = 1e-5;

    /// `gpu` kept only the map of (`layer`, `head`); `cpu` kept every map.
    pub fn of(gpu: &ModelOutput, cpu: &Explained, layer: usize, head: usize, ms: f64) -> Self {
        let dl = max_abs_diff(&gpu.logits, &cpu.output.logits);
        let gpu_map = gpu.layers.get(layer).and_then(|l| l.maps.first());
        let cpu_map = cpu.output.layers.get(layer).and_then(|l| l.maps.get(head));
        let dm = gpu_map.zip(cpu_map).map(|(g, c)| max_abs_diff(g.combined(), c.combined())).unwrap_or(f32::NAN);
        // A NaN (a missing map, a NaN anywhere) must fail: kept, not folded away by max.
        let score = if dl.is_nan() || dm.is_nan() { f32::NAN } else { (dl / Self::LOGITS_TOLERANCE).max(dm / Self::MAP_TOLERANCE) };
        Self {
            score,
            sentence: crate::tr!(
                "gpu-forward-compared",
                ms = format!("{ms:.0}"),
                logits = format!("{dl:.1e}"),
                logits_tolerance = format!("{:.0e}", Self::LOGITS_TOLERANCE),
                layer = layer,
                head = head,
                map = format!("{dm:.1e}"),
                map_tolerance = format!("{:.0e}", Self::MAP_TOLERANCE)
            ),
        }
    }

    pub fn passes(&self) -> bool {
        self.score <= 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::ForwardOptions;
    use crate::engine::model::explain;
    use crate::state::model_state::ModelState;
    use std::cell::Cell;

    fn disk(fetched: &Cell<usize>) -> impl Fn(String) -> std::future::Ready<Result<Vec<u8>, String>> + '_ {
        move |path: String| {
            fetched.set(fetched.get() + 1);
            std::future::ready(std::fs::read(format!("{}/www/{path}", env!("CARGO_MANIFEST_DIR"))).map_err(|e| format!("{path}: {e}")))
        }
    }

    #[test]
    fn the_library_fetches_each_file_once_and_names_what_failed() {
        let library = ModelLibrary::default();
        let fetched = Cell::new(0);
        let model = pollster::block_on(library.load("diff_v2", 4, disk(&fetched))).expect("the shipped final checkpoint loads");
        assert_eq!(fetched.get(), 2, "the card and the checkpoint");
        let again = pollster::block_on(library.load("diff_v2", 4, disk(&fetched))).unwrap();
        assert!(Rc::ptr_eq(&model, &again) && fetched.get() == 2, "the second time comes from the cache");
        pollster::block_on(library.load("diff_v2", 0, disk(&fetched))).unwrap();
        assert_eq!(fetched.get(), 3, "another checkpoint of a known card: only its file");
        assert!(library.checkpoint_label("diff_v2", 0).unwrap().starts_with("untrained"));
        let err = pollster::block_on(library.load("diff_v2", 9, disk(&fetched))).unwrap_err();
        assert_eq!(err, ModelFileError::TooFewCheckpoints { kind: "diff_v2".into(), count: 5, wanted: 10 });
        assert!(err.to_string().contains("models/diff_v2/card.json lists 5 checkpoints"), "{err}");
        let err = pollster::block_on(library.load("nope", 0, disk(&fetched))).unwrap_err();
        assert!(matches!(&err, ModelFileError::Fetch(why) if why.starts_with("models/nope/card.json")), "{err}");
    }

    #[test]
    fn the_gpu_comparison_passes_equal_outputs_and_fails_on_nan() {
        let library = ModelLibrary::default();
        let model = pollster::block_on(library.load("diff_v1", 4, disk(&Cell::new(0)))).unwrap();
        let state = ModelState { kind: crate::state::model_state::AttentionKind::DiffV1, layer: 1, head: 1, ..ModelState::default() };
        let cpu = explain(&model, &state).unwrap();
        let only = model.forward(&cpu.prompt.tokens, &ForwardOptions { maps: MapRequest::Only(vec![(1, 1)]), ..Default::default() }).unwrap();
        let same = GpuComparison::of(&only, &cpu, 1, 1, 1.0);
        assert!(same.passes() && same.score == 0.0, "{same:?}");
        let mut off = only.clone();
        off.logits[[0, 0]] += 5e-4;
        let five = GpuComparison::of(&off, &cpu, 1, 1, 1.0);
        assert!((five.score - 5.0).abs() < 1e-2 && !five.passes(), "{five:?}");
        off.logits[[0, 0]] = f32::NAN;
        assert!(!GpuComparison::of(&off, &cpu, 1, 1, 1.0).passes(), "a NaN never passes");
    }
}
