//! The command line driven as a user would: the real binary, its output
//! and its exit codes.

mod common;

use common::{code, run, stderr, stdout};
use serde_json::Value;

const AFTER_SIX: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";
/// North to move and no stone left: South won on points.
const FINISHED: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";
/// South's ka at a1, one white stone at c2: `a1a2e` takes it and ends the
/// game.
const LAST_STONE: &str = "..........N/.........../.........../.........../.........../.....+...../.........../.........../.........../..w......../S.......... s 10 4 ak";

#[test]
fn version_and_help() {
    let output = run(&["--version"], "");
    assert_eq!(code(&output), 0);
    // The version and the commit (`pasang 0.2.0 (1a2b3c4)`, or the
    // version alone without git), then what the binary was built for.
    let text = stdout(&output);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let version = concat!("pasang ", env!("CARGO_PKG_VERSION"));
    assert!(
        first == version || first.starts_with(&format!("{version} (")),
        "{text}"
    );
    assert!(
        lines
            .next()
            .unwrap_or_default()
            .starts_with(&format!("built for {}", std::env::consts::ARCH)),
        "{text}"
    );
    for sub in [
        "uci", "analyse", "play", "show", "perft", "bench", "match", "datagen",
    ] {
        let output = run(&[sub, "--help"], "");
        assert_eq!(code(&output), 0, "{sub} --help");
        assert!(
            stdout(&output).contains(&format!("Usage: pasang {sub}")),
            "{sub}: {}",
            stdout(&output)
        );
    }
    for sub in ["analyse", "play", "show", "perft"] {
        let help = stdout(&run(&[sub, "--help"], ""));
        for flag in [
            "--pattern",
            "--ka-entry",
            "--second-column",
            "--centre",
            "--fen",
            "--moves",
        ] {
            assert!(help.contains(flag), "{sub} --help lacks {flag}");
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["frobnicate"][..],
        &["analyse", "--depth", "deep"],
        &["analyse", "--multipv", "0"],
        &["play", "--skill", "21"],
        &["play", "--side", "east"],
        &["perft"],
        &["show", "--pattern", "3"],
        &["--log-file", "x.log", "perft", "1"],
    ] {
        let output = run(args, "");
        assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
        assert!(stdout(&output).is_empty(), "{args:?}");
        assert!(stderr(&output).contains("error"), "{args:?}");
    }
}

#[test]
fn perft_prints_counts_and_the_total_last() {
    let output = run(&["perft", "3"], "");
    assert_eq!(code(&output), 0);
    assert_eq!(stdout(&output), "Nodes searched: 850\n");
    assert!(stderr(&output).contains("leaves/s"));

    let output = run(&["perft", "2", "--divide", "--threads", "2"], "");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13, "{text}");
    assert!(lines[..11].iter().all(|line| line.contains(": ")));
    assert_eq!(lines[11], "");
    assert_eq!(lines[12], "Nodes searched: 60");

    let output = run(&["perft", "3", "--ka-entry", "both"], "");
    assert_eq!(stdout(&output), "Nodes searched: 1595\n");
    let output = run(
        &["perft", "1", "--moves", "c j b4c4n k7j7w c4c7ew j7k7s"],
        "",
    );
    assert_eq!(stdout(&output), "Nodes searched: 4\n");
    let output = run(&["perft", "1", "--fen", AFTER_SIX], "");
    assert_eq!(stdout(&output), "Nodes searched: 4\n");

    let output = run(&["perft", "2", "--fen", "not a position"], "");
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("invalid position"));
}

