//! The text page's wiring: loads the vocabulary and the three models (again when the
//! checkpoint changes), runs the columns when the text, a λ or the placement changes
//! (a whole pass is a browser task of its own, so no task holds the page for all three;
//! a keystroke's few new rows for the three share one task and one frame; a λ change
//! reruns that model only; on WebGPU where the explorer would run there), and drives
//! "Write on" one character per model per task until stopped (on the CPU core, which
//! keeps each model's keys and values and computes one new row per character).

use crate::engine::model::library::ModelLibrary;
use crate::engine::placement::Placement;
use crate::engine::shared::AttentionKind;
use crate::engine::shared::CharVocab;
use crate::engine::shared::LambdaOverride;
use crate::engine::shared::Model;
use crate::engine::text::run::{v1_override, TextRun};
use crate::engine::text::session::{load, TextModels};
use crate::engine::text::typed::TypedText;
use crate::engine::text::writer::{Sampling, Writer};
use crate::engine::text::FOLDER;
use crate::state::model_state::V2Lambda;
use crate::state::text_state::TextState;
use crate::tr;
use crate::ui::backend::{self, Backend};
use crate::ui::components::status_line::Status;
use crate::ui::model_files::fetch_bytes;
use crate::ui::{now_ms, yield_now, yield_to_browser};
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

/// How long "Write on" writes before the page paints: half a frame, so a typed key or
/// a click on Stop waits at most that long.
const WRITE_SLICE_MS: f64 = 8.0;

/// What one model's column was last run on: a new run is made only when this changes.
#[derive(Clone, PartialEq)]
struct RunKey {
    tokens: Vec<u32>,
    checkpoint: usize,
    lambda: LambdaOverride,
    on_gpu: bool,
    /// The column shows the reader's own model.
    own: bool,
}

/// The reader's own model (trained on the training page, say) and the files it came from.
#[derive(Clone)]
pub struct OwnText {
    pub model: Rc<Model>,
    pub label: String,
}

#[derive(Clone, Copy)]
pub struct TextSession {
    pub status: RwSignal<Status>,
    pub attempt: RwSignal<u32>,
    pub vocab: RwSignal<Option<Arc<CharVocab>>>,
    /// In `AttentionKind::ALL` order, one signal a column: a new run repaints its own
    /// column only (one signal for the three repainted all three for each).
    pub runs: [RwSignal<Option<Arc<TextRun>>>; 3],
    /// Where each column's run was computed (the sentence under it).
    pub computed_on: [RwSignal<Option<Placement>>; 3],
    /// The text as the models read it (none before the vocabulary is in).
    pub typed: Memo<Option<TypedText>>,
    /// Milliseconds from a change of text to its last column, for the timing line.
    pub last_ms: RwSignal<Option<f64>>,
    pub writing: RwSignal<bool>,
    pub written: [RwSignal<String>; 3],
    models: StoredValue<Option<Rc<TextModels>>, LocalStorage>,
    /// The reader's own model, shown in its kind's column instead of the shipped one.
    own: RwSignal<Option<OwnText>, LocalStorage>,
    library: StoredValue<Rc<ModelLibrary>, LocalStorage>,
    keys: StoredValue<Vec<Option<RunKey>>>,
    /// Bumped by every new run or write, so a stale task stops.
    generation: StoredValue<u64>,
    loaded: RwSignal<u32>,
}

/// New rows at most that the three models run in one task (a keystroke, a short paste).
const FEW_ROWS: usize = 8;

fn lambda_for(kind: AttentionKind, layers: usize, s: &TextState) -> LambdaOverride {
    match (kind, s.v2_lambda) {
        (AttentionKind::DiffV1, _) => v1_override(layers, s.layer, s.v1_lambda),
        (AttentionKind::DiffV2, V2Lambda::Scale(f)) => LambdaOverride::Scale(f),
        (AttentionKind::DiffV2, V2Lambda::Pin(v)) => LambdaOverride::Constant(v),
        _ => LambdaOverride::Learnt,
    }
}

impl TextSession {
    pub fn new(state: RwSignal<TextState>, backend: RwSignal<Backend>) -> Self {
        let vocab = RwSignal::new(None::<Arc<CharVocab>>);
        let typed = Memo::new(move |_| vocab.with(|v| v.as_ref().map(|v| state.with(|s| TypedText::of(v, &s.text)))));
        let session = Self {
            status: RwSignal::new(Status::Loading(tr!("text-models-loading"))),
            attempt: RwSignal::new(0),
            vocab,
            runs: std::array::from_fn(|_| RwSignal::new(None)),
            computed_on: std::array::from_fn(|_| RwSignal::new(None)),
            typed,
            last_ms: RwSignal::new(None),
            writing: RwSignal::new(false),
            written: std::array::from_fn(|_| RwSignal::new(String::new())),
            models: StoredValue::new_local(None),
            own: RwSignal::new_local(None),
            library: StoredValue::new_local(Rc::new(ModelLibrary::in_folder(FOLDER))),
            keys: StoredValue::new(vec![None, None, None]),
            generation: StoredValue::new(0),
            loaded: RwSignal::new(0),
        };
        session.load_on_change(state);
        let adapter = Memo::new(move |_| backend.with(backend::adapter));
        let placement = Memo::new(move |_| adapter.with(|a| backend::placement_on(a, state.with(|s| s.on), None)));
        session.run_on_change(state, placement);
        session
    }

