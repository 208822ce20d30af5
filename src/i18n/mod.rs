//! The page's two languages, English and Simplified Chinese, as Fluent catalogues
//! (`locales/<lang>/*.ftl`). `build.rs` parses them with Project Fluent's parser and
//! compiles them into the static tables below, so the page needs no request, no parser
//! and no plural rules of other locales at run time. Every sentence a reader sees is a
//! key here, looked up in the language on screen, so the engine's computed sentences (the
//! lesson's facts, the captions) follow the same switch as the page's labels.
//!
//! The language is per thread (the page has one; a native test that does not choose gets
//! English). The page sets it from the link (`lang=`) or the browser's language and draws
//! everything again when it changes (`ui::app`).

use std::cell::Cell;

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// How the link names it (`lang=zh`).
    pub fn slug(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP 47 tag, for `<html lang>` (fonts, screen readers, hyphenation).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// Its own name, as the header's choice shows it whatever the page's language.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// A link's `lang=` value or a browser's language tag: any Chinese tag (zh, zh-CN,
    /// zh-Hans, zh-TW…) gives the Chinese page, any English one the English page.
    pub fn parse(raw: &str) -> Option<Lang> {
        let primary = raw.trim().split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        match primary.as_str() {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The first of the browser's preferred languages that the page has, else English.
    pub fn preferred<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or_default()
    }
}

/// A piece of a compiled message.
pub enum Part {
    Text(&'static str),
    Var(&'static str),
    /// Fluent's `{ $var -> [key] … *[other] … }`: the variant whose key is the value, or
    /// (for a number) its plural category, else the default.
    Select {
        var: &'static str,
        variants: &'static [(&'static str, &'static [Part])],
        default: usize,
    },
}

// EN and ZH: every message, sorted by key.
include!(concat!(env!("OUT_DIR"), "/catalogues.rs"));

impl Lang {
    fn table(self) -> &'static [(&'static str, &'static [Part])] {
        match self {
            Lang::En => EN,
            Lang::Zh => ZH,
        }
    }

    /// CLDR's plural category of a whole number: English has "one" and "other", Chinese
    /// only "other".
    fn plural(self, n: f64) -> &'static str {
        match self {
            Lang::En if n == 1.0 => "one",
            _ => "other",
        }
    }
}

/// Every key of `lang`'s catalogue, in order (for the tests that compare the two).
pub fn keys(lang: Lang) -> impl Iterator<Item = &'static str> {
    lang.table().iter().map(|(k, _)| *k)
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// The language on screen (this thread's).
pub fn current() -> Lang {
    CURRENT.with(Cell::get)
}

/// Chooses the language every later lookup on this thread uses.
pub fn set(lang: Lang) {
    CURRENT.with(|c| c.set(lang));
}

/// Runs `f` in `lang`, then restores the language (tests, and a file name that must not
/// depend on the page's language).
pub fn with_lang<T>(lang: Lang, f: impl FnOnce() -> T) -> T {
    let before = current();
    set(lang);
    let out = f();
    set(before);
    out
}

/// One argument's value: text (numbers already formatted as the page shows them) or a
/// whole number (shown as is, and chosen on by its plural category).
pub enum Arg {
    Text(String),
    Number(f64, String),
}

impl Arg {
    fn shown(&self) -> &str {
        match self {
            Arg::Text(s) | Arg::Number(_, s) => s,
        }
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Text(v)
    }
}
impl From<&String> for Arg {
    fn from(v: &String) -> Self {
        Arg::Text(v.clone())
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Text(v.to_string())
    }
}
impl From<&&str> for Arg {
    fn from(v: &&str) -> Self {
        Arg::Text(v.to_string())
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Self {
                Arg::Number(v as f64, v.to_string())
            }
        }
    )*};
}
number_arg!(usize, u32, u64, i32, i64);