#[test]
fn bench_prints_the_signature_lines() {
    let output = run(&["bench", "2"], "");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(text.starts_with("Position 1/"), "{text}");
    assert!(text.contains("\nNodes searched  : "), "{text}");
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("Nodes/second    : ")
    );
    // Piped stderr: no progress display.
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn analyse_json_from_arguments() {
    let output = run(
        &[
            "analyse",
            "--moves",
            "c j",
            "--depth",
            "4",
            "--multipv",
            "3",
            "--json",
        ],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let objects = json_lines(&stdout(&output));
    assert_eq!(objects.len(), 1);
    let object = &objects[0];
    assert_eq!(object["input"], "startpos moves c j");
    assert!(object["position"].as_str().unwrap().ends_with(" s 8 9 cj"));
    let best = object["bestmove"].as_str().expect("a best move");
    assert_eq!(object["pv"][0], best);
    assert!(object["score"]["cp"].is_i64() || object["score"]["mate"].is_i64());
    assert_eq!(object["depth"], 4);
    for field in ["seldepth", "nodes", "time_ms"] {
        assert!(object[field].is_u64(), "{field}");
    }
    let lines = object["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    for (index, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], index + 1);
        assert!(line["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        assert!(line["depth"].is_u64());
        assert!(line["score"].is_object());
    }
    assert_eq!(lines[0]["pv"][0], best);
}

#[test]
fn analyse_stdin_reports_bad_lines_and_goes_on() {
    let input = format!(
        "startpos\n\n# a comment\nthis is no position\nfen {AFTER_SIX}\nstartpos moves c c\n{FINISHED}\n"
    );
    let output = run(&["analyse", "--json", "--depth", "3"], &input);
    assert_eq!(code(&output), 1);
    let objects = json_lines(&stdout(&output));
    assert_eq!(objects.len(), 3, "{}", stdout(&output));
    assert_eq!(objects[0]["input"], "startpos");
    assert_eq!(objects[1]["position"], AFTER_SIX);
    assert!(objects[1]["bestmove"].is_string());
    let finished = &objects[2];
    assert!(finished["bestmove"].is_null());
    assert_eq!(finished["result"]["winner"], "south");
    assert_eq!(finished["result"]["reason"], "score");
    assert_eq!(finished["score"]["mate"], 0);
    let errors = stderr(&output);
    assert!(errors.contains("line 4:"), "{errors}");
    assert!(errors.contains("line 6: move 2 of the list"), "{errors}");
    assert!(!errors.contains("line 1:") && !errors.contains("line 5:"));
}

#[test]
fn analyse_text_and_bad_arguments() {
    let output = run(&["analyse", "--fen", AFTER_SIX, "--nodes", "2000"], "");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("bestmove "), "{text}");
    assert!(text.contains("line 1"), "{text}");

    let output = run(&["analyse", "--moves", "c zz", "--json"], "");
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("move 2 of the list"));

    let output = run(&["analyse", "--movetime", "50"], "startpos moves c\n");
    assert_eq!(code(&output), 0);
    assert!(stdout(&output).contains("bestmove"));
}

#[test]
fn show_prints_a_diagram_and_writes_svg() {
    let output = run(&["show", "--moves", "c j b4c4n"], "");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(
        text.starts_with("     a b c d e f g h i j k\n 11 "),
        "{text}"
    );
    assert!(text.contains("[S]"), "{text}");
    assert!(
        text.contains("Last move: b4c4n by South (+3: c6 c7 c8)"),
        "{text}"
    );
    assert!(text.contains("Scores: South 11 - North 9"), "{text}");

    let dir = std::env::temp_dir().join(format!("pasang-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let output = run(
        &[
            "show",
            "--moves",
            "c j b4c4n k7j7w",
            "--svg",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">S</text>") && svg.contains(">N</text>"));
    assert!(svg.contains("<title>hole</title>"));
    assert!(svg.contains("g7 captured"));
    let _ = std::fs::remove_dir_all(&dir);

    let output = run(&["show", "--svg", "-"], "");
    assert!(stdout(&output).starts_with("<svg"));

    let output = run(&["show", "--moves", "c c"], "");
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).is_empty());
    assert!(stderr(&output).contains("illegal move 'c'"));
}