    fn next_generation(&self) -> u64 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }

    fn current(&self, generation: u64) -> bool {
        self.generation.try_get_value() == Some(generation)
    }

    /// The models the columns show: the shipped ones, with the reader's own in the column
    /// of its kind.
    fn current_models(&self) -> Option<Rc<TextModels>> {
        let shipped = self.models.try_get_value().flatten()?;
        match self.own.try_with_untracked(|o| o.as_ref().map(|o| o.model.clone())).flatten() {
            Some(model) => shipped.with_own(model).ok().map(Rc::new),
            None => Some(shipped),
        }
    }

    /// The column that shows the reader's own model, if one does.
    pub fn own_column(&self) -> Option<usize> {
        self.own.with(|o| o.as_ref().map(|o| crate::state::model_state::column_of(o.model.config.attention)))
    }

    /// The files the reader's own model came from, if one is shown.
    pub fn own_label(&self) -> Option<String> {
        self.own.with(|o| o.as_ref().map(|o| o.label.clone()))
    }

    /// Shows `model` in the column of its kind, or says why it cannot read this page's
    /// text; its kind when it can.
    pub fn use_own(&self, model: Model, label: String) -> Result<AttentionKind, String> {
        let shipped = self.models.try_get_value().flatten().ok_or_else(|| tr!("text-models-loading"))?;
        let model = Rc::new(model);
        shipped.with_own(model.clone())?;
        let kind = model.config.attention;
        self.own.set(Some(OwnText { model, label }));
        Ok(kind)
    }

    /// Back to the shipped model.
    pub fn drop_own(&self) {
        self.own.set(None);
    }

    fn load_on_change(self, state: RwSignal<TextState>) {
        let checkpoint = Memo::new(move |_| state.with(|s| s.checkpoint));
        Effect::new(move |_| {
            self.attempt.track();
            let ckpt = checkpoint.get();
            self.status.set(Status::Loading(tr!("text-models-loading")));
            let Some(library) = self.library.try_get_value() else { return };
            leptos::task::spawn_local(async move {
                match load(&library, ckpt, |path: String| async move { fetch_bytes(&path).await }).await {
                    Ok(models) => {
                        self.vocab.try_set(Some(models.vocab.clone()));
                        self.models.try_set_value(Some(Rc::new(models)));
                        self.loaded.try_update(|n| *n += 1);
                    }
                    Err(e) => {
                        self.status.try_set(Status::Failed(e));
                    }
                }
            });
        });
    }

    /// Reruns the columns whose inputs changed: the text, checkpoint and placement for
    /// all three, a λ for its model alone.
    fn run_on_change(self, state: RwSignal<TextState>, placement: Memo<Placement>) {
        let lambda_input = Memo::new(move |_| state.with(|s| (s.layer, s.v1_lambda.map(f32::to_bits), s.v2_lambda)));
        Effect::new(move |_| {
            self.loaded.track();
            self.own.track();
            lambda_input.track();
            let place = placement.get();
            let Some(typed) = self.typed.get() else { return };
            let Some(models) = self.current_models() else { return };
            if typed.is_empty() {
                self.writing.set(false);
                self.next_generation();
                self.runs.iter().for_each(|r| r.set(None));
                self.status.set(Status::Ready);
                return;
            }
            let s = state.get_untracked();
            let wanted: Vec<RunKey> = models
                .models
                .iter()
                .enumerate()
                .map(|(i, m)| RunKey {
                    tokens: typed.tokens.clone(),
                    checkpoint: models.checkpoint,
                    lambda: lambda_for(m.config.attention, m.config.n_layers, &s),
                    on_gpu: place.on_gpu(),
                    own: models.own == Some(i),
                })
                .collect();
            let stale: Vec<usize> = (0..3).filter(|&i| self.keys.with_value(|k| k[i].as_ref() != Some(&wanted[i]))).collect();
            if stale.is_empty() {
                return;
            }
            // A rerun stops "Write on": what it continues is no longer on screen.
            self.writing.set(false);
            let generation = self.next_generation();
            let started = now_ms();
            self.status.set(Status::Computing);
            leptos::task::spawn_local(async move {
                for i in stale {
                    if !self.current(generation) {
                        return;
                    }
                    let (made, on, whole) = self.column(&models, i, typed.clone(), &wanted[i], &place).await;
                    if !self.current(generation) {
                        return;
                    }
                    match made {
                        Ok(run) => {
                            self.runs[i].try_set(Some(Arc::new(run)));
                            self.computed_on[i].try_set(Some(on));
                            self.keys.try_update_value(|k| k[i] = Some(wanted[i].clone()));
                        }
                        Err(e) => {
                            self.status.try_set(Status::RunFailed(e));
                            return;
                        }
                    }
                    // A whole pass is a task of its own; a keystroke's few new rows for the
                    // three models share one, so their columns show in the same frame.
                    if whole {
                        yield_to_browser().await;
                    }
                }
                if self.current(generation) {
                    self.last_ms.try_set(Some(now_ms() - started));
                    self.status.try_set(Status::Ready);
                }
            });
        });
    }

    /// Model `i`'s column for `want`: on WebGPU when placed there (a failure is redone on
    /// the CPU core, which says why), else on the CPU core from the earlier run where only
    /// the λ or only the text moved. `true` with it: a whole pass (or most of one) ran.
    async fn column(&self, models: &TextModels, i: usize, typed: TypedText, want: &RunKey, place: &Placement) -> (Result<TextRun, String>, Placement, bool) {
        let (model, vocab) = (&models.models[i], &models.vocab);
        let mut place = place.clone();
        // The GPU holds the shipped weights (uploaded once by the library): the reader's
        // own model runs on the CPU core, and its column says so.
        if want.own && place.on_gpu() {
            place = Placement::Cpu { why: tr!("text-own-cpu") };
        }
        if place.on_gpu() {
            let key = (model.config.attention.slug().to_string(), models.checkpoint);
            let on_gpu = match (backend::gpu(), self.library.try_get_value()) {
                (Some(ctx), Some(library)) => match library.gpu_model(&key, &ctx) {
                    Some(g) => TextRun::on_gpu((&ctx, &g), model.config.attention, vocab, typed.clone(), want.lambda.clone()).await,
                    None => Err(tr!("text-gpu-no-model")),
                },
                _ => Err(tr!("why-no-webgpu")),
            };
            match on_gpu {
                Ok(run) => return (Ok(run), place, true),
                Err(e) => place = Placement::fell_back(&e),
            }
        }
        let earlier = self.runs[i].get_untracked().zip(self.keys.with_value(|k| k[i].clone()));
        match earlier {
            // Only the λ moved: resume from the earlier run, above the layers it left alone.
            Some((run, key)) if key.checkpoint == want.checkpoint && key.own == want.own && key.tokens == want.tokens => (run.with_lambda(model, vocab, want.lambda.clone()), place, true),
            // Only the text changed: run the characters after the common beginning.
            Some((run, key)) if key.checkpoint == want.checkpoint && key.own == want.own && key.lambda == want.lambda => {
                let same = key.tokens.iter().zip(&typed.tokens).take_while(|(a, b)| a == b).count();
                let whole = typed.tokens.len() - same.min(typed.tokens.len()) > FEW_ROWS;
                (run.retyped(model, vocab, typed), place, whole)
            }
            _ => (TextRun::of(model, vocab, typed, want.lambda.clone()), place, true),
        }
    }

    /// Starts "Write on" from the text as typed: each model writes one character per
    /// task, in turn, until stopped, the text changes or each has written its most.
    pub fn write_on(self, state: RwSignal<TextState>) {
        let Some(models) = self.current_models() else { return };
        let s = state.get_untracked();
        let generation = self.next_generation();
        self.writing.set(true);
        self.written.iter().for_each(|w| w.set(String::new()));
        let mut writer = Writer::new(&s.text, 3, Sampling { temperature: s.temperature, top_k: s.top_k, seed: s.seed });
        let lambdas: Vec<LambdaOverride> = models.models.iter().map(|m| lambda_for(m.config.attention, m.config.n_layers, &s)).collect();
        leptos::task::spawn_local(async move {
            let with_lambda: Vec<(&Model, LambdaOverride)> = models.models.iter().map(|m| &**m).zip(lambdas).collect();
            while self.current(generation) && self.writing.get_untracked() && !(0..3).all(|i| writer.done(i)) {
                // A slice of a frame's writing, then one update per column and a yield, so
                // the page paints and takes input between slices.
                let until = now_ms() + WRITE_SLICE_MS;
                match writer.write_while(&with_lambda, &models.vocab, || now_ms() < until) {
                    Ok(wrote) => wrote.iter().enumerate().filter(|(_, w)| !w.is_empty()).for_each(|(i, w)| self.written[i].update(|t| t.push_str(w))),
                    Err(e) => {
                        self.status.set(Status::RunFailed(e));
                        self.writing.set(false);
                        return;
                    }
                }
                yield_now().await;
            }
            if self.current(generation) {
                self.writing.try_set(false);
            }
        });
    }

    pub fn stop(self) {
        self.writing.set(false);
    }
}
