//! A message's pairs, read by key: the one place that says what is missing or malformed.

use crate::engine::jobs::Pairs;
use crate::state::model_state::ModelState;
use crate::state::query;

/// The pairs of a job's or an answer's text.
pub struct Fields(Pairs);

impl Fields {
    pub fn parse(text: &str) -> Self {
        Self(query::parse(text))
    }

    /// The value of `key`, if the message has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The value of `key`, or why it is missing.
    pub fn text(&self, key: &str) -> Result<&str, String> {
        self.get(key).ok_or_else(|| format!("the message has no {key}"))
    }

    /// The number `key`, or why it is missing or not a number. Rust prints floats in
    /// their shortest form that parses back to the same bits, so numbers cross exactly.
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Result<T, String> {
        let raw = self.text(key)?;
        raw.parse().map_err(|_| format!("the message's {key} is not a number: {raw}"))
    }

    /// The JSON value `key` (a lab problem's parameters), or why it cannot be read.
    pub fn json<T: serde::de::DeserializeOwned>(&self, key: &str) -> Result<T, String> {
        serde_json::from_str(self.text(key)?).map_err(|e| format!("the message's {key}: {e}"))
    }

    /// A list of `key`'s comma-separated items, each read by `item`.
    pub fn list<T>(&self, key: &str, item: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
        self.text(key)?.split(',').filter(|x| !x.is_empty()).map(item).collect()
    }

    /// The explorer state a link job carries: every pair whose key does not start with `_`.
    pub fn link_state(&self) -> ModelState {
        let link: Pairs = self.0.iter().filter(|(k, _)| !k.starts_with('_')).cloned().collect();
        ModelState::from_params(&link).0
    }
}

/// A count written as a number (`15`), or why it is not a whole number ≥ 0.
pub fn whole(x: f64, what: &str) -> Result<usize, String> {
    (x >= 0.0 && x.fract() == 0.0).then_some(x as usize).ok_or_else(|| format!("not a {what}: {x}"))
}

/// Items of `n` numbers joined by `/` (a list entry of [`Fields::list`]), or why `text` is not one.
pub fn numbers<const N: usize>(text: &str) -> Result<[f64; N], String> {
    let bad = || format!("not {N} numbers joined by '/': {text}");
    let parts: Vec<f64> = text.split('/').map(|x| x.parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
    parts.try_into().map_err(|_| bad())
}
