//! The compare view's columns: each model's run of the state's prompt, kept while
//! nothing it depends on changes (a λ drag on one model reruns that model alone), made
//! where its placement says: the CPU core (on the page, or a whole pass in a background
//! worker, `jobs::ForwardJob`), or WebGPU with the CPU core taking over if the GPU fails.

use crate::core::model::ModelOutput;
use crate::core::retrieval::PromptSpec;
use crate::engine::model::{explain_prompt, explained_of, forward_options, prompt_for, prompt_spec, Explained, ForwardOptions, Model, Prompt};
use crate::engine::placement::Placement;
use crate::gpu::context::GpuContext;
use crate::gpu::model::GpuModel;
use crate::state::model_state::ModelState;
use std::sync::Arc;

/// Everything a column's run depends on: the prompt (typed text, or spec and seed), the
/// forward options and where it was asked to run.
pub type RunKey = (Option<String>, PromptSpec, u64, ForwardOptions, Placement);

/// One column of the compare view: a model's run, what it was run with, and where it
/// was computed (the key's placement, or the CPU core after a GPU failure; on the CPU
/// core, in a background worker or on the page).
#[derive(Clone)]
pub struct ColumnRun {
    pub key: RunKey,
    pub explained: Arc<Explained>,
    pub computed_on: Placement,
    pub in_worker: bool,
}

impl ColumnRun {
    /// Where, in two words (for the timing line).
    pub fn short(&self) -> String {
        if self.in_worker {
            crate::tr!("short-cpu-worker")
        } else {
            self.computed_on.short()
        }
    }

    /// The sentence under the column: where its numbers were computed, and why there.
    pub fn sentence(&self) -> String {
        match &self.computed_on {
            Placement::Cpu { why } if self.in_worker => crate::tr!("computed-cpu-worker", why = why),
            place => place.sentence(),
        }
    }
}

/// One column's work for a state: the previous run if its key is unchanged, else a
/// forward pass to make: on the CPU core from the first layer whose λ moved, when
/// nothing else changed since the previous run there (a λ drag).
pub struct ColumnJob {
    key: RunKey,
    kept: Option<ColumnRun>,
    resume: Option<(Arc<Explained>, usize)>,
}

/// Where `key`'s pass may start over `previous`'s: the first layer whose λ differs, when
/// that is all that differs and the previous pass ran on the CPU core as asked.
fn resumable(previous: &ColumnRun, key: &RunKey, layers: usize) -> Option<(Arc<Explained>, usize)> {
    let (old, new) = (&previous.key, key);
    let same_else = old.0 == new.0 && old.1 == new.1 && old.2 == new.2 && old.4 == new.4 && ForwardOptions { lambda: new.3.lambda.clone(), ..old.3.clone() } == new.3;
    let on_cpu = !new.4.on_gpu() && previous.computed_on == previous.key.4;
    let from = old.3.lambda.first_difference(&new.3.lambda, layers)?;
    (same_else && on_cpu && from > 0).then(|| (previous.explained.clone(), from))
}

/// `previous` under `key` when only its reason for the CPU core changed (the browser
/// named its adapter, a software one; the language): the same numbers, a new sentence.
fn relabelled(previous: &ColumnRun, key: &RunKey) -> Option<ColumnRun> {
    let (old, new) = (&previous.key, key);
    let same_pass = old.0 == new.0 && old.1 == new.1 && old.2 == new.2 && old.3 == new.3;
    let on_cpu = !old.4.on_gpu() && !new.4.on_gpu();
    (same_pass && on_cpu).then(|| ColumnRun { key: key.clone(), computed_on: new.4.clone(), ..previous.clone() })
}

/// The state's prompt and each of `models`' jobs, placed as `places` says.
pub fn plan_columns(models: &[&Model], state: &ModelState, previous: &[ColumnRun], places: &[Placement]) -> (Prompt, Vec<ColumnJob>) {
    let jobs = models
        .iter()
        .zip(places)
        .enumerate()
        .map(|(i, (m, place))| {
            let key = (state.text.clone(), prompt_spec(state), state.seed, forward_options(state, m.config.attention), place.clone());
            let kept = previous.get(i).and_then(|p| if p.key == key { Some(p.clone()) } else { relabelled(p, &key) });
            let resume = previous.get(i).filter(|_| kept.is_none()).and_then(|p| resumable(p, &key, m.blocks.len()));
            ColumnJob { key, kept, resume }
        })
        .collect();
    (prompt_for(state), jobs)
}

