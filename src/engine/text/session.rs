//! The text models as the page holds them: the shared vocabulary and the three models at
//! one checkpoint, fetched through the caller's `fetch` (the browser's in the page, files
//! on disk in the tests); and what `eval.json` says of them on the held-out plays.

use crate::core::char_vocab::CharVocab;
use crate::core::config::AttentionKind;
use crate::core::model::Model;
use crate::engine::model::library::ModelLibrary;
use crate::engine::text::FOLDER;
use serde::Deserialize;
use std::future::Future;
use std::rc::Rc;

pub struct TextModels {
    pub vocab: std::sync::Arc<CharVocab>,
    /// In `AttentionKind::ALL` order.
    pub models: Vec<Rc<Model>>,
    pub checkpoint: usize,
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
    Ok(TextModels { vocab, models, checkpoint })
}

impl TextModels {
    /// Model `i`'s column on `text` with its learnt λ (the lesson's figure).
    pub fn run(&self, i: usize, text: &str) -> Result<crate::engine::text::run::TextRun, String> {
        let typed = crate::engine::text::typed::TypedText::of(&self.vocab, text);
        crate::engine::text::run::TextRun::of(&self.models[i], &self.vocab, typed, crate::core::attention::LambdaOverride::Learnt)
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ModelResult {
    pub held_out_loss: f64,
    pub bits_per_char: f64,
    pub windows: usize,
    pub checkpoint_losses: Vec<f64>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Difference {
    pub model: String,
    pub mean: f64,
    pub low95: f64,
    pub high95: f64,
}

impl Difference {
    /// Whether the 95% interval of DIFF − baseline lies wholly below zero (DIFF better),
    /// wholly above (worse), or spans it (no difference this evaluation can tell).
    pub fn verdict(&self) -> std::cmp::Ordering {
        if self.high95 < 0.0 {
            std::cmp::Ordering::Less
        } else if self.low95 > 0.0 {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }
}

/// `eval.json` beside the text models.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct EvalSummary {
    pub models: Vec<(String, ModelResult)>,
    pub versus_baseline: Vec<Difference>,
    pub method: String,
}

impl EvalSummary {
    pub fn parse(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| crate::tr!("card-invalid", error = e.to_string()))
    }

    pub fn result(&self, kind: AttentionKind) -> Option<&ModelResult> {
        self.models.iter().find(|(k, _)| k == kind.slug()).map(|(_, r)| r)
    }

    pub fn versus(&self, kind: AttentionKind) -> Option<&Difference> {
        self.versus_baseline.iter().find(|d| d.model == kind.slug())
    }
}
