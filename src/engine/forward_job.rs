//! One of the explorer's columns as a worker job: the explorer's link (every setting a
//! forward pass depends on), the checkpoint and the model. The worker makes the same
//! prompt and the same forward options as the page would (`model::prompt_for`,
//! `model::forward_options`) and answers with the pass's whole output
//! (`output_codec`), residual stream included, so a λ drag afterwards resumes from it on
//! the page exactly as from a pass made there.

use super::batch::{link_job, number, read_link_job};
use super::model::{forward_options, prompt_for, weights_message};
use super::output_codec::{decode, encode};
use crate::core::model::{Model, ModelOutput};
use crate::state::model_state::{AttentionKind, ModelState};
use crate::state::query;

#[derive(Clone, Debug, PartialEq)]
pub struct ForwardJob {
    pub generation: u64,
    pub state: ModelState,
    pub checkpoint: usize,
    pub kind: AttentionKind,
}

/// A forward job's answer: the model's output for the state's prompt, or why not.
#[derive(Clone, Debug)]
pub struct ForwardAnswer {
    pub generation: u64,
    pub kind: AttentionKind,
    pub output: Result<ModelOutput, String>,
}

impl ForwardJob {
    /// The job's own keys start with `_`; the rest is the explorer's link.
    pub fn to_message(&self) -> String {
        link_job("forward", &[("_gen", self.generation.to_string()), ("_ckpt", self.checkpoint.to_string()), ("_model", self.kind.slug().to_string())], &self.state)
    }

    pub fn from_message(message: &str) -> Result<Self, String> {
        let (pairs, state) = read_link_job(message, "forward")?;
        let slug = pairs.iter().find(|(k, _)| k == "_model").map(|(_, v)| v.as_str()).unwrap_or_default();
        let kind = AttentionKind::from_slug(slug).ok_or_else(|| format!("no shipped model is called {slug:?}"))?;
        Ok(Self { generation: number(&pairs, "_gen")?, state, checkpoint: number(&pairs, "_ckpt")?, kind })
    }

    /// The model this job runs, as the library names it.
    pub fn model_key(&self) -> (String, usize) {
        (self.kind.slug().to_string(), self.checkpoint)
    }

    /// The state's prompt through `model`, with the options the page would use.
    pub fn run(&self, model: &Model) -> ForwardAnswer {
        let output = if model.config.attention != self.kind {
            Err(format!("the job asks for {} and was given a {} model", self.kind.slug(), model.config.attention.slug()))
        } else {
            model.forward(&prompt_for(&self.state).tokens, &forward_options(&self.state, self.kind)).map_err(|e| weights_message(&e))
        };
        ForwardAnswer { generation: self.generation, kind: self.kind, output }
    }
}

impl ForwardAnswer {
    /// The answer as a short text and its arrays (transferred, not copied).
    pub fn to_parts(self) -> (String, Vec<Vec<f32>>) {
        let mut pairs = vec![("_gen".to_string(), self.generation.to_string()), ("model".to_string(), self.kind.slug().to_string())];
        match self.output {
            Err(e) => {
                pairs.push(("error".into(), e));
                (query::format(&pairs), vec![])
            }
            Ok(output) => {
                let (numbers, shapes, arrays) = encode(&output);
                pairs.extend([("numbers".to_string(), numbers), ("shapes".to_string(), shapes)]);
                (query::format(&pairs), arrays)
            }
        }
    }

    pub fn from_parts(text: &str, arrays: Vec<Vec<f32>>) -> Result<Self, String> {
        let pairs = query::parse(text);
        let field = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let slug = field("model").unwrap_or_default();
        let kind = AttentionKind::from_slug(slug).ok_or_else(|| format!("an answer for no shipped model: {slug:?}"))?;
        let output = match (field("error"), field("numbers"), field("shapes")) {
            (Some(e), _, _) => Err(e.to_string()),
            (None, Some(numbers), Some(shapes)) => Ok(decode(numbers, shapes, arrays)?),
            _ => return Err("a forward pass's answer with neither its output nor an error".into()),
        };
        Ok(Self { generation: number(&pairs, "_gen")?, kind, output })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::explain_prompt;
    use crate::state::model_state::V2Lambda;

    /// A job made from a state the page holds (a typed prompt, moved λs, 8-bit logits)
    /// runs what the page would run, and its answer arrives whole.
    #[test]
    fn a_worker_runs_what_the_page_would_and_answers_bit_for_bit() {
        let mut typed = ModelState { bits: Some(8), v2_lambda: V2Lambda::Scale(0.5), ..ModelState::default() };
        typed.set_v1_lambda(1, Some(0.3));
        typed.text = Some(crate::engine::model::render(&prompt_for(&ModelState { seed: 9, ..ModelState::default() }).tokens));
        for state in [ModelState::default(), typed] {
            for kind in AttentionKind::ALL {
                let model = Model::tiny(kind, 3);
                let job = ForwardJob::from_message(&ForwardJob { generation: 4, state: state.clone(), checkpoint: 2, kind }.to_message()).unwrap();
                assert_eq!((job.generation, job.checkpoint, job.kind, job.model_key()), (4, 2, kind, (kind.slug().to_string(), 2)));
                assert_eq!(job.state.run_key(), state.run_key(), "{kind:?}: the link carries every setting of the pass");
                let (text, arrays) = job.run(&model).to_parts();
                let answer = ForwardAnswer::from_parts(&text, arrays).unwrap();
                assert_eq!((answer.generation, answer.kind), (4, kind));
                let got = answer.output.unwrap();
                let want = explain_prompt(&model, prompt_for(&state), &forward_options(&state, kind)).unwrap().output;
                assert_eq!(got.logits, want.logits, "{kind:?}");
                assert_eq!(got.residuals, want.residuals, "{kind:?}");
                for (a, b) in got.layers.iter().zip(&want.layers) {
                    assert_eq!(a.lambda, b.lambda);
                    assert!(a.maps.iter().zip(&b.maps).all(|(x, y)| x.a1 == y.a1 && x.a2 == y.a2 && x.diff == y.diff && x.logits1 == y.logits1));
                }
            }
        }
    }

    #[test]
    fn a_wrong_job_or_answer_says_why() {
        assert!(ForwardJob::from_message("_job=accuracy").is_err());
        assert!(ForwardJob::from_message("_job=forward&_gen=1&_ckpt=0&_model=gpt").unwrap_err().contains("gpt"));
        assert!(ForwardJob::from_message("_job=forward&_gen=1&_model=diff_v1").unwrap_err().contains("_ckpt"));
        let job = ForwardJob { generation: 1, state: ModelState::default(), checkpoint: 0, kind: AttentionKind::DiffV1 };
        assert!(job.run(&Model::tiny(AttentionKind::DiffV2, 1)).output.unwrap_err().contains("given a diff_v2 model"));
        let failed = ForwardAnswer { generation: 7, kind: AttentionKind::Baseline, output: Err("out of memory".into()) };
        let (text, arrays) = failed.to_parts();
        let back = ForwardAnswer::from_parts(&text, arrays).unwrap();
        assert_eq!((back.generation, back.kind, back.output.unwrap_err()), (7, AttentionKind::Baseline, "out of memory".to_string()));
        assert!(ForwardAnswer::from_parts("_gen=1&model=baseline", vec![]).unwrap_err().contains("neither"));
        assert!(ForwardAnswer::from_parts("_gen=1&model=baseline&numbers=&shapes=", vec![]).is_err());
    }
}
