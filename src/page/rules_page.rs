//! The rules pages. At `/rules` the players' page: how to play, in the
//! board's language, with pictures drawn by the engine's own board
//! ([`crate::svg`]) from positions checked against the rules core. Its
//! words are keys of the page's strings table (`assets/strings.js`,
//! English and Malay), filled in by the browser in the language the
//! board chose (kept in localStorage). At `/rules/spec` the exact
//! specification for programmers: the project's own docs/rules.md,
//! embedded in the binary and turned into plain HTML once, at its first
//! request, by pulldown-cmark ([`render`]: a link to another document of
//! the project keeps its words only, the server has no such page).

use std::sync::OnceLock;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::bitboard::Square;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::notation::{parse_move, parse_position};
use crate::position::Position;
use crate::rules::{Centre, KaEntry, Pattern, Rules};
use crate::svg::{Marks, render_marked};

/// The text of the rules, as the repository has it.
const RULES_MD: &str = include_str!("../../docs/rules.md");

/// The pictures the specification shows, by the name the text gives them.
pub const PICTURES: [(&str, &str); 2] = [
    (
        "img/start-pattern-1.svg",
        include_str!("../../docs/img/start-pattern-1.svg"),
    ),
    (
        "img/worked-opening.svg",
        include_str!("../../docs/img/worked-opening.svg"),
    ),
];

/// The players' page, built at its first request.
pub fn page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        let mut body = String::new();
        for section in SECTIONS {
            body.push_str(&format!(
                "<section>\n<h2 data-i18n=\"{}\"></h2>\n",
                section.title
            ));
            for part in section.parts {
                match part {
                    Part::Text(key) => body.push_str(&format!("<p data-i18n=\"{key}\"></p>\n")),
                    Part::Figure(name) => {
                        // A key of the strings table is an identifier.
                        let key = format!("rulesFig_{}", name.replace('-', "_"));
                        body.push_str(&format!(
                            "<figure><img src=\"/rules/img/players/{name}.svg\" data-ms-src=\"/rules/img/players/ms/{name}.svg\" data-i18n-alt=\"{key}\" alt=\"\" width=\"488\" height=\"488\">\
                             <figcaption data-i18n=\"{key}\"></figcaption></figure>\n"
                        ));
                    }
                }
            }
            body.push_str("</section>\n");
        }
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title data-i18n=\"rulesPageTitle\">Pasang</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{STYLE}{PLAYERS_STYLE}</style>\n\
             </head>\n<body>\n<nav><a href=\"/\" data-i18n=\"rulesBack\"></a>\n\
             <select id=\"language\" data-i18n-aria-label=\"language\"></select></nav>\n\
             <h1 data-i18n=\"rulesHeading\"></h1>\n<p data-i18n=\"rulesIntro\"></p>\n{body}\
             <p><a id=\"spec-link\" href=\"/rules/spec\" data-i18n=\"rulesSpecLink\"></a></p>\n\
             <script type=\"module\">{SCRIPT}</script>\n</body>\n</html>\n"
        )
    })
}

/// The specification (docs/rules.md), rendered at its first request.
pub fn spec() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>Pasang: the rules</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{STYLE}</style>\n\
             </head>\n<body>\n<p><a href=\"/\">Back to the board</a> · <a href=\"/rules\">How to play</a></p>\n{}</body>\n</html>\n",
            render(RULES_MD)
        )
    })
}

/// A picture of the rules pages by its path under `/rules/`: the
/// specification's, or the players' page's `img/players/NAME.svg`.
pub fn picture(path: &str) -> Option<&'static str> {
    // The Malay figures first: their prefix is the longer.
    for (prefix, drawn) in [
        ("img/players/ms/", figures_in_malay()),
        ("img/players/", figures()),
    ] {
        if let Some(name) = path
            .strip_prefix(prefix)
            .and_then(|file| file.strip_suffix(".svg"))
        {
            return drawn
                .iter()
                .find(|(figure, _)| *figure == name)
                .map(|(_, svg)| svg.as_str());
        }
    }
    PICTURES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, text)| *text)
}