/// The arguments of one message.
#[derive(Default)]
pub struct Args(Vec<(&'static str, Arg)>);

impl Args {
    // Not inlined: every sentence of the page calls these, and a copy at each call site
    // would cost more wasm than the catalogue itself.
    #[inline(never)]
    pub fn set(&mut self, name: &'static str, value: Arg) {
        self.0.push((name, value));
    }

    fn get(&self, name: &str) -> Option<&Arg> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

fn format(parts: &[Part], args: Option<&Args>, lang: Lang, out: &mut String) {
    for part in parts {
        match part {
            Part::Text(t) => out.push_str(t),
            Part::Var(v) => match args.and_then(|a| a.get(v)) {
                Some(value) => out.push_str(value.shown()),
                // As Fluent shows a missing argument; the catalogue test keeps it from happening.
                None => {
                    out.push_str("{$");
                    out.push_str(v);
                    out.push('}');
                }
            },
            Part::Select { var, variants, default } => {
                let value = args.and_then(|a| a.get(var));
                let chosen = value
                    .and_then(|v| {
                        let exact = variants.iter().position(|(k, _)| *k == v.shown());
                        let category = match v {
                            Arg::Number(n, _) => variants.iter().position(|(k, _)| *k == lang.plural(*n)),
                            Arg::Text(_) => None,
                        };
                        exact.or(category)
                    })
                    .unwrap_or(*default);
                format(variants[chosen].1, args, lang, out);
            }
        }
    }
}

/// The message `key` in the language on screen, else in English, else the key itself (a
/// missing key shows, and the catalogue test names it).
#[inline(never)]
pub fn text(key: &str, args: Option<&Args>) -> String {
    let find = |lang: Lang| lang.table().binary_search_by(|(k, _)| (*k).cmp(key)).ok().map(|i| (lang, lang.table()[i].1));
    match find(current()).or_else(|| find(Lang::En)) {
        Some((lang, parts)) => {
            let mut out = String::new();
            format(parts, args, lang, &mut out);
            out
        }
        None => key.to_string(),
    }
}

/// A sentence of the catalogue: `tr!("key")` or `tr!("key", n = 3, lambda = format!("{l:.2}"))`.
#[macro_export]
macro_rules! tr {
    ($key:expr) => {
        $crate::i18n::text($key, None)
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::i18n::Args::default();
        $(args.set(stringify!($name), $crate::i18n::Arg::from($value));)+
        $crate::i18n::text($key, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_or_a_browser_names_the_language() {
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-Hans-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN_gb"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::preferred(["fr-FR", "zh-TW", "en"]), Lang::Zh);
        assert_eq!(Lang::preferred(["de"]), Lang::En);
    }

    #[test]
    fn a_key_reads_in_the_language_on_screen_and_falls_back_to_english() {
        assert_eq!(with_lang(Lang::Zh, || tr!("lang-label")), "语言");
        assert_eq!(tr!("lang-label"), "Language", "another thread's choice does not leak");
        assert_eq!(with_lang(Lang::Zh, || text("no-such-key", None)), "no-such-key", "a missing key shows as itself");
        assert_eq!(tr!("lesson-step-count", k = 2usize, n = 9usize), "Step 2 of 9");
        assert_eq!(with_lang(Lang::Zh, || tr!("lesson-step-count", k = 2usize, n = 9usize)), "第 2 步，共 9 步");
        assert_eq!(tr!("compare-timing", n = 1usize, ms = "12", on = "WebGPU"), "Last update: 1 forward pass with every map kept, 12 ms on WebGPU.", "English's plural: one");
        assert_eq!(tr!("compare-timing", n = 3usize, ms = "12", on = "WebGPU"), "Last update: 3 forward passes with every map kept, 12 ms on WebGPU.");
        assert!(
            tr!("facts-failure", shared = "0", best = "0.5", from = "1", to = "2", gain = "1.2", verdict = "barely", reference = "95", reference_gain = "3")
                .contains("lifts SNR only from 1 to 2: 1.2×, so subtraction barely helps."),
            "a text selector picks its variant"
        );
        assert_eq!(tr!("list-separator"), "; ", "a literal keeps its space");
        let mut keys: Vec<&str> = keys(Lang::Zh).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, for the binary search");
        keys.dedup();
    }
}
