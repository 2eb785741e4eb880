//! docs/rules.md's examples are sessions with the engine: every fenced
//! block whose first line starts with `> ` is sent to the real binary, line
//! by line, and the block's other lines must come back in order (as whole
//! lines; the engine may print more between them).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The example blocks of `text`: each a list of lines.
fn example_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            match current.take() {
                Some(block) => {
                    if block.first().is_some_and(|first| first.starts_with("> ")) {
                        blocks.push(block);
                    }
                }
                None => current = Some(Vec::new()),
            }
        } else if let Some(block) = current.as_mut() {
            block.push(line.to_string());
        }
    }
    blocks
}

/// Marks the end of an example's output: the engine answers it with an
/// `unknown command` line, in order with the rest.
const END: &str = "end-of-example";

fn run_block(block: &[String]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pasang"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the pasang binary starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut expected = Vec::new();
    for line in block {
        match line.strip_prefix("> ") {
            Some(command) => writeln!(stdin, "{command}").expect("the engine reads"),
            None => expected.push(line.clone()),
        }
    }
    writeln!(stdin, "{END}").expect("the engine reads");
    stdin.flush().expect("flush");
    let mut output = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("piped stdout")).lines() {
        let line = line.expect("text output");
        if line.contains(END) {
            break;
        }
        output.push(line);
    }
    writeln!(stdin, "quit").expect("the engine reads");
    drop(stdin);
    let _ = child.wait();
    let mut next = 0;
    for line in &output {
        if next < expected.len() && *line == expected[next] {
            next += 1;
        }
    }
    assert!(
        next == expected.len(),
        "docs/rules.md example:\n{}\n--- expected in order, missing from here: {:?}\n--- the engine said:\n{}",
        block.join("\n"),
        expected.get(next),
        output.join("\n")
    );
}

#[test]
fn every_example_in_the_rules_document_is_what_the_engine_does() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let blocks = example_blocks(&text);
    assert!(blocks.len() >= 10, "only {} example blocks", blocks.len());
    for block in &blocks {
        run_block(block);
    }
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
