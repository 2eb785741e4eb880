//! The transcripts of PROTOCOL.md, docs/rules.md, docs/session.md and
//! docs/learn.md are sessions with the engine: every fenced block with
//! lines starting `> ` is sent to the real binary, and the block's other
//! lines must come back in order (the engine may print more between them).
//! In an expected line `…` stands for any text; a line `...` (lines left
//! out) and `#` comments are skipped; `quit` is left to the end. A block
//! right after `<!-- not run: <why> -->` depends on timing and is not run,
//! but must not quote node counts; the UGI transcript (`<!-- transcript:
//! ugi`) is replayed by tests/ugi.rs. The documents' links are checked too:
//! every relative link names a file that exists and, with a `#`, one of its
//! headings; and the command that makes docs/gui.png (docs/screenshot.sh)
//! is run.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{Session, matches_pattern};

/// A transcript block: its lines and whether it is marked not to be run.
struct Block {
    lines: Vec<String>,
    run: bool,
}

/// The transcript blocks of `text`.
fn example_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    let mut previous = "";
    let mut marked = false;
    for line in text.lines() {
        if line.starts_with("```") {
            match current.take() {
                Some(lines) => {
                    if lines.iter().any(|line| line.starts_with("> ")) {
                        blocks.push(Block {
                            lines,
                            run: !marked,
                        });
                    }
                }
                None => {
                    // UGI's transcript uses `<` markers and has its own
                    // replay in tests/ugi.rs.
                    marked = previous.starts_with("<!-- not run")
                        || previous.starts_with("<!-- transcript: ugi");
                    current = Some(Vec::new());
                }
            }
        } else if let Some(block) = current.as_mut() {
            block.push(line.to_string());
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    blocks
}

/// Whether `line` matches `pattern`, in which `…` stands for any text.
fn matches(pattern: &str, line: &str) -> bool {
    matches_pattern(pattern, "…", line)
}

/// Marks the end of an example's output: the engine answers it with an
/// `unknown command` line, in order with the rest.
const END: &str = "end-of-example";

/// A liveness bound for one example (some run perft or bench), not a
/// performance claim.
const EXAMPLE: Duration = Duration::from_secs(300);

fn run_block(document: &str, block: &[String]) {
    let mut engine = Session::spawn();
    let mut expected = Vec::new();
    for line in block {
        match line.strip_prefix("> ") {
            Some("quit") => {}
            Some(command) => engine.send(command),
            None if line == "..." || line.starts_with('#') => {}
            None => expected.push(line.clone()),
        }
    }
    engine.send(END);
    let mut output =
        engine.read_until("the end of the example", |line| line.contains(END), EXAMPLE);
    output.pop();
    engine.quit(EXAMPLE);
    let mut next = 0;
    for line in &output {
        if next < expected.len() && matches(&expected[next], line) {
            next += 1;
        }
    }
    assert!(
        next == expected.len(),
        "{document} example:\n{}\n--- expected in order, missing from here: {:?}\n--- the engine said:\n{}",
        block.join("\n"),
        expected.get(next),
        output.join("\n")
    );
}

/// Runs every transcript of `document`; returns how many ran.
fn check_document(document: &str) -> usize {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(document)).expect(document);
    let mut ran = 0;
    for block in example_blocks(&text) {
        if block.run {
            run_block(document, &block.lines);
            ran += 1;
        } else {
            for line in &block.lines {
                let counted = ["nodes ", "nps ", "Nodes searched: ", "Nodes searched  : "]
                    .iter()
                    .any(|key| {
                        line.split(key)
                            .skip(1)
                            .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                    });
                assert!(
                    !counted,
                    "{document}: a transcript not run quotes a count: {line}"
                );
            }
        }
    }
    ran
}

#[test]
fn every_example_in_the_rules_document_is_what_the_engine_does() {
    let ran = check_document("docs/rules.md");
    assert!(ran >= 10, "only {ran} example blocks");
}

#[test]
fn every_transcript_in_the_protocol_document_is_what_the_engine_does() {
    let ran = check_document("PROTOCOL.md");
    assert!(ran >= 9, "only {ran} transcripts");
}

#[test]
fn every_transcript_in_the_sessions_document_is_what_the_engine_does() {
    // Everything up to the UGI session runs; the timed sessions after it
    // only quote no counts.
    let ran = check_document("docs/session.md");
    assert!(ran >= 11, "only {ran} transcripts");
}

#[test]
fn the_lessons_document_builds_positions_as_the_engine_does() {
    let ran = check_document("docs/learn.md");
    assert!(ran >= 1, "only {ran} transcripts");
}

#[test]
fn the_search_notes_quote_no_counts() {
    // docs/search.md's one transcript depends on the machine: not run.
    let ran = check_document("docs/search.md");
    assert_eq!(ran, 0);
}

/// The documents whose transcripts the tests above check.
const CHECKED: [&str; 5] = [
    "PROTOCOL.md",
    "docs/rules.md",
    "docs/session.md",
    "docs/search.md",
    "docs/learn.md",
];

/// Every Markdown document of the repository: the top folder's and docs/.
fn documents() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut documents = Vec::new();
    for folder in ["", "docs"] {
        let entries = std::fs::read_dir(root.join(folder)).expect("a folder of documents");
        for entry in entries {
            let name = entry.expect("a folder entry").file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".md") {
                documents.push(if folder.is_empty() {
                    name.to_string()
                } else {
                    format!("{folder}/{name}")
                });
            }
        }
    }
    documents.sort();
    documents
}

