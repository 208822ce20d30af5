//! The page's two languages, English and Simplified Chinese, as Fluent catalogues
//! (`locales/<lang>/*.ftl`, compiled into the binary so the page and its offline copy
//! need no extra request). Every sentence a reader sees is a key here, looked up in the
//! language on screen, so the engine's computed sentences (the lesson's facts, the
//! captions) follow the same switch as the page's labels.
//!
//! The language is per thread (the page has one; a native test that does not choose gets
//! English). The page sets it from the link (`lang=`) or the browser's language and draws
//! everything again when it changes (`ui::app`).

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use std::cell::{Cell, RefCell};

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

    fn sources(self) -> &'static [&'static str] {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// The catalogues, one file per part of the page.
macro_rules! catalogue {
    ($dir:literal) => {
        [
            include_str!(concat!("../../locales/", $dir, "/shell.ftl")),
            include_str!(concat!("../../locales/", $dir, "/lesson.ftl")),
            include_str!(concat!("../../locales/", $dir, "/glossary.ftl")),
            include_str!(concat!("../../locales/", $dir, "/lesson-figures.ftl")),
            include_str!(concat!("../../locales/", $dir, "/explorer.ftl")),
        ]
    };
}
const EN: [&str; 5] = catalogue!("en");
const ZH: [&str; 5] = catalogue!("zh-CN");

/// Every catalogue's text by language, for the tests that compare them.
pub fn sources(lang: Lang) -> &'static [&'static str] {
    lang.sources()
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::En) };
    static BUNDLES: RefCell<Vec<(Lang, FluentBundle<FluentResource>)>> = const { RefCell::new(Vec::new()) };
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

fn bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id = lang.tag().parse().expect("the tags are valid");
    let mut bundle = FluentBundle::new(vec![id]);
    // Without the bidirectional isolation marks Fluent puts around every argument: the
    // page has no right-to-left text, and the marks would show up in copied text.
    bundle.set_use_isolating(false);
    for source in lang.sources() {
        // A catalogue that does not parse still gives its good messages (the test of the
        // catalogues fails on any error).
        let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(partial, _)| partial);
        let _ = bundle.add_resource(resource);
    }
    bundle
}

/// Arguments of a message: each a string (numbers already formatted as the page shows
/// them) or a number (for Fluent's plural choice).
#[derive(Default)]
pub struct Args(FluentArgs<'static>);

impl Args {
    pub fn set(&mut self, name: &'static str, value: impl Into<Arg>) {
        self.0.set(name, value.into().0);
    }
}

/// One argument's value.
pub struct Arg(FluentValue<'static>);

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg(FluentValue::from(v))
    }
}
impl From<&String> for Arg {
    fn from(v: &String) -> Self {
        Arg(FluentValue::from(v.clone()))
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg(FluentValue::from(v.to_string()))
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Self {
                Arg(FluentValue::from(v))
            }
        }
    )*};
}
number_arg!(usize, u32, u64, i32, i64);

/// The message `key` in the language on screen, else in English, else the key itself (a
/// missing key shows, and the catalogue test names it).
pub fn text(key: &str, args: Option<&Args>) -> String {
    let lang = current();
    BUNDLES.with(|b| {
        // Busy only when a panic inside a lookup reaches the panic banner's own lookup.
        let Ok(mut bundles) = b.try_borrow_mut() else { return key.to_string() };
        for l in [lang, Lang::En] {
            if !bundles.iter().any(|(have, _)| *have == l) {
                bundles.push((l, bundle(l)));
            }
            let (_, found) = bundles.iter().find(|(have, _)| *have == l).expect("just added");
            if let Some(pattern) = found.get_message(key).and_then(|m| m.value()) {
                let mut errors = vec![];
                return found.format_pattern(pattern, args.map(|a| &a.0), &mut errors).into_owned();
            }
        }
        key.to_string()
    })
}

/// A sentence of the catalogue: `tr!("key")` or `tr!("key", n = 3, lambda = format!("{l:.2}"))`.
#[macro_export]
macro_rules! tr {
    ($key:expr) => {
        $crate::i18n::text($key, None)
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::i18n::Args::default();
        $(args.set(stringify!($name), $value);)+
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
    }
}
