//! The text models as the page holds them: the shared vocabulary and the three models at
//! one checkpoint, fetched through the caller's `fetch` (the browser's in the page, files
//! on disk in the tests).

use crate::core::char_vocab::CharVocab;
use crate::core::config::AttentionKind;
use crate::core::model::Model;
use crate::engine::model::library::ModelLibrary;
use crate::engine::text::FOLDER;
use std::future::Future;
use std::rc::Rc;

#[derive(Clone)]
pub struct TextModels {
    pub vocab: std::sync::Arc<CharVocab>,
    /// In `AttentionKind::ALL` order.
    pub models: Vec<Rc<Model>>,
    pub checkpoint: usize,
    /// The column that shows the reader's own model (one trained on the training page),
    /// if one does.
    pub own: Option<usize>,
}

/// The vocabulary and the three models at `checkpoint`; a vocabulary that does not fit
/// a model is an error naming both.
pub async fn load<F, Fut>(library: &ModelLibrary, checkpoint: usize, fetch: F) -> Result<TextModels, String>
where
    F: Fn(String) -> Fut,
    Fut: Future<Output = Result<Vec<u8>, String>>,
{
    let path = format!("{FOLDER}/vocab.json");
    let bytes = fetch(path.clone()).await?;
    let text = String::from_utf8(bytes).map_err(|_| crate::tr!("not-text", name = path.as_str()))?;
    let vocab = std::sync::Arc::new(CharVocab::from_json(&text).map_err(|e| format!("{path}: {e}"))?);
    let mut models = vec![];
    for kind in AttentionKind::ALL {
        let model = library.load(kind.slug(), checkpoint, &fetch).await.map_err(|e| e.to_string())?;
        if model.config.vocab_size != vocab.size() {
            return Err(crate::tr!("text-vocab-mismatch", kind = kind.slug(), model = model.config.vocab_size, vocab = vocab.size()));
        }
        models.push(model);
    }
    Ok(TextModels { vocab, models, checkpoint, own: None })
}

impl TextModels {
    /// The same models with `model` (the reader's own) in the column of its kind, or why
    /// it cannot read this page's text: a vocabulary of another size (a needle model, say).
    pub fn with_own(&self, model: Rc<Model>) -> Result<TextModels, String> {
        let (kind, vocab) = (model.config.attention, self.vocab.size());
        if model.config.vocab_size != vocab {
            return Err(crate::tr!("text-own-vocab", model = model.config.vocab_size, vocab = vocab));
        }
        let column = crate::state::model_state::column_of(kind);
        let mut models = self.models.clone();
        models[column] = model;
        Ok(TextModels { models, own: Some(column), ..self.clone() })
    }

    /// Model `i`'s column on `text` with its learnt λ (the lesson's figure).
    pub fn run(&self, i: usize, text: &str) -> Result<crate::engine::text::run::TextRun, String> {
        let typed = crate::engine::text::typed::TypedText::of(&self.vocab, text);
        crate::engine::text::run::TextRun::of(&self.models[i], &self.vocab, typed, crate::core::attention::LambdaOverride::Learnt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::train::{RunSpec, TaskData, TextData, TrainRun, PRESETS};

    fn shipped() -> TextModels {
        let library = ModelLibrary::in_folder(FOLDER);
        let www = format!("{}/www", env!("CARGO_MANIFEST_DIR"));
        pollster::block_on(load(&library, 4, |path: String| {
            let www = www.clone();
            async move { std::fs::read(format!("{www}/{path}")).map_err(|e| format!("{path}: {e}")) }
        }))
        .expect("the shipped text models load")
    }

    /// A model trained on the training page (its weights and config, as kept there)
    /// takes the column of its kind and reads the typed text; a model of another
    /// vocabulary (a needle model) is refused with both sizes.
    #[test]
    fn a_model_trained_on_the_page_takes_its_kind_s_column() {
        let models = shipped();
        let text = "Now is the winter of our discontent made glorious summer by this sun of York. ".repeat(30);
        let data = TaskData::Text(TextData::from_text(&text, &models.vocab, PRESETS[0].context).unwrap());
        let spec = RunSpec { kind: AttentionKind::DiffV1, seed: 1, preset: PRESETS[0], vocab: models.vocab.size() };
        let mut run = TrainRun::new(spec);
        run.train_step(&data).unwrap();
        let own = Rc::new(Model::load(PRESETS[0].config(spec.kind, spec.vocab), &run.weights()).unwrap());
        let with = models.with_own(own.clone()).unwrap();
        assert_eq!(with.own, Some(1));
        assert!(Rc::ptr_eq(&with.models[1], &own) && Rc::ptr_eq(&with.models[0], &models.models[0]) && Rc::ptr_eq(&with.models[2], &models.models[2]));
        let column = with.run(1, "To be, or not to be").unwrap();
        assert_eq!(column.typed.tokens.len(), 19);
        assert!(column.mean_loss().is_some_and(f32::is_finite));
        let needle_config = crate::core::config::ModelConfig::from_json(&std::fs::read_to_string(format!("{}/www/models/diff_v1/config.json", env!("CARGO_MANIFEST_DIR"))).unwrap()).unwrap();
        let needle = Rc::new(Model::random(needle_config, 1).unwrap());
        let refused = models.with_own(needle).err().unwrap();
        assert!(refused.contains("76") && refused.contains(&models.vocab.size().to_string()), "{refused}");
    }
}
