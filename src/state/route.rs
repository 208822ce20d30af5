//! The page and its state, both in the URL hash (`#/lab?lambda=0.8&n=1024`), so a
//! reload on GitHub Pages never asks the server for a path it does not have.

use super::display::Display;
use super::query;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Page {
    /// The guided lesson, the landing page.
    Learn,
    Lab,
    Model,
    Arch,
    /// Typed text through the three Shakespeare models.
    Text,
    /// Training the three kinds in the page, with seeds.
    Train,
    /// Not in the navigation: the in-browser benchmarks the README reports.
    Bench,
}

impl Page {
    /// The pages in the navigation.
    pub const ALL: [Page; 6] = [Page::Learn, Page::Lab, Page::Model, Page::Text, Page::Train, Page::Arch];

    pub fn slug(self) -> &'static str {
        match self {
            Page::Learn => "learn",
            Page::Lab => "lab",
            Page::Model => "model",
            Page::Arch => "arch",
            Page::Text => "text",
            Page::Train => "train",
            Page::Bench => "bench",
        }
    }

    /// Its name in the navigation, in the language on screen.
    pub fn title(self) -> String {
        crate::tr!(match self {
            Page::Learn => "page-learn",
            Page::Lab => "page-lab",
            Page::Model => "page-model",
            Page::Arch => "page-arch",
            Page::Text => "page-text",
            Page::Train => "page-train",
            Page::Bench => "page-bench",
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub page: Page,
    /// The page's own parameters (the display keys are taken out into `display`).
    pub params: Vec<(String, String)>,
    /// Presenter, embed and lock modes, for any page.
    pub display: Display,
    /// A page name in the link that does not exist (the lab is shown instead).
    pub unknown_page: Option<String>,
}

impl Route {
    /// A route to `page` with its parameters, shown as usual.
    pub fn to(page: Page, params: Vec<(String, String)>) -> Self {
        Route { page, params, display: Display::default(), unknown_page: None }
    }

    /// Parses `#/page?query`. No page name opens the lesson; a name that is no page, the
    /// lab (with a notice).
    pub fn parse(hash: &str) -> Self {
        let rest = hash.trim_start_matches('#').trim_start_matches('/');
        let (slug, q) = rest.split_once('?').unwrap_or((rest, ""));
        let found = Page::ALL.into_iter().chain([Page::Bench]).find(|p| p.slug() == slug);
        let unknown_page = (found.is_none() && !slug.is_empty()).then(|| slug.to_string());
        let page = found.unwrap_or(if slug.is_empty() { Page::Learn } else { Page::Lab });
        let (display, params) = Display::split(query::parse(q));
        Route { page, params, display, unknown_page }
    }

    pub fn to_hash(&self) -> String {
        let q = query::format(&[self.params.clone(), self.display.to_params()].concat());
        if q.is_empty() {
            format!("#/{}", self.page.slug())
        } else {
            format!("#/{}?{q}", self.page.slug())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pages_and_falls_back_to_the_lab() {
        assert_eq!(Route::parse("#/arch?layers=4").page, Page::Arch);
        assert_eq!(Route::parse("#/arch?layers=4").params, vec![("layers".into(), "4".into())]);
        assert_eq!(Route::parse("").page, Page::Learn, "the lesson is the landing page");
        assert_eq!(Route::parse("#/?step=2").page, Page::Learn);
        let r = Route::parse("#/nope?x=1");
        assert_eq!((r.page, r.unknown_page.as_deref()), (Page::Lab, Some("nope")));
        let route = Route::to(Page::Model, vec![("a".into(), "1".into())]);
        assert_eq!(Route::parse(&route.to_hash()), route);
        let shown = Route::parse("#/lab?present=1&lambda=0.5&controls=lambda");
        assert_eq!(shown.params, vec![("lambda".to_string(), "0.5".to_string())], "the page never sees the display keys");
        assert!(shown.display.present && !shown.display.shows("n"));
        assert_eq!(Route::parse(&shown.to_hash()), shown);
    }
}
