//! The rules page at `/rules`: the project's own docs/rules.md, embedded in
//! the binary and turned into plain HTML once. Only what that text uses is
//! rendered: headings, paragraphs, lists, tables, code blocks, pictures,
//! `code`, **strong** and links (a link to another document of the project
//! keeps its words only: the server has no such page).

use std::sync::OnceLock;

/// The text of the rules, as the repository has it.
const RULES_MD: &str = include_str!("../../docs/rules.md");

/// The pictures the rules show, by the name the text gives them.
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

/// The page, rendered at its first request.
pub fn page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>Pasang: the rules</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{STYLE}</style>\n\
             </head>\n<body>\n<p><a href=\"/\">Back to the board</a></p>\n{}</body>\n</html>\n",
            render(RULES_MD)
        )
    })
}

/// A picture of the rules by its path under `/rules/`.
pub fn picture(path: &str) -> Option<&'static str> {
    PICTURES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, text)| *text)
}

const STYLE: &str = "body{max-width:46em;margin:0 auto;padding:10px 14px;font:16px/1.5 system-ui,sans-serif;\
background:#2b2622;color:#eee}a{color:#e8c47a}pre{background:#1f1b18;padding:8px;overflow-x:auto;\
font-size:14px}code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}pre code{overflow-wrap:normal}table{border-collapse:collapse;display:block;\
overflow-x:auto}td,th{border:1px solid #5a4c40;padding:3px 8px}img{max-width:100%;height:auto;background:#fff}";

