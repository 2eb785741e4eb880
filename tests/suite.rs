//! `pasang suite` as a user runs it: the shipped trap suite read and run,
//! a suite mined from a game record, and bad files refused.

mod common;

use std::path::PathBuf;
use std::process::Output;

use pasang::suite::{Half, Kind, read};

/// The shipped suite.
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/traps.jsonl");
/// One game of the suite's self-play, whose 26th ply walks into a forced
/// loss on points.
const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trap-game.rec");

fn pasang(args: &[&str]) -> Output {
    common::pasang()
        .arg("suite")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pasang-suite-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn the_shipped_suite_has_300_checked_positions_in_two_halves() {
    let text = std::fs::read_to_string(SUITE).expect("the suite is shipped");
    let entries = match read(&text) {
        Ok(entries) => entries,
        Err(error) => panic!("the shipped suite reads: {error}"),
    };
    assert!(entries.len() >= 300, "{} positions", entries.len());
    let held_out = entries
        .iter()
        .filter(|entry| entry.half == Half::Test)
        .count();
    assert!(
        held_out * 3 >= entries.len() && held_out * 3 <= 2 * entries.len(),
        "{held_out} of {} held out",
        entries.len()
    );
    for entry in &entries {
        assert!(entry.plies > 0, "{}: no forced line", entry.id);
        assert!(
            entry.kind == Kind::Win || !entry.traps.is_empty(),
            "{}: an avoid entry names its traps",
            entry.id
        );
        assert!(
            entry.solutions.iter().all(|mv| !entry.traps.contains(mv)),
            "{}: a move both solves and loses",
            entry.id
        );
    }
}

#[test]
fn a_suite_runs_at_a_fixed_node_count_and_reports_each_part() {
    let output = pasang(&[SUITE, "--half", "test", "--nodes", "2000", "--verbose"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(SUITE).expect("the suite is shipped");
    let held_out = read(&text)
        .expect("the suite reads")
        .into_iter()
        .filter(|entry| entry.half == Half::Test)
        .count();
    let judged = stdout
        .lines()
        .filter(|line| line.contains(" solved: ") || line.contains(" missed: "))
        .count();
    assert_eq!(judged, held_out, "{stdout}");
    let total = stdout
        .lines()
        .find(|line| line.starts_with("Total: solved "))
        .unwrap_or_else(|| panic!("no total in {stdout}"));
    assert!(total.contains(&format!(" of {held_out} (")), "{total}");
    assert!(stdout.contains("held-out half: solved"), "{stdout}");
}

#[test]
fn mining_a_record_finds_its_trap_the_same_way_every_time() {
    let out = temp("mined.jsonl");
    let path = out.to_str().expect("a UTF-8 path");
    for _ in 0..2 {
        let output = pasang(&["--make", "--out", path, GAME]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let text = std::fs::read_to_string(&out).expect("the suite was written");
    let entries = read(&text).expect("the mined suite reads");
    let trap = entries
        .iter()
        .find(|entry| entry.kind == Kind::Avoid)
        .unwrap_or_else(|| panic!("no trap found in {text}"));
    assert_eq!(trap.id, "trap-game.rec:1:26");
    // The game's 26th ply, e2e3e, lost by force; e2e5e (among others) did not.
    assert!(trap.traps.contains(&"e2e3e".to_string()), "{trap:?}");
    assert!(trap.solutions.contains(&"e2e5e".to_string()), "{trap:?}");
    assert!(trap.line.starts_with("e2e3e "), "{trap:?}");
    let _ = std::fs::remove_file(&out);
}

#[test]
fn bad_suite_files_and_arguments_are_refused_by_name() {
    let junk = temp("junk.jsonl");
    std::fs::write(&junk, "{\"id\": 3}\n").expect("a temporary file");
    let output = pasang(&[junk.to_str().expect("a UTF-8 path")]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 1: not a suite entry"), "{stderr}");
    let _ = std::fs::remove_file(&junk);

    let output = pasang(&["--make", GAME]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--out"), "{stderr}");

    let output = pasang(&[SUITE, "--engine", "cmd=/nonexistent/engine"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/engine"), "{stderr}");
}
