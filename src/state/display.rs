//! How a view is shown, on any page: `present=1` (a projector: large type, no header or
//! navigation, only the controls `controls=lambda,n` names), `embed=1` (the same, sized
//! for an `<iframe>`) and `lock=1` (the page never rewrites its link, so a reload
//! restores the teacher's values), `theme=dark` or `theme=light` (without it the
//! page follows the system's setting) and `lang=zh` or `lang=en` (without it, the
//! browser's language). These keys belong to the shell, not to a page:
//! the route takes them out before a page reads its own parameters.

/// The keys this module owns.
pub const KEYS: [&str; 6] = ["present", "embed", "lock", "controls", "theme", "lang"];

pub use crate::i18n::Lang;

/// A colour theme the reader (or the link) chose over the system's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn slug(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn parse(raw: &str) -> Option<Theme> {
        [Theme::Light, Theme::Dark].into_iter().find(|t| t.slug() == raw.trim())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    pub present: bool,
    pub embed: bool,
    pub lock: bool,
    /// The controls to keep in presenter and embed mode (`None`: all of them).
    pub controls: Option<Vec<String>>,
    /// `None`: the system's theme (`prefers-color-scheme`).
    pub theme: Option<Theme>,
    /// `None`: the browser's language (`navigator.languages`).
    pub lang: Option<Lang>,
    /// What the link said that could not be used, one sentence each.
    pub notes: Vec<String>,
}

fn flag(key: &str, raw: &str, notes: &mut Vec<String>) -> bool {
    match raw.trim() {
        "1" | "true" | "" => true,
        "0" | "false" => false,
        other => {
            notes.push(crate::tr!("note-flag", key = key, raw = other));
            false
        }
    }
}

