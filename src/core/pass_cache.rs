//! Running only the new rows of a longer text. A causal model's rows never read the rows
//! after them, so a text that begins as an earlier one did has the earlier pass's rows
//! unchanged: only the appended rows need running, against the earlier rows' keys and
//! values (a key/value cache). The text page runs a keystroke at the end, a deletion or
//! an edit this way, and "Write on" each new character; the result equals a whole pass
//! up to rounding (the products are the same sums over fewer rows at a time).
//!
//! A pass that keeps nothing (the GPU's, or one decoded from a worker) cannot be
//! extended; nor can one with quantised logits, whose scale is the whole map's maximum.

use super::attention::{HeadMaps, KvRows, LambdaTrace};
use super::linalg::Mat;
use super::model::{hidden_stats, ForwardOptions, HiddenStats, LayerTrace, Model, ModelOutput};
use super::weights::WeightsError;
use ndarray::{concatenate, s, Array2, Axis};

/// What a CPU pass keeps for [`Model::extend`]: each block's keys and values, and the
/// stream after the last block (the blocks below's are the next blocks' residuals).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassCache {
    pub kv: Vec<KvRows>,
    /// `[T, E]` before the final norm.
    pub last: Mat,
}

fn rows_then(a: &Mat, b: &Mat) -> Mat {
    concatenate![Axis(0), a.view(), b.view()]
}

fn top_rows(m: &Mat, n: usize) -> Mat {
    m.slice(s![..n, ..]).to_owned()
}

/// The earlier `[start, start]` map above the new rows `[n, start + n]`.
fn map_then(earlier: &Mat, new: Mat) -> Mat {
    let (start, total) = (earlier.nrows(), new.ncols());
    let mut full = Array2::zeros((total, total));
    full.slice_mut(s![..start, ..start]).assign(earlier);
    full.slice_mut(s![start.., ..]).assign(&new);
    full
}

/// An optional map of the earlier pass joined to the new rows', or `None` when only one has it.
fn optional_then(earlier: &Option<Mat>, new: Option<Mat>) -> Option<Option<Mat>> {
    match (earlier, new) {
        (Some(e), Some(n)) => Some(Some(map_then(e, n))),
        (None, None) => Some(None),
        _ => None,
    }
}

/// The earlier pass's maps joined to the new rows' (`None` when they kept different maps).
fn maps_then(earlier: &[HeadMaps], new: Vec<HeadMaps>) -> Option<Vec<HeadMaps>> {
    if earlier.len() != new.len() {
        return None;
    }
    earlier
        .iter()
        .zip(new)
        .map(|(e, n)| {
            (e.head == n.head).then_some(())?;
            Some(HeadMaps {
                layer: n.layer,
                head: n.head,
                a1: map_then(&e.a1, n.a1),
                a2: optional_then(&e.a2, n.a2)?,
                diff: optional_then(&e.diff, n.diff)?,
                logits1: optional_then(&e.logits1, n.logits1)?,
                logits2: optional_then(&e.logits2, n.logits2)?,
            })
        })
        .collect()
}

fn lambda_then(earlier: &LambdaTrace, new: LambdaTrace) -> LambdaTrace {
    match (earlier, new) {
        (LambdaTrace::PerToken(e), LambdaTrace::PerToken(n)) => LambdaTrace::PerToken(rows_then(e, &n)),
        (_, new) => new,
    }
}

fn lambda_prefix(l: &LambdaTrace, n: usize) -> LambdaTrace {
    match l {
        LambdaTrace::PerToken(m) => LambdaTrace::PerToken(top_rows(m, n)),
        other => other.clone(),
    }
}

fn map_prefix(m: &Mat, n: usize) -> Mat {
    m.slice(s![..n, ..n]).to_owned()
}

impl ModelOutput {
    /// Whether [`Model::extend`] can start from this pass.
    pub fn can_extend(&self) -> bool {
        !self.cache.kv.is_empty() && self.cache.kv.len() == self.layers.len() && self.residuals.len() == self.layers.len()
    }

    /// The stream after block `i`, every row so far.
    fn after_block(&self, i: usize) -> &Mat {
        self.residuals.get(i + 1).unwrap_or(&self.cache.last)
    }

