//! Words and numbers as the pages print them: a model's title, a signed weight, the
//! tooltip's sentence about one cell of a model's maps.

use crate::engine::model::{word, Explained};
use crate::state::model_state::AttentionKind;
use crate::ui::components::heatmap::Hover;
use crate::ui::components::readout::readable;

pub fn kind_title(kind: AttentionKind) -> String {
    crate::tr!(match kind {
        AttentionKind::Baseline => "kind-baseline",
        AttentionKind::DiffV1 => "kind-diff-v1",
        AttentionKind::DiffV2 => "kind-diff-v2",
    })
}

/// "+0.97", "−0.12", "0.00": a signed weight as the tables and captions print it (a
/// value that rounds to zero gets no sign: "−0.00" reads as a negative weight).
pub fn signed(v: f64) -> String {
    match format!("{v:+.2}").as_str() {
        "+0.00" | "-0.00" => "0.00".into(),
        s => s.replace('-', "−"),
    }
}

/// What the tooltip says of the cell under the pointer in (`layer`, `head`)'s maps:
/// the query and key tokens and every map's value there.
pub fn cell_text(x: &Explained, layer: usize, head: usize, h: Hover) -> Option<String> {
    let m = x.output.layers.get(layer)?.maps.get(head)?;
    let (tq, tk) = (word(*x.prompt.tokens.get(h.i)?), word(*x.prompt.tokens.get(h.j)?));
    let mut text = format!("{}\nA1 = {}", crate::tr!("cell-query-key", i = h.i, query = tq, j = h.j, key = tk), readable(m.a1[[h.i, h.j]] as f64));
    if let (Some(a2), Some(d)) = (&m.a2, &m.diff) {
        text += &format!("\nA2 = {}\nA1 − λ·A2 = {}", readable(a2[[h.i, h.j]] as f64), readable(d[[h.i, h.j]] as f64));
    }
    Some(text)
}
