//! The layering docs/architecture.md draws, checked on the source: each layer names only
//! the layers below it (`crate::<layer>` outside comments). The pages reach `core` and
//! `gpu` types through `engine::shared`, never directly.

use crate::source_files;
use source_files::rust_files;

use std::collections::BTreeSet;
use std::path::Path;

/// Each layer and what it may name besides itself (`tr` is i18n's macro).
const ALLOWED: &[(&str, &[&str])] = &[
    ("i18n", &[]),
    ("gpu", &["core"]),
    ("viz", &["core", "i18n", "tr"]),
    ("state", &["core", "i18n", "tr"]),
    ("engine", &["core", "gpu", "state", "viz", "i18n", "tr"]),
    ("ui", &["engine", "state", "viz", "i18n", "tr"]),
];

/// The layers a file names: `crate::x` on lines that are not comments.
fn named(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn each_layer_names_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = vec![];
    for (layer, allowed) in ALLOWED {
        let mut files = vec![];
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has files");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for name in named(&text) {
                if name != *layer && !allowed.contains(&name.as_str()) {
                    wrong.push(format!("{}: crate::{name}", file.strip_prefix(&src).unwrap().display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layering:\n{}", wrong.join("\n"));
}

/// `core` is a crate of its own (`src/core/Cargo.toml`): its `crate::` is the core itself,
/// and Cargo keeps it from naming the app, as long as it depends on no crate of ours.
#[test]
fn the_core_depends_on_no_crate_of_ours() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core/Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).expect("the core's manifest lists its dependencies");
    let ours: Vec<&str> = deps.lines().filter(|l| l.contains("difflens") || l.contains("path =")).collect();
    assert!(ours.is_empty(), "the core depends on {ours:?}");
}

#[test]
fn the_check_sees_an_import() {
    assert_eq!(named("use crate::core::x;\n// crate::gpu in a comment\nlet y = crate::tr!(\"k\");"), ["core", "tr"].into_iter().map(String::from).collect());
}