    /// This pass cut to its first `n` rows: the pass over the first `n` tokens, since no
    /// row reads a later one. `None` where it kept no cache or has fewer rows.
    pub fn prefix(&self, n: usize) -> Option<ModelOutput> {
        if !self.can_extend() || n == 0 || n > self.logits.nrows() {
            return None;
        }
        let layers = self
            .layers
            .iter()
            .enumerate()
            .map(|(i, l)| LayerTrace {
                lambda: lambda_prefix(&l.lambda, n),
                maps: l
                    .maps
                    .iter()
                    .map(|m| HeadMaps {
                        layer: m.layer,
                        head: m.head,
                        a1: map_prefix(&m.a1, n),
                        a2: m.a2.as_ref().map(|x| map_prefix(x, n)),
                        diff: m.diff.as_ref().map(|x| map_prefix(x, n)),
                        logits1: m.logits1.as_ref().map(|x| map_prefix(x, n)),
                        logits2: m.logits2.as_ref().map(|x| map_prefix(x, n)),
                    })
                    .collect(),
                hidden: hidden_stats(&top_rows(self.after_block(i), n)),
            })
            .collect();
        Some(ModelOutput {
            logits: top_rows(&self.logits, n),
            layers,
            residuals: self.residuals.iter().map(|r| top_rows(r, n)).collect(),
            cache: PassCache { kv: self.cache.kv.iter().map(|kv| kv.prefix(n)).collect(), last: top_rows(&self.cache.last, n) },
        })
    }
}

