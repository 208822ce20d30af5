//! The numbers behind a figure as CSV, and file names that say what a figure shows
//! (`difflens-lab-A1-n1024-lambda0.80.csv`), so a downloaded file still makes sense in a
//! folder of them. Plain text, no browser types: tested natively.

/// `stem` with everything but letters, digits, `.`, `-` and `_` turned into `-`, then `.ext`.
pub fn file_name(stem: &str, ext: &str) -> String {
    let clean: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '-' }).collect();
    let mut squeezed = String::with_capacity(clean.len());
    for c in clean.chars() {
        if !(c == '-' && squeezed.ends_with('-')) {
            squeezed.push(c);
        }
    }
    format!("{}.{ext}", squeezed.trim_matches('-'))
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A chart's curves in long form (`series,x,y`, one row per point), after `#` lines
/// naming the chart, its axes and its markers.
pub fn series_csv(title: &str, x_label: &str, y_label: &str, series: &[(&str, &[(f64, f64)])], markers: &[(&str, f64)]) -> String {
    let mut out = format!("# {title}\n# x: {x_label}; y: {y_label}\n");
    for (label, x) in markers {
        out += &format!("# marker at x = {x}: {label}\n");
    }
    out += "series,x,y\n";
    for (name, points) in series {
        for (x, y) in points.iter() {
            out += &format!("{},{x},{y}\n", field(name));
        }
    }
    out
}

/// The largest map whose CSV holds every entry (a 1024 × 1024 map is about 10 MB of
/// text); larger ones download as the pooled picture, and the header says so.
pub const FULL_CSV_MAX: usize = 1024;

/// A map of `r × r` values (row i = query, column j = key) for a problem of `n` tokens:
/// the map itself when r = n, else its max-magnitude pooling, as the header says.
pub fn map_csv(title: &str, values: &[f32], r: usize, n: usize) -> String {
    let what = if r == n { format!("the full {n} × {n} map") } else { format!("pooled to {r} × {r} from {n} × {n}: each cell is the value of largest magnitude in its block of keys and queries") };
    let mut out = format!("# {title}: {what}; row i = query, column j = key\n");
    out += "i\\j";
    for j in 0..r {
        out += &format!(",{j}");
    }
    out.push('\n');
    for (i, row) in values.chunks(r.max(1)).take(r).enumerate() {
        out += &i.to_string();
        for v in row {
            out += &format!(",{v}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_carry_the_state_and_nothing_unsafe() {
        assert_eq!(file_name("difflens-lab-A1-n1024-lambda0.80", "csv"), "difflens-lab-A1-n1024-lambda0.80.csv");
        assert_eq!(file_name("difflens lab/A1 − λ·A2 ", "svg"), "difflens-lab-A1-A2.svg");
    }

    #[test]
    fn series_csv_reads_back() {
        let csv = series_csv("SNR against λ", "λ", "SNR", &[("standard, σ = 1", &[(0.0, 1.5), (0.5, 2.0)]), ("diff", &[(0.0, 3.0)])], &[("best λ = 0.49", 0.49)]);
        let rows: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows, ["series,x,y", "\"standard, σ = 1\",0,1.5", "\"standard, σ = 1\",0.5,2", "diff,0,3"]);
        assert!(csv.contains("# marker at x = 0.49: best λ = 0.49"));
    }

    #[test]
    fn map_csv_says_whether_it_is_pooled() {
        let full = map_csv("A1", &[0.5, 0.25, 0.0, 1.0], 2, 2);
        assert_eq!(full.lines().collect::<Vec<_>>(), ["# A1: the full 2 × 2 map; row i = query, column j = key", "i\\j,0,1", "0,0.5,0.25", "1,0,1"]);
        let pooled = map_csv("A1", &[0.5, 0.25, 0.0, 1.0], 2, 8);
        assert!(pooled.starts_with("# A1: pooled to 2 × 2 from 8 × 8"));
    }
}
