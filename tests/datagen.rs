//! `pasang datagen` run as a user runs it: a few games at tiny node
//! counts, the file read back line by line.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Output;

use pasang::datagen::format::{Header, SearchLimit, scan};
use pasang::datagen::{DataRecord, DataResult};
use pasang::position::Player;

/// Runs `pasang datagen` with `args` and no input.
fn pasang(args: &[&str]) -> Output {
    common::pasang()
        .arg("datagen")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "pasang-datagen-it-{}-{name}.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn two_games_at_200_nodes_make_a_consistent_file() {
    let out = temp("two");
    let path = out.to_str().unwrap();
    let output = pasang(&[
        "--out",
        path,
        "--games",
        "2",
        "--nodes",
        "200",
        "--threads",
        "2",
        "--seed",
        "3",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("Games 2/2, positions "), "{stderr}");
    assert!(stderr.contains("positions/s"), "{stderr}");

    let text = std::fs::read_to_string(&out).unwrap();
    let summary = scan(&text).unwrap();
    assert_eq!(
        summary.header,
        Some(Header {
            seed: 3,
            limit: SearchLimit::Nodes(200),
            random_plies: 4,
            shard: None,
            policy: None,
            mates: true,
        })
    );
    assert_eq!((summary.games, summary.keep), (2, text.len()));

    // Every record parses; within a game the rules agree, each side's
    // result is the same on every line and the two sides' are opposite
    // (or both draws), and the margins are opposite.
    let mut game = None;
    let mut results: HashMap<Player, (DataResult, i32)> = HashMap::new();
    let mut records = 0;
    for line in text.lines().skip(1) {
        if let Some(rest) = line.strip_prefix("# game ") {
            game = Some(
                rest.split_whitespace()
                    .skip(1)
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            results.clear();
            continue;
        }
        if let Some(rest) = line.strip_prefix("# end ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (south, north) = (results[&Player::South], results[&Player::North]);
            assert_eq!(south.0, north.0.flipped(), "{line}");
            assert_eq!(south.1, -north.1, "{line}");
            let expected = match words[1] {
                "south" => DataResult::Win,
                "north" => DataResult::Loss,
                _ => DataResult::Draw,
            };
            assert_eq!(south.0, expected, "{line}");
            let points: Vec<i32> = words[3].split('-').map(|p| p.parse().unwrap()).collect();
            assert_eq!(south.1, points[0] - points[1], "{line}");
            continue;
        }
        let record = DataRecord::parse(line).unwrap_or_else(|error| panic!("{line}: {error}"));
        records += 1;
        let rules = pasang::datagen::format::rules_words(&record.rules);
        assert_eq!(Some(rules), game, "{line}");
        let side = record.position.side_to_move();
        let seen = results
            .entry(side)
            .or_insert((record.result, record.margin));
        assert_eq!(*seen, (record.result, record.margin), "{line}");
        assert!(record.score.abs() < 30_000, "{line}");
    }
    assert_eq!(records, summary.positions);
    assert!(records > 20, "{records} positions");
    let _ = std::fs::remove_file(out);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let out = temp("bad");
    let path = out.to_str().unwrap();
    for (args, expected) in [
        (vec!["--out", path], "--games <N>|--positions <N>"),
        (vec!["--out", path, "--games", "0"], "--games"),
        (
            vec![
                "--out", path, "--games", "1", "--nodes", "10", "--depth", "2",
            ],
            "cannot be used with",
        ),
        (
            vec!["--out", path, "--games", "1", "--threads", "0"],
            "--threads",
        ),
        (vec!["--out", path, "--games", "1", "--seed", "x"], "--seed"),
    ] {
        let output = pasang(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // Not a datagen file: refused with --resume, left alone without.
    std::fs::write(&out, "some notes\n").unwrap();
    let output = pasang(&["--out", path, "--games", "1", "--nodes", "100"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    let output = pasang(&["--out", path, "--games", "1", "--nodes", "100", "--resume"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not a datagen file"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "some notes\n");
    let _ = std::fs::remove_file(out);
}

/// `--policy 100`: a version-3 file whose every line carries the legal
/// moves' distribution, the move played the heaviest; the same games'
/// other fields read as a version-1 reader's; bad temperatures refused.
#[test]
fn policy_adds_each_positions_move_distribution() {
    let out = temp("policy");
    let path = out.to_str().unwrap();
    let args = [
        "--out", path, "--games", "2", "--nodes", "300", "--seed", "5",
    ];
    let output = pasang(&[&args[..], &["--policy", "100"]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("# pasang datagen 3 seed 5 nodes 300 random-plies 4 policy 100\n"),
        "{}",
        &text[..80]
    );
    let summary = scan(&text).unwrap();
    assert_eq!(summary.games, 2);
    let records = pasang::datagen::read(&out).unwrap();
    assert_eq!(records.len() as u64, summary.positions);
    let mut several = 0;
    for (record, line) in records
        .iter()
        .zip(text.lines().filter(|l| !l.starts_with('#')))
    {
        assert_eq!(line.split(" | ").count(), 6, "{line}");
        let policy = record.policy.as_ref().unwrap_or_else(|| panic!("{line}"));
        let total: f32 = policy.moves().iter().map(|(_, weight)| weight).sum();
        assert!((total - 1.0).abs() < 0.01, "{line}");
        assert_eq!(Some(policy.moves()[0].1), {
            let played = record.played.unwrap();
            policy
                .moves()
                .iter()
                .find(|(mv, _)| *mv == played)
                .map(|m| m.1)
        });
        several += usize::from(policy.moves().len() > 1);
        // A reader of the first five fields gets a version-1 record.
        let five: Vec<&str> = line.split(" | ").take(5).collect();
        let old = DataRecord::parse(&five.join(" | ")).unwrap();
        assert_eq!((old.score, old.played), (record.score, record.played));
    }
    assert!(several > 0);
    // Resuming with another temperature, or none, is refused.
    let more = [
        "--out", path, "--games", "3", "--nodes", "300", "--seed", "5", "--resume",
    ];
    let output = pasang(&more);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("policy 100"), "{stderr}");
    for bad in ["0", "-5", "warm"] {
        let flag = format!("--policy={bad}");
        let output = pasang(&[&args[..], &[flag.as_str()]].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{bad}: {stderr}");
        assert!(
            stderr.contains("positive number of centipoints"),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_file(out);
}

/// Mates are kept with their score as `mate n` (version 3) unless
/// `--skip-mates` leaves them out (version 1, as older files); the two
/// files hold the same games, the second without the proven positions.
#[test]
fn mate_positions_are_kept_unless_skipped() {
    let (kept, skipped) = (temp("kept"), temp("skipped"));
    let args = ["--games", "4", "--nodes", "1000", "--seed", "3"];
    let output = pasang(&[&["--out", kept.to_str().unwrap()][..], &args[..]].concat());
    assert!(output.status.success(), "{output:?}");
    let output = pasang(
        &[
            &["--out", skipped.to_str().unwrap(), "--skip-mates"][..],
            &args[..],
        ]
        .concat(),
    );
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(&kept).unwrap();
    assert!(text.starts_with("# pasang datagen 3 seed 3 nodes 1000 random-plies 4\n"));
    let without = std::fs::read_to_string(&skipped).unwrap();
    assert!(without.starts_with("# pasang datagen 1 seed 3 nodes 1000 random-plies 4\n"));
    let all = pasang::datagen::read(&kept).unwrap();
    let mates: Vec<&DataRecord> = all.iter().filter(|record| record.is_mate()).collect();
    assert!(!mates.is_empty(), "seed 3's games reach proven endings");
    for record in &mates {
        assert_eq!(record.value().abs(), 1.0);
        assert!(text.contains(&format!(" | {} | ", record.search_score())));
    }
    let rest: Vec<DataRecord> = all.iter().filter(|r| !r.is_mate()).cloned().collect();
    assert_eq!(pasang::datagen::read(&skipped).unwrap(), rest);
    for path in [kept, skipped] {
        let _ = std::fs::remove_file(path);
    }
}

/// Two shards of a run merge into one packed file holding every game
/// once; a shard given twice is refused.
#[test]
fn shards_merge_into_one_packed_file() {
    let (one, two, packed) = (temp("s1"), temp("s2"), temp("packed"));
    for (shard, out) in [("1/2", &one), ("2/2", &two)] {
        let output = pasang(&[
            "--out",
            out.to_str().unwrap(),
            "--games",
            "3",
            "--nodes",
            "100",
            "--shard",
            shard,
        ]);
        assert!(output.status.success(), "{output:?}");
    }
    let shard_text = std::fs::read_to_string(&two).unwrap();
    assert!(
        shard_text.starts_with("# pasang datagen 3 seed 1 nodes 100 random-plies 4 shard 2/2\n")
    );
    assert!(shard_text.contains("# game 1 ") && !shard_text.contains("# game 0 "));
    let output = pasang(&[
        "--merge",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--out",
        packed.to_str().unwrap(),
        "--seed",
        "5",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.starts_with("Merged 3 games, "), "{stdout}");
    let records = pasang::datagen::packed::read(&packed).unwrap();
    let texts = [&one, &two].map(|p| pasang::datagen::read(p).unwrap().len());
    assert_eq!(records.len(), texts[0] + texts[1]);

    let again = temp("again");
    let output = pasang(&[
        "--merge",
        one.to_str().unwrap(),
        one.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("game 0 of seed 1 is in both"), "{stderr}");
    assert!(!again.exists());
    for path in [one, two, packed] {
        let _ = std::fs::remove_file(path);
    }
}

/// The sample of docs/datagen.md is what the command writes: its first
/// three lines begin the file, and its last ends it.
#[test]
fn the_documented_sample_is_what_the_command_writes() {
    let page = include_str!("../docs/datagen.md");
    let start = page
        .find("```text\n# pasang datagen 3 seed 1")
        .expect("docs/datagen.md has the sample");
    let block = &page[start + "```text\n".len()..];
    let sample: Vec<&str> = block[..block.find("```").expect("the block ends")]
        .lines()
        .collect();
    let out = temp("sample");
    let path = out.to_str().unwrap();
    let output = pasang(&["--out", path, "--games", "1"]);
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let written: Vec<&str> = text.lines().collect();
    assert_eq!(sample[..3], written[..3], "docs/datagen.md's sample");
    assert_eq!(sample[3], "...");
    assert_eq!(sample.last(), written.last(), "docs/datagen.md's sample");
}

#[test]
fn help_describes_the_flags_and_the_format() {
    let output = pasang(&["--help"]);
    let text = String::from_utf8_lossy(&output.stdout);
    for flag in [
        "--out",
        "--games",
        "--positions",
        "--nodes",
        "--depth",
        "--threads",
        "--seed",
        "--random-plies",
        "--resume",
        "--shard",
        "--merge",
        "--policy",
        "--skip-mates",
        "# pasang datagen 3",
        "File format",
        "# end",
    ] {
        assert!(text.contains(flag), "{flag}: {text}");
    }
}
