//! A forward pass's whole output (`core::model::ModelOutput`: logits, every layer's λ,
//! maps and hidden statistics, the residual stream the λ-drag fast path resumes from) as
//! a worker sends it: a short text of numbers and shapes, and an array per matrix, which
//! crosses to the page by transfer and becomes the page's matrix without another copy. Numbers are written in
//! Rust's shortest round-trip form, so the page's copy equals the worker's bit for bit.

use crate::core::analysis::OutlierStats;
use crate::core::attention::{HeadMaps, LambdaTrace};
use crate::core::linalg::Mat;
use crate::core::model::{HiddenStats, LayerTrace, ModelOutput};
use std::str::FromStr;

/// Writes numbers and matrices in the order the reader takes them back.
#[derive(Default)]
struct Writer {
    numbers: Vec<String>,
    shapes: Vec<String>,
    arrays: Vec<Vec<f32>>,
}

impl Writer {
    fn number(&mut self, x: impl ToString) {
        self.numbers.push(x.to_string());
    }

    fn mat(&mut self, m: &Mat) {
        self.shapes.push(format!("{}x{}", m.nrows(), m.ncols()));
        self.arrays.push(m.iter().copied().collect());
    }

    fn optional(&mut self, m: Option<&Mat>) {
        match m {
            Some(m) => self.mat(m),
            None => self.shapes.push("-".into()),
        }
    }
}

/// Takes back what a [`Writer`] wrote, and says what is missing or malformed.
struct Reader<'a> {
    numbers: std::str::Split<'a, char>,
    shapes: std::str::Split<'a, char>,
    arrays: std::vec::IntoIter<Vec<f32>>,
    /// No count can exceed the number of shapes (each item holds at least one matrix)
    /// or of numbers, and both are at most their text's length.
    bound: usize,
}

impl Reader<'_> {
    fn number<T: FromStr>(&mut self) -> Result<T, String> {
        let raw = self.numbers.next().filter(|s| !s.is_empty()).ok_or("a forward pass's answer ends before its numbers do")?;
        raw.parse().map_err(|_| format!("a forward pass's answer has {raw} where a number belongs"))
    }

    fn optional(&mut self) -> Result<Option<Mat>, String> {
        let shape = self.shapes.next().ok_or("a forward pass's answer ends before its matrices do")?;
        if shape == "-" {
            return Ok(None);
        }
        let (r, c) = shape.split_once('x').and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?))).ok_or_else(|| format!("not a matrix shape: {shape}"))?;
        let entries = self.arrays.next().ok_or_else(|| format!("a {r}×{c} matrix past the end of the answer's arrays"))?;
        if r.checked_mul(c) != Some(entries.len()) {
            return Err(format!("a {r}×{c} matrix sent with {} numbers", entries.len()));
        }
        Ok(Some(Mat::from_shape_vec((r, c), entries).expect("the length is r·c")))
    }

    fn mat(&mut self) -> Result<Mat, String> {
        self.optional()?.ok_or_else(|| "a matrix the answer must have is missing".to_string())
    }

    /// A count of the items that follow, no more than the answer could carry.
    fn count(&mut self) -> Result<usize, String> {
        let n: usize = self.number()?;
        if n > self.bound {
            return Err(format!("a forward pass's answer claims {n} items, more than it carries"));
        }
        Ok(n)
    }
}

fn write_layer(w: &mut Writer, layer: &LayerTrace) {
    match &layer.lambda {
        LambdaTrace::None => w.number(0),
        LambdaTrace::Scalar(x) => {
            w.number(1);
            w.number(x);
        }
        LambdaTrace::PerToken(m) => {
            w.number(2);
            w.mat(m);
        }
    }
    let (h, o) = (&layer.hidden, &layer.hidden.outliers);
    for x in [h.mean, h.rms, o.top1, o.top2, o.top3, o.top10, o.top100, o.median] {
        w.number(x);
    }
    w.number(o.count);
    w.number(layer.maps.len());
    for m in &layer.maps {
        w.number(m.layer);
        w.number(m.head);
        w.mat(&m.a1);
        for x in [&m.a2, &m.diff, &m.logits1, &m.logits2] {
            w.optional(x.as_ref());
        }
    }
}

fn read_layer(r: &mut Reader) -> Result<LayerTrace, String> {
    let lambda = match r.number::<u8>()? {
        0 => LambdaTrace::None,
        1 => LambdaTrace::Scalar(r.number()?),
        2 => LambdaTrace::PerToken(r.mat()?),
        k => return Err(format!("no kind of λ is numbered {k}")),
    };
    let (mean, rms) = (r.number()?, r.number()?);
    let outliers = OutlierStats { top1: r.number()?, top2: r.number()?, top3: r.number()?, top10: r.number()?, top100: r.number()?, median: r.number()?, count: r.number()? };
    let heads = r.count()?;
    let maps = (0..heads)
        .map(|_| Ok(HeadMaps { layer: r.number()?, head: r.number()?, a1: r.mat()?, a2: r.optional()?, diff: r.optional()?, logits1: r.optional()?, logits2: r.optional()? }))
        .collect::<Result<_, String>>()?;
    Ok(LayerTrace { lambda, maps, hidden: HiddenStats { mean, rms, outliers } })
}

