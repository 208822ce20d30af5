//! "Write on": each model continues the typed text one character at a time. The three
//! models draw from the same seeded random numbers, so where their continuations differ
//! it is the models that differ, not the dice; temperature 0 is greedy.

use super::typed::TypedText;
use crate::core::attention::LambdaOverride;
use crate::core::char_lm::probabilities;
use crate::core::char_vocab::{CharVocab, UNKNOWN};
use crate::core::init::seeded;
use crate::core::model::{ForwardOptions, Model};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The most characters one "Write on" adds per model before it stops by itself.
pub const MAX_WRITTEN: usize = 400;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// 0: greedy.
    pub temperature: f32,
    pub top_k: usize,
    pub seed: u64,
}

/// The next token from a row of logits: the likeliest (greedy), else a draw among the
/// `top_k` likeliest at `temperature`. The unknown symbol is never written.
pub fn sample(row: ndarray::ArrayView1<f32>, s: &Sampling, rng: &mut impl Rng) -> u32 {
    let mut order: Vec<usize> = (0..row.len()).filter(|&i| i != UNKNOWN as usize).collect();
    order.sort_by(|&a, &b| row[b].total_cmp(&row[a]).then(a.cmp(&b)));
    if s.temperature <= 0.0 || order.len() <= 1 {
        return order.first().map_or(UNKNOWN, |&i| i as u32);
    }
    order.truncate(s.top_k.max(1));
    let kept: Vec<f32> = order.iter().map(|&i| row[i]).collect();
    let p = probabilities(ndarray::ArrayView1::from(&kept), s.temperature);
    let mut u = rng.random::<f32>();
    for (k, &i) in order.iter().enumerate() {
        u -= p[k];
        if u <= 0.0 {
            return i as u32;
        }
    }
    order[order.len() - 1] as u32
}

/// The continuations being written, one per model.
pub struct Writer {
    /// What the student typed.
    pub base: String,
    /// What each model has written after it.
    pub written: Vec<String>,
    rngs: Vec<ChaCha8Rng>,
    pub sampling: Sampling,
}

impl Writer {
    pub fn new(base: &str, models: usize, sampling: Sampling) -> Self {
        Self { base: base.to_string(), written: vec![String::new(); models], rngs: vec![seeded(sampling.seed); models], sampling }
    }

    /// Whether model `i` has written all it may.
    pub fn done(&self, i: usize) -> bool {
        self.written[i].chars().count() >= MAX_WRITTEN
    }

    /// Model `i` (`model`) writes one more character, reading the last characters of the
    /// text so far; returns it.
    pub fn step(&mut self, i: usize, model: &Model, vocab: &CharVocab, lambda: &LambdaOverride) -> Result<char, String> {
        let text = format!("{}{}", self.base, self.written[i]);
        let typed = TypedText::of(vocab, &text);
        let tokens = if typed.is_empty() { vec![vocab.id('\n')] } else { typed.tokens };
        let opts = ForwardOptions { lambda: lambda.clone(), ..Default::default() };
        let out = model.forward(&tokens, &opts).map_err(|e| super::super::model::weights_message(&e))?;
        let id = sample(out.logits.row(out.logits.nrows() - 1), &self.sampling, &mut self.rngs[i]);
        let c = vocab.char_of(id);
        self.written[i].push(c);
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn greedy_takes_the_likeliest_and_top_k_never_leaves_the_top() {
        let row = array![9.0f32, 1.0, 3.0, 2.0];
        let mut rng = seeded(1);
        let greedy = Sampling { temperature: 0.0, top_k: 4, seed: 1 };
        assert_eq!(sample(row.view(), &greedy, &mut rng), 2, "the unknown symbol (id 0) is never written");
        let top2 = Sampling { temperature: 1.0, top_k: 2, seed: 1 };
        for _ in 0..200 {
            assert!(matches!(sample(row.view(), &top2, &mut rng), 2 | 3));
        }
    }

    #[test]
    fn the_same_seed_writes_the_same_text() {
        let vocab = CharVocab::of_text("abc ");
        let cfg = crate::core::config::ModelConfig::from_json(r#"{"attention":"baseline","vocab_size":5,"dim":16,"n_layers":1,"n_heads":2,"ffn_hidden":8}"#).unwrap();
        let m = Model::random(cfg, 2).unwrap();
        let s = Sampling { temperature: 1.0, top_k: 5, seed: 7 };
        let write = || {
            let mut w = Writer::new("ab", 1, s);
            (0..20).map(|_| w.step(0, &m, &vocab, &LambdaOverride::Learnt).unwrap()).collect::<String>()
        };
        assert_eq!(write(), write());
        assert!(!write().contains('□'));
    }
}
