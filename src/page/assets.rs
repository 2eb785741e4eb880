//! The page's files, embedded in the binary (no CDN, no build step):
//! what `pasang gui` and `pasang serve` serve and what the static site is
//! built from, with the course and the puzzles, and the page's HTML for
//! each server.

/// The page as written (`index.html`).
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's style.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// The page's scripts: ES modules, `app.js` first (the one the page
/// loads; it imports the others), each served at `/NAME`.
pub const SCRIPTS: &[(&str, &str)] = &[
    ("app.js", include_str!("assets/app.js")),
    ("app-state.js", include_str!("assets/app-state.js")),
    ("board.js", include_str!("assets/board.js")),
    ("dom.js", include_str!("assets/dom.js")),
    ("geometry.js", include_str!("assets/geometry.js")),
    ("judgement.js", include_str!("assets/judgement.js")),
    ("mode-friend.js", include_str!("assets/mode-friend.js")),
    ("mode-learn.js", include_str!("assets/mode-learn.js")),
    ("mode-puzzle.js", include_str!("assets/mode-puzzle.js")),
    ("mode-review.js", include_str!("assets/mode-review.js")),
    ("mode-room.js", include_str!("assets/mode-room.js")),
    ("mode-session.js", include_str!("assets/mode-session.js")),
    ("panel.js", include_str!("assets/panel.js")),
    ("records.js", include_str!("assets/records.js")),
    ("sharing.js", include_str!("assets/sharing.js")),
    ("sound.js", include_str!("assets/sound.js")),
    ("storage.js", include_str!("assets/storage.js")),
    ("strings.js", include_str!("assets/strings.js")),
    ("transport.js", include_str!("assets/transport.js")),
    ("wire-types.js", include_str!("assets/wire-types.js")),
    ("words.js", include_str!("assets/words.js")),
];

/// The script `name` (as served, without its leading slash), if the page has it.
pub fn script(name: &str) -> Option<&'static str> {
    SCRIPTS
        .iter()
        .find(|(script, _)| *script == name)
        .map(|(_, text)| *text)
}
/// The course of Learn mode (its file is learn's, which checks it).
pub const LESSONS_JSON: &str = crate::learn::LESSONS_JSON;
/// The puzzles of Puzzle mode (their file is puzzles', which checks it).
pub const PUZZLES_JSONL: &str = crate::puzzles::format::PUZZLES_JSONL;

/// Which server a page comes from: the page offers what that server
/// serves (a room server runs no engine).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum PageServer {
    /// `pasang gui`: a session with an engine per page.
    Sessions,
    /// `pasang serve`: rooms, no engine.
    Rooms,
}

/// The mark on `<html>` by which the page knows a room server.
const ROOMS_MARK: &str = "<html data-rooms=\"\" ";

/// The page's HTML as `server` serves it.
pub fn index(server: PageServer) -> &'static str {
    use std::sync::OnceLock;
    static ROOMS: OnceLock<String> = OnceLock::new();
    match server {
        PageServer::Sessions => INDEX_HTML,
        PageServer::Rooms => ROOMS.get_or_init(|| {
            assert!(
                INDEX_HTML.contains("<html "),
                "index.html has its <html> tag"
            );
            INDEX_HTML.replacen("<html ", ROOMS_MARK, 1)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every module a script imports is embedded: a module missing from
    /// SCRIPTS would be a 404 and a blank page on both servers.
    #[test]
    fn every_imported_module_is_served() {
        for (name, text) in SCRIPTS {
            for line in text.lines().filter(|line| line.starts_with("import ")) {
                let module = line
                    .rsplit_once("from \"./")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map(|(module, _)| module)
                    .unwrap_or_else(|| panic!("{name}: {line}"));
                assert!(script(module).is_some(), "{name} imports {module}");
            }
        }
        let on_disk = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/page/assets"))
            .unwrap()
            .filter_map(|entry| entry.unwrap().file_name().into_string().ok())
            .filter(|name| name.ends_with(".js"))
            .count();
        assert_eq!(
            on_disk,
            SCRIPTS.len(),
            "every script in assets/ is in SCRIPTS"
        );
    }

    #[test]
    fn each_server_has_its_page() {
        assert!(!index(PageServer::Sessions).contains("data-rooms"));
        assert!(index(PageServer::Rooms).contains(ROOMS_MARK));
        assert_eq!(
            index(PageServer::Rooms).len(),
            INDEX_HTML.len() + ROOMS_MARK.len() - "<html ".len()
        );
    }
}