impl Model {
    /// The pass over `tokens` from `earlier`, a pass of this model with the same `opts`
    /// over `tokens`' first `earlier.logits.nrows()` tokens: only the rows after those
    /// run. `Ok(None)` where that cannot be done exactly (no cache kept, no new token, a
    /// bidirectional model, quantised logits, or maps kept differently): run it whole.
    pub fn extend(&self, earlier: &ModelOutput, tokens: &[u32], opts: &ForwardOptions) -> Result<Option<ModelOutput>, WeightsError> {
        let start = earlier.logits.nrows();
        if !earlier.can_extend() || earlier.layers.len() != self.blocks.len() || tokens.len() <= start || !self.config.causal || opts.logit_quant_bits.is_some() {
            return Ok(None);
        }
        let attn_opts = self.attention_options(opts);
        let mut h = self.embed_tokens(&tokens[start..])?;
        let (mut layers, mut residuals, mut kv_all) = (vec![], vec![], vec![]);
        for (i, block) in self.blocks.iter().enumerate() {
            residuals.push(rows_then(&earlier.residuals[i], &h));
            let mut kv = earlier.cache.kv[i].clone();
            let mut traced = None;
            h = self.block_after(block, i, h, &attn_opts, &mut kv, |attn, after| traced = Some((attn, rows_then(earlier.after_block(i), after))));
            let (attn, after) = traced.expect("every block traces its output");
            let Some(maps) = maps_then(&earlier.layers[i].maps, attn.maps) else { return Ok(None) };
            let hidden = match opts.skip_hidden_stats {
                true => HiddenStats { mean: 0.0, rms: 0.0, outliers: Default::default() },
                false => hidden_stats(&after),
            };
            layers.push(LayerTrace { lambda: lambda_then(&earlier.layers[i].lambda, attn.lambda), maps, hidden });
            kv_all.push(kv);
        }
        let last = rows_then(&earlier.cache.last, &h);
        let logits = rows_then(&earlier.logits, &self.head(h));
        Ok(Some(ModelOutput { logits, layers, residuals, cache: PassCache { kv: kv_all, last } }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::{LambdaOverride, MapRequest};
    use crate::config::{AttentionKind, ModelConfig};

    /// Two passes agree within `tol` (absolute): logits, maps, λ, hidden statistics and
    /// what they keep. 1e-5: the same sums, blocked over different row counts.
    fn assert_close(a: &ModelOutput, b: &ModelOutput, tol: f32, what: &str) {
        let close = |x: &Mat, y: &Mat, name: &str| {
            assert_eq!(x.dim(), y.dim(), "{what}: {name} shape");
            let err = x.iter().zip(y).map(|(p, q)| (p - q).abs()).fold(0.0f32, f32::max);
            assert!(err <= tol, "{what}: {name} differs by {err}");
        };
        close(&a.logits, &b.logits, "logits");
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            match (&la.lambda, &lb.lambda) {
                (LambdaTrace::PerToken(x), LambdaTrace::PerToken(y)) => close(x, y, "λ"),
                (x, y) => assert_eq!(x, y, "{what}: λ"),
            }
            assert!((la.hidden.rms - lb.hidden.rms).abs() <= tol && (la.hidden.mean - lb.hidden.mean).abs() <= tol, "{what}: hidden statistics");
            assert_eq!(la.maps.len(), lb.maps.len());
            for (ma, mb) in la.maps.iter().zip(&lb.maps) {
                for (x, y) in [
                    (Some(&ma.a1), Some(&mb.a1)),
                    (ma.a2.as_ref(), mb.a2.as_ref()),
                    (ma.diff.as_ref(), mb.diff.as_ref()),
                    (ma.logits1.as_ref(), mb.logits1.as_ref()),
                    (ma.logits2.as_ref(), mb.logits2.as_ref()),
                ] {
                    assert_eq!(x.is_some(), y.is_some(), "{what}: the same maps kept");
                    if let (Some(x), Some(y)) = (x, y) {
                        close(x, y, "map");
                    }
                }
            }
        }
        for (x, y) in a.residuals.iter().zip(&b.residuals) {
            close(x, y, "residual");
        }
        close(&a.cache.last, &b.cache.last, "last stream");
        for (x, y) in a.cache.kv.iter().zip(&b.cache.kv) {
            close(&x.k, &y.k, "keys");
            close(&x.v, &y.v, "values");
        }
    }

    /// 80 tokens: the appended rows straddle the 64-row blocks of the attention kernel.
    fn tokens() -> Vec<u32> {
        (0..80u32).map(|i| (i * 37 + 11) % 76).collect()
    }

    #[test]
    fn an_extended_pass_equals_a_whole_pass() {
        let opts = ForwardOptions { maps: MapRequest::All, keep_logits: true, lambda: LambdaOverride::Scale(0.7), ..Default::default() };
        let t = tokens();
        for kind in AttentionKind::ALL {
            let model = Model::tiny(kind, 5);
            let whole = model.forward(&t, &opts).unwrap();
            assert!(whole.can_extend());
            for start in [1, 10, 63, 64, 70, 79] {
                let what = format!("{kind:?} from {start}");
                let earlier = model.forward(&t[..start], &opts).unwrap();
                assert_close(&whole.prefix(start).unwrap(), &earlier, 1e-5, &format!("{what}: prefix"));
                let extended = model.extend(&earlier, &t, &opts).unwrap().expect("extendable");
                assert_close(&extended, &whole, 1e-5, &what);
                let again = model.extend(&extended.prefix(start).unwrap(), &t, &opts).unwrap().unwrap();
                assert_close(&again, &whole, 1e-5, &format!("{what}: from a prefix"));
            }
        }
    }

    #[test]
    fn a_pass_that_cannot_be_extended_exactly_says_so() {
        let model = Model::tiny(AttentionKind::DiffV1, 2);
        let t = tokens();
        let opts = ForwardOptions::default();
        let earlier = model.forward(&t[..20], &opts).unwrap();
        assert!(model.extend(&earlier, &t[..20], &opts).unwrap().is_none(), "no new token");
        let quant = ForwardOptions { logit_quant_bits: Some(8), ..Default::default() };
        assert!(model.extend(&earlier, &t, &quant).unwrap().is_none(), "quantised logits");
        let bare = ModelOutput { cache: PassCache::default(), ..earlier.clone() };
        assert!(!bare.can_extend() && model.extend(&bare, &t, &opts).unwrap().is_none(), "no cache (a GPU or worker pass)");
        let with_maps = ForwardOptions { maps: MapRequest::All, ..Default::default() };
        assert!(model.extend(&earlier, &t, &with_maps).unwrap().is_none(), "maps the earlier pass did not keep");
        assert!(model.extend(&earlier, &[200], &opts).unwrap().is_none() && model.extend(&earlier, &[&t[..20], &[200]].concat(), &opts).is_err(), "a token outside the vocabulary is an error");
        let bidirectional = Model::random(ModelConfig { causal: false, ..model.config.clone() }, 2).unwrap();
        let e = bidirectional.forward(&t[..20], &opts).unwrap();
        assert!(bidirectional.extend(&e, &t, &opts).unwrap().is_none(), "a bidirectional model's rows read later ones");
        assert!(earlier.prefix(0).is_none() && earlier.prefix(21).is_none());
    }
}
