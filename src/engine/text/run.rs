//! One model's column on a typed text: the forward pass with every map kept (switching
//! layer or head redraws without running again), each character's loss, the next
//! character's top five, and the caption's numbers.

use crate::core::attention::{HeadMaps, LambdaOverride, LambdaTrace, MapRequest};
use crate::core::char_lm::{next_token_losses, top_k};
use crate::core::char_vocab::CharVocab;
use crate::core::config::AttentionKind;
use crate::core::model::{ForwardOptions, Model, ModelOutput};
use crate::engine::text::typed::TypedText;
use crate::gpu::context::GpuContext;
use crate::gpu::model::GpuModel;

/// Keys counted as "near" in the caption: the character itself and the 8 before it.
pub const NEAR: usize = 9;

#[derive(Clone, Debug)]
pub struct TextRun {
    pub kind: AttentionKind,
    pub typed: TypedText,
    pub output: ModelOutput,
    /// The loss of each character after the first (nats): index i is character i + 1.
    pub losses: Vec<f32>,
    /// The next character's five likeliest, with probabilities.
    pub top: Vec<(char, f32)>,
    pub lambda: LambdaOverride,
}

/// Where the last character's row puts its weight, in one head's map that multiplies V.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Locality {
    /// Summed weight on the last [`NEAR`] characters (itself included).
    pub near: f32,
    /// Summed weight on every earlier character.
    pub far: f32,
    /// Earlier characters (the `far` ones).
    pub far_keys: usize,
}

/// V1's λ override for a reader's λ in one layer (the others learnt).
pub fn v1_override(layers: usize, layer: usize, lambda: Option<f32>) -> LambdaOverride {
    match lambda {
        None => LambdaOverride::Learnt,
        Some(l) => LambdaOverride::PerLayer((0..layers).map(|i| (i == layer).then_some(l)).collect()),
    }
}

impl TextRun {
    /// Runs `model` on `typed` (not empty). Only the model's own kind reads `lambda`.
    pub fn of(model: &Model, vocab: &CharVocab, typed: TypedText, lambda: LambdaOverride) -> Result<Self, String> {
        if typed.is_empty() {
            return Err(crate::tr!("text-empty"));
        }
        let opts = ForwardOptions { maps: MapRequest::All, lambda: lambda.clone(), ..Default::default() };
        let output = model.forward(&typed.tokens, &opts).map_err(|e| crate::engine::model::weights_message(&e))?;
        Ok(Self::from_output(model.config.attention, vocab, typed, output, lambda))
    }

    /// The same column computed on the GPU: one whole pass with every map read back (the
    /// GPU keeps no keys and values between passes, so every change runs the window
    /// whole). Equal to [`TextRun::of`] within the GPU's tolerances (`tests/gpu_text.rs`).
    pub async fn on_gpu(gpu: (&GpuContext, &GpuModel), kind: AttentionKind, vocab: &CharVocab, typed: TypedText, lambda: LambdaOverride) -> Result<Self, String> {
        if typed.is_empty() {
            return Err(crate::tr!("text-empty"));
        }
        let opts = ForwardOptions { maps: MapRequest::All, lambda: lambda.clone(), ..Default::default() };
        let output = gpu.1.forward_with(gpu.0, &typed.tokens, &opts).await?;
        Ok(Self::from_output(kind, vocab, typed, output, lambda))
    }

    /// The run on `typed` (not empty) with the same λ, from this earlier run: where the
    /// two texts begin alike (a keystroke at the end, a deletion, an edit), only the
    /// characters after their common beginning run ([`Model::extend`]); equal to a whole
    /// run up to rounding. A text whose window slid past the context differs from its
    /// first character on and runs whole.
    pub fn retyped(&self, model: &Model, vocab: &CharVocab, typed: TypedText) -> Result<Self, String> {
        if typed.is_empty() {
            return Err(crate::tr!("text-empty"));
        }
        let same = self.typed.tokens.iter().zip(&typed.tokens).take_while(|(a, b)| a == b).count();
        let kept = same.min(typed.tokens.len());
        let Some(earlier) = self.output.prefix(kept) else { return Self::of(model, vocab, typed, self.lambda.clone()) };
        let output = if kept == typed.tokens.len() {
            earlier
        } else {
            let opts = ForwardOptions { maps: MapRequest::All, lambda: self.lambda.clone(), ..Default::default() };
            match model.extend(&earlier, &typed.tokens, &opts).map_err(|e| crate::engine::model::weights_message(&e))? {
                Some(output) => output,
                None => return Self::of(model, vocab, typed, self.lambda.clone()),
            }
        };
        Ok(Self::from_output(self.kind, vocab, typed, output, self.lambda.clone()))
    }