/// The players' page's script: the words of the board's language (from
/// strings.js), and its own language switch, shared with the board.
const SCRIPT: &str = "import { LANGUAGES, applyLanguage, currentLanguage, setLanguage } from \"/strings.js\";\
for (const [code, name] of Object.entries(LANGUAGES)) {\
const option = document.createElement('option'); option.value = code; option.textContent = name;\
document.getElementById('language').appendChild(option); }\
document.getElementById('language').value = currentLanguage();\
const pictures = () => { for (const img of document.querySelectorAll('img[data-ms-src]')) {\
img.dataset.enSrc = img.dataset.enSrc || img.getAttribute('src');\
img.setAttribute('src', currentLanguage() === 'ms' ? img.dataset.msSrc : img.dataset.enSrc); } };\
document.getElementById('language').onchange = (event) => { setLanguage(event.target.value); pictures(); };\
applyLanguage(); pictures();";

const PLAYERS_STYLE: &str = "nav{display:flex;justify-content:space-between;align-items:center;gap:10px}\
figure{margin:12px 0}figure img{display:block;width:100%;max-width:420px}figcaption{font-size:14px;color:#d8cfc4;max-width:420px}";

/// A section of the players' page: its title and parts, as keys of the
/// strings table.
struct Section {
    title: &'static str,
    parts: &'static [Part],
}

