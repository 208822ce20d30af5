//! "Write on": each model continues the typed text one character at a time. The three
//! models draw from the same seeded random numbers, so where their continuations differ
//! it is the models that differ, not the dice; temperature 0 is greedy.
//!
//! Each character runs only its own row against the keys and values kept from the rows
//! before ([`Model::extend`]). When the window is full (the models' context), the model
//! goes on from its last [`REFILL`] characters, run whole once, and appends again: a
//! window of 96 to 128 characters, rather than a whole 128-character pass per character.

use crate::core::attention::LambdaOverride;
use crate::core::char_lm::probabilities;
use crate::core::char_vocab::{CharVocab, UNKNOWN};
use crate::core::init::seeded;
use crate::core::model::{ForwardOptions, Model, ModelOutput};
use crate::engine::text::typed::TypedText;
use crate::engine::text::{CONTEXT, STEP};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The most characters one "Write on" adds per model before it stops by itself.
pub const MAX_WRITTEN: usize = 400;

/// The characters a model keeps when its window is full: the window moves on by
/// [`STEP`] characters, as over a typed text.
pub const REFILL: usize = CONTEXT - STEP;

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
    /// Each model's window and its pass, to append the next character to.
    windows: Vec<Option<(Vec<u32>, ModelOutput)>>,
    /// Whose character [`Writer::write_while`] writes next.
    turn: usize,
}

impl Writer {
    pub fn new(base: &str, models: usize, sampling: Sampling) -> Self {
        Self { base: base.to_string(), written: vec![String::new(); models], rngs: vec![seeded(sampling.seed); models], sampling, windows: vec![None; models], turn: 0 }
    }

    /// Whether model `i` has written all it may.
    pub fn done(&self, i: usize) -> bool {
        self.written[i].chars().count() >= MAX_WRITTEN
    }

    /// Model `i` (`model`) writes one more character after what it has read; returns it.
    pub fn step(&mut self, i: usize, model: &Model, vocab: &CharVocab, lambda: &LambdaOverride) -> Result<char, String> {
        let opts = ForwardOptions { lambda: lambda.clone(), skip_hidden_stats: true, ..Default::default() };
        let message = |e: crate::core::weights::WeightsError| crate::engine::model::weights_message(&e);
        let (tokens, out) = match self.windows[i].take() {
            Some((tokens, earlier)) if tokens.len() <= CONTEXT => match model.extend(&earlier, &tokens, &opts).map_err(message)? {
                Some(out) => (tokens, out),
                None => Self::whole(model, tokens, &opts)?,
            },
            Some((tokens, _)) => Self::whole(model, tokens[tokens.len() - REFILL..].to_vec(), &opts)?,
            None => {
                let typed = TypedText::of(vocab, &self.base);
                Self::whole(model, if typed.is_empty() { vec![vocab.id('\n')] } else { typed.tokens }, &opts)?
            }
        };
        let id = sample(out.logits.row(out.logits.nrows() - 1), &self.sampling, &mut self.rngs[i]);
        let c = vocab.char_of(id);
        self.written[i].push(c);
        let mut next = tokens;
        next.push(id);
        // The pass stays over the tokens before `id`: the next step appends `id`'s row.
        self.windows[i] = Some((next, out));
        Ok(c)
    }

    /// Writes round-robin, one character per model in turn (a model that has written its
    /// most is skipped), while `more()` holds and one model still may; returns what each
    /// wrote in this turn. `more` is asked after every character, so a slice ends within
    /// one model's step of its time (three models refilling their windows together
    /// would otherwise make one long task); the next turn goes on with the next model.
    /// The page gives it a slice of a frame and shows each model's characters once per slice.
    pub fn write_while(&mut self, models: &[(&Model, LambdaOverride)], vocab: &CharVocab, mut more: impl FnMut() -> bool) -> Result<Vec<String>, String> {
        let mut wrote = vec![String::new(); models.len()];
        while (0..models.len()).any(|i| !self.done(i)) {
            let i = self.turn % models.len();
            self.turn += 1;
            if self.done(i) {
                continue;
            }
            let (model, lambda) = &models[i];
            wrote[i].push(self.step(i, model, vocab, lambda)?);
            if !more() {
                break;
            }
        }
        Ok(wrote)
    }

