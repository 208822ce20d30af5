//! The page and its state, both in the URL hash (`#/lab?lambda=0.8&n=1024`), so a
//! reload on GitHub Pages never asks the server for a path it does not have.

use super::query;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Page {
    Lab,
    Model,
    Arch,
    /// Not in the navigation: the in-browser benchmarks the README reports.
    Bench,
}

impl Page {
    /// The pages in the navigation.
    pub const ALL: [Page; 3] = [Page::Lab, Page::Model, Page::Arch];

    pub fn slug(self) -> &'static str {
        match self {
            Page::Lab => "lab",
            Page::Model => "model",
            Page::Arch => "arch",
            Page::Bench => "bench",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Page::Lab => "Noise-floor lab",
            Page::Model => "Model explorer",
            Page::Arch => "Architecture calculator",
            Page::Bench => "Benchmarks",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub page: Page,
    pub params: Vec<(String, String)>,
    /// A page name in the link that does not exist (the lab is shown instead).
    pub unknown_page: Option<String>,
}

impl Route {
    /// Parses `#/page?query`; anything unreadable falls back to the lab.
    pub fn parse(hash: &str) -> Self {
        let rest = hash.trim_start_matches('#').trim_start_matches('/');
        let (slug, q) = rest.split_once('?').unwrap_or((rest, ""));
        let found = Page::ALL.into_iter().chain([Page::Bench]).find(|p| p.slug() == slug);
        let unknown_page = (found.is_none() && !slug.is_empty()).then(|| slug.to_string());
        Route { page: found.unwrap_or(Page::Lab), params: query::parse(q), unknown_page }
    }

    pub fn to_hash(&self) -> String {
        let q = query::format(&self.params);
        if q.is_empty() { format!("#/{}", self.page.slug()) } else { format!("#/{}?{q}", self.page.slug()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pages_and_falls_back_to_the_lab() {
        assert_eq!(Route::parse("#/arch?layers=4").page, Page::Arch);
        assert_eq!(Route::parse("#/arch?layers=4").params, vec![("layers".into(), "4".into())]);
        assert_eq!(Route::parse("").page, Page::Lab);
        let r = Route::parse("#/nope?x=1");
        assert_eq!((r.page, r.unknown_page.as_deref()), (Page::Lab, Some("nope")));
        let route = Route { page: Page::Model, params: vec![("a".into(), "1".into())], unknown_page: None };
        assert_eq!(Route::parse(&route.to_hash()), route);
    }
}
