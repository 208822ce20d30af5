//! The model explorer's state in the URL: which model and checkpoint, which prompt, and
//! which layer and head are on screen.

use super::query::read_clamped as read;
use serde::{Deserialize, Serialize};

pub const KINDS: [&str; 3] = ["baseline", "diff_v1", "diff_v2"];
/// Context lengths offered: the training length and 2× and 4× it.
pub const CONTEXTS: [usize; 3] = [64, 128, 256];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelState {
    pub kind: String,
    /// Index into the card's checkpoints (0 = untrained … 4 = final).
    pub checkpoint: usize,
    pub needles: usize,
    pub queries: usize,
    pub context: usize,
    /// Depth of the first queried needle in percent, or `None` for random.
    pub depth: Option<u32>,
    pub seed: u64,
    pub layer: usize,
    pub head: usize,
    /// The query row the row chart shows, if one was picked on a map (else the "→" row).
    pub row: Option<usize>,
}

impl Default for ModelState {
    fn default() -> Self {
        // DIFF V2's head 2 of the last layer is the one that finds the asked needle (0.97 of
        // its net weight on the needle, the rest of the context cancelled: README, Table 3
        // per layer), so a fresh visit opens on the picture the page is about.
        Self { kind: "diff_v2".into(), checkpoint: 4, needles: 4, queries: 1, context: 64, depth: Some(50), seed: 1, layer: 2, head: 2, row: None }
    }
}

impl ModelState {
    /// Reads a link; every adjusted or ignored value gets a notice. Layer and head are
    /// checked against the loaded model later (`clamp_to_model`).
    pub fn from_params(params: &[(String, String)]) -> (Self, Vec<String>) {
        let mut s = Self::default();
        let mut notices = vec![];
        for (key, raw) in params {
            let n = &mut notices;
            match key.as_str() {
                "model" if KINDS.contains(&raw.as_str()) => s.kind = raw.clone(),
                "model" => n.push(format!("model={raw} is not one of {}; showing {}", KINDS.join(", "), s.kind)),
                "ckpt" => read(key, raw, (0, 4), &mut s.checkpoint, n),
                "n" => read(key, raw, (1, 6), &mut s.needles, n),
                "r" => read(key, raw, (1, 2), &mut s.queries, n),
                "ctx" => {
                    let mut c = s.context;
                    read(key, raw, (CONTEXTS[0], CONTEXTS[2]), &mut c, n);
                    s.context = *CONTEXTS.iter().min_by_key(|x| x.abs_diff(c)).expect("CONTEXTS is not empty");
                    if s.context != c {
                        n.push(format!("ctx={c} is not offered; using {}", s.context));
                    }
                }
                "depth" if raw == "random" => s.depth = None,
                "depth" => {
                    let mut d = 50u32;
                    read(key, raw, (0, 100), &mut d, n);
                    s.depth = Some(d);
                }
                "seed" => read(key, raw, (0, u32::MAX as u64), &mut s.seed, n),
                "layer" => read(key, raw, (0, 63), &mut s.layer, n),
                "head" => read(key, raw, (0, 63), &mut s.head, n),
                "row" => {
                    let mut row = 0usize;
                    read(key, raw, (0, 4095), &mut row, n);
                    s.row = Some(row);
                }
                _ => n.push(format!("unknown setting `{key}` ignored")),
            }
        }
        s.queries = s.queries.min(s.needles);
        (s, notices)
    }

    pub fn to_params(&self) -> Vec<(String, String)> {
        let depth = self.depth.map(|d| d.to_string()).unwrap_or_else(|| "random".into());
        [("model", self.kind.clone()), ("ckpt", self.checkpoint.to_string()), ("n", self.needles.to_string()), ("r", self.queries.to_string()), ("ctx", self.context.to_string()), ("depth", depth), ("seed", self.seed.to_string()), ("layer", self.layer.to_string()), ("head", self.head.to_string())]
            .into_iter()
            .chain(self.row.map(|r| ("row", r.to_string())))
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }

    /// Keeps layer and head inside the loaded model and the picked row inside the
    /// prompt (`tokens` long); returns a notice for each value it moved.
    pub fn clamp_to_model(&mut self, layers: usize, heads: usize, tokens: usize) -> Vec<String> {
        let mut notes = vec![];
        let (l, h) = (self.layer.min(layers.saturating_sub(1)), self.head.min(heads.saturating_sub(1)));
        if (l, h) != (self.layer, self.head) {
            notes.push(format!("layer {} / head {} do not exist in this model; showing layer {l}, head {h}", self.layer, self.head));
        }
        (self.layer, self.head) = (l, h);
        if let Some(r) = self.row.filter(|r| *r >= tokens) {
            notes.push(format!("row {r} is beyond this prompt's {tokens} tokens; showing the “→” row"));
            self.row = None;
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::query;

    #[test]
    fn round_trips_and_clamps() {
        let s = ModelState { kind: "diff_v2".into(), checkpoint: 2, needles: 6, queries: 2, context: 128, depth: None, seed: 5, layer: 1, head: 3, row: Some(40) };
        assert_eq!(ModelState::from_params(&query::parse(&query::format(&s.to_params()))), (s, vec![]));
        let (bad, notices) = ModelState::from_params(&query::parse("model=gpt&ckpt=9&ctx=100&r=2&n=1&layer=x"));
        assert_eq!((bad.kind.as_str(), bad.checkpoint, bad.context, bad.queries), ("diff_v2", 4, 128, 1));
        assert_eq!(notices.len(), 4, "{notices:?}");
        let mut s = ModelState { layer: 7, head: 9, row: Some(100), ..ModelState::default() };
        assert_eq!(s.clamp_to_model(3, 2, 69).len(), 2);
        assert_eq!((s.layer, s.head, s.row), (2, 1, None));
        assert!(s.clamp_to_model(3, 2, 69).is_empty(), "nothing left to move");
    }
}