/// What the renderer is in the middle of.
#[derive(PartialEq)]
enum Block {
    None,
    Paragraph,
    List(&'static str),
    Table,
    Code,
    /// A code block by indentation (board diagrams, position strings).
    Indented,
}

/// Markdown (the part docs/rules.md uses) as HTML.
pub fn render(markdown: &str) -> String {
    let mut html = String::new();
    let mut block = Block::None;
    for line in markdown.lines() {
        if block == Block::Code {
            if line.starts_with("```") {
                close(&mut html, &mut block);
            } else {
                html.push_str(&escape(line));
                html.push('\n');
            }
            continue;
        }
        let trimmed = line.trim();
        if line.starts_with("```") {
            close(&mut html, &mut block);
            html.push_str("<pre><code>");
            block = Block::Code;
        } else if trimmed.is_empty() {
            close(&mut html, &mut block);
        } else if let Some(code) = line
            .strip_prefix("    ")
            .filter(|_| matches!(block, Block::None | Block::Indented))
        {
            // As Markdown: indented lines that do not continue a paragraph
            // or a list are code, kept as written (and scrolled, not
            // wrapped, on a narrow screen).
            if block != Block::Indented {
                html.push_str("<pre><code>");
                block = Block::Indented;
            }
            html.push_str(&escape(code));
            html.push('\n');
        } else if let Some((level, title)) = heading(line) {
            close(&mut html, &mut block);
            html.push_str(&format!(
                "<h{level} id=\"{}\">{}</h{level}>\n",
                slug(title),
                inline(title)
            ));
        } else if trimmed.starts_with('|') {
            table_row(&mut html, &mut block, trimmed);
        } else if let Some((tag, item)) = list_item(line) {
            if block == Block::List(tag) {
                html.push_str("</li>\n<li>");
            } else {
                close(&mut html, &mut block);
                html.push_str(&format!("<{tag}>\n<li>"));
                block = Block::List(tag);
            }
            html.push_str(&inline(item));
        } else if let Some(picture) = image(trimmed) {
            close(&mut html, &mut block);
            html.push_str(&picture);
        } else {
            // A paragraph's line, or a list item's next line.
            match block {
                Block::Paragraph | Block::List(_) => html.push(' '),
                _ => {
                    close(&mut html, &mut block);
                    html.push_str("<p>");
                    block = Block::Paragraph;
                }
            }
            html.push_str(&inline(trimmed));
        }
    }
    close(&mut html, &mut block);
    html
}

/// Ends the open block, if any.
fn close(html: &mut String, block: &mut Block) {
    match block {
        Block::Paragraph => html.push_str("</p>\n"),
        Block::List(tag) => html.push_str(&format!("</li></{tag}>\n")),
        Block::Table => html.push_str("</table>\n"),
        Block::Code | Block::Indented => html.push_str("</code></pre>\n"),
        Block::None => {}
    }
    *block = Block::None;
}

/// A table's row (`| a | b |`), opening the table at its first.
fn table_row(html: &mut String, block: &mut Block, trimmed: &str) {
    if *block != Block::Table {
        close(html, block);
        html.push_str("<table>\n");
        *block = Block::Table;
    }
    let cells: Vec<&str> = trimmed
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    // The row under the head, `|---|---:|`, only aligns.
    if cells
        .iter()
        .all(|c| c.chars().all(|c| matches!(c, '-' | ':')))
    {
        return;
    }
    let head = !html.ends_with("</tr>\n");
    let tag = if head { "th" } else { "td" };
    html.push_str("<tr>");
    for cell in cells {
        html.push_str(&format!("<{tag}>{}</{tag}>", inline(cell)));
    }
    html.push_str("</tr>\n");
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let title = line[level..].strip_prefix(' ')?;
    (1..=6).contains(&level).then_some((level, title.trim()))
}

fn list_item(line: &str) -> Option<(&'static str, &str)> {
    if let Some(item) = line.strip_prefix("- ") {
        return Some(("ul", item));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let item = line[digits..].strip_prefix(". ")?;
    (digits > 0).then_some(("ol", item))
}

/// `![words](img/x.svg)` on a line of its own.
fn image(line: &str) -> Option<String> {
    let rest = line.strip_prefix("![")?;
    let (alt, rest) = rest.split_once("](")?;
    let path = rest.strip_suffix(')')?;
    picture(path)?;
    Some(format!(
        "<p><img src=\"/rules/{}\" alt=\"{}\"></p>\n",
        escape(path),
        escape(alt)
    ))
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

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line's inline parts: `code`, **strong**, *emphasis*, [links](...).
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            out.push_str(&format!("<code>{}</code>", escape(&after[..end])));
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix("**")
            && let Some(end) = after.find("**")
        {
            out.push_str(&format!("<strong>{}</strong>", inline(&after[..end])));
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix('*')
            && let Some(end) = after.find('*')
            && end > 0
        {
            out.push_str(&format!("<em>{}</em>", inline(&after[..end])));
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix('[')
            && let Some((words, tail)) = after.split_once("](")
            && let Some((target, tail)) = tail.split_once(')')
        {
            if let Some(anchor) = target.strip_prefix('#') {
                out.push_str(&format!(
                    "<a href=\"#{}\">{}</a>",
                    escape(anchor),
                    inline(words)
                ));
            } else {
                // Another document of the project: its name only.
                out.push_str(&inline(words));
            }
            rest = tail;
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push_str(&escape(&c.to_string()));
            rest = &rest[c.len_utf8()..];
        }
    }
    out
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
            "# Title\n\nA *word* and `c4` and **two**\nlines, [rules](rules.md).\n\n\
             - one\n  more\n- two\n\n| a | b |\n|---|---:|\n| `x` | <y> |\n\n```\n> p & q\n```\n",
        );
        assert!(html.contains("<h1 id=\"title\">Title</h1>"), "{html}");
        assert!(html.contains(
            "<p>A <em>word</em> and <code>c4</code> and <strong>two</strong> lines, rules.</p>"
        ));
        assert!(
            html.contains("<ul>\n<li>one more</li>\n<li>two</li></ul>"),
            "{html}"
        );
        assert!(
            html.contains(
                "<tr><th>a</th><th>b</th></tr>\n<tr><td><code>x</code></td><td>&lt;y&gt;</td></tr>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<pre><code>&gt; p &amp; q\n</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn the_rules_page_is_whole() {
        let page = page();
        assert!(page.contains("<title>Pasang: the rules</title>"));
        assert!(page.contains("<h2 id=\"the-board\">The board</h2>"));
        assert!(page.contains("<img src=\"/rules/img/start-pattern-1.svg\""));
        assert!(picture("img/start-pattern-1.svg").unwrap().contains("<svg"));
        assert!(picture("../Cargo.toml").is_none());
    }
}
