//! The page's files, embedded in the binary (no CDN, no build step):
//! what `pasang gui` and `pasang serve` serve and what the static site is
//! built from, with the course and the puzzles, and the page's HTML for
//! each server.

/// The page as written (`index.html`).
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's style.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// The page's script.
pub const APP_JS: &str = include_str!("assets/app.js");
/// The page's words in each language.
pub const STRINGS_JS: &str = include_str!("assets/strings.js");
/// The course of Learn mode.
pub const LESSONS_JSON: &str = include_str!("assets/lessons.json");
/// The puzzles of Puzzle mode.
pub const PUZZLES_JSONL: &str = include_str!("assets/puzzles.jsonl");

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
