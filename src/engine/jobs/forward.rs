//! One of the explorer's columns as a job: the explorer's state (every setting a forward
//! pass depends on), the checkpoint and the model. The worker makes the same prompt and
//! the same forward options as the page would (`model::prompt_for`,
//! `model::forward_options`) and answers with the pass's whole output (`output_codec`),
//! residual stream included, so a λ drag afterwards resumes from it on the page exactly
//! as from a pass made there.

use crate::core::model::{Model, ModelOutput};
use crate::engine::jobs::output_codec::{decode, encode};
use crate::engine::jobs::{Job, ModelKey, WorkerMemory};
use crate::engine::model::{forward_options, prompt_for, weights_message};
use crate::state::model_state::{AttentionKind, ModelState};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForwardJob {
    pub state: ModelState,
    pub checkpoint: usize,
    pub kind: AttentionKind,
}

/// A pass's output as its numbers and matrices' shapes cross back (`output_codec`); the
/// matrices go as arrays.
#[derive(Serialize, Deserialize)]
pub struct PassAnswer {
    numbers: String,
    shapes: String,
}

impl Job for ForwardJob {
    const KIND: &'static str = "forward";
    type Output = ModelOutput;
    type Answer = PassAnswer;

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

    fn to_answer(output: ModelOutput) -> (PassAnswer, Vec<Vec<f32>>) {
        let (numbers, shapes, arrays) = encode(&output);
        (PassAnswer { numbers, shapes }, arrays)
    }

    fn from_answer(answer: PassAnswer, arrays: Vec<Vec<f32>>) -> Result<ModelOutput, String> {
        decode(&answer.numbers, &answer.shapes, arrays)
    }
}