#[test]
fn no_document_has_transcripts_that_no_test_checks() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let documents = documents();
    assert!(documents.iter().any(|d| d == "README.md"), "{documents:?}");
    for document in documents {
        let text = std::fs::read_to_string(root.join(&document)).expect("a document");
        let blocks = example_blocks(&text);
        assert!(
            blocks.is_empty() || CHECKED.contains(&document.as_str()),
            "{document} has {} transcript(s): add it to CHECKED in tests/docs.rs",
            blocks.len()
        );
    }
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces made `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings (outside code blocks), with
/// GitHub's `-1`, `-2` for repeated ones.
fn anchors(text: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            code = !code;
        }
        if code || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = anchor(heading);
        let mut name = base.clone();
        let mut count = 0;
        while anchors.contains(&name) {
            count += 1;
            name = format!("{base}-{count}");
        }
        anchors.push(name);
    }
    anchors
}

/// The targets of a Markdown text's inline links `[text](target)` outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            code = !code;
        }
        if code || line.starts_with("    ") {
            continue;
        }
        // Drop code spans, which may hold `](` as plain text.
        let mut plain = String::new();
        for (index, part) in line.split('`').enumerate() {
            if index % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                links.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    links
}

#[test]
fn every_link_between_the_documents_leads_somewhere() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for document in documents() {
        let path = root.join(&document);
        let text = std::fs::read_to_string(&path).expect("a document");
        let folder = path.parent().expect("a folder").to_path_buf();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match link.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                path.clone()
            } else {
                folder.join(file)
            };
            assert!(
                target.exists(),
                "{document}: the link ({link}) leads to no file"
            );
            if let Some(fragment) = fragment {
                let target_text = std::fs::read_to_string(&target).expect("a linked document");
                assert!(
                    anchors(&target_text).iter().any(|a| a == fragment),
                    "{document}: the link ({link}) names no heading of {}",
                    target.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} links");
}

#[test]
fn anchors_are_github_s() {
    assert_eq!(anchor(" Game records (`--out`)"), "game-records---out");
    assert_eq!(anchor(" 1. Lines and timing"), "1-lines-and-timing");
    assert_eq!(
        anchor(" Re-measured on 2026-11-25, evening (a69a4a4)"),
        "re-measured-on-2026-11-25-evening-a69a4a4"
    );
    assert_eq!(anchors("# A\n## A\n```\n# B\n```\n## B"), ["a", "a-1", "b"]);
    assert_eq!(
        links("see [x](a.md#b) and `[y](not.md)` or [z](c.md)"),
        ["a.md#b", "c.md"]
    );
}

#[test]
fn wildcards_match_any_text() {
    assert!(matches(
        "info depth 1 nodes … pv a",
        "info depth 1 nodes 19 pv a"
    ));
    assert!(matches("bestmove …", "bestmove c ponder j"));
    assert!(matches("… pv b5c5ew", "info x pv b5c5ew"));
    assert!(!matches("info depth 2 …", "info depth 1 nodes 2"));
    assert!(!matches("a … c", "a b d"));
    // The ends do not overlap: "a" is not "a…a".
    assert!(!matches("a…a", "a"));
    // UGI's transcript writes `...` for any text.
    assert!(matches_pattern("bestmove ...", "...", "bestmove g"));
    assert!(matches_pattern(
        "info depth 1 ... pv ...",
        "...",
        "info depth 1 x pv c"
    ));
    assert!(!matches_pattern("info depth 1 ...", "...", "info depth 2"));
    assert!(matches_pattern("ugiok", "...", "ugiok"));
}

#[test]
fn the_rules_document_is_linked_and_its_pictures_exist() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(readme.contains("(docs/rules.md)"));
    let protocol = std::fs::read_to_string(root.join("PROTOCOL.md")).expect("PROTOCOL.md");
    assert!(protocol.contains("(docs/rules.md)"));
    let text = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    for picture in ["img/start-pattern-1.svg", "img/worked-opening.svg"] {
        assert!(text.contains(picture));
        assert!(root.join("docs").join(picture).exists(), "{picture}");
    }
}

/// The first installed Chromium, by the names Debian and others give it.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            std::process::Command::new(name)
                .arg("--version")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        })
}

#[test]
fn the_screenshot_command_makes_a_picture_of_the_board() {
    // docs/development.md's command for docs/gui.png, run as documented but
    // for one second and with the binary under test.
    let Some(browser) = chromium() else {
        // Under CI a missing browser is a failure: a green run means the
        // documented command ran.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "Chromium is missing under CI=true"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped the_screenshot_command_makes_a_picture_of_the_board: Chromium is not \
             installed (apt-get install chromium; .ci/run installs it when it can)"
        );
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let picture = std::env::temp_dir().join(format!("pasang-shot-{}.png", std::process::id()));
    let output = std::process::Command::new("sh")
        .arg(root.join("docs/screenshot.sh"))
        .arg(&picture)
        .args(["?mode=analyse&moves=c%20j", "640x480", "1"])
        .env("PASANG", common::PASANG)
        .env("CHROMIUM", browser)
        .current_dir(&root)
        .output()
        .expect("sh runs");
    assert!(
        output.status.success(),
        "docs/screenshot.sh failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let png = std::fs::read(&picture).expect("the picture");
    let _ = std::fs::remove_file(&picture);
    // A PNG's signature, then its header chunk with the width and height.
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (640, 480));
    // The documented picture exists and is a PNG too.
    let shipped = std::fs::read(root.join("docs/gui.png")).expect("docs/gui.png");
    assert_eq!(&shipped[..8], b"\x89PNG\r\n\x1a\n");
}