impl ColumnJob {
    /// The layer a CPU pass starts from (0: the whole model).
    pub fn starts_at(&self) -> usize {
        self.resume.as_ref().map_or(0, |(_, from)| *from)
    }

    /// The previous run is kept: nothing to compute.
    pub fn is_kept(&self) -> bool {
        self.kept.is_some()
    }

    /// A forward pass on WebGPU is still to be made.
    pub fn needs_gpu(&self) -> bool {
        self.kept.is_none() && self.key.4.on_gpu()
    }

    /// A whole pass on the CPU core is to be made: a background worker can make it (a
    /// pass resumed at a later layer starts from this page's earlier pass).
    pub fn for_worker(&self) -> bool {
        self.kept.is_none() && self.resume.is_none() && !self.key.4.on_gpu()
    }

    /// The job done by a worker's whole pass (`jobs::ForwardJob`) of `prompt`.
    pub fn with_output(self, prompt: &Prompt, output: ModelOutput) -> ColumnRun {
        let explained = Arc::new(explained_of(prompt.clone(), output, self.key.3.lambda.clone()));
        ColumnRun { computed_on: self.key.4.clone(), key: self.key, explained, in_worker: true }
    }

    /// The kept run, or the forward pass on the CPU core (`computed_on` says why there).
    pub fn run_on_cpu(self, model: &Model, prompt: &Prompt, computed_on: Option<Placement>) -> Result<ColumnRun, String> {
        if let Some(kept) = self.kept {
            return Ok(kept);
        }
        let resumed = self.resume.as_ref().and_then(|(earlier, from)| model.resume(&earlier.output, *from, &self.key.3));
        let explained = Arc::new(match resumed {
            Some(output) => explained_of(prompt.clone(), output, self.key.3.lambda.clone()),
            None => explain_prompt(model, prompt.clone(), &self.key.3)?,
        });
        let computed_on = computed_on.unwrap_or_else(|| self.key.4.clone());
        Ok(ColumnRun { key: self.key, explained, computed_on, in_worker: false })
    }

    /// The job where its placement says; a failed GPU pass (device lost, a size past the
    /// adapter's limits) is redone on the CPU core and says so.
    pub async fn run(self, model: &Model, prompt: &Prompt, gpu: Option<(&GpuContext, &GpuModel)>) -> Result<ColumnRun, String> {
        if !self.needs_gpu() {
            return self.run_on_cpu(model, prompt, None);
        }
        let Some((ctx, gpu_model)) = gpu else {
            return self.run_on_cpu(model, prompt, Some(Placement::fell_back(&crate::tr!("gpu-gone"))));
        };
        match gpu_model.forward_with(ctx, &prompt.tokens, &self.key.3).await {
            Ok(output) => {
                let (computed_on, lambda) = (self.key.4.clone(), self.key.3.lambda.clone());
                Ok(ColumnRun { key: self.key, explained: Arc::new(explained_of(prompt.clone(), output, lambda)), computed_on, in_worker: false })
            }
            Err(e) => self.run_on_cpu(model, prompt, Some(Placement::fell_back(&e))),
        }
    }
}

