//! `pasang match` end to end: the real binary against itself and against
//! small misbehaving script engines, the records it writes, and
//! `--compliance`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::PASANG;
use pasang::record;

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pasang-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes an executable `#!/bin/sh` engine that answers `uci` and
/// `isready` and does `on_go` when told to go.
#[cfg(unix)]
fn script_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    script_engine_with(dir, name, "echo readyok", on_go)
}

/// As [`script_engine`], doing `on_isready` for `isready`.
#[cfg(unix)]
fn script_engine_with(dir: &Path, name: &str, on_isready: &str, on_go: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\n\
         while read line; do\n\
         \x20 case \"$line\" in\n\
         \x20   uci) echo \"id name {name}\"; echo uciok ;;\n\
         \x20   isready) {on_isready} ;;\n\
         \x20   go*) {on_go} ;;\n\
         \x20   quit) exit 0 ;;\n\
         \x20 esac\n\
         done\n"
    );
    std::fs::write(&path, text).expect("script written");
    let mut permissions = std::fs::metadata(&path).expect("metadata").permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(&path, permissions).expect("chmod");
    path
}

fn run(args: &[&str]) -> Output {
    common::pasang()
        .arg("match")
        .args(args)
        .output()
        .expect("pasang runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Plays pasang against `script` for two games and returns stdout and
/// the records written.
#[cfg(unix)]
fn against_script(test: &str, on_go: &str, limit: &[&str]) -> (String, Vec<record::Record>) {
    against(test, "echo readyok", on_go, "", limit)
}

/// As [`against_script`], with the script doing `on_isready` for
/// `isready`, and `bad_spec` appended to its `--engine` value.
#[cfg(unix)]
fn against(
    test: &str,
    on_isready: &str,
    on_go: &str,
    bad_spec: &str,
    limit: &[&str],
) -> (String, Vec<record::Record>) {
    let dir = temp_dir(test);
    let script = script_engine_with(&dir, "bad", on_isready, on_go);
    let out = dir.join("games.pgn");
    let mut args = vec![
        "--engine".to_string(),
        format!("cmd={PASANG},name=pasang"),
        "--engine".to_string(),
        format!("cmd={},name=bad{bad_spec}", script.display()),
        "--games".to_string(),
        "2".to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    args.extend(limit.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(&refs);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    let written = std::fs::read_to_string(&out).expect("records written");
    let games = record::read(&written).expect("records read back");
    let _ = std::fs::remove_dir_all(&dir);
    (stdout, games)
}

#[test]
fn self_play_writes_records_that_replay() {
    let dir = temp_dir("self");
    let out = dir.join("games.pgn");
    let output = run(&[
        "--engine",
        &format!("cmd={PASANG},name=a,option.Hash=8"),
        "--engine",
        &format!("cmd={PASANG},name=b"),
        "--depth",
        "2",
        "--games",
        "3",
        "--random-plies",
        "2",
        "--seed",
        "7",
        "--pattern",
        "1,2",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    // 3 games round up to 2 pairs.
    assert!(stdout.contains("Games: 4,"), "{stdout}");
    assert!(stdout.contains("Elo:"), "{stdout}");
    // Both pairs are complete and counted once each.
    let pairs_line = stdout
        .lines()
        .find(|line| line.starts_with("Pairs scoring 0/0.5/1/1.5/2: "))
        .unwrap_or_else(|| panic!("no pentanomial line: {stdout}"));
    let counts: u64 = pairs_line["Pairs scoring 0/0.5/1/1.5/2: ".len()..]
        .split(',')
        .next()
        .expect("counts")
        .split('/')
        .map(|count| count.parse::<u64>().expect("a count"))
        .sum();
    assert_eq!(counts, 2, "{pairs_line}");
    assert!(pairs_line.contains("(95%, pentanomial)"), "{pairs_line}");
    assert!(!pairs_line.contains("unpaired"), "{pairs_line}");
    assert!(stderr.contains("Finished game 4"), "{stderr}");
    assert!(stderr.contains("Games 4/4, W-D-L"), "{stderr}");

    let written = std::fs::read_to_string(&out).expect("records written");
    let games = record::read(&written).expect("records parse");
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<&str> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    for game in &games {
        // Every game is refereed by the rules, and the record replays to
        // the scores it reports.
        let end = game.replay().expect("legal moves");
        let scores = format!(
            "{}-{}",
            end.score(pasang::position::Player::South),
            end.score(pasang::position::Player::North)
        );
        assert_eq!(game.tag("Scores"), Some(scores.as_str()));
        assert!(matches!(game.tag("Termination"), Some("score" | "suntuk")));
        assert_eq!(game.tag("Result"), Some(game.result.as_str()));
        assert_eq!(game.tag("OpeningPlies"), Some("2"));
        assert_eq!(game.tag("TimeControl"), Some("depth=2"));
        let options = if game.tag("South") == Some("a") {
            game.tag("SouthOptions")
        } else {
            game.tag("NorthOptions")
        };
        assert_eq!(options, Some("Hash=8"));
    }
    // Pair 0 under pattern 1, pair 1 under pattern 2; both games of a pair
    // share their opening, with the engines' seats swapped.
    let by_round = |round: &str| {
        games
            .iter()
            .find(|g| g.tag("Round") == Some(round))
            .unwrap()
    };
    assert_eq!(by_round("1").tag("Pattern"), Some("1"));
    assert_eq!(by_round("3").tag("Pattern"), Some("2"));
    assert_eq!(by_round("1").moves[..2], by_round("2").moves[..2]);
    assert_eq!(by_round("1").tag("South"), by_round("2").tag("North"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_crashing_engine_disconnects() {
    let (stdout, games) = against_script("crash", "exit 1", &["--depth", "2"]);
    assert!(stdout.contains("Wins: 2, Draws: 0, Losses: 0"), "{stdout}");
    assert!(
        stdout.contains("Forfeits by bad: loses on time 0, makes an illegal move 0, disconnects 2"),
        "{stdout}"
    );
    for game in &games {
        assert_eq!(game.tag("Termination"), Some("disconnect"));
    }
}

#[cfg(unix)]
#[test]
fn an_illegal_move_forfeits() {
    let (stdout, games) = against_script("illegal", "echo 'bestmove a1a2n'", &["--depth", "2"]);
    assert!(stdout.contains("Wins: 2, Draws: 0, Losses: 0"), "{stdout}");
    assert!(stdout.contains("makes an illegal move 2"), "{stdout}");
    for game in &games {
        assert_eq!(game.tag("Termination"), Some("illegal move"));
        assert!(game.tag("TerminationDetail").unwrap().contains("a1a2n"));
    }
}

#[cfg(unix)]
#[test]
fn silence_past_the_movetime_loses_on_time() {
    // The script ignores both go and stop: each game costs the movetime
    // and the one-second grace after stop.
    // Only the script has a movetime, so that pasang's own moves cannot
    // lose on time on a busy machine.
    let (stdout, games) = against(
        "time",
        "echo readyok",
        ":",
        ",movetime=50",
        &["--depth", "2"],
    );
    assert!(stdout.contains("Wins: 2, Draws: 0, Losses: 0"), "{stdout}");
    assert!(
        stdout.contains("Forfeits by bad: loses on time 2, makes an illegal move 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Forfeits by pasang: loses on time 0, makes an illegal move 0, disconnects 0, connection stalls 0"),
        "{stdout}"
    );
    for game in &games {
        assert_eq!(game.tag("Termination"), Some("time forfeit"));
    }
}

#[cfg(unix)]
#[test]
fn no_readyok_is_a_stalled_connection() {
    let (stdout, games) = against(
        "stall",
        ":",
        ":",
        "",
        &["--depth", "2", "--ping-timeout", "1000"],
    );
    assert!(stdout.contains("Wins: 2, Draws: 0, Losses: 0"), "{stdout}");
    assert!(
        stdout.contains("disconnects 0, connection stalls 2"),
        "{stdout}"
    );
    for game in &games {
        assert_eq!(game.tag("Termination"), Some("stall"));
    }
}

#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    // Depth 4 against depth 1: the stronger side should be accepted well
    // before the game limit.
    let output = run(&[
        "--engine",
        &format!("cmd={PASANG},name=deep,depth=4"),
        "--engine",
        &format!("cmd={PASANG},name=shallow,depth=1"),
        "--games",
        "400",
        "--random-plies",
        "3",
        "--seed",
        "3",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "alpha=0.05",
        "beta=0.05",
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("Stopped by the SPRT after"), "{stdout}");
}

#[test]
fn compliance_passes_on_pasang() {
    let output = run(&["--compliance", "--engine", &format!("cmd={PASANG}")]);
    let stdout = text(&output.stdout);
    // The subcommand does what the flag does, step for step.
    let tool = run(&["compliance", "--engine", &format!("cmd={PASANG}")]);
    let steps = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|line| line.split(" (").next().map(str::to_string))
            .collect()
    };
    assert_eq!(tool.status.code(), Some(0));
    assert_eq!(steps(&text(&tool.stdout)), steps(&stdout));
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    for step in [
        "uci handshake",
        "go infinite, stop",
        "bestmove legality",
        "final info line",
    ] {
        assert!(stdout.contains(&format!("PASS {step}")), "{step}: {stdout}");
    }
}

#[cfg(unix)]
#[test]
fn compliance_fails_a_broken_engine() {
    // Answers every go at once with the same move and no info line.
    let dir = temp_dir("compliance-bad");
    let script = script_engine(&dir, "rash", "echo 'bestmove a1a2n'");
    let output = run(&[
        "--compliance",
        "--engine",
        &format!("cmd={}", script.display()),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for line in [
        "PASS uci handshake",
        "FAIL options: rule options not offered: Pattern, Ka Entry, Second Column, Centre",
        "PASS go depth 3",
        "FAIL go infinite, stop: 'bestmove a1a2n' came before stop",
        "FAIL bestmove legality: go depth 3: bestmove 'a1a2n'",
        "FAIL final info line: go depth 3: no info line before bestmove",
        "FAIL finished game: bestmove (none): expected 'bestmove (none)'",
        "PASS quit",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_with_code_2() {
    let engine = format!("cmd={PASANG}");
    for args in [
        vec!["--engine", "name=x", "--engine", &engine, "--depth", "1"],
        vec!["--engine", &engine, "--depth", "1"],
        vec!["--engine", &engine, "--engine", &engine],
        vec!["--engine", &engine, "--engine", &engine, "--tc", "soon"],
        vec![
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--depth",
            "1",
            "--pattern",
            "1,3",
        ],
        vec![
            "--engine", &engine, "--engine", &engine, "--depth", "1", "--sprt", "elo0=5", "elo1=0",
        ],
        vec![
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            &engine,
            "--depth",
            "1",
        ],
        vec![
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--depth",
            "1",
            "--openings",
            "/nonexistent/book",
        ],
    ] {
        let output = run(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
    }
}

/// The deterministic match of the shard tests: depth 2, Threads 1, three
/// pairs with seeded random plies.
fn shard_match_args() -> Vec<String> {
    [
        "--engine",
        &format!("cmd={PASANG},name=a"),
        "--engine",
        &format!("cmd={PASANG},name=b"),
        "--depth",
        "2",
        "--games",
        "6",
        "--random-plies",
        "2",
        "--seed",
        "5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs `pasang match` with the shard match's arguments and `extra`.
fn run_shard_match(extra: &[&str]) -> Output {
    let mut args = shard_match_args();
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

fn read_records(path: &Path) -> Vec<record::Record> {
    let text = std::fs::read_to_string(path).expect("records written");
    record::read(&text).expect("records read back")
}

#[test]
fn three_shards_merge_to_the_whole_match() {
    let dir = temp_dir("shards");
    let whole_path = dir.join("whole.pgn");
    let whole = run_shard_match(&["--out", whole_path.to_str().expect("utf-8")]);
    assert_eq!(whole.status.code(), Some(0), "{}", text(&whole.stderr));
    let mut shard_paths = Vec::new();
    for k in 1..=3 {
        let path = dir.join(format!("shard-{k}.pgn"));
        let shard = format!("{k}/3");
        let output = run_shard_match(&["--shard", &shard, "--out", path.to_str().expect("utf-8")]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains(&format!("shard {k}/3 of a 6-game match, 2 games")),
            "{stderr}"
        );
        shard_paths.push(path);
    }
    let mut merge_args = vec!["--merge".to_string()];
    merge_args.extend(shard_paths.iter().map(|p| p.display().to_string()));
    let merged_path = dir.join("merged.pgn");
    let mut out_args = merge_args.clone();
    out_args.extend(["--out".to_string(), merged_path.display().to_string()]);
    let refs: Vec<&str> = out_args.iter().map(String::as_str).collect();
    let merged = run(&refs);
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    // One records file in game order, itself a whole match to merge.
    let rounds: Vec<String> = read_records(&merged_path)
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    let again = run(&["--merge", merged_path.to_str().expect("utf-8")]);
    assert_eq!(text(&again.stdout), text(&whole.stdout));
    // The subcommand does what the flag does.
    let mut tool_args = vec!["merge".to_string()];
    tool_args.extend(shard_paths.iter().map(|p| p.display().to_string()));
    let refs: Vec<&str> = tool_args.iter().map(String::as_str).collect();
    let tool = run(&refs);
    assert_eq!(tool.status.code(), Some(0), "{}", text(&tool.stderr));
    assert_eq!(text(&tool.stdout), text(&whole.stdout));
    // The same summary, line for line: counts, Elo, pairs, seats, ends.
    assert_eq!(text(&merged.stdout), text(&whole.stdout));
    assert!(text(&merged.stdout).contains("Games: 6,"));
    // An SPRT is judged over the merged games.
    let mut sprt_args = merge_args.clone();
    sprt_args.extend(["--sprt", "elo0=0", "elo1=10"].map(String::from));
    let refs: Vec<&str> = sprt_args.iter().map(String::as_str).collect();
    let judged = text(&run(&refs).stdout);
    assert!(
        judged.contains("SPRT (elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR "),
        "{judged}"
    );

    assert_same_games(&read_records(&whole_path), &shard_paths);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shards played the whole match's games, pair by pair, each shard
/// its own pairs.
fn assert_same_games(whole_games: &[record::Record], shard_paths: &[std::path::PathBuf]) {
    let shard_games: Vec<record::Record> =
        shard_paths.iter().flat_map(|p| read_records(p)).collect();
    assert_eq!(shard_games.len(), 6);
    for game in whole_games {
        let round = game.tag("Round");
        let twin = shard_games
            .iter()
            .find(|g| g.tag("Round") == round)
            .unwrap_or_else(|| panic!("round {round:?} missing from the shards"));
        // Moves and their scores and depths (not their times).
        let plies = |g: &record::Record| -> Vec<(String, String)> {
            g.moves
                .iter()
                .map(|m| {
                    let comment = m.comment.as_deref().unwrap_or("");
                    let score = comment.split_whitespace().next().unwrap_or("");
                    (m.text.clone(), score.to_string())
                })
                .collect()
        };
        assert_eq!(plies(twin), plies(game), "round {round:?}");
        assert_eq!(twin.result, game.result);
        for tag in [
            "Pair",
            "South",
            "North",
            "FEN",
            "Seed",
            "RandomPlies",
            "First",
            "Games",
        ] {
            assert_eq!(twin.tag(tag), game.tag(tag), "{tag} of round {round:?}");
        }
    }
    let pair_of = |g: &record::Record| g.tag("Pair").unwrap().parse::<u64>().unwrap();
    for (k, path) in shard_paths.iter().enumerate() {
        assert!(
            read_records(path)
                .iter()
                .all(|g| pair_of(g) % 3 == k as u64)
        );
    }
}

#[test]
fn merge_refuses_a_game_twice_and_names_missing_pairs() {
    let dir = temp_dir("merge-faults");
    let one = dir.join("one.pgn");
    let three = dir.join("three.pgn");
    for (shard, path) in [("1/3", &one), ("3/3", &three)] {
        let output = run_shard_match(&["--shard", shard, "--out", path.to_str().expect("utf-8")]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    }
    let (one, three) = (one.display().to_string(), three.display().to_string());
    let twice = run(&["--merge", &one, &three, &one]);
    let stderr = text(&twice.stderr);
    assert_eq!(twice.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("pair 0 counted twice"), "{stderr}");
    assert!(twice.stdout.is_empty());

    let partial = run(&["--merge", &one, &three]);
    let stdout = text(&partial.stdout);
    assert_eq!(partial.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("Games: 4,"), "{stdout}");
    assert!(stdout.contains("Missing pairs (1): 1\n"), "{stdout}");

    // Records of another match are not mixed in.
    let other = dir.join("other.pgn");
    let output = run(&[
        "--engine",
        &format!("cmd={PASANG},name=a"),
        "--engine",
        &format!("cmd={PASANG},name=b"),
        "--depth",
        "1",
        "--games",
        "2",
        "--seed",
        "5",
        "--out",
        other.to_str().expect("utf-8"),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let mixed = run(&["--merge", &three, other.to_str().expect("utf-8")]);
    let stderr = text(&mixed.stderr);
    assert_eq!(mixed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is of another match"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_keeps_finished_games_and_drops_a_half_written_record() {
    let dir = temp_dir("resume");
    let whole_path = dir.join("whole.pgn");
    let whole = run_shard_match(&["--out", whole_path.to_str().expect("utf-8")]);
    assert_eq!(whole.status.code(), Some(0));
    let full = std::fs::read_to_string(&whole_path).expect("records");
    // Two whole records and the start of the third, as a killed run
    // leaves them.
    let third = full
        .match_indices("[Event")
        .nth(2)
        .expect("three records")
        .0;
    let cut = dir.join("cut.pgn");
    std::fs::write(&cut, &full[..third + 200]).expect("cut written");
    let resumed = run_shard_match(&["--out", cut.to_str().expect("utf-8"), "--resume"]);
    let stderr = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("half-written record"), "{stderr}");
    assert!(stderr.contains("Resuming: 2 games"), "{stderr}");
    assert!(!stderr.contains("Finished game 1 "), "{stderr}");
    assert!(!stderr.contains("Finished game 2 "), "{stderr}");
    assert!(stderr.contains("Finished game 3 "), "{stderr}");
    // The summary counts the kept games too, and the file holds every
    // game once.
    assert_eq!(text(&resumed.stdout), text(&whole.stdout));
    let games = read_records(&cut);
    let mut rounds: Vec<&str> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    // Resuming a finished file plays nothing.
    let again = run_shard_match(&["--out", cut.to_str().expect("utf-8"), "--resume"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(!text(&again.stderr).contains("Finished game"));
    assert_eq!(read_records(&cut).len(), 6);
    // A records file of another match is not resumed.
    let wrong = run(&[
        "--engine",
        &format!("cmd={PASANG},name=a"),
        "--engine",
        &format!("cmd={PASANG},name=b"),
        "--depth",
        "3",
        "--games",
        "6",
        "--seed",
        "5",
        "--random-plies",
        "2",
        "--out",
        cut.to_str().expect("utf-8"),
        "--resume",
    ]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(text(&wrong.stderr).contains("another match"));
    // The same match with another --games: the error names the counts,
    // the only part that differs.
    let mut longer = shard_match_args();
    let games = longer
        .iter()
        .position(|arg| arg == "--games")
        .expect("--games")
        + 1;
    longer[games] = "8".to_string();
    longer.extend(["--out", cut.to_str().expect("utf-8"), "--resume"].map(String::from));
    let refs: Vec<&str> = longer.iter().map(String::as_str).collect();
    let longer = run(&refs);
    let stderr = text(&longer.stderr);
    assert_eq!(longer.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("seed 5, 6 games; this one is") && stderr.contains("seed 5, 8 games)"),
        "{stderr}"
    );
    // Nor is the whole match's file resumed as one shard's.
    let as_shard = run_shard_match(&[
        "--out",
        cut.to_str().expect("utf-8"),
        "--resume",
        "--shard",
        "2/3",
    ]);
    let stderr = text(&as_shard.stderr);
    assert_eq!(as_shard.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is of pair 0, not of shard 2/3"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_need_a_seed_and_a_game_count() {
    let engine = format!("cmd={PASANG}");
    for (args, message) in [
        (
            vec![
                "--engine", &engine, "--engine", &engine, "--depth", "1", "--shard", "1/2",
                "--games", "4",
            ],
            "needs --seed and --games",
        ),
        (
            vec![
                "--engine", &engine, "--engine", &engine, "--depth", "1", "--shard", "3/2",
            ],
            "K must be from 1 to 2",
        ),
        (
            vec![
                "--engine", &engine, "--engine", &engine, "--depth", "1", "--resume",
            ],
            "--resume needs --out",
        ),
        (vec!["--merge", "/nonexistent/records.pgn"], "cannot read"),
    ] {
        let output = run(&args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The GNU parallel recipe of docs/match.md, run as written but with the
/// real binary for both engines, depth 1 and 8 games.
#[test]
fn the_gnu_parallel_recipe_runs() {
    let available = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !available {
        common::missing_tool(
            "the_gnu_parallel_recipe_runs",
            "GNU parallel",
            "apt-get install parallel; .ci/run installs it when it can",
        );
        return;
    }
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/match.md"))
        .expect("docs/match.md");
    let start = doc
        .find("<!-- recipe: gnu-parallel")
        .expect("the recipe's marker");
    let block = &doc[start..];
    let open = block.find("```sh\n").expect("the recipe's code block") + "```sh\n".len();
    let recipe = &block[open..open + block[open..].find("```").expect("its end")];
    let mut script = recipe.to_string();
    for (from, to) in [
        (
            "NEW=./pasang-new OLD=./pasang-old",
            format!("NEW={PASANG} OLD={PASANG}"),
        ),
        ("pasang match", format!("{PASANG} match")),
        ("--tc 10+0.1", "--depth 1".to_string()),
        ("--games 400", "--games 8".to_string()),
    ] {
        assert!(script.contains(from), "the recipe no longer has '{from}'");
        script = script.replace(from, &to);
    }
    let dir = temp_dir("parallel");
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("set -e\n{script}"))
        .current_dir(&dir)
        .output()
        .expect("sh runs");
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    // Four shard summaries of 2 games, then the merge's of all 8.
    assert_eq!(stdout.matches("Games: 2,").count(), 4, "{stdout}");
    let merged = &stdout[stdout.rfind("Results of").expect("a summary")..];
    assert!(
        merged.starts_with("Results of new vs old (depth=1;"),
        "{merged}"
    );
    assert!(merged.contains("Games: 8,"), "{merged}");
    assert!(!merged.contains("Missing"), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compliance_passes_on_pasang_over_ugi() {
    let output = run(&[
        "--compliance",
        "--engine",
        &format!("cmd={PASANG},proto=ugi"),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    for step in [
        "ugi handshake (pasang",
        "uginewgame",
        "go p1time p2time p1inc p2inc",
        "query gameover, p1turn, result (9 of 9 right)",
        "bestmove of two words (5 of 5)",
    ] {
        assert!(stdout.contains(&format!("PASS {step}")), "{step}: {stdout}");
    }
}

#[cfg(unix)]
#[test]
fn compliance_fails_ugi_manners_broken() {
    use std::os::unix::fs::PermissionsExt;
    // A UGI engine that names a ponder move and answers every query
    // "false".
    let dir = temp_dir("compliance-ugi");
    let path = dir.join("chatty");
    std::fs::write(
        &path,
        "#!/bin/sh\n\
         while read line; do\n\
         \x20 case \"$line\" in\n\
         \x20   ugi) echo 'id name chatty'; echo ugiok ;;\n\
         \x20   isready) echo readyok ;;\n\
         \x20   query*) echo 'response false' ;;\n\
         \x20   go*) echo 'info depth 1 score cp 0 pv c'; echo 'bestmove c ponder j' ;;\n\
         \x20   quit) exit 0 ;;\n\
         \x20 esac\n\
         done\n",
    )
    .expect("script written");
    let mut permissions = std::fs::metadata(&path).expect("metadata").permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(&path, permissions).expect("chmod");
    let output = run(&[
        "--compliance",
        "--engine",
        &format!("cmd={},proto=ugi", path.display()),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    for line in [
        "PASS ugi handshake (chatty",
        "FAIL query gameover, p1turn, result: query p1turn after position startpos: 'response false', expected 'response true'",
        "FAIL bestmove of two words: go depth 3: a bestmove line of 4 words",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ugi_engine_plays_a_uci_engine() {
    let dir = temp_dir("ugi-vs-uci");
    let out = dir.join("games.pgn");
    let output = run(&[
        "--engine",
        &format!("cmd={PASANG},name=ugi,proto=ugi"),
        "--engine",
        &format!("cmd={PASANG},name=uci"),
        "--depth",
        "2",
        "--games",
        "2",
        "--random-plies",
        "2",
        "--seed",
        "9",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Games: 2,"), "{stdout}");
    assert!(
        stdout.contains("Forfeits by ugi: loses on time 0, makes an illegal move 0, disconnects 0, connection stalls 0"),
        "{stdout}"
    );
    for game in read_records(&out) {
        game.replay().expect("legal moves");
        assert!(matches!(game.tag("Termination"), Some("score" | "suntuk")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pasang openings` writes a file that `pasang match --openings` plays:
/// every line legal under the match's rule sets, each pair from its line.
#[test]
fn openings_from_the_tool_start_a_match() {
    let dir = temp_dir("openings");
    let book = dir.join("fair.txt");
    let written = common::pasang()
        .args([
            "openings", "--plies", "2", "--depth", "8", "--window", "300",
        ])
        .args([
            "--centre",
            "wall,open",
            "--out",
            book.to_str().expect("utf-8"),
        ])
        .output()
        .expect("pasang runs");
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    let file = std::fs::read_to_string(&book).expect("openings written");
    let header = file.lines().next().expect("a header");
    let lines: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        header.ends_with(&format!(": {} of 60 kept", lines.len())),
        "{header}"
    );
    assert!(!lines.is_empty() && lines.len() < 60, "{header}");
    assert!(
        lines
            .iter()
            .all(|l| l.split(" moves ").nth(1).unwrap().split(' ').count() == 2)
    );
    let out = dir.join("games.pgn");
    let pasang = common::PASANG;
    let engine = format!("cmd={pasang},option.Move Overhead=0");
    let played = run(&[
        "--engine",
        &format!("{engine},name=a"),
        "--engine",
        &format!("{engine},name=b"),
        "--nodes",
        "300",
        "--games",
        "4",
        "--centre",
        "wall,open",
        "--openings",
        book.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    let first_line: Vec<&str> = lines[0]
        .split(" moves ")
        .nth(1)
        .unwrap()
        .split(' ')
        .collect();
    let games = read_records(&out);
    assert_eq!(games.len(), 4);
    let plies: Vec<&str> = games[0]
        .moves
        .iter()
        .take(2)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(plies, first_line);
    let _ = std::fs::remove_dir_all(&dir);
}
