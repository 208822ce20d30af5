//! The two languages' catalogues: both parse, have the same messages with the same
//! arguments, every key the code asks for exists, and the Chinese one is Chinese (not
//! English copied over).

use crate::source_files;
use source_files::rust_files;

use difflens::i18n::{keys, Lang};
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use std::collections::{BTreeMap, BTreeSet};

/// Every message of `lang`: its id, its text as written, and the arguments it uses.
fn messages(lang: Lang) -> BTreeMap<String, (String, BTreeSet<String>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales").join(lang.tag());
    let mut out = BTreeMap::new();
    for file in std::fs::read_dir(&dir).unwrap() {
        let source = std::fs::read_to_string(file.unwrap().path()).unwrap();
        let resource = fluent_syntax::parser::parse(source.as_str()).unwrap_or_else(|(_, errors)| panic!("{lang:?}: the catalogue does not parse: {errors:?}"));
        for entry in resource.body {
            if let Entry::Message(m) = entry {
                let value = m.value.unwrap_or_else(|| panic!("{lang:?}: {} has no value", m.id.name));
                let mut args = BTreeSet::new();
                let mut text = String::new();
                walk(&value, &mut args, &mut text);
                assert!(out.insert(m.id.name.to_string(), (text, args)).is_none(), "{lang:?}: {} is defined twice", m.id.name);
            }
        }
    }
    out
}

fn walk(p: &Pattern<&str>, args: &mut BTreeSet<String>, text: &mut String) {
    for el in &p.elements {
        match el {
            PatternElement::TextElement { value } => text.push_str(value),
            PatternElement::Placeable { expression } => expression_args(expression, args, text),
        }
    }
}

fn expression_args(e: &Expression<&str>, args: &mut BTreeSet<String>, text: &mut String) {
    match e {
        Expression::Select { selector, variants } => {
            inline_args(selector, args, text);
            for v in variants {
                walk(&v.value, args, text);
            }
        }
        Expression::Inline(i) => inline_args(i, args, text),
    }
}

fn inline_args(i: &InlineExpression<&str>, args: &mut BTreeSet<String>, text: &mut String) {
    match i {
        InlineExpression::VariableReference { id } => {
            args.insert(id.name.to_string());
        }
        InlineExpression::StringLiteral { value } => text.push_str(value),
        InlineExpression::Placeable { expression } => expression_args(expression, args, text),
        _ => {}
    }
}

#[test]
fn both_languages_have_the_same_messages_with_the_same_arguments() {
    let (en, zh) = (messages(Lang::En), messages(Lang::Zh));
    let missing_zh: Vec<&String> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
    let missing_en: Vec<&String> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing_zh.is_empty(), "not translated into Chinese: {missing_zh:?}");
    assert!(missing_en.is_empty(), "only in Chinese: {missing_en:?}");
    for (key, (_, args)) in &en {
        assert_eq!(&zh[key].1, args, "{key}: the two languages use different arguments");
    }
    // The page's compiled tables hold the same messages as the files.
    assert!(keys(Lang::En).eq(en.keys().map(String::as_str)) && keys(Lang::Zh).eq(zh.keys().map(String::as_str)));
}

/// Whether `c` is a CJK character (ideographs and the full-width punctuation).
fn cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}')
}

/// Messages that read the same in both languages: names, symbols and separators.
const SAME_IN_BOTH: [&str; 15] = [
    "on-gpu",
    "kind-diff-v1",
    "kind-diff-v2",
    "term-softmax-name",
    "term-lambda_init-name",
    "term-swiglu-name",
    "term-rmsnorm-name",
    "sentence-gap",
    "term-colon",
    "list-separator",
    "lambda-init-caption",
    "map-softmax",
    "figure-keys",
    "figure-queries",
    "paper-transformer",
];

#[test]
fn the_chinese_catalogue_is_chinese() {
    let (en, zh) = (messages(Lang::En), messages(Lang::Zh));
    for (key, (text, _)) in &zh {
        if SAME_IN_BOTH.contains(&key.as_str()) {
            continue;
        }
        assert_ne!(text, &en[key].0, "{key}: the Chinese text is the English one");
        assert!(text.chars().any(cjk), "{key}: no Chinese in {text:?}");
    }
}

/// The string literals inside each `tr!(…)`'s first argument, and each knob's label key.
fn keys_in(code: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let literal = |s: &str| -> Vec<String> { s.split('"').skip(1).step_by(2).map(str::to_string).collect() };
    for (at, _) in code.match_indices("tr!(") {
        // Not `include_str!(`, `str!(`…
        if code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + 4..];
        let (mut depth, mut in_str, mut end) = (0i32, false, rest.len());
        for (i, c) in rest.char_indices() {
            match c {
                '"' => in_str = !in_str,
                '(' | '{' | '[' if !in_str => depth += 1,
                ')' | '}' | ']' if !in_str && depth == 0 => {
                    end = i;
                    break;
                }
                ')' | '}' | ']' if !in_str => depth -= 1,
                ',' if !in_str && depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        keys.extend(literal(&rest[..end]).into_iter().filter(|k| !k.contains('{')));
    }
    // A knob's label: the second literal of a table row, `…Knob::new("key", "label", …)`
    // (also `Knob::<State>::new`).
    for (at, _) in code.match_indices("Knob::new(\"").chain(code.match_indices("Knob::<")) {
        let call = &code[at..code[at..].find(')').map_or(code.len(), |e| at + e)];
        keys.extend(literal(call).into_iter().nth(1));
    }
    keys
}

#[test]
fn every_key_the_code_asks_for_is_in_the_catalogue() {
    let en = messages(Lang::En);
    let mut files = Vec::new();
    rust_files(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")), &mut files);
    let mut asked = 0;
    for f in files {
        // Code only: a comment may show how `tr!` is called.
        let code: String = std::fs::read_to_string(&f).unwrap().lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect();
        for key in keys_in(&code) {
            asked += 1;
            assert!(en.contains_key(&key), "{}: tr!(\"{key}\") is not in the catalogue", f.display());
        }
    }
    assert!(asked > 100, "the scan found the keys ({asked})");
    // Keys made at run time: the lesson's steps and terms (tested in engine::lesson) and
    // the sources.
    for key in ["source-paper", "source-v2", "source-code"] {
        assert!(en.contains_key(key), "{key}");
    }
}
