//! The transcripts of docs/rules.md and PROTOCOL.md are sessions with the
//! engine: every fenced block with lines starting `> ` is sent to the real
//! binary, and the block's other lines must come back in order (the engine
//! may print more between them). In an expected line `…` stands for any
//! text; a line `...` (lines left out) and `#` comments are skipped; `quit`
//! is left to the end. A block right after `<!-- not run: <why> -->`
//! depends on timing and is not run, but must not quote node counts; the
//! UGI transcript (`<!-- transcript: ugi`) is replayed by tests/ugi.rs.

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
    assert!(ran >= 15, "only {ran} transcripts");
}

#[test]
fn the_search_notes_quote_no_counts() {
    // docs/search.md's one transcript depends on the machine: not run.
    let ran = check_document("docs/search.md");
    assert_eq!(ran, 0);
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
