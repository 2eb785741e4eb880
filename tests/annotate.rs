//! `pasang annotate`, driven as a user would: records in, annotated
//! records (or JSON) out, bad games reported by game and ply, and `pasang
//! show --record` reading the result.

mod common;

use common::{code, run, stderr, stdout};

/// A middlegame position (after 16 plies of a match game, South to move)
/// with three moves, one far worse than the best.
const POSITION: &str = ".....bbbbbw/.....bbbbww/.....bbbwww/...wwbbwwww/...bwbwwwww/N....+bbbb./.wwwwb..bb./....Sb..bb./.wwb.b..wb./.wbb.b...../........... s 46 46 hb";

/// Search depth of every test: deterministic on one thread.
const DEPTH: &str = "6";

/// The best and the worst move of [`POSITION`] by `pasang analyse` at
/// [`DEPTH`], with their scores: the test picks its blunder with the
/// engine rather than trusting today's evaluation.
fn best_and_worst() -> ((String, i64), (String, i64)) {
    let output = run(
        &[
            "analyse",
            "--json",
            "--depth",
            DEPTH,
            "--multipv",
            "80",
            "--fen",
            POSITION,
        ],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    let lines = report["lines"].as_array().unwrap();
    let pick = |line: &serde_json::Value| {
        (
            line["pv"][0].as_str().unwrap().to_string(),
            line["score"]["cp"].as_i64().unwrap(),
        )
    };
    (pick(&lines[0]), pick(&lines[lines.len() - 1]))
}

/// The engine's line from [`POSITION`] at [`DEPTH`], at most `plies`
/// moves.
fn principal_line(plies: usize) -> Vec<String> {
    let output = run(
        &["analyse", "--json", "--depth", DEPTH, "--fen", POSITION],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    report["lines"][0]["pv"]
        .as_array()
        .unwrap()
        .iter()
        .take(plies)
        .map(|mv| mv.as_str().unwrap().to_string())
        .collect()
}

/// A record of `moves` from [`POSITION`].
fn record(round: u32, moves: &str) -> String {
    format!(
        "[Event \"test\"]\n[Round \"{round}\"]\n[South \"Ani\"]\n[North \"Bo\"]\n[FEN \"{POSITION}\"]\n\n{moves} *\n\n"
    )
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("pasang-annotate-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_blunder_is_marked_and_the_best_move_is_not() {
    let ((best, best_cp), (worst, worst_cp)) = best_and_worst();
    // The worst move gives away more than 8 points: far past the 15
    // points of winning chances that make a blunder.
    assert!(
        best_cp - worst_cp >= 800,
        "{best} {best_cp}, {worst} {worst_cp}"
    );
    let text = format!(
        "{}{}",
        record(1, &format!("1. {worst}")),
        record(2, &format!("1. {best}"))
    );
    let path = temp_file("marks.pgn", &text);
    let output = run(&["annotate", "--depth", DEPTH, path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    // Long comments wrap the movetext: read it as one line.
    let annotated = stdout(&output).replace('\n', " ");
    let games: Vec<&str> = annotated.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{annotated}");
    // The blunder: `??`, the word, and the engine's choice with its line.
    assert!(
        games[0].contains(&format!("1. {worst}?? {{")),
        "{annotated}"
    );
    assert!(games[0].contains(" Blunder. Best +"), "{annotated}");
    assert!(games[0].contains(&format!(": {best}")), "{annotated}");
    assert!(games[0].contains("[SouthBlunders \"1\"]"), "{annotated}");
    // The best move: no mark, no better move, accuracy 100.
    assert!(games[1].contains(&format!("1. {best} {{+")), "{annotated}");
    assert!(!games[1].contains("Best"), "{annotated}");
    assert!(
        games[1].contains("[SouthAccuracy \"100.0\"]"),
        "{annotated}"
    );
    assert!(games[1].contains("[SouthBlunders \"0\"]"), "{annotated}");
    for game in &games {
        assert!(game.contains("[Annotator \"pasang "), "{annotated}");
        assert!(game.contains("[StartEvaluation \"+"), "{annotated}");
    }
}

#[test]
fn a_bad_game_is_named_and_the_others_are_annotated() {
    let ((best, _), _) = best_and_worst();
    // Game 2's second move is illegal (South's move again, from a point
    // that now holds nothing); game 3 does not parse.
    let text = format!(
        "{}{}{}{}",
        record(1, &format!("1. {best}")),
        record(2, &format!("1. {best} {best}")),
        "[Event \"test\"]\n[Round \"3\"]\n\n1. c {never closed\n\n",
        record(4, &format!("1. {best}")),
    );
    let path = temp_file("bad.pgn", &text);
    let out = temp_file("bad-out.pgn", "");
    let output = run(
        &[
            "annotate",
            "--depth",
            DEPTH,
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    let written = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&out);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let errors = stderr(&output);
    let file = path.display().to_string();
    assert!(
        errors.contains(&format!(
            "error: '{file}': game 2: ply 2: illegal move '{best}'"
        )),
        "{errors}"
    );
    assert!(
        errors.contains(&format!(
            "error: '{file}': game 3: line 20: comment never closed"
        )),
        "{errors}"
    );
    assert!(errors.contains("Annotated 2 of 4 games"), "{errors}");
    assert!(errors.contains("2 failed"), "{errors}");
    // Games 1 and 4 are written, and a line for each goes to stdout.
    let rounds: Vec<&str> = written
        .lines()
        .filter(|line| line.starts_with("[Round "))
        .collect();
    assert_eq!(rounds, ["[Round \"1\"]", "[Round \"4\"]"], "{written}");
    let summary = stdout(&output);
    assert!(
        summary.contains("Game 1 *: Ani (South) accuracy "),
        "{summary}"
    );
    assert!(summary.contains("Game 4 *: "), "{summary}");
    assert!(
        summary.contains("Ani: 2 games, mean accuracy "),
        "{summary}"
    );
}

#[test]
fn json_is_one_object_per_game() {
    let ((best, _), (worst, _)) = best_and_worst();
    let text = format!(
        "{}{}",
        record(1, &format!("1. {worst}")),
        record(2, &format!("1. {best}"))
    );
    let path = temp_file("json.pgn", &text);
    let output = run(
        &[
            "annotate",
            "--json",
            "--depth",
            DEPTH,
            path.to_str().unwrap(),
        ],
        "",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let objects: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON object"))
        .collect();
    assert_eq!(objects.len(), 2);
    let blunder = &objects[0];
    assert_eq!(blunder["game"], 1);
    assert_eq!(blunder["tags"]["SouthBlunders"], "1");
    assert_eq!(blunder["summary"]["south"]["name"], "Ani");
    assert_eq!(blunder["summary"]["south"]["blunders"], 1);
    let ply = &blunder["plies"][0];
    assert_eq!(ply["ply"], 1);
    assert_eq!(ply["side"], "south");
    assert_eq!(ply["move"], worst.as_str());
    assert_eq!(ply["mark"], "??");
    assert_eq!(ply["best"]["move"], best.as_str());
    assert!(ply["drop"].as_f64().unwrap() >= 15.0, "{ply}");
    assert!(ply["eval"]["cp"].as_i64().unwrap() < 0, "{ply}");
    let good = &objects[1]["plies"][0];
    assert_eq!(good["mark"], serde_json::Value::Null);
    assert_eq!(good["best"], serde_json::Value::Null);
    assert_eq!(good["accuracy"], 100.0);
}

#[test]
fn show_reads_the_annotated_record() {
    let ((best, _), (worst, _)) = best_and_worst();
    let path = temp_file("show.pgn", &record(1, &format!("1. {worst}")));
    let output = run(&["annotate", "--depth", DEPTH, path.to_str().unwrap()], "");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    std::fs::write(&path, stdout(&output)).unwrap();
    let shown = run(&["show", "--record", path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&shown), 0, "{}", stderr(&shown));
    let text = stdout(&shown);
    assert!(text.contains("South accuracy "), "{text}");
    assert!(text.contains("blunders (??) 1"), "{text}");
    assert!(
        text.contains(&format!("Ply 1: {worst}?? by South, evaluation -")),
        "{text}"
    );
    assert!(text.contains(&format!("Best was {best} (+")), "{text}");
}

#[test]
fn a_finished_game_ends_with_its_result() {
    // South's ka on a1 takes the last stone and wins 12-10.
    let last = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../..w......../S.........N s 10 10 ak";
    let text = format!("[Event \"end\"]\n[FEN \"{last}\"]\n\n1. a1c1n 1-0\n\n");
    let path = temp_file("end.pgn", &text);
    let output = run(&["annotate", "--depth", DEPTH, path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let annotated = stdout(&output).replace('\n', " ");
    assert!(annotated.contains("[StartEvaluation \"+M1/"), "{annotated}");
    assert!(
        annotated.contains("1. a1c1n {1-0 South has won.} 1-0"),
        "{annotated}"
    );
}

#[test]
fn a_game_played_in_the_terminal_is_recorded_and_reviewed() {
    let path = temp_file("play.pgn", "");
    let _ = std::fs::remove_file(&path);
    // Two moves of ours, two replies of the engine, then we leave.
    let output = run(
        &[
            "play",
            "--movetime",
            "20",
            "--name",
            "Ani",
            "--record",
            path.to_str().unwrap(),
        ],
        "c\nb4c4n\nquit\n",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[South \"Ani\"]"), "{text}");
    let engine = format!(
        "[North \"pasang {} (skill 20)\"]",
        env!("CARGO_PKG_VERSION")
    );
    assert!(text.contains(&engine), "{text}");
    // Our moves carry no comment; the engine's carry its score, depth and
    // time, as in match records: `{+1.23/9 0.020s}`.
    let movetext = text.replace('\n', " ");
    let after = |ply: &str| {
        let rest = &movetext[movetext.find(ply).unwrap() + ply.len()..];
        rest.trim_start().to_string()
    };
    assert!(
        after("1. c").starts_with(|c: char| c.is_ascii_lowercase()),
        "{text}"
    );
    assert!(
        after("2. b4c4n").starts_with(|c: char| c.is_ascii_lowercase()),
        "{text}"
    );
    let comments: Vec<&str> = movetext
        .split('{')
        .skip(1)
        .map(|rest| rest.split('}').next().unwrap())
        .collect();
    assert_eq!(comments.len(), 2, "{text}");
    for comment in comments {
        let (score, time) = comment.split_once(' ').unwrap();
        assert!(
            score.starts_with(['+', '-']) && score.contains('/'),
            "{comment}"
        );
        assert!(time.ends_with('s'), "{comment}");
    }
    let output = run(&["annotate", "--depth", "4", path.to_str().unwrap()], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stdout(&output).contains("[NorthAccuracy \""),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_same_record_gets_the_same_review_every_time() {
    // By default a review searches a fixed node count a position, so two
    // runs agree to the last digit, whatever the machine's load.
    let ((_, _), (worst, _)) = best_and_worst();
    let line = principal_line(4);
    let mut moves = String::new();
    for (index, mv) in line.iter().enumerate() {
        if index % 2 == 0 {
            moves.push_str(&format!("{}. ", index / 2 + 1));
        }
        moves.push_str(mv);
        moves.push(' ');
    }
    let text = format!(
        "{}{}",
        record(1, moves.trim_end()),
        record(2, &format!("1. {worst}"))
    );
    let path = temp_file("twice.pgn", &text);
    let reviews: Vec<String> = (0..2)
        .map(|_| {
            let output = run(&["annotate", path.to_str().unwrap()], "");
            assert_eq!(code(&output), 0, "{}", stderr(&output));
            assert!(
                stderr(&output).contains("(nodes 1000000)"),
                "{}",
                stderr(&output)
            );
            stdout(&output)
        })
        .collect();
    let _ = std::fs::remove_file(&path);
    assert!(
        reviews[0].contains("[Annotator \"pasang ") && reviews[0].contains("(nodes 1000000)\"]"),
        "{}",
        reviews[0]
    );
    assert_eq!(reviews[0], reviews[1]);
}

#[test]
fn marked_lists_only_the_marked_moves() {
    let ((best, _), (worst, _)) = best_and_worst();
    let text = format!(
        "{}{}",
        record(1, &format!("1. {worst}")),
        record(2, &format!("1. {best}"))
    );
    let path = temp_file("marked.pgn", &text);
    let file = path.to_str().unwrap();
    let output = run(&["annotate", "--depth", DEPTH, "--marked", file], "");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    // One line: the blunder of game 1, with its player and annotation;
    // game 2's best move is not listed.
    let listed = stdout(&output);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 1, "{listed}");
    let prefix = format!("'{file}': game 1: ply 1: South (Ani): 1. {worst}?? {{");
    assert!(lines[0].starts_with(&prefix), "{listed}");
    assert!(lines[0].contains(" Blunder. Best +"), "{listed}");
    assert!(lines[0].contains(&format!(": {best}")), "{listed}");
    assert!(lines[0].ends_with('}'), "{listed}");
    let errors = stderr(&output);
    assert!(errors.contains("Annotated 2 of 2 games"), "{errors}");

    // As JSON, each game keeps only its marked plies.
    let output = run(
        &["annotate", "--depth", DEPTH, "--marked", "--json", file],
        "",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let objects: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    let plies = objects[0]["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 1);
    assert_eq!(plies[0]["move"], worst.as_str());
    assert_eq!(plies[0]["mark"], "??");
    assert_eq!(objects[1]["plies"], serde_json::json!([]));
    assert_eq!(objects[1]["summary"]["south"]["blunders"], 0);
}
