//! The shell examples of the README and of docs/development.md run as
//! written, in the order written, in a fresh folder per document (so a file
//! one example writes is there for the next), with
//! `target/release/pasang` meaning the binary under test. Exceptions, as
//! the project's notes allow: `cargo` and fuzz commands and the interactive
//! session (lines starting `$`) are not run; a `| jq` stage is cut off (jq
//! is not part of the project) and the output before it checked to be JSON
//! lines; matches and training data run 2 games (matches at 10 ms a move)
//! instead of their full length. A `# Nodes searched: N` comment is checked
//! against the output.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The shell commands of the README's indented code blocks, joined over
/// `\` line ends, with their trailing `# comment` (if any).
fn examples(readme: &str) -> Vec<(String, Option<String>)> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in readme.lines() {
        let Some(code) = line.strip_prefix("    ") else {
            continue;
        };
        let code = code.trim();
        if current.is_empty()
            && !(code.starts_with("target/release/pasang") || code.starts_with("printf "))
        {
            continue;
        }
        if let Some(head) = code.strip_suffix('\\') {
            current.push_str(head);
            continue;
        }
        current.push_str(code);
        let (command, comment) = match current.split_once("  #") {
            Some((command, comment)) => (command.trim().to_string(), Some(comment.trim().into())),
            None => (current.trim().to_string(), None),
        };
        commands.push((command, comment));
        current.clear();
    }
    commands
}

/// The command as run here: the binary under test, shorter matches and
/// suite runs, no jq.
fn adapt(command: &str, binary: &str) -> (String, bool) {
    let mut command = command.replace("target/release/pasang", binary);
    let mut json = false;
    if let Some(at) = command.find("| jq") {
        command.truncate(at);
        json = true;
    }
    if command.contains(" match ") || command.contains(" datagen ") {
        let words: Vec<String> = command.split(' ').map(str::to_string).collect();
        let mut out = Vec::new();
        let mut index = 0;
        while index < words.len() {
            match words[index].as_str() {
                "--games" => {
                    out.push("--games".to_string());
                    out.push("2".to_string());
                    index += 2;
                }
                "--movetime" => {
                    out.push("--movetime".to_string());
                    out.push("10".to_string());
                    index += 2;
                }
                _ => {
                    out.push(words[index].clone());
                    index += 1;
                }
            }
        }
        command = out.join(" ");
    }
    // The suite's file is the checkout's, and a few nodes a position do
    // to show the command works.
    if command.contains(" suite ") {
        let benches = format!(" {}/benches/", env!("CARGO_MANIFEST_DIR"));
        command = command.replace(" benches/", &benches) + " --nodes 2000";
    }
    (command, json)
}

/// Runs every example of `document` in a fresh folder and returns the
/// folder, for the caller to check what the examples wrote (and remove).
fn run_examples(document: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(document)).expect(document);
    let binary = common::PASANG;
    let folder = std::env::temp_dir().join(format!(
        "pasang-examples-{}-{}",
        document.replace('/', "-"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    for (written, comment) in &examples(&text) {
        let (command, json) = adapt(written, binary);
        let output = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(&folder)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{document} example failed ({}): {written}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        if json {
            for line in stdout.lines() {
                if let Err(error) = serde_json::from_str::<serde_json::Value>(line) {
                    panic!("{written}: not JSON ({error}): {line}");
                }
            }
        }
        if let Some(expected) = comment.as_deref().filter(|c| c.contains(": ")) {
            assert!(
                stdout.lines().any(|line| line == expected),
                "{written}: no line '{expected}' in\n{stdout}"
            );
        }
    }
    folder
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "runs perft 9, bench and matches: cargo test --release runs it"
)]
fn readme_examples_run_as_written() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(examples(&readme).len() >= 8, "{:?}", examples(&readme));
    let folder = run_examples("README.md");
    for written in ["games.pgn", "board.svg", "data.txt"] {
        assert!(folder.join(written).exists(), "{written}");
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "runs a match: cargo test --release runs it"
)]
fn development_examples_run_as_written() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("docs/development.md")).expect("docs/development.md");
    assert!(!examples(&text).is_empty());
    let folder = run_examples("docs/development.md");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_readme_leads_a_new_user_to_the_board() {
    // The set-up commands and the board in the browser come first: within
    // the first screen (about 50 lines) of a README kept under 240 lines
    // (room for a paragraph each for Learn mode and playing a friend),
    // and the first screen says a newcomer can learn the game there.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let lines: Vec<&str> = readme.lines().collect();
    let first = |needle: &str| lines.iter().position(|line| line.contains(needle));
    let run = first("    cargo run --release").expect("the run command");
    let test = first("    cargo test --release").expect("the test command");
    let site = first("    web/build.sh").expect("the static site's build command");
    assert!(
        run < test && test < site && site < 50,
        "{run} {test} {site}"
    );
    let learn = first("?mode=learn").expect("Learn mode");
    assert!(learn < 50, "Learn mode first named on line {learn}");
    assert!(lines.len() < 240, "README.md has {} lines", lines.len());
}