/// A control's key: what a page uses in its links (letters, digits, `_`).
fn is_key(k: &str) -> bool {
    !k.is_empty() && k.len() <= 32 && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Display {
    /// Takes the display keys out of a link's pairs; returns the display and the rest.
    pub fn split(params: Vec<(String, String)>) -> (Self, Vec<(String, String)>) {
        let mut d = Display::default();
        let mut rest = Vec::with_capacity(params.len());
        for (key, raw) in params {
            match key.as_str() {
                "present" => d.present = flag("present", &raw, &mut d.notes),
                "embed" => d.embed = flag("embed", &raw, &mut d.notes),
                "lock" => d.lock = flag("lock", &raw, &mut d.notes),
                "controls" => {
                    let mut keys = Vec::new();
                    for k in raw.split(',').map(str::trim).filter(|k| !k.is_empty()) {
                        if is_key(k) && !keys.iter().any(|have: &String| have == k) {
                            keys.push(k.to_string());
                        } else if !is_key(k) {
                            d.notes.push(crate::tr!("note-control", name = k.chars().take(40).collect::<String>()));
                        }
                    }
                    d.controls = Some(keys);
                }
                "theme" => {
                    d.theme = Theme::parse(&raw);
                    if d.theme.is_none() {
                        d.notes.push(crate::tr!("note-theme", raw = raw.chars().take(40).collect::<String>()));
                    }
                }
                "lang" => {
                    d.lang = Lang::parse(&raw);
                    if d.lang.is_none() {
                        d.notes.push(crate::tr!("note-lang", raw = raw.chars().take(40).collect::<String>()));
                    }
                }
                _ => rest.push((key, raw)),
            }
        }
        if d.controls.is_some() && !d.reduced() {
            d.notes.push(crate::tr!("note-controls-reduced"));
            d.controls = None;
        }
        (d, rest)
    }

    /// The pairs that write this display back into a link (after the page's own).
    pub fn to_params(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (key, on) in [("present", self.present), ("embed", self.embed), ("lock", self.lock)] {
            if on {
                out.push((key.to_string(), "1".to_string()));
            }
        }
        if let Some(c) = &self.controls {
            out.push(("controls".into(), c.join(",")));
        }
        if let Some(t) = self.theme {
            out.push(("theme".into(), t.slug().into()));
        }
        if let Some(l) = self.lang {
            out.push(("lang".into(), l.slug().into()));
        }
        out
    }

    /// Presenter or embed mode: no header, navigation or footer, large type.
    pub fn reduced(&self) -> bool {
        self.present || self.embed
    }

    /// Whether a control with link key `key` is shown.
    pub fn shows(&self, key: &str) -> bool {
        !self.reduced() || self.controls.as_ref().is_none_or(|c| c.iter().any(|k| k == key))
    }

    /// A style rule that hides every control (an element with `data-key`) the link does not
    /// name, in presenter and embed mode; empty when every control shows.
    pub fn hidden_controls_css(&self) -> String {
        match (&self.controls, self.reduced()) {
            (Some(keep), true) => {
                let not: String = keep.iter().map(|k| format!(":not([data-key=\"{k}\"])")).collect();
                format!("main [data-key]{not} {{ display: none !important; }}")
            }
            _ => String::new(),
        }
    }

    /// Equal apart from the notes (the notes describe how a link was read).
    pub fn without_notes(&self) -> Self {
        Display { notes: vec![], ..self.clone() }
    }
}

/// The `<iframe>` that embeds `src` (a full link), attributes escaped.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;");
    format!(r#"<iframe src="{}" title="{}" width="100%" height="720" style="border:0" loading="lazy"></iframe>"#, esc(src), esc(title))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::query;

    #[test]
    fn display_keys_come_out_of_a_link_and_go_back_in() {
        let (d, rest) = Display::split(query::parse("lambda=0.5&present=1&controls=lambda,n&lock=1&n=64"));
        assert_eq!(rest, query::parse("lambda=0.5&n=64"));
        assert!(d.present && d.lock && !d.embed && d.notes.is_empty());
        assert!(d.shows("lambda") && d.shows("n") && !d.shows("noise"));
        assert_eq!(query::format(&d.to_params()), "present=1&lock=1&controls=lambda%2Cn");
        let (back, _) = Display::split(d.to_params());
        assert_eq!(back, d);
    }

    #[test]
    fn a_language_is_kept_in_the_link_and_garbage_falls_back_to_the_browsers() {
        let (d, rest) = Display::split(query::parse("n=64&lang=zh&theme=dark"));
        assert_eq!((d.lang, rest), (Some(Lang::Zh), query::parse("n=64")));
        assert_eq!(query::format(&d.to_params()), "theme=dark&lang=zh");
        let (bad, _) = Display::split(query::parse("lang=klingon"));
        assert_eq!(bad.lang, None);
        assert!(bad.notes[0].contains("lang=klingon"), "{:?}", bad.notes);
        assert!(bad.to_params().is_empty());
    }

    #[test]
    fn a_theme_is_kept_in_the_link_and_garbage_falls_back_to_the_system() {
        let (d, rest) = Display::split(query::parse("theme=dark&n=64"));
        assert_eq!((d.theme, rest), (Some(Theme::Dark), query::parse("n=64")));
        assert_eq!(query::format(&d.to_params()), "theme=dark");
        let (light, _) = Display::split(query::parse("present=1&theme=light"));
        assert_eq!(query::format(&light.to_params()), "present=1&theme=light");
        let (bad, _) = Display::split(query::parse("theme=%3Cpink%3E"));
        assert_eq!(bad.theme, None);
        assert!(bad.notes.iter().any(|n| n.contains("<pink>") && n.contains("system")), "{:?}", bad.notes);
        assert!(bad.to_params().is_empty(), "a theme that was not understood is not written back");
    }

    #[test]
    fn the_embed_snippet_escapes_its_link() {
        let s = iframe_snippet("https://x.github.io/difflens/#/lab?lambda=0.5&embed=1", "DiffLens: \"lab\"");
        assert_eq!(
            s,
            r#"<iframe src="https://x.github.io/difflens/#/lab?lambda=0.5&amp;embed=1" title="DiffLens: &quot;lab&quot;" width="100%" height="720" style="border:0" loading="lazy"></iframe>"#
        );
    }

    #[test]
    fn every_control_shows_outside_the_reduced_modes_and_garbage_is_named() {
        let (d, _) = Display::split(query::parse("controls=lambda"));
        assert!(d.shows("noise"), "controls= alone changes nothing");
        assert_eq!((d.notes.len(), d.controls), (1, None), "and is not written back");
        let (d, _) = Display::split(query::parse("present=yes&embed=1&controls=a,%3Cb%3E,a,,c"));
        assert!(!d.present && d.embed);
        assert_eq!(d.controls, Some(vec!["a".to_string(), "c".to_string()]));
        assert!(d.notes.iter().any(|n| n.contains("present=yes")) && d.notes.iter().any(|n| n.contains("<b>")), "{:?}", d.notes);
        let (none, _) = Display::split(query::parse("embed=1"));
        assert!(none.shows("anything"), "embed without controls= keeps every control");
        assert_eq!(none.hidden_controls_css(), "");
        let (two, _) = Display::split(query::parse("present=1&controls=lambda,n"));
        assert_eq!(two.hidden_controls_css(), r#"main [data-key]:not([data-key="lambda"]):not([data-key="n"]) { display: none !important; }"#);
        let (nothing, _) = Display::split(query::parse("present=1&controls="));
        assert_eq!(nothing.hidden_controls_css(), "main [data-key] { display: none !important; }", "controls= with no names keeps none");
    }
}
