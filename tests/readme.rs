//! The README's shell examples run as written, in the order written, in a
//! fresh folder (so a file one example writes is there for the next), with
//! `target/release/pasang` meaning the binary under test. Exceptions, as
//! the project's notes allow: `cargo` and fuzz commands and the interactive
//! session (lines starting `$`) are not run; a `| jq` stage is cut off (jq
//! is not part of the project) and the output before it checked to be JSON
//! lines; matches run 2 games at 10 ms a move instead of their full
//! length. A `# Nodes searched: N` comment is checked against the output.

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

/// The command as run here: the binary under test, shorter matches, no jq.
fn adapt(command: &str, binary: &str) -> (String, bool) {
    let mut command = command.replace("target/release/pasang", binary);
    let mut json = false;
    if let Some(at) = command.find("| jq") {
        command.truncate(at);
        json = true;
    }
    if command.contains(" match ") {
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
    (command, json)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "runs perft 9, bench and matches: cargo test --release runs it"
)]
fn readme_examples_run_as_written() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let binary = common::PASANG;
    let folder = std::env::temp_dir().join(format!("pasang-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    let examples = examples(&readme);
    assert!(examples.len() >= 10, "{examples:?}");
    for (written, comment) in &examples {
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
            "README example failed ({}): {written}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        if json {
            for line in stdout.lines() {
                assert!(
                    serde_json::from_str::<serde_json::Value>(line).is_ok(),
                    "{written}: not JSON: {line}"
                );
            }
        }
        if let Some(expected) = comment.as_deref().filter(|c| c.contains(": ")) {
            assert!(
                stdout.lines().any(|line| line == expected),
                "{written}: no line '{expected}' in\n{stdout}"
            );
        }
    }
    assert!(folder.join("games.pgn").exists());
    assert!(folder.join("board.svg").exists());
    let _ = std::fs::remove_dir_all(&folder);
}
