//! The page's script, checked (issue 69): `tsc --noEmit` reads every
//! module of src/page/assets (each starts with `// @ts-check`; its
//! tsconfig.json is there), Node's own test runner runs the unit tests of
//! the page's pure parts (tests/page/*.test.mjs), and every reason the
//! rules core gives for an illegal move (`pasang::illegal::Illegal`) has
//! English and Malay words in the page's strings table.
//!
//! Node and the pinned typescript (`npm ci` at the top folder, from
//! package-lock.json) are needed: without them the tests say so and skip,
//! and under CI=true they fail (.ci/run installs them).

mod common;

use pasang::bitboard::Square;
use pasang::illegal::Illegal;
use std::path::PathBuf;
use std::process::Command;

fn top() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether Node runs here; if not, the test is skipped (failed under CI).
fn node_or_skip(test: &str) -> bool {
    if Command::new("node").arg("--version").output().is_ok() {
        return true;
    }
    common::missing_tool(test, "node", "apt-get install nodejs");
    false
}

/// Runs `command`, failing with its output unless it succeeds.
fn run(mut command: Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_pages_script_passes_the_type_checker() {
    let test = "the_pages_script_passes_the_type_checker";
    if !node_or_skip(test) {
        return;
    }
    let tsc = top().join("node_modules/.bin/tsc");
    if !tsc.exists() {
        common::missing_tool(test, "typescript", "npm ci at the top folder");
        return;
    }
    let mut command = Command::new(tsc);
    command
        .args(["--noEmit", "-p"])
        .arg(top().join("src/page/assets"));
    run(command, "tsc --noEmit -p src/page/assets");
}

#[test]
fn every_module_of_the_page_is_type_checked() {
    let assets = top().join("src/page/assets");
    for entry in std::fs::read_dir(&assets).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with("// @ts-check\n"),
                "{} does not start with // @ts-check",
                path.display()
            );
        }
    }
}

#[test]
fn the_pages_unit_tests_pass_under_node() {
    if !node_or_skip("the_pages_unit_tests_pass_under_node") {
        return;
    }
    let mut command = Command::new("node");
    command.current_dir(top()).args(["--test", "tests/page/"]);
    run(command, "node --test tests/page/");
}

fn point(name: &str) -> Square {
    let file = usize::from(name.as_bytes()[0] - b'a');
    let rank: usize = name[1..].parse().unwrap();
    Square::new(rank - 1, file).unwrap()
}

/// One of each reason the rules core gives. The match below has no
/// wildcard: a reason added to `Illegal` does not compile here until it
/// is listed.
fn every_reason() -> Vec<Illegal> {
    let reasons = vec![
        Illegal::NotAMove { text: "x9".into() },
        Illegal::GameOver,
        Illegal::PassageFirst,
        Illegal::PassageMirror {
            file: 'i',
            south: 'c',
        },
        Illegal::PassageNotF,
        Illegal::PassageOpposite { south: 'c' },
        Illegal::PassageEmpty { file: 'd' },
        Illegal::PassageTaken,
        Illegal::EntryLands { file: 'c' },
        Illegal::NotEmpty { point: point("c4") },
        Illegal::EntryNoStone { from: point("b4") },
        Illegal::EntrySlideOnly { from: point("a4") },
        Illegal::EntryJumpOnly { from: point("b4") },
        Illegal::EntryJumpEmpty { over: point("b4") },
        Illegal::EntryTooFar,
        Illegal::OnlyKa { ka: point("c4") },
        Illegal::RookMove,
        Illegal::HoleWall,
        Illegal::HoleStop,
        Illegal::Blocked { point: point("c5") },
        Illegal::Ambiguous {
            to: point("c4"),
            moves: "b4c4n b4c4s".into(),
        },
        Illegal::OtherLines {
            to: point("c4"),
            moves: "b4c4n".into(),
        },
        Illegal::EvenLine { to: point("c4") },
        Illegal::NoCapture { to: point("c4") },
    ];
    for reason in &reasons {
        match reason {
            Illegal::NotAMove { .. }
            | Illegal::GameOver
            | Illegal::PassageFirst
            | Illegal::PassageMirror { .. }
            | Illegal::PassageNotF
            | Illegal::PassageOpposite { .. }
            | Illegal::PassageEmpty { .. }
            | Illegal::PassageTaken
            | Illegal::EntryLands { .. }
            | Illegal::NotEmpty { .. }
            | Illegal::EntryNoStone { .. }
            | Illegal::EntrySlideOnly { .. }
            | Illegal::EntryJumpOnly { .. }
            | Illegal::EntryJumpEmpty { .. }
            | Illegal::EntryTooFar
            | Illegal::OnlyKa { .. }
            | Illegal::RookMove
            | Illegal::HoleWall
            | Illegal::HoleStop
            | Illegal::Blocked { .. }
            | Illegal::Ambiguous { .. }
            | Illegal::OtherLines { .. }
            | Illegal::EvenLine { .. }
            | Illegal::NoCapture { .. } => {}
        }
    }
    reasons
}

/// The page's check of the refusals: each is worded by the page's own
/// `reasonWords` and `t`; its key must be in both languages' tables and
/// its words must fill every placeholder.
const CHECK: &str = r#"
import { STRINGS, inLanguage, t } from "./src/page/assets/strings.js";
import { reasonWords, refusalWords } from "./src/page/assets/words.js";
const refusals = JSON.parse(process.argv[1]);
const faults = [];
for (const message of refusals) {
  const [key] = reasonWords(message);
  for (const code of ["en", "ms"]) {
    if (!Object.hasOwn(STRINGS[code], key)) faults.push(`${message.reason}: no ${code} words (key ${key})`);
    const words = inLanguage(code, () => refusalWords(message));
    if (/\{\w+\}/.test(words)) faults.push(`${message.reason}: a placeholder left in the ${code} words: ${words}`);
  }
}
if (faults.length) { console.error(faults.join("\n")); process.exit(1); }
console.log(`${refusals.length} reasons worded in English and Malay`);
"#;

#[test]
fn every_illegal_reason_has_english_and_malay_words() {
    let reasons = every_reason();
    assert_eq!(reasons.len(), 24, "the rules core's reasons, one each");
    let refusals: Vec<serde_json::Value> = reasons
        .iter()
        .map(|reason| {
            let mut message = serde_json::to_value(reason).unwrap();
            message["kind"] = "illegal_move".into();
            message["move"] = "b4c4n".into();
            message["type"] = "error".into();
            message
        })
        .collect();
    if !node_or_skip("every_illegal_reason_has_english_and_malay_words") {
        return;
    }
    let mut command = Command::new("node");
    command
        .current_dir(top())
        .args(["--input-type=module", "-e", CHECK])
        .arg(serde_json::Value::Array(refusals).to_string());
    run(command, "the page's words for every reason");
}
