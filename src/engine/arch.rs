//! The architecture calculator's arithmetic, as the page reads it (the core computes it).

pub use crate::core::arch::{ArchConfig, Variant};
pub use crate::core::lambda::lambda_init_for_depth;

/// A count as the calculator prints it, exact and readable: "6.74 B (6,738,415,616)";
/// from 10¹² on in powers of ten, "4.00 × 10²⁴ (4,000,…)".
pub fn count(n: u128) -> String {
    let digits = n.to_string();
    let grouped: String = digits.chars().rev().collect::<Vec<_>>().chunks(3).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(",").chars().rev().collect();
    let short = match n {
        n if n >= 1_000_000_000_000 => {
            let exp = digits.len() - 1;
            let superscript: String = exp.to_string().chars().map(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().nth(c.to_digit(10).unwrap_or(0) as usize).unwrap_or('?')).collect();
            format!("{:.2} × 10{superscript}", n as f64 / 10f64.powi(exp as i32))
        }
        n if n >= 1_000_000_000 => format!("{:.2} B", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.2} M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.1} k", n as f64 / 1e3),
        n => n.to_string(),
    };
    if n >= 1_000 {
        format!("{short} ({grouped})")
    } else {
        short
    }
}

/// The difference of two counts, signed: "+768", "−1.05 M (1,048,576)", "—" for none.
pub fn difference(a: u128, b: u128) -> String {
    match a.cmp(&b) {
        std::cmp::Ordering::Equal => "—".into(),
        std::cmp::Ordering::Greater => format!("+{}", count(a - b)),
        std::cmp::Ordering::Less => format!("−{}", count(b - a)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_exact_and_readable_at_any_size() {
        assert_eq!(count(6_738_415_616), "6.74 B (6,738,415,616)");
        assert_eq!(count(768), "768");
        let huge = ArchConfig { hidden: 1_000_000, heads: 1_000_000, head_dim: 1_000_000, kv_heads: 1_000_000, layers: 1_000_000, ffn_hidden: 1_000_000, vocab: 1_000_000, ..ArchConfig::default() };
        // 10⁶ layers × (4·10¹⁸ attention + 3·10¹² FFN + 2·10⁶ norms) + 2·10¹² embeddings + 10⁶.
        let exact: u128 = 1_000_000 * (4 * 10u128.pow(18) + 3 * 10u128.pow(12) + 2_000_000) + 2 * 10u128.pow(12) + 1_000_000;
        assert_eq!(huge.model_params(Variant::Baseline), exact);
        assert_eq!(count(exact), "4.00 × 10²⁴ (4,000,003,000,004,000,001,000,000)");
        assert_eq!(difference(huge.model_params(Variant::DiffV1), huge.model_params(Variant::Baseline)), "+6.00 × 10¹² (6,000,000,000,000)");
        assert_eq!(difference(1, 3), "−2");
    }
}
