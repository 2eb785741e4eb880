//! `pasang tune --spsa` run as a user runs it, at a few hundred nodes a
//! move: a run started, stopped and resumed ends where an unbroken run
//! ends; an iteration played as shards and merged updates as the whole
//! iteration does; a run under a clock tunes the time-use factors; bad
//! state files and flags are clear errors.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn pasang(args: &[&str]) -> Output {
    common::run(args, "")
}

/// A fresh directory for one test.
fn directory(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("pasang-spsa-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Starts a run of 12 pairs in iterations of 4 at `state`, tuning three
/// constants of the engine under test at 300 nodes.
fn new_run(state: &Path) {
    let output = pasang(&[
        "tune",
        "--spsa",
        "--state",
        state.to_str().unwrap(),
        "--new",
        "--engine",
        common::PASANG,
        "--nodes",
        "300",
        "--pairs",
        "12",
        "--batch",
        "4",
        "--params",
        "FutilityMargin1,NarrowMoves,AspirationDelta",
        "--r-end",
        "0.05",
        "--seed",
        "5",
        "--pattern",
        "1,2",
        "--ka-entry",
        "slide,jump",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        common::stdout(&output)
            .contains("12 pairs in iterations of 4, 300 nodes a move, 4 rule sets"),
        "{output:?}"
    );
}

fn spsa(state: &Path, more: &[&str]) -> Output {
    let mut args = vec!["tune", "--spsa", "--state", state.to_str().unwrap()];
    args.extend_from_slice(more);
    let output = pasang(&args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    output
}

/// The state's lines that say where the run is and what it found.
fn progress(state: &Path) -> Vec<String> {
    text(state)
        .lines()
        .filter(|line| {
            ["done", "wins", "draws", "losses", "param "]
                .iter()
                .any(|key| line.starts_with(key))
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_stopped_run_resumes_to_the_same_end() {
    let dir = directory("resume");
    let whole = dir.join("whole.spsa");
    let broken = dir.join("broken.spsa");
    new_run(&whole);
    new_run(&broken);
    let output = spsa(&whole, &["--concurrency", "2"]);
    assert!(
        common::stdout(&output).contains("SPSA: 12 of 12 pairs played"),
        "{output:?}"
    );
    assert!(common::stdout(&output).contains("option.FutilityMargin1="));
    // One iteration, then the rest in a second invocation.
    spsa(&broken, &["--iterations", "1"]);
    assert!(text(&broken).contains("done = 4\n"), "{}", text(&broken));
    spsa(&broken, &[]);
    assert_eq!(progress(&broken), progress(&whole));
    let log = text(&dir.join("broken.spsa.log"));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 4, "a header and one line per iteration: {log}");
    assert!(lines[0].contains("FutilityMargin1 NarrowMoves AspirationDelta"));
    assert!(lines[1].starts_with("1-4 "), "{log}");
    assert!(lines[3].starts_with("9-12 "), "{log}");
    assert_eq!(log, text(&dir.join("whole.spsa.log")));
    // A finished run plays nothing more.
    let output = spsa(&whole, &[]);
    assert!(common::stdout(&output).contains("SPSA: 12 of 12 pairs played"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merged_update_as_the_whole_iteration() {
    let dir = directory("shards");
    let whole = dir.join("whole.spsa");
    let sharded = dir.join("sharded.spsa");
    new_run(&whole);
    new_run(&sharded);
    spsa(&whole, &["--iterations", "2"]);
    for _ in 0..2 {
        let mut files = Vec::new();
        for k in 1..=3 {
            let results = dir.join(format!("shard-{k}.txt"));
            let shard = format!("{k}/3");
            spsa(
                &sharded,
                &["--shard", &shard, "--results", results.to_str().unwrap()],
            );
            files.push(results.to_str().unwrap().to_string());
        }
        let mut args = vec!["--merge"];
        args.extend(files.iter().map(String::as_str));
        spsa(&sharded, &args);
    }
    assert_eq!(progress(&sharded), progress(&whole));
    // The shard files of the iteration before no longer merge.
    let mut args = vec![
        "tune",
        "--spsa",
        "--state",
        sharded.to_str().unwrap(),
        "--merge",
    ];
    let files: Vec<String> = (1..=3)
        .map(|k| {
            dir.join(format!("shard-{k}.txt"))
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    args.extend(files.iter().map(String::as_str));
    let output = pasang(&args);
    assert!(!output.status.success());
    assert!(
        common::stderr(&output)
            .contains("is of the iteration from pair 4 (seed 5); the state is at pair 8"),
        "{output:?}"
    );
    // Nor does an iteration with shards missing.
    let one = dir.join("shard-1-of-next.txt");
    let one = one.to_str().unwrap();
    spsa(&sharded, &["--shard", "1/3", "--results", one]);
    let output = pasang(&[
        "tune",
        "--spsa",
        "--state",
        sharded.to_str().unwrap(),
        "--merge",
        one,
    ]);
    assert_eq!(common::code(&output), 1, "{output:?}");
    assert!(
        common::stderr(&output).contains("shards missing: 2, 3 of 3 (nothing updated)"),
        "{output:?}"
    );
    assert_eq!(progress(&sharded), progress(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_under_a_clock_tunes_the_time_use_factors() {
    let dir = directory("clock");
    let state = dir.join("clock.spsa");
    let path = state.to_str().unwrap();
    let output = pasang(&[
        "tune",
        "--spsa",
        "--state",
        path,
        "--new",
        "--engine",
        common::PASANG,
        "--tc",
        "0.3+0.03",
        "--time-margin",
        "50",
        "--params",
        "time",
        "--pairs",
        "2",
        "--batch",
        "2",
        "--seed",
        "3",
    ]);
    assert!(output.status.success(), "{output:?}");
    let said = common::stdout(&output);
    assert!(
        said.contains("2 pairs in iterations of 2, 0.3+0.03 a game (time margin 50 ms)"),
        "{said}"
    );
    // `time` is the time-use factors alone.
    assert!(said.contains("TimeSoftPercent=60") && said.contains("TimeSolveScale=100"));
    assert!(!said.contains("FutilityMargin1"), "{said}");
    let written = text(&state);
    assert!(
        written.contains("tc = 0.3+0.03\ntime-margin = 50\n"),
        "{written}"
    );
    assert!(!written.contains("nodes"), "{written}");
    let output = spsa(&state, &["--concurrency", "2"]);
    let said = common::stdout(&output);
    assert!(said.contains("SPSA: 2 of 2 pairs played"), "{output:?}");
    assert!(said.contains("option.TimeStonesPerMove="), "{said}");
    let log = text(&dir.join("clock.spsa.log"));
    assert!(
        log.lines()
            .nth(1)
            .is_some_and(|line| line.starts_with("1-2 ")),
        "{log}"
    );
    // A clock and a node count do not go together, nor a margin without
    // a clock.
    for args in [
        &[
            "tune", "--spsa", "--state", "x.spsa", "--new", "--tc", "1+0.1", "--nodes", "100",
        ][..],
        &[
            "tune",
            "--spsa",
            "--state",
            "x.spsa",
            "--new",
            "--time-margin",
            "5",
        ][..],
    ] {
        let output = pasang(args);
        assert_eq!(common::code(&output), 2, "{args:?}: {output:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_states_and_flags_are_clear_errors() {
    let dir = directory("errors");
    let state = dir.join("run.spsa");
    let path = state.to_str().unwrap();
    let fails = |args: &[&str], expected: &str| {
        let output = pasang(args);
        assert_eq!(common::code(&output), 1, "{args:?}: {output:?}");
        let error = common::stderr(&output);
        assert!(
            error.contains(expected),
            "{args:?}: {error} lacks {expected}"
        );
    };
    fails(
        &["tune", "--spsa", "--state", path],
        "does not exist: start a run with --new",
    );
    fails(
        &[
            "tune", "--spsa", "--state", path, "--new", "--params", "Wideness",
        ],
        "unknown search parameter 'Wideness' in --params",
    );
    new_run(&state);
    fails(&["tune", "--spsa", "--state", path, "--new"], "exists");
    fails(
        &["tune", "--spsa", "--state", path, "--shard", "1/2"],
        "--shard and --results go together",
    );
    let good = text(&state);
    std::fs::write(&state, good.replace("nodes = 300", "nodes = lots")).unwrap();
    fails(
        &["tune", "--spsa", "--state", path],
        "line 3: 'nodes' value 'lots' is invalid",
    );
    std::fs::write(
        &state,
        good.lines()
            .map(|line| {
                if line.starts_with("param NarrowMoves ") {
                    "param NarrowMoves 9 1\n".to_string()
                } else {
                    format!("{line}\n")
                }
            })
            .collect::<String>(),
    )
    .unwrap();
    fails(&["tune", "--spsa", "--state", path], "out of range 0..8");
    // An engine that does not start is named.
    std::fs::write(&state, good.replace(common::PASANG, "/bin/false")).unwrap();
    let output = pasang(&["tune", "--spsa", "--state", path]);
    assert_eq!(common::code(&output), 1, "{output:?}");
    assert!(
        common::stderr(&output).contains("engine '/bin/false'"),
        "{output:?}"
    );
    // --spsa needs --state; flags of the fit do not go with it.
    let output = pasang(&["tune", "--spsa"]);
    assert_eq!(common::code(&output), 2, "{output:?}");
    let output = pasang(&["tune", "--spsa", "--state", path, "--data", "x"]);
    assert_eq!(common::code(&output), 2, "{output:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