/// A part of a section: a paragraph, or a picture with its caption
/// (`rulesFig_NAME` in the strings table).
enum Part {
    Text(&'static str),
    Figure(&'static str),
}

const SECTIONS: &[Section] = &[
    Section {
        title: "rulesBoardTitle",
        parts: &[
            Part::Text("rulesBoard1"),
            Part::Text("rulesBoard2"),
            Part::Figure("pattern-1"),
            Part::Text("rulesBoard3"),
            Part::Figure("pattern-2"),
        ],
    },
    Section {
        title: "rulesStonesTitle",
        parts: &[
            Part::Text("rulesStones1"),
            Part::Text("rulesStones2"),
            Part::Text("rulesStones3"),
        ],
    },
    Section {
        title: "rulesPassageTitle",
        parts: &[
            Part::Text("rulesPassage1"),
            Part::Figure("passage"),
            Part::Text("rulesPassage2"),
        ],
    },
    Section {
        title: "rulesEntryTitle",
        parts: &[
            Part::Text("rulesEntry1"),
            Part::Figure("entry-slide"),
            Part::Text("rulesEntry2"),
            Part::Figure("entry-jump"),
        ],
    },
    Section {
        title: "rulesKaTitle",
        parts: &[Part::Text("rulesKa1"), Part::Text("rulesKa2")],
    },
    Section {
        title: "rulesCaptureTitle",
        parts: &[
            Part::Text("rulesCapture1"),
            Part::Text("rulesCapture2"),
            Part::Figure("capture-three"),
            Part::Figure("capture-one"),
            Part::Figure("refused-cut"),
            Part::Figure("refused-even"),
            Part::Text("rulesCapture3"),
            Part::Figure("centre-open"),
        ],
    },
    Section {
        title: "rulesEndTitle",
        parts: &[
            Part::Text("rulesEnd1"),
            Part::Text("rulesEnd2"),
            Part::Text("rulesEnd3"),
            Part::Figure("suntuk"),
        ],
    },
    Section {
        title: "rulesOptionsTitle",
        parts: &[Part::Text("rulesOptions1")],
    },
];

/// What a picture shows of its position.
#[derive(Clone, Copy)]
enum Shown {
    /// The position as it stands.
    Position,
    /// A move played from it, with what it captured.
    Played(&'static str),
    /// A move from one point to another that the rules refuse.
    Refused(&'static str, &'static str),
}

/// A picture of the players' page: a position (a position string, or the
/// start of the rules' pattern), moves played to reach it, what is shown
/// and the points ringed.
struct Figure {
    name: &'static str,
    rules: Rules,
    position: Option<&'static str>,
    before: &'static [&'static str],
    shown: Shown,
    rings: &'static [&'static str],
}

const DEFAULT: Rules = Rules {
    pattern: Pattern::One,
    ka_entry: KaEntry::Slide,
    second_column: crate::rules::SecondColumn::Opposite,
    centre: Centre::Wall,
};

const FIGURES: &[Figure] = &[
    Figure {
        name: "pattern-1",
        rules: DEFAULT,
        position: None,
        before: &[],
        shown: Shown::Position,
        rings: &[],
    },
    Figure {
        name: "pattern-2",
        rules: Rules {
            pattern: Pattern::Two,
            ..DEFAULT
        },
        position: None,
        before: &[],
        shown: Shown::Position,
        rings: &[],
    },
    Figure {
        name: "passage",
        rules: DEFAULT,
        position: None,
        before: &[],
        shown: Shown::Played("c"),
        rings: &[],
    },
    Figure {
        name: "entry-slide",
        rules: DEFAULT,
        position: None,
        before: &["c", "j"],
        shown: Shown::Played("b4c4n"),
        rings: &[],
    },
    Figure {
        name: "entry-jump",
        rules: Rules {
            ka_entry: KaEntry::Jump,
            ..DEFAULT
        },
        position: None,
        before: &["c", "j"],
        shown: Shown::Played("e4c4ew"),
        rings: &[],
    },
    Figure {
        name: "capture-three",
        rules: DEFAULT,
        position: Some(
            "..........N/.........../.........../.........../.........../.....+...../.........../.........../bww.w....../.........../...S....... s 50 60 dk",
        ),
        before: &[],
        shown: Shown::Played("d1d3ew"),
        rings: &["a3"],
    },
    Figure {
        name: "capture-one",
        rules: DEFAULT,
        position: Some(
            "..........N/.........../.........../.........../.........../.....+...../ww.b......./.........../.........../.........../..S........ s 50 60 ck",
        ),
        before: &[],
        shown: Shown::Played("c1c5e"),
        rings: &["a5", "b5"],
    },
    Figure {
        name: "refused-cut",
        rules: DEFAULT,
        position: Some(
            "..........N/.........../.........../.........../.........../.....+...../.........../.........../wbw.w....../.........../...S....... s 50 60 dk",
        ),
        before: &[],
        shown: Shown::Refused("d1", "d3"),
        rings: &["c3", "e3"],
    },
    Figure {
        name: "refused-even",
        rules: DEFAULT,
        position: Some(
            "..........N/.........../.........../.........../.........../.....+...../ww.ww....../.........../.........../.........../..S........ s 50 60 ck",
        ),
        before: &[],
        shown: Shown::Refused("c1", "c5"),
        rings: &["a5", "b5", "d5", "e5"],
    },
    Figure {
        name: "centre-open",
        rules: Rules {
            centre: Centre::Open,
            ..DEFAULT
        },
        position: Some(
            "..........N/b........../b........../.........../.........../..w..+.ww../.........../.........../.........../.........../...S....... s 50 60 dk",
        ),
        before: &[],
        shown: Shown::Played("d1d6ew"),
        rings: &[],
    },
    Figure {
        name: "suntuk",
        rules: DEFAULT,
        position: Some(
            "..........N/.........../.........../.........../.........../.....+...../.........../.........../..bb......./..bb......./S.......... n 42 70 ak",
        ),
        before: &[],
        shown: Shown::Position,
        rings: &["k11"],
    },
];

/// Why a figure cannot be drawn as its table says (a fault of the table,
/// which the tests rule out).
#[derive(Debug, thiserror::Error)]
enum FigureError {
    #[error("figure {0}: bad position: {1}")]
    Position(&'static str, String),
    #[error("figure {0}: move '{1}': {2}")]
    Move(&'static str, &'static str, String),
    #[error("figure {0}: no point '{1}'")]
    Point(&'static str, &'static str),
    #[error("figure {0}: the refused move {1}{2} is legal")]
    NotRefused(&'static str, &'static str, &'static str),
}

/// A point by its name (`c4`).
fn point(figure: &'static str, name: &'static str) -> Result<Square, FigureError> {
    Square::all()
        .find(|square| square.to_string() == name)
        .ok_or(FigureError::Point(figure, name))
}

impl Figure {
    /// The position shown, the move played into it (with the position
    /// before), and the marks.
    fn draw(&self, ka_letters: Option<[&'static str; 2]>) -> Result<String, FigureError> {
        let text = self.position.map_or_else(
            || self.rules.pattern.start_position_string(),
            str::to_string,
        );
        let mut position = parse_position(&text)
            .map_err(|error| FigureError::Position(self.name, error.to_string()))?;
        let play = |position: &Position, text: &'static str| -> Result<Move, FigureError> {
            parse_move(position, &self.rules, text)
                .map_err(|error| FigureError::Move(self.name, text, error.to_string()))
        };
        for text in self.before {
            position = position.play(play(&position, text)?);
        }
        let mut marks = Marks {
            ka_letters,
            ..Marks::default()
        };
        for name in self.rings {
            marks.rings.push(point(self.name, name)?);
        }
        let mut last = None;
        match self.shown {
            Shown::Position => {}
            Shown::Played(text) => {
                let mv = play(&position, text)?;
                last = Some((position, mv));
                position = position.play(mv);
            }
            Shown::Refused(from, to) => {
                let (from_square, to_square) = (point(self.name, from)?, point(self.name, to)?);
                let legal = legal_moves(&position, &self.rules);
                if legal
                    .as_slice()
                    .iter()
                    .any(|mv| !mv.is_passage() && mv.from() == from_square && mv.to() == to_square)
                {
                    return Err(FigureError::NotRefused(self.name, from, to));
                }
                marks.refused = Some((from_square, to_square));
            }
        }
        Ok(render_marked(&position, last, &marks))
    }
}

/// The players' page's pictures by name, drawn once; a figure the table
/// gets wrong is left out (the tests see to it that none is).
fn figures() -> &'static [(&'static str, String)] {
    static FIGURES_DRAWN: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    FIGURES_DRAWN.get_or_init(|| draw_all(None))
}

/// The same pictures for the page in Malay: North's ka is marked U
/// (Utara), as on the board.
fn figures_in_malay() -> &'static [(&'static str, String)] {
    static FIGURES_DRAWN: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    FIGURES_DRAWN.get_or_init(|| draw_all(Some(["S", "U"])))
}

