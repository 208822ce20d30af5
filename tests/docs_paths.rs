//! The docs name files that exist: every path written in backticks in README.md,
//! CONTRIBUTING.md and docs/*.md (a word with a source file's extension, or a folder
//! ending in `/`; not a site path such as `/difflens/`) is found in the repository, as written, under `src/`, or as the end of
//! some file's path. A renamed or deleted file then fails here, not in a reader's hands.
//! (`../shared/tools/doc_refs.py` also checks identifiers, which a test cannot judge: a
//! crate or a browser API is named legitimately.)

use std::path::{Path, PathBuf};

const EXTENSIONS: [&str; 12] = ["rs", "md", "sh", "mjs", "js", "wgsl", "toml", "json", "ftl", "html", "py", "css"];
/// Made by a build or a run, not in a fresh clone.
const BUILT: [&str; 4] = ["dist", "artifacts", "target", "node_modules"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file and folder of the repository, as `/`-separated paths from its root.
fn walk(dir: &Path, into: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || BUILT.contains(&name.as_str()) {
            continue;
        }
        let path = entry.path();
        into.push(path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/"));
        if path.is_dir() {
            walk(&path, into);
        }
    }
}

/// Whether a backticked word reads as a path: path characters only, and a known
/// extension or a trailing `/`.
fn is_path(word: &str) -> bool {
    let chars_ok = word.chars().all(|c| c.is_alphanumeric() || "_-./".contains(c));
    let ext = word.rsplit_once('.').is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext));
    let folder = word.ends_with('/') && word.len() > 2 && word.contains(char::is_alphabetic);
    chars_ok && (ext || folder) && !word.starts_with("..") && !word.starts_with('/')
}

fn docs() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root().join("docs")).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    more.sort();
    docs.extend(more);
    docs
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut all = vec![];
    walk(&root(), &mut all);
    let found = |word: &str| {
        let bare = word.trim_start_matches("./").trim_end_matches('/');
        if BUILT.iter().any(|b| bare == *b || bare.starts_with(&format!("{b}/"))) {
            return true;
        }
        root().join(bare).exists() || root().join("src").join(bare).exists() || all.iter().any(|p| p == bare || p.ends_with(&format!("/{bare}")))
    };
    let mut stale = vec![];
    let mut checked = 0;
    for doc in docs() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (n, line) in text.lines().enumerate() {
            // Backticked words are every second piece between backticks.
            for word in line.split('`').skip(1).step_by(2).filter(|w| is_path(w)) {
                checked += 1;
                if !found(word) {
                    stale.push(format!("{}:{}: `{word}`", doc.file_name().unwrap().to_string_lossy(), n + 1));
                }
            }
        }
    }
    assert!(checked > 100, "the docs name paths: {checked} checked");
    assert!(stale.is_empty(), "the docs name paths that do not exist:\n{}", stale.join("\n"));
}

#[test]
fn the_path_reader_tells_paths_from_other_words() {
    for path in ["src/core/model.rs", "www/models/", "docs/performance.md", "scripts/test.sh", "shaders/softmax.wgsl", "locales/en/train.ftl"] {
        assert!(is_path(path), "{path}");
    }
    for word in ["cargo test", "tr!", "1.3", "x = 1", "a/b c.rs", "Job::slices", "../shared/tools/doc_refs.py", "0.5", "/difflens/"] {
        assert!(!is_path(word), "{word}");
    }
}