    /// What the column reads off a pass: each character's loss and the next one's top five.
    fn from_output(kind: AttentionKind, vocab: &CharVocab, typed: TypedText, output: ModelOutput, lambda: LambdaOverride) -> Self {
        let losses = next_token_losses(&output.logits, &typed.tokens);
        let top = top_k(output.logits.row(output.logits.nrows() - 1), 5).into_iter().map(|(id, p)| (vocab.char_of(id), p)).collect();
        Self { kind, typed, output, losses, top, lambda }
    }

    /// The same text under another λ: the blocks below the first layer whose λ changed
    /// are taken from this run (a λ step need not recompute them); equal to a whole run.
    pub fn with_lambda(&self, model: &Model, vocab: &CharVocab, lambda: LambdaOverride) -> Result<Self, String> {
        let Some(from) = self.lambda.first_difference(&lambda, self.layers()) else { return Ok(self.clone()) };
        let opts = ForwardOptions { maps: MapRequest::All, lambda: lambda.clone(), ..Default::default() };
        let Some(output) = model.resume(&self.output, from, &opts) else { return Self::of(model, vocab, self.typed.clone(), lambda) };
        Ok(Self::from_output(self.kind, vocab, self.typed.clone(), output, lambda))
    }

    /// Mean loss over the characters after the first (nats/char); `None` for one character.
    pub fn mean_loss(&self) -> Option<f32> {
        (!self.losses.is_empty()).then(|| self.losses.iter().sum::<f32>() / self.losses.len() as f32)
    }

    /// The loss of character `i` (none for the first: nothing came before it).
    pub fn loss_at(&self, i: usize) -> Option<f32> {
        i.checked_sub(1).and_then(|j| self.losses.get(j)).copied()
    }

    pub fn layers(&self) -> usize {
        self.output.layers.len()
    }

    pub fn heads(&self, layer: usize) -> usize {
        self.output.layers.get(layer).map_or(0, |l| l.maps.len())
    }

    /// The maps of (`layer`, `head`), each clamped to what this model has.
    pub fn maps(&self, layer: usize, head: usize) -> Option<&HeadMaps> {
        let l = self.output.layers.get(layer.min(self.layers().saturating_sub(1)))?;
        l.maps.get(head.min(l.maps.len().saturating_sub(1)))
    }

    /// The λ (`layer`, `head`) used: V1's scalar, V2's at the last character.
    pub fn lambda_at(&self, layer: usize, head: usize) -> Option<f32> {
        match &self.output.layers.get(layer)?.lambda {
            LambdaTrace::None => None,
            LambdaTrace::Scalar(l) => Some(*l),
            LambdaTrace::PerToken(m) => m.row(m.nrows().checked_sub(1)?).get(head.min(m.ncols().saturating_sub(1))).copied(),
        }
    }

    /// The weight the last character's row puts on characters before the last [`NEAR`],
    /// averaged over the heads of `layer` (the noise floor on this text, in one number).
    pub fn mean_far(&self, layer: usize) -> Option<f32> {
        let heads = self.heads(layer);
        let far: Vec<f32> = (0..heads).filter_map(|h| self.locality(layer, h).map(|l| l.far)).collect();
        (!far.is_empty() && far.len() == heads).then(|| far.iter().sum::<f32>() / far.len() as f32)
    }

