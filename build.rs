//! Compiles the Fluent catalogues (`locales/<lang>/*.ftl`) into static tables
//! (`$OUT_DIR/catalogues.rs`, read by `src/i18n`). Parsing them here, with Project
//! Fluent's own parser, keeps the parser and the plural rules of every locale out of the
//! page's wasm, and a catalogue that does not parse fails the build, naming the file.

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey};
use std::fmt::Write;

fn main() {
    println!("cargo:rerun-if-changed=locales");
    let mut out = String::from("// Made by build.rs from locales/: do not edit.\n");
    for (name, dir) in [("EN", "en"), ("ZH", "zh-CN")] {
        let mut files: Vec<_> =
            std::fs::read_dir(format!("locales/{dir}")).expect("locales/ is there").map(|e| e.expect("readable").path()).filter(|p| p.extension().is_some_and(|e| e == "ftl")).collect();
        files.sort();
        let mut messages = Vec::new();
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let source = std::fs::read_to_string(&file).expect("readable");
            let resource = fluent_syntax::parser::parse(source.as_str()).unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", file.display()));
            for entry in resource.body {
                if let Entry::Message(m) = entry {
                    let value = m.value.unwrap_or_else(|| panic!("{}: {} has no value", file.display(), m.id.name));
                    messages.push((m.id.name.to_string(), pattern(&value, &file.display().to_string())));
                }
            }
        }
        messages.sort();
        if let Some(w) = messages.windows(2).find(|w| w[0].0 == w[1].0) {
            panic!("locales/{dir}: {} is defined twice", w[0].0);
        }
        writeln!(out, "pub(super) static {name}: &[(&str, &[Part])] = &[").unwrap();
        for (key, parts) in messages {
            writeln!(out, "    ({key:?}, &[{parts}]),").unwrap();
        }
        out.push_str("];\n");
    }
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogues.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}

/// A pattern as the `Part`s of `src/i18n` (Rust source).
fn pattern(p: &Pattern<&str>, file: &str) -> String {
    let mut parts = Vec::new();
    for el in &p.elements {
        match el {
            PatternElement::TextElement { value } => parts.push(format!("Part::Text({value:?})")),
            PatternElement::Placeable { expression: e } => parts.push(expression(e, file)),
        }
    }
    parts.join(", ")
}

fn expression(e: &Expression<&str>, file: &str) -> String {
    match e {
        Expression::Inline(i) => inline(i, file),
        Expression::Select { selector, variants } => {
            let InlineExpression::VariableReference { id } = selector else { panic!("{file}: a selector must be a variable") };
            let default = variants.iter().position(|v| v.default).expect("Fluent requires a default variant");
            let arms: Vec<String> = variants
                .iter()
                .map(|v| {
                    let key = match &v.key {
                        VariantKey::Identifier { name } => name.to_string(),
                        VariantKey::NumberLiteral { value } => value.to_string(),
                    };
                    format!("({key:?}, &[{}])", pattern(&v.value, file))
                })
                .collect();
            format!("Part::Select {{ var: {:?}, variants: &[{}], default: {default} }}", id.name, arms.join(", "))
        }
    }
}

fn inline(i: &InlineExpression<&str>, file: &str) -> String {
    match i {
        InlineExpression::StringLiteral { value } => format!("Part::Text({:?})", unescape(value)),
        InlineExpression::VariableReference { id } => format!("Part::Var({:?})", id.name),
        InlineExpression::Placeable { expression: e } => expression(e, file),
        other => panic!("{file}: only text, variables and selections are supported, not {other:?}"),
    }
}

/// A Fluent string literal's escapes (`\"`, `\\`, `\u0041`).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some('u')) => {
                chars.next();
                let hex: String = chars.by_ref().take(4).collect();
                out.push(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('\u{fffd}'));
            }
            ('\\', Some(n)) => {
                chars.next();
                out.push(n);
            }
            _ => out.push(c),
        }
    }
    out
}
