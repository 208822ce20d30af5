//! Token labels along a map's axes: which tokens get one when the axis has room for only
//! some. Labels never overlap; the tokens a reader looks for (the asked needle, the other
//! needles, the query markers) are placed first, and the token under the cursor always.

/// How much a token's label matters; higher is placed first and drawn stronger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Emphasis {
    Plain,
    /// `?`, the queried key and `→`: the part of the prompt that asks.
    Query,
    /// A needle that is not asked about (a distractor).
    Needle,
    /// The needle the first query asks about.
    Asked,
    /// The first query's "→": the row that predicts the answer.
    Answer,
}

/// One token on an axis.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisLabel {
    pub text: String,
    pub emphasis: Emphasis,
}

/// Labels are only drawn up to this many tokens; beyond it a cell is under a few pixels on
/// any screen and the tooltip names the tokens instead.
pub const MAX_LABELLED: usize = 128;

/// The indices of the labels to draw along an axis of `length` px holding `emphasis.len()`
/// equal cells, when each label needs `pitch` px across the axis: `forced` first (the
/// hovered token), then by emphasis, each group from the start of the axis, skipping any
/// label whose centre is closer than `pitch` to one already placed. Sorted by index.
pub fn place(emphasis: &[Emphasis], length: f64, pitch: f64, forced: Option<usize>) -> Vec<usize> {
    let n = emphasis.len();
    if n == 0 || n > MAX_LABELLED || length.is_nan() || length <= 0.0 {
        return vec![];
    }
    let cell = length / n as f64;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (Some(i) != forced, std::cmp::Reverse(emphasis[i]), i));
    let mut placed: Vec<usize> = Vec::new();
    for i in order {
        // Cells a whole pitch apart never collide, so the check is in cells, not pixels.
        let free = placed.iter().all(|&p| (p as f64 - i as f64).abs() * cell >= pitch - 1e-9);
        if free {
            placed.push(i);
        }
    }
    placed.sort_unstable();
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use Emphasis::*;

    #[test]
    fn every_token_is_labelled_when_the_cells_are_as_tall_as_a_label() {
        let e = vec![Plain; 40];
        assert_eq!(place(&e, 40.0 * 14.0, 14.0, None), (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn a_crowded_axis_keeps_the_needles_and_spaces_the_rest() {
        // 64 cells of 5 px, labels 14 px: at most one label per 3 cells.
        let mut e = vec![Plain; 64];
        for x in &mut e[30..34] {
            *x = Asked;
        }
        e[10] = Needle;
        e[62] = Query;
        let got = place(&e, 320.0, 14.0, None);
        for w in got.windows(2) {
            assert!((w[1] - w[0]) as f64 * 5.0 >= 14.0, "labels {w:?} overlap");
        }
        for must in [30, 33, 10, 62] {
            assert!(got.contains(&must), "label {must} of an emphasised token is missing from {got:?}");
        }
        assert!(got.len() >= 15, "the rest of the axis is labelled too: {got:?}");
    }

    #[test]
    fn the_hovered_token_always_gets_its_label() {
        let mut e = vec![Plain; 64];
        e[31] = Asked;
        let got = place(&e, 320.0, 14.0, Some(32));
        assert!(got.contains(&32) && !got.contains(&31), "the hovered label wins over its neighbour: {got:?}");
    }

    #[test]
    fn long_prompts_and_empty_axes_get_no_labels() {
        assert!(place(&[Plain; MAX_LABELLED + 1], 1e6, 14.0, None).is_empty());
        assert!(place(&[], 100.0, 14.0, None).is_empty());
        assert!(place(&[Plain], 0.0, 14.0, None).is_empty());
    }
}