#[test]
fn play_from_a_pipe() {
    let output = run(
        &["play", "--movetime", "30"],
        "c\nb4c4n\nmoves\nhint\nnonsense\nundo\nquit\n",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    for expected in [
        "You play c: +8 (c1 c2 c3 c4 c5); South 8 - North 0",
        "pasang (North) plays ",
        "You play b4c4n: +3",
        "Legal moves (",
        "Hint: ",
        "malformed move 'nonsense'",
        "Took back b4c4n ",
        "Game abandoned after 2 plies",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // Evaluations in points, as the board and annotate give them.
    let reply = text
        .lines()
        .find(|line| line.starts_with("pasang (North) plays "))
        .unwrap_or_default();
    let eval = reply.split("[eval ").nth(1).unwrap_or_default();
    let number = eval.split_whitespace().next().unwrap_or_default();
    assert!(
        number.starts_with(['+', '-']) && (number.contains('.') || number.contains('M')),
        "{reply}"
    );
    assert!(eval.ends_with(" for North]"), "{reply}");
    assert!(!text.contains("eval cp"), "{text}");
}

#[test]
fn play_lists_the_readings_of_an_ambiguous_move() {
    let output = run(
        &["play", "--moves", "c j", "--movetime", "20"],
        "b1c1\nquit\n",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "illegal move 'b1c1': ambiguous: several lines can be captured from c1; \
             add the directions: b1c1w, b1c1e or b1c1n\n"
        ),
        "{text}"
    );
}

#[test]
fn play_to_the_end() {
    let output = run(&["play", "--fen", LAST_STONE], "a1a2e\nn\n");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    // The result is told once, under the board, then the verdict.
    assert_eq!(
        text.matches("Game over: South wins on points: no stone is left (South 12 - North 4)")
            .count(),
        1,
        "{text}"
    );
    assert!(text.contains("You win.\nAnother game? (y/n)> "), "{text}");

    // The engine plays South and moves first; end of input quits.
    let output = run(
        &[
            "play",
            "--side",
            "north",
            "--skill",
            "0",
            "--movetime",
            "20",
        ],
        "",
    );
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert!(text.contains("pasang (South) plays "), "{text}");
    assert!(text.contains("Game abandoned after 1 ply:"), "{text}");
}

/// `pasang play --record` keeps a game left with Ctrl-C, as its help
/// promises: at the prompt (after a move each) and while the engine thinks.
#[cfg(unix)]
#[test]
fn play_keeps_a_game_interrupted_by_ctrl_c() {
    use common::Session;
    use std::time::Duration;

    let interrupt = |session: &Session| {
        let status = std::process::Command::new("kill")
            .args(["-INT", &session.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    };
    let folder = std::env::temp_dir().join(format!("pasang-sigint-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("games.pgn");
    let _ = std::fs::remove_file(&path);
    let record = path.to_str().unwrap();

    // At the prompt, after the person's move and the engine's reply.
    let mut command = common::pasang();
    command.args([
        "play",
        "--movetime",
        "20",
        "--name",
        "Ani",
        "--record",
        record,
    ]);
    let mut session = Session::spawn_command(command);
    session.send("c");
    session.expect_line(
        "the engine's reply",
        |line| line.starts_with("pasang (North) plays"),
        Duration::from_secs(20),
    );
    // The board follows, then the prompt (no line end: it waits for
    // input). `fen` answers on the prompt's line, so that line shows the
    // prompt was reached, and with it the game of two plies that a
    // Ctrl-C keeps.
    session.send("fen");
    session.expect_line(
        "the prompt answering fen",
        |line| line.starts_with("South to move> "),
        Duration::from_secs(20),
    );
    interrupt(&session);
    let status = session.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(130), "{status}");
    let said = session.stderr_after_exit();
    assert!(said.contains("Game abandoned after 2 plies"), "{said}");

    // While the engine thinks (for 20 s, unless interrupted).
    let mut command = common::pasang();
    command.args(["play", "--side", "north", "--movetime", "20000"]);
    command.args(["--name", "Bo", "--record", record]);
    let mut session = Session::spawn_command(command);
    session.expect_line(
        "the engine thinking",
        |line| line == "pasang is thinking...",
        Duration::from_secs(20),
    );
    // The line is printed as the 20 s search starts, with the game kept
    // for a Ctrl-C already: the interrupt may come at once.
    interrupt(&session);
    assert_eq!(session.wait_exit(Duration::from_secs(10)).code(), Some(130));

    let text = std::fs::read_to_string(&path).expect("the record file is written");
    let games = pasang::record::read(&text).expect("the records read back");
    assert_eq!(games.len(), 2, "{text}");
    assert_eq!(games[0].tag("South"), Some("Ani"));
    assert_eq!(games[0].tag("PlyCount"), Some("2"), "{text}");
    assert_eq!(games[0].moves[0].text, "c");
    assert_eq!(games[0].result, pasang::record::GameResult::Unfinished);
    games[0]
        .replay()
        .expect("the game left at the prompt replays");
    assert_eq!(games[1].tag("North"), Some("Bo"));
    assert_eq!(games[1].tag("PlyCount"), Some("0"), "{text}");
    assert_eq!(games[1].result, pasang::record::GameResult::Unfinished);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn protocol_loop_and_log_file() {
    let output = run(&[], "uci\nisready\nquit\n");
    assert_eq!(code(&output), 0);
    assert!(stdout(&output).contains("uciok"));
    assert!(stdout(&output).contains("readyok"));

    let dir = std::env::temp_dir().join(format!("pasang-cli-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("protocol.log");
    let output = run(
        &["uci", "--log-file", log.to_str().unwrap()],
        "isready\nquit\n",
    );
    assert_eq!(code(&output), 0);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(" << isready"), "{text}");
    assert!(text.contains(" >> readyok"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);

    let output = run(&["--log-file", "/nonexistent/dir/x.log"], "");
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("cannot open log file"));
}

/// The bench signature: the node count of `pasang bench` (one thread, fixed
/// depth) changes exactly when the search's behaviour changes. A commit
/// that changes it on purpose updates this number and says `Bench: N` in
/// its message, so no search change lands unnoticed.
const BENCH_SIGNATURE: u64 = 897_003;

#[test]
fn bench_signature_is_pinned() {
    let output = run(&["bench"], "");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let nodes: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("Nodes searched  :"))
        .unwrap_or_else(|| panic!("no node count in {text}"))
        .trim()
        .parse()
        .expect("a node count");
    assert_eq!(
        nodes, BENCH_SIGNATURE,
        "the bench signature changed: if the search changed on purpose, update BENCH_SIGNATURE and say Bench: {nodes} in the commit"
    );
}

#[test]
fn analyse_takes_positions_as_arguments() {
    let output = run(
        &["analyse", "--depth", "3", "startpos moves c j", "startpos"],
        "",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.matches("bestmove").count(), 2, "{text}");
    // A bad argument is named by its number; the good ones still run.
    let output = run(&["analyse", "--depth", "2", "startpos", "nonsense"], "");
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("argument 2"),
        "{}",
        stderr(&output)
    );
    assert_eq!(stdout(&output).matches("bestmove").count(), 1);
}

#[test]
fn perft_threads_have_the_range_of_the_threads_option() {
    assert_eq!(code(&run(&["perft", "2", "--threads", "256"], "")), 0);
    assert_eq!(code(&run(&["perft", "2", "--threads", "257"], "")), 2);
}
