//! The files the pages load, embedded in the binary so the viewer works offline and needs no
//! JavaScript build step. Renderers are plain ES modules loaded by game slug
//! (`/assets/renderers/<slug>.js`); adding a game means adding its file here and nothing else.

/// One embedded file: its name under `/assets/`, its content type and its text.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub text: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

macro_rules! asset {
    ($name:literal, $type:expr) => {
        Asset {
            name: $name,
            content_type: $type,
            text: include_str!(concat!("../assets/", $name)),
        }
    };
}

/// Every embedded file.
pub const ASSETS: &[Asset] = &[
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
    asset!("replay.js", JS),
    asset!("svg.js", JS),
    asset!("chart.js", JS),
    asset!("filters.js", JS),
    asset!("live.js", JS),
    asset!("dom.js", JS),
    asset!("play.js", JS),
    asset!("play.css", "text/css; charset=utf-8"),
    asset!("play-form.js", JS),
    asset!("play/kingdomino.js", JS),
    asset!("play/blocking.js", JS),
    asset!("play/ice-and-fire.js", JS),
    asset!("play/carcassonne.js", JS),
    asset!("play/kingdom-builder.js", JS),
    asset!("renderers/fallback.js", JS),
    asset!("renderers/kingdomino.js", JS),
    asset!("renderers/blocking.js", JS),
    asset!("renderers/ice-and-fire.js", JS),
    asset!("renderers/carcassonne.js", JS),
    asset!("renderers/kingdom-builder.js", JS),
];

/// The embedded file called `name` (the URL path after `/assets/`, not decoded: asset names
/// need no escapes, so an encoded name simply does not match).
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slug of every game, as pages name it.
    const GAMES: [&str; 5] = [
        "kingdomino",
        "blocking",
        "ice-and-fire",
        "carcassonne",
        "kingdom-builder",
    ];

    #[test]
    fn every_game_slug_has_a_renderer() {
        for slug in GAMES {
            let asset = find(&format!("renderers/{slug}.js")).expect(slug);
            assert!(asset.text.contains("export function render"), "{slug}");
        }
    }

    /// Every game a person can play has its play module (loaded by play.js as
    /// `play/<slug>.js`; a missing one would silently fall back to the generic page).
    #[test]
    fn every_playable_game_has_a_play_module() {
        for slug in GAMES {
            let asset = find(&format!("play/{slug}.js")).expect(slug);
            assert!(asset.text.contains("export "), "{slug}");
        }
    }

    #[test]
    fn pages_load_nothing_from_outside() {
        for asset in ASSETS {
            for needle in ["http://", "https://", "//cdn", "@import"] {
                // The SVG namespace URI is an identifier, not a download.
                let text = asset.text.replace("http://www.w3.org/2000/svg", "");
                assert!(!text.contains(needle), "{} contains {needle}", asset.name);
            }
        }
    }
}
