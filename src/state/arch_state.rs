//! The architecture calculator's config in the URL, and the one rule that typed values
//! and links both go through: every number from 1 to 1 000 000 (clamped with a
//! notice), query heads even (DIFF V1 splits them in pairs), KV heads even and dividing
//! the query heads (V1 halves them too, and grouped-query attention shares each KV head
//! among a whole number of query heads).

use super::table::{accepts, read_link, write_link, Accepts, Field, Knob};
use crate::core::arch::ArchConfig;

/// Bounds of every number in the calculator.
pub const RANGE: (usize, usize) = (1, 1_000_000);

/// A row of the calculator's table (named so that its closures know their config).
pub type ArchKnob = Knob<ArchConfig>;
const BOUNDS: (f64, f64) = (RANGE.0 as f64, RANGE.1 as f64);

/// The calculator's numbers: the link's keys, the boxes' ids and labels.
pub const FIELDS: [ArchKnob; 7] = [
    ArchKnob::new("hidden", "field-hidden", BOUNDS, 1.0, |c| c.hidden as f64, |c, v| c.hidden = v as usize).integer(),
    ArchKnob::new("heads", "field-heads", BOUNDS, 1.0, |c| c.heads as f64, |c, v| c.heads = v as usize).integer(),
    ArchKnob::new("head_dim", "field-head_dim", BOUNDS, 1.0, |c| c.head_dim as f64, |c, v| c.head_dim = v as usize).integer(),
    ArchKnob::new("kv_heads", "field-kv_heads", BOUNDS, 1.0, |c| c.kv_heads as f64, |c, v| c.kv_heads = v as usize).integer(),
    ArchKnob::new("layers", "field-layers", BOUNDS, 1.0, |c| c.layers as f64, |c, v| c.layers = v as usize).integer(),
    ArchKnob::new("ffn", "field-ffn", BOUNDS, 1.0, |c| c.ffn_hidden as f64, |c, v| c.ffn_hidden = v as usize).integer(),
    ArchKnob::new("vocab", "field-vocab", BOUNDS, 1.0, |c| c.vocab as f64, |c, v| c.vocab = v as usize).integer(),
];

/// The calculator's link: each number, always.
const TABLE: [Field<ArchConfig>; 7] =
    [Field::Number(FIELDS[0]), Field::Number(FIELDS[1]), Field::Number(FIELDS[2]), Field::Number(FIELDS[3]), Field::Number(FIELDS[4]), Field::Number(FIELDS[5]), Field::Number(FIELDS[6])];

/// Makes the heads consistent; one notice per value it changed.
fn fix_heads(c: &mut ArchConfig, notices: &mut Vec<String>) {
    if c.heads % 2 == 1 {
        let even = if c.heads < RANGE.1 { c.heads + 1 } else { c.heads - 1 };
        notices.push(crate::tr!("note-heads-even", heads = c.heads, even = even));
        c.heads = even;
    }
    if c.kv_heads % 2 == 1 || !c.heads.is_multiple_of(c.kv_heads) {
        // The largest even divisor of the heads not above the asked value (2 always is one).
        let fixed = (2..=c.kv_heads.min(c.heads)).rev().find(|k| k % 2 == 0 && c.heads.is_multiple_of(*k)).unwrap_or(2);
        notices.push(crate::tr!("note-kv-heads", kv_heads = c.kv_heads, heads = c.heads, fixed = fixed));
        c.kv_heads = fixed;
    }
}

/// Sets `key` to the typed or linked `raw` value under the calculator's rule.
pub fn apply(c: &mut ArchConfig, key: &str, raw: &str, notices: &mut Vec<String>) {
    let Some(field) = FIELDS.iter().find(|f| f.key == key) else {
        notices.push(crate::tr!("note-unknown", key = key));
        return;
    };
    field.read(c, raw, notices);
    fix_heads(c, notices);
}

/// Reads a link: the default config with the link's values applied, and the notices.
/// What each key of the link accepts (the browser tests' random links).
pub fn link_rows() -> Vec<Accepts> {
    accepts(&TABLE)
}

pub fn from_params(params: &[(String, String)]) -> (ArchConfig, Vec<String>) {
    let (mut c, mut notices) = read_link(&TABLE, params);
    // Heads are checked once all values are in: a link may list kv_heads before heads.
    fix_heads(&mut c, &mut notices);
    (c, notices)
}

pub fn to_params(c: &ArchConfig) -> Vec<(String, String)> {
    write_link(&TABLE, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_accepts_what_it_says() {
        assert_eq!(super::super::table::check_accepts(&TABLE), Vec::<String>::new());
    }
    use crate::state::query;

    #[test]
    fn links_and_typed_values_follow_one_rule() {
        let c = ArchConfig { kv_heads: 8, layers: 12, ..ArchConfig::default() };
        assert_eq!(from_params(&to_params(&c)), (c.clone(), vec![]));

        let (linked, link_notes) = from_params(&query::parse("heads=99999999"));
        let mut typed = ArchConfig::default();
        let mut typed_notes = vec![];
        apply(&mut typed, "heads", "99999999", &mut typed_notes);
        assert_eq!((linked.heads, &link_notes), (typed.heads, &typed_notes), "the same value, the same result and message");
        assert_eq!(typed.heads, 1_000_000);
        assert!(typed_notes[0].contains("heads=99999999 is above 1000000; set to 1000000"), "{typed_notes:?}");

        let mut c = ArchConfig::default();
        let mut notes = vec![];
        apply(&mut c, "heads", "31", &mut notes);
        assert_eq!(c.heads, 32);
        assert!(notes[0].contains("must be even"), "{notes:?}");
        notes.clear();
        apply(&mut c, "kv_heads", "5", &mut notes);
        assert_eq!(c.kv_heads, 4, "the nearest even divisor of 32 below 5");
        assert!(notes[0].contains("kv_heads=5 must be even and divide heads (32)"), "{notes:?}");
        notes.clear();
        apply(&mut c, "heads", "12", &mut notes);
        assert_eq!((c.heads, c.kv_heads), (12, 4), "4 still divides 12");
        apply(&mut c, "heads", "10", &mut notes);
        assert_eq!((c.heads, c.kv_heads), (10, 2));
        assert!(notes.iter().any(|n| n.contains("kv_heads=4")), "{notes:?}");

        let (c, notes) = from_params(&query::parse("kv_heads=8&heads=48&zzz=1&layers=0&hidden=x"));
        assert_eq!((c.heads, c.kv_heads, c.layers, c.hidden), (48, 8, 1, 4096), "the order of a link's keys does not matter");
        assert_eq!(notes.len(), 3, "{notes:?}");
    }
}