    fn whole(model: &Model, tokens: Vec<u32>, opts: &ForwardOptions) -> Result<(Vec<u32>, ModelOutput), String> {
        let out = model.forward(&tokens, opts).map_err(|e| crate::engine::model::weights_message(&e))?;
        Ok((tokens, out))
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

    /// The kept keys and values write what whole passes over the same windows write:
    /// 300 characters cross the context twice, so the window refills from its last
    /// [`REFILL`] characters on the way.
    #[test]
    fn appending_writes_what_whole_passes_write() {
        let vocab = CharVocab::of_text("abc ");
        let cfg = crate::core::config::ModelConfig::from_json(r#"{"attention":"diff_v2","vocab_size":5,"dim":16,"n_layers":2,"n_heads":2,"ffn_hidden":8}"#).unwrap();
        let m = Model::random(cfg, 4).unwrap();
        let drawn = Sampling { temperature: 1.0, top_k: 5, seed: 9 };
        let mut w = Writer::new("ab c", 1, drawn);
        let written: String = (0..300).map(|_| w.step(0, &m, &vocab, &LambdaOverride::Learnt).unwrap()).collect();
        let mut tokens = vocab.encode("ab c");
        let (mut want, mut rng) = (String::new(), seeded(9));
        for _ in 0..300 {
            if tokens.len() > CONTEXT {
                tokens = tokens[tokens.len() - REFILL..].to_vec();
            }
            let out = m.forward(&tokens, &ForwardOptions::default()).unwrap();
            let id = sample(out.logits.row(tokens.len() - 1), &drawn, &mut rng);
            want.push(vocab.char_of(id));
            tokens.push(id);
        }
        assert_eq!(written, want);
        assert!(written.chars().collect::<std::collections::HashSet<_>>().len() > 1, "the text is not one repeated character");
    }

    #[test]
    fn writing_in_slices_writes_what_one_step_at_a_time_writes() {
        let vocab = CharVocab::of_text("abc ");
        let models: Vec<Model> = ["baseline", "diff_v1", "diff_v2"]
            .iter()
            .map(|k| {
                Model::random(crate::core::config::ModelConfig::from_json(&format!(r#"{{"attention":"{k}","vocab_size":5,"dim":16,"n_layers":1,"n_heads":2,"ffn_hidden":8}}"#)).unwrap(), 4).unwrap()
            })
            .collect();
        let with_lambda: Vec<(&Model, LambdaOverride)> = models.iter().map(|m| (m, LambdaOverride::Learnt)).collect();
        let sampling = Sampling { temperature: 0.8, top_k: 3, seed: 9 };
        let mut one = Writer::new("ab", 3, sampling);
        for _ in 0..9 {
            for (i, (m, l)) in with_lambda.iter().enumerate() {
                one.step(i, m, &vocab, l).unwrap();
            }
        }
        let mut sliced = Writer::new("ab", 3, sampling);
        let (mut asked, mut wrote) = (0, vec![String::new(); 3]);
        for _ in 0..3 {
            // `more` is asked after each character: nine a slice, three rounds.
            let mut left = 9;
            let part = sliced
                .write_while(&with_lambda, &vocab, || {
                    asked += 1;
                    left -= 1;
                    left > 0
                })
                .unwrap();
            wrote.iter_mut().zip(part).for_each(|(w, p)| w.push_str(&p));
        }
        assert_eq!(asked, 27);
        assert_eq!(wrote, one.written);
        assert_eq!(sliced.written, one.written);
        assert!(wrote.iter().all(|w| w.chars().count() == 9));
        // A slice that ends mid-round goes on with the next model.
        let mut uneven = Writer::new("ab", 3, sampling);
        let mut parts = vec![String::new(); 3];
        for _ in 0..27 {
            // One character a slice.
            let part = uneven.write_while(&with_lambda, &vocab, || false).unwrap();
            parts.iter_mut().zip(part).for_each(|(w, p)| w.push_str(&p));
        }
        assert_eq!(parts, one.written);
        // A writer that has written its most stops by itself.
        let mut full = Writer::new("ab", 1, sampling);
        let wrote = full.write_while(&with_lambda[..1], &vocab, || true).unwrap();
        assert_eq!(wrote[0].chars().count(), MAX_WRITTEN);
        assert!(full.done(0));
    }
}
