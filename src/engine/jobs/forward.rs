//! One of the explorer's columns as a job: the explorer's link (every setting a forward
//! pass depends on), the checkpoint and the model. The worker makes the same prompt and
//! the same forward options as the page would (`model::prompt_for`,
//! `model::forward_options`) and answers with the pass's whole output (`output_codec`),
//! residual stream included, so a λ drag afterwards resumes from it on the page exactly
//! as from a pass made there.

use crate::core::model::{Model, ModelOutput};
use crate::engine::jobs::output_codec::{decode, encode};
use crate::engine::jobs::{with_link, Fields, Job, ModelKey, Pairs, WorkerMemory};
use crate::engine::model::{forward_options, prompt_for, weights_message};
use crate::state::model_state::{AttentionKind, ModelState};

#[derive(Clone, Debug, PartialEq)]
pub struct ForwardJob {
    pub state: ModelState,
    pub checkpoint: usize,
    pub kind: AttentionKind,
}

impl Job for ForwardJob {
    const KIND: &'static str = "forward";
    type Output = ModelOutput;

    fn write(&self) -> Pairs {
        with_link(&[("_ckpt", self.checkpoint.to_string()), ("_model", self.kind.slug().to_string())], &self.state)
    }

    fn read(f: &Fields) -> Result<Self, String> {
        let slug = f.text("_model")?;
        let kind = AttentionKind::from_slug(slug).ok_or_else(|| format!("no shipped model is called {slug:?}"))?;
        Ok(Self { state: f.link_state(), checkpoint: f.number("_ckpt")?, kind })
    }

    fn models(&self) -> Vec<ModelKey> {
        vec![(self.kind.slug().to_string(), self.checkpoint)]
    }

    /// The state's prompt through the model, with the options the page would use.
    fn run(&self, models: &[&Model], _: &mut WorkerMemory) -> Result<ModelOutput, String> {
        let model = models.first().ok_or("the job was given no model")?;
        if model.config.attention != self.kind {
            return Err(format!("the job asks for {} and was given a {} model", self.kind.slug(), model.config.attention.slug()));
        }
        model.forward(&prompt_for(&self.state).tokens, &forward_options(&self.state, self.kind)).map_err(|e| weights_message(&e))
    }

    fn write_output(output: ModelOutput) -> (Pairs, Vec<Vec<f32>>) {
        let (numbers, shapes, arrays) = encode(&output);
        (vec![("numbers".to_string(), numbers), ("shapes".to_string(), shapes)], arrays)
    }

    fn read_output(f: &Fields, arrays: Vec<Vec<f32>>) -> Result<ModelOutput, String> {
        decode(f.text("numbers")?, f.text("shapes")?, arrays)
    }
}