/// The output as `(numbers, shapes, arrays)`: two comma-separated texts and the
/// matrices' entries, one array each, in row-major order.
pub fn encode(output: &ModelOutput) -> (String, String, Vec<Vec<f32>>) {
    let mut w = Writer::default();
    w.mat(&output.logits);
    w.number(output.layers.len());
    for layer in &output.layers {
        write_layer(&mut w, layer);
    }
    w.number(output.residuals.len());
    for m in &output.residuals {
        w.mat(m);
    }
    (w.numbers.join(","), w.shapes.join(","), w.arrays)
}

/// What [`encode`] wrote, or why it cannot be read (nothing is assumed of the sender:
/// every count and shape is checked against what the answer carries).
pub fn decode(numbers: &str, shapes: &str, arrays: Vec<Vec<f32>>) -> Result<ModelOutput, String> {
    let mut r = Reader { numbers: numbers.split(','), shapes: shapes.split(','), arrays: arrays.into_iter(), bound: numbers.len() + shapes.len() };
    let logits = r.mat()?;
    let layers = r.count()?;
    let layers = (0..layers).map(|_| read_layer(&mut r)).collect::<Result<Vec<_>, String>>()?;
    let residuals = r.count()?;
    let residuals = (0..residuals).map(|_| r.mat()).collect::<Result<Vec<_>, String>>()?;
    if r.arrays.next().is_some() || r.numbers.next().is_some() || r.shapes.next().is_some() {
        return Err("a forward pass's answer carries more than its output".into());
    }
    Ok(ModelOutput { logits, layers, residuals, cache: Default::default() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::attention::MapRequest;
    use crate::core::config::AttentionKind;
    use crate::core::model::{ForwardOptions, Model};

    fn same(a: &ModelOutput, b: &ModelOutput) {
        assert_eq!(a.logits, b.logits);
        assert_eq!(a.residuals, b.residuals);
        assert_eq!(a.layers.len(), b.layers.len());
        for (x, y) in a.layers.iter().zip(&b.layers) {
            assert_eq!((&x.lambda, &x.hidden), (&y.lambda, &y.hidden));
            assert_eq!(x.maps.len(), y.maps.len());
            for (m, n) in x.maps.iter().zip(&y.maps) {
                assert_eq!((m.layer, m.head, &m.a1, &m.a2, &m.diff, &m.logits1, &m.logits2), (n.layer, n.head, &n.a1, &n.a2, &n.diff, &n.logits1, &n.logits2));
            }
        }
    }

    /// Every kind of model's pass, with and without maps, comes back bit for bit; and a
    /// pass resumed from the decoded copy equals one resumed from the original.
    #[test]
    fn every_kind_of_output_round_trips_exactly() {
        let tokens: Vec<u32> = (0..19).map(|i| (i * 7 % 30) as u32).collect();
        for kind in [AttentionKind::Baseline, AttentionKind::DiffV1, AttentionKind::DiffV2] {
            let model = Model::tiny(kind, 5);
            for maps in [MapRequest::All, MapRequest::None] {
                let opts = ForwardOptions { maps: maps.clone(), keep_logits: true, ..Default::default() };
                let output = model.forward(&tokens, &opts).unwrap();
                let (numbers, shapes, arrays) = encode(&output);
                let back = decode(&numbers, &shapes, arrays).unwrap();
                same(&output, &back);
                if kind == AttentionKind::DiffV1 && maps == MapRequest::All {
                    let moved = ForwardOptions { lambda: crate::core::attention::LambdaOverride::PerLayer(vec![None, Some(0.25)]), ..opts.clone() };
                    same(&model.resume(&output, 1, &moved).unwrap(), &model.resume(&back, 1, &moved).unwrap());
                }
            }
        }
    }

    #[test]
    fn a_damaged_answer_is_refused_with_a_reason() {
        let model = Model::tiny(AttentionKind::DiffV2, 1);
        let output = model.forward(&[1, 2, 3, 4], &ForwardOptions { maps: MapRequest::All, keep_logits: true, ..Default::default() }).unwrap();
        let (numbers, shapes, arrays) = encode(&output);
        assert_eq!(decode(&numbers, &shapes, arrays.clone()).map(|o| o.logits), Ok(output.logits.clone()));
        let fewer = arrays[..arrays.len() - 1].to_vec();
        assert!(decode(&numbers, &shapes, fewer).unwrap_err().contains("past the end"));
        let mut short = arrays.clone();
        short[3].pop();
        assert!(decode(&numbers, &shapes, short).unwrap_err().contains("sent with"));
        let mut more = arrays.clone();
        more.push(vec![0.0]);
        assert!(decode(&numbers, &shapes, more).unwrap_err().contains("more than its output"));
        let cut = &numbers[..numbers.rfind(',').unwrap()];
        assert!(decode(cut, &shapes, arrays.clone()).is_err());
        assert!(decode(&numbers.replacen('2', "x", 1), &shapes, arrays.clone()).is_err());
        assert!(decode(&numbers, "3x", arrays).unwrap_err().contains("not a matrix shape"));
        assert!(decode("", "", vec![]).is_err());
        assert!(decode("99999999999", "1x1", vec![vec![0.0]]).unwrap_err().contains("claims"), "a count past what the answer carries");
    }
}