    /// Where the last character's row of (`layer`, `head`)'s combined map puts its weight.
    pub fn locality(&self, layer: usize, head: usize) -> Option<Locality> {
        let map = self.maps(layer, head)?.combined();
        let last = map.nrows().checked_sub(1)?;
        let row = map.row(last);
        let split = (last + 1).saturating_sub(NEAR);
        Some(Locality { near: row.iter().skip(split).sum(), far: row.iter().take(split).sum(), far_keys: split })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::config::ModelConfig;

    fn model(kind: AttentionKind, vocab: usize) -> Model {
        let heads = if kind == AttentionKind::DiffV1 { 1 } else { 2 };
        let cfg = ModelConfig::from_json(&format!(r#"{{"attention":"{}","vocab_size":{vocab},"dim":16,"n_layers":2,"n_heads":{heads},"ffn_hidden":16}}"#, kind.slug())).unwrap();
        Model::random(cfg, 3).unwrap()
    }

    #[test]
    fn a_column_has_a_loss_per_character_and_weights_that_sum_to_its_row() {
        let vocab = CharVocab::of_text("abcdefghij ");
        let typed = TypedText::of(&vocab, "a bad cab faced a big jab");
        for kind in AttentionKind::ALL {
            let run = TextRun::of(&model(kind, vocab.size()), &vocab, typed.clone(), LambdaOverride::Learnt).unwrap();
            assert_eq!(run.losses.len(), typed.tokens.len() - 1);
            assert_eq!(run.loss_at(0), None);
            assert!(run.top.len() == 5 && run.top.windows(2).all(|w| w[0].1 >= w[1].1));
            let loc = run.locality(1, 0).unwrap();
            let row_sum: f32 = run.maps(1, 0).unwrap().combined().row(typed.tokens.len() - 1).sum();
            assert!((loc.near + loc.far - row_sum).abs() < 1e-5);
            assert_eq!(loc.far_keys, typed.tokens.len() - NEAR);
            assert!(run.maps(9, 9).is_some(), "layer and head are clamped to the model");
            let mean_far = (0..run.heads(1)).map(|h| run.locality(1, h).unwrap().far).sum::<f32>() / run.heads(1) as f32;
            assert_eq!(run.mean_far(1), Some(mean_far));
            assert_eq!(run.mean_far(7), None, "no layer 7");
        }
    }

    #[test]
    fn a_readers_lambda_changes_v1_in_that_layer_only() {
        let vocab = CharVocab::of_text("abc ");
        let m = model(AttentionKind::DiffV1, vocab.size());
        let typed = TypedText::of(&vocab, "abc cab");
        let learnt = TextRun::of(&m, &vocab, typed.clone(), LambdaOverride::Learnt).unwrap();
        let moved = TextRun::of(&m, &vocab, typed.clone(), v1_override(2, 1, Some(0.9))).unwrap();
        assert_eq!(moved.lambda_at(1, 0), Some(0.9));
        assert_eq!(moved.lambda_at(0, 0), learnt.lambda_at(0, 0));
        assert_ne!(moved.losses, learnt.losses);
        let resumed = learnt.with_lambda(&m, &vocab, v1_override(2, 1, Some(0.9))).unwrap();
        assert_eq!(resumed.losses, moved.losses, "a λ step from the earlier run equals a whole run");
        assert_eq!(resumed.top, moved.top);
        assert!(TextRun::of(&m, &vocab, TypedText::of(&vocab, ""), LambdaOverride::Learnt).is_err());
    }

    /// A keystroke, a deletion, an edit in the middle and a window that slid each give
    /// the whole run's losses, top five and maps (1e-5: the same sums over fewer rows).
    #[test]
    fn a_retyped_run_equals_a_whole_run() {
        let vocab = CharVocab::of_text("abcdefghij ");
        let base = "a bad cab faced a big jab";
        let long = "j".repeat(super::super::CONTEXT) + base;
        for kind in AttentionKind::ALL {
            let m = model(kind, vocab.size());
            let lambda = if kind == AttentionKind::DiffV1 { v1_override(2, 1, Some(0.3)) } else { LambdaOverride::Learnt };
            let earlier = TextRun::of(&m, &vocab, TypedText::of(&vocab, base), lambda.clone()).unwrap();
            for text in [format!("{base}e"), base[..10].to_string(), base.replace("faced", "faded"), format!("{base}{}", "b".repeat(200)), long.clone(), "c".into()] {
                let typed = TypedText::of(&vocab, &text);
                let retyped = earlier.retyped(&m, &vocab, typed.clone()).unwrap();
                let whole = TextRun::of(&m, &vocab, typed, lambda.clone()).unwrap();
                let err = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
                assert_eq!(retyped.losses.len(), whole.losses.len());
                assert!(err(&retyped.losses, &whole.losses) < 1e-5, "{kind:?} on {text:?}");
                assert_eq!(retyped.top.iter().map(|t| t.0).collect::<String>(), whole.top.iter().map(|t| t.0).collect::<String>());
                let (a, b) = (retyped.maps(1, 0).unwrap().combined(), whole.maps(1, 0).unwrap().combined());
                assert_eq!(a.dim(), b.dim());
                assert!(err(a.as_slice().unwrap(), b.as_slice().unwrap()) < 1e-5, "{kind:?} on {text:?}: maps");
                assert_eq!(retyped.lambda, lambda);
            }
        }
    }
}
