//! The compare view's columns: each model's run of the state's prompt, kept while
//! nothing it depends on changes (a λ drag on one model reruns that model alone), made
//! where its placement says: the CPU core, or WebGPU with the CPU core taking over if
//! the GPU fails.

use super::model::{explain_prompt, explained_of, forward_options, prompt_for, prompt_spec, Explained, ForwardOptions, Model, Prompt};
use super::placement::Placement;
use crate::core::retrieval::PromptSpec;
use crate::gpu::context::GpuContext;
use crate::gpu::model::GpuModel;
use crate::state::model_state::ModelState;
use std::sync::Arc;

/// Everything a column's run depends on: the prompt (typed text, or spec and seed), the
/// forward options and where it was asked to run.
pub type RunKey = (Option<String>, PromptSpec, u64, ForwardOptions, Placement);

/// One column of the compare view: a model's run, what it was run with, and where it
/// was computed (the key's placement, or the CPU core after a GPU failure).
#[derive(Clone)]
pub struct ColumnRun {
    pub key: RunKey,
    pub explained: Arc<Explained>,
    pub computed_on: Placement,
}

/// One column's work for a state: the previous run if its key is unchanged, else a
/// forward pass to make.
pub struct ColumnJob {
    key: RunKey,
    kept: Option<ColumnRun>,
}

/// The state's prompt and each of `models`' jobs, placed as `places` says.
pub fn plan_columns(models: &[&Model], state: &ModelState, previous: &[ColumnRun], places: &[Placement]) -> (Prompt, Vec<ColumnJob>) {
    let jobs = models
        .iter()
        .zip(places)
        .enumerate()
        .map(|(i, (m, place))| {
            let key = (state.text.clone(), prompt_spec(state), state.seed, forward_options(state, m.config.attention), place.clone());
            let kept = previous.get(i).filter(|p| p.key == key).cloned();
            ColumnJob { key, kept }
        })
        .collect();
    (prompt_for(state), jobs)
}

impl ColumnJob {
    /// A forward pass on WebGPU is still to be made.
    pub fn needs_gpu(&self) -> bool {
        self.kept.is_none() && self.key.4.on_gpu()
    }

    /// The kept run, or the forward pass on the CPU core (`computed_on` says why there).
    pub fn run_on_cpu(self, model: &Model, prompt: &Prompt, computed_on: Option<Placement>) -> Result<ColumnRun, String> {
        if let Some(kept) = self.kept {
            return Ok(kept);
        }
        let explained = Arc::new(explain_prompt(model, prompt.clone(), &self.key.3)?);
        let computed_on = computed_on.unwrap_or_else(|| self.key.4.clone());
        Ok(ColumnRun { key: self.key, explained, computed_on })
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
                Ok(ColumnRun { key: self.key, explained: Arc::new(explained_of(prompt.clone(), output, lambda)), computed_on })
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