/// The state's prompt through each of `models` on the CPU core, rerunning only those
/// whose prompt or options differ from `previous`.
pub fn explain_each(models: &[&Model], state: &ModelState, previous: &[ColumnRun]) -> Result<Vec<ColumnRun>, String> {
    let places = vec![Placement::Cpu { why: crate::tr!("why-this-page") }; models.len()];
    let (prompt, jobs) = plan_columns(models, state, previous, &places);
    jobs.into_iter().zip(models).map(|(job, m)| job.run_on_cpu(m, &prompt, None)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{load_checkpoint, CardInfo};
    use crate::state::model_state::{AttentionKind, V2Lambda};

    fn shipped(kind: AttentionKind) -> Model {
        let dir = format!("{}/www/models/{}", env!("CARGO_MANIFEST_DIR"), kind.slug());
        let card = CardInfo::parse("card.json", &std::fs::read_to_string(format!("{dir}/card.json")).unwrap()).unwrap();
        let last = card.checkpoints.last().unwrap();
        load_checkpoint(&card.config, &std::fs::read(format!("{dir}/{}", last.file)).unwrap()).unwrap()
    }

    /// The browser names a software adapter after the columns were made on the CPU core
    /// while it was asked: the runs are kept and only their sentence changes; a hardware
    /// adapter runs them again there.
    #[test]
    fn a_new_reason_for_the_cpu_keeps_the_runs_and_changes_their_sentence() {
        let models: Vec<Model> = AttentionKind::ALL.iter().map(|k| shipped(*k)).collect();
        let refs: Vec<&Model> = models.iter().collect();
        let state = ModelState::default();
        let asking = vec![Placement::while_asking(&state); 3];
        let (prompt, jobs) = plan_columns(&refs, &state, &[], &asking);
        let first: Vec<ColumnRun> = jobs.into_iter().zip(&refs).map(|(j, m)| j.run_on_cpu(m, &prompt, None).unwrap()).collect();
        let software = vec![Placement::for_state(&state, Some(&("google swiftshader".to_string(), true))); 3];
        let (_, jobs) = plan_columns(&refs, &state, &first, &software);
        assert!(jobs.iter().all(ColumnJob::is_kept), "nothing to compute");
        let runs: Vec<ColumnRun> = jobs.into_iter().zip(&refs).map(|(j, m)| j.run_on_cpu(m, &prompt, None).unwrap()).collect();
        for (run, was) in runs.iter().zip(&first) {
            assert!(Arc::ptr_eq(&run.explained, &was.explained));
            assert!(run.sentence().contains("software renderer") && run.key.4 == software[0], "{}", run.sentence());
        }
        let hardware = vec![Placement::for_state(&state, Some(&("nvidia hopper".to_string(), false))); 3];
        let (_, jobs) = plan_columns(&refs, &state, &runs, &hardware);
        assert!(jobs.iter().all(ColumnJob::needs_gpu), "a hardware adapter runs them again");
    }

    /// A λ drag in layer `l` of DIFF V1 reruns V1 from layer `l` (the others are kept),
    /// and what it shows equals a fresh pass of the whole model.
    #[test]
    fn a_lambda_drag_reruns_from_the_moved_layer_and_equals_a_fresh_pass() {
        let models: Vec<Model> = AttentionKind::ALL.iter().map(|k| shipped(*k)).collect();
        let refs: Vec<&Model> = models.iter().collect();
        let cpu = vec![Placement::Cpu { why: "test".into() }; 3];
        let mut state = ModelState::default();
        let (prompt, jobs) = plan_columns(&refs, &state, &[], &cpu);
        let mut previous: Vec<ColumnRun> = jobs.into_iter().zip(&refs).map(|(j, m)| j.run_on_cpu(m, &prompt, None).unwrap()).collect();
        for (layer, value, starts) in [(1, 2.0, 1), (2, -0.5, 2), (1, 0.0, 1), (0, 1.5, 0)] {
            state.set_v1_lambda(layer, Some(value));
            let (prompt, jobs) = plan_columns(&refs, &state, &previous, &cpu);
            assert_eq!(jobs.iter().map(ColumnJob::starts_at).collect::<Vec<_>>(), [0, starts, 0], "layer {layer}");
            let runs: Vec<ColumnRun> = jobs.into_iter().zip(&refs).map(|(j, m)| j.run_on_cpu(m, &prompt, None).unwrap()).collect();
            assert!(Arc::ptr_eq(&runs[0].explained, &previous[0].explained) && Arc::ptr_eq(&runs[2].explained, &previous[2].explained), "the other models are kept");
            let fresh = explain_each(&refs, &state, &[]).unwrap();
            let (got, want) = (&runs[1].explained, &fresh[1].explained);
            assert_eq!(got.output.logits, want.output.logits, "layer {layer} → {value}");
            assert_eq!(got.predictions, want.predictions);
            assert_eq!(got.net, want.net);
            assert_eq!(got.magnitudes, want.magnitudes);
            for (a, b) in got.output.layers.iter().zip(&want.output.layers) {
                assert_eq!(a.lambda, b.lambda);
                assert!(a.maps.iter().zip(&b.maps).all(|(x, y)| x.a1 == y.a1 && x.diff == y.diff));
            }
            previous = runs;
        }
        // Any other change (here V2's λ and a new seed) reruns from the first layer.
        state.v2_lambda = V2Lambda::Scale(0.5);
        state.seed += 1;
        let (_, jobs) = plan_columns(&refs, &state, &previous, &cpu);
        assert!(jobs.iter().all(|j| j.starts_at() == 0));
    }
}