/// Every figure that draws, with the kas lettered as given.
fn draw_all(ka_letters: Option<[&'static str; 2]>) -> Vec<(&'static str, String)> {
    FIGURES
        .iter()
        .filter_map(|figure| figure.draw(ka_letters).ok().map(|svg| (figure.name, svg)))
        .collect()
}

const STYLE: &str = "body{max-width:46em;margin:0 auto;padding:10px 14px;font:16px/1.5 system-ui,sans-serif;\
background:#2b2622;color:#eee}a{color:#e8c47a}pre{background:#1f1b18;padding:8px;overflow-x:auto;\
font-size:14px}code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}pre code{overflow-wrap:normal}table{border-collapse:collapse;display:block;\
overflow-x:auto}td,th{border:1px solid #5a4c40;padding:3px 8px}img{max-width:100%;height:auto;background:#fff}";

/// Markdown as HTML, by pulldown-cmark (CommonMark, with tables): each
/// heading gets an id from its words, so that the text's `#anchor` links
/// lead somewhere; a link to another document of the project keeps its
/// words only (the server has no such page); a picture the rules pages
/// serve is linked under `/rules/`, another keeps its words; HTML in the
/// text is shown as text.
pub fn render(markdown: &str) -> String {
    let mut events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let mut start = None;
    let mut words = String::new();
    for at in 0..events.len() {
        match &events[at] {
            Event::Start(Tag::Heading { .. }) => {
                start = Some(at);
                words.clear();
            }
            Event::Text(text) | Event::Code(text) if start.is_some() => words.push_str(text),
            Event::End(TagEnd::Heading(_)) => {
                if let Some(Event::Start(Tag::Heading { id, .. })) =
                    start.take().map(|at| &mut events[at])
                {
                    *id = Some(slug(&words).into());
                }
            }
            _ => {}
        }
    }
    // Links and pictures do not nest in the text: one flag each.
    let (mut link_dropped, mut picture_dropped) = (false, false);
    let events = events.into_iter().filter_map(|event| match event {
        Event::Start(Tag::Link { dest_url, .. })
            if !(dest_url.starts_with('#') || dest_url.starts_with("https://")) =>
        {
            link_dropped = true;
            None
        }
        Event::End(TagEnd::Link) if link_dropped => {
            link_dropped = false;
            None
        }
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => match picture(&dest_url) {
            Some(_) => Some(Event::Start(Tag::Image {
                link_type,
                dest_url: format!("/rules/{dest_url}").into(),
                title,
                id,
            })),
            None => {
                picture_dropped = true;
                None
            }
        },
        Event::End(TagEnd::Image) if picture_dropped => {
            picture_dropped = false;
            None
        }
        Event::Html(text) | Event::InlineHtml(text) => Some(Event::Text(text)),
        other => Some(other),
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// An id for a heading: lower case, words joined by `-`.
fn slug(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if (c == ' ' || c == '-') && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_lines_are_code_kept_as_written() {
        let html = render("Text:\n\n    a b  c\n    wwww/bbbb s 0 0 --\n\nMore.\n");
        assert!(
            html.contains("<pre><code>a b  c\nwwww/bbbb s 0 0 --\n</code></pre>"),
            "{html}"
        );
        assert!(html.contains("<p>More.</p>"), "{html}");
    }

    #[test]
    fn the_markdown_the_rules_use_is_rendered() {
        let html = render(
            "# Title\n\nA *word* and `c4` and **two**\nlines, [rules](rules.md), [below](#title).\n\n\
             - one\n  more\n- two\n\n| a | b |\n|---|---:|\n| `x` | <y> |\n\n```\n> p & q\n```\n\n\
             ![Start](img/start-pattern-1.svg)\n\n![Gone](img/none.svg) <b>raw</b>\n",
        );
        assert!(html.contains("<h1 id=\"title\">Title</h1>"), "{html}");
        assert!(
            html.contains(
                "<p>A <em>word</em> and <code>c4</code> and <strong>two</strong>\nlines, rules, \
                 <a href=\"#title\">below</a>.</p>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<ul>\n<li>one\nmore</li>\n<li>two</li>\n</ul>"),
            "{html}"
        );
        assert!(html.contains("<th>a</th>"), "{html}");
        assert!(
            html.contains(
                "<tr><td><code>x</code></td><td style=\"text-align: right\">&lt;y&gt;</td></tr>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<pre><code>&gt; p &amp; q\n</code></pre>"),
            "{html}"
        );
        assert!(
            html.contains("<img src=\"/rules/img/start-pattern-1.svg\" alt=\"Start\""),
            "{html}"
        );
        assert!(
            html.contains("<p>Gone &lt;b&gt;raw&lt;/b&gt;</p>"),
            "{html}"
        );
    }

    /// Every heading of the specification has an id, every `#anchor` of
    /// it leads to one, and no link leads out of it but to the board and
    /// the rules pages.
    #[test]
    fn the_specifications_links_lead_somewhere() {
        let page = spec();
        let links: Vec<&str> = page
            .split("href=\"")
            .skip(1)
            .filter_map(|rest| rest.split_once('"').map(|(target, _)| target))
            .collect();
        let anchors: Vec<&str> = links
            .iter()
            .filter_map(|link| link.strip_prefix('#'))
            .collect();
        // Each heading has its id, to be linked to from outside.
        assert!(page.matches("<h2 id=\"").count() >= 5, "{page}");
        for anchor in anchors {
            assert!(page.contains(&format!(" id=\"{anchor}\"")), "#{anchor}");
        }
        for link in links {
            assert!(
                link.starts_with('#') || ["/", "/rules", "data:,"].contains(&link),
                "{link}"
            );
        }
        assert!(page.contains("<table>"));
        assert!(!page.contains("rules.md"));
    }

    #[test]
    fn the_specification_is_whole() {
        let page = spec();
        assert!(page.contains("<title>Pasang: the rules</title>"));
        assert!(page.contains("<h2 id=\"the-board\">The board</h2>"));
        assert!(page.contains("<img src=\"/rules/img/start-pattern-1.svg\""));
        assert!(page.contains("href=\"/rules\""));
        assert!(picture("img/start-pattern-1.svg").unwrap().contains("<svg"));
        assert!(picture("../Cargo.toml").is_none());
        assert!(picture("img/players/nothing.svg").is_none());
    }

    #[test]
    fn the_malay_pictures_mark_norths_ka_u_as_the_board_does() {
        let page = page();
        let mut kas = 0;
        for (name, english) in figures() {
            let malay = picture(&format!("img/players/ms/{name}.svg")).unwrap();
            assert!(page.contains(&format!("data-ms-src=\"/rules/img/players/ms/{name}.svg\"")));
            let norths = english.matches(">N</text>").count();
            assert_eq!(malay.matches(">U</text>").count(), norths, "{name}");
            assert_eq!(malay.matches(">N</text>").count(), 0, "{name}");
            kas += norths;
        }
        assert!(kas > 0, "some picture shows North's ka");
    }

    #[test]
    fn every_figure_is_drawn_as_its_table_says() {
        for figure in FIGURES {
            let svg = figure.draw(None).unwrap_or_else(|error| panic!("{error}"));
            assert!(svg.starts_with("<svg"), "{}", figure.name);
            assert_eq!(
                picture(&format!("img/players/{}.svg", figure.name)),
                Some(svg.as_str())
            );
            // Played moves show what they take; refused ones their cross.
            match figure.shown {
                Shown::Played(_) => assert!(svg.contains(" captured</title>"), "{}", figure.name),
                Shown::Refused(..) => {
                    assert!(svg.contains("stroke-dasharray=\"8 6\""), "{}", figure.name)
                }
                Shown::Position => {}
            }
            assert!(
                !svg.contains("to move"),
                "no English caption in {}",
                figure.name
            );
        }
    }

    #[test]
    fn the_pictures_say_what_their_captions_say() {
        let taken = |name: &str| -> Vec<String> {
            let svg = picture(&format!("img/players/{name}.svg")).unwrap();
            let mut points: Vec<String> = svg
                .split("<title>")
                .filter_map(|part| part.split_once(" captured</title>"))
                .map(|(point, _)| point.to_string())
                .collect();
            points.sort();
            points
        };
        assert_eq!(taken("passage"), ["c1", "c2", "c3", "c4", "c5"]);
        assert_eq!(taken("entry-slide"), ["c6", "c7", "c8"]);
        assert_eq!(taken("entry-jump"), ["a4", "b4", "d4"]);
        assert_eq!(taken("capture-three"), ["b3", "c3", "e3"]);
        assert_eq!(taken("capture-one"), ["d5"]);
        assert_eq!(taken("centre-open"), ["c6", "h6", "i6"]);
        // Under the wall only c6 could be taken from d6.
        let wall = Figure {
            rules: DEFAULT,
            shown: Shown::Played("d1d6w"),
            ..FIGURES
                .iter()
                .find(|f| f.name == "centre-open")
                .map(copy)
                .unwrap()
        };
        let svg = wall.draw(None).unwrap();
        assert_eq!(svg.matches(" captured</title>").count(), 1);
        assert!(svg.contains("c6 captured"));
        // Suntuk: the side to move has no move while stones are left.
        let suntuk = FIGURES.iter().find(|f| f.name == "suntuk").unwrap();
        let position = parse_position(suntuk.position.unwrap()).unwrap();
        assert!(legal_moves(&position, &suntuk.rules).is_empty());
    }

    fn copy(figure: &Figure) -> Figure {
        Figure {
            name: figure.name,
            rules: figure.rules,
            position: figure.position,
            before: figure.before,
            shown: figure.shown,
            rings: figure.rings,
        }
    }

    #[test]
    fn a_refused_move_that_is_legal_is_caught() {
        let figure = Figure {
            name: "wrong",
            shown: Shown::Refused("d1", "d3"),
            ..copy(FIGURES.iter().find(|f| f.name == "capture-three").unwrap())
        };
        assert!(matches!(
            figure.draw(None),
            Err(FigureError::NotRefused(..))
        ));
    }

    /// The page's keys, each in both languages of the strings table.
    #[test]
    fn every_word_of_the_players_page_is_in_both_languages() {
        let strings = include_str!("assets/strings.js");
        let page = page();
        let keys: Vec<&str> = page
            .split("data-i18n")
            .skip(1)
            .filter_map(|part| part.split_once("=\"").map(|(_, rest)| rest))
            .filter_map(|rest| rest.split_once('"').map(|(key, _)| key))
            .collect();
        assert!(keys.len() > 30, "{keys:?}");
        for key in keys {
            let entry = format!("\n    {key}: \"");
            assert_eq!(strings.matches(&entry).count(), 2, "{key} in en and ms");
        }
        for section in SECTIONS {
            for part in section.parts {
                if let Part::Figure(name) = part {
                    assert!(
                        picture(&format!("img/players/{name}.svg")).is_some(),
                        "{name}"
                    );
                }
            }
        }
    }
}
