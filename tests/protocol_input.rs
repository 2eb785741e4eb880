//! Bad input: unknown and malformed commands, very long lines, binary
//! junk and CRLF line endings.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use common::protocol::*;

// ---------------------------------------------------------------------------
// Bad input

#[test]
fn unknown_and_malformed_commands_are_reported() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let before = engine.position_string();
    for (command, echo) in [
        ("foo", "foo"),
        ("foo bar baz", "foo bar baz"),
        ("UCI", "UCI"),
        ("  xyzzy  ", "xyzzy"),
    ] {
        engine.send(command);
        let lines = engine.sync();
        assert_eq!(
            lines,
            [format!("info string unknown command: {echo}")],
            "'{command}'"
        );
    }
    for command in [
        "go depth",
        "go depth x",
        "go depth -3",
        "go nodes many",
        "go movetime",
        "go movetime -5",
        "go wtime",
        "go perft",
        "go depth 99999999999999",
        "go depth movetime 100",
    ] {
        engine.send_malformed_go(command.as_bytes());
        assert_eq!(engine.position_string(), before);
    }
    // An unknown word is skipped with a note; the search runs.
    let legal = engine.moves();
    engine.send("go sideways depth 2");
    let note = engine.expect_line("a note", |_| true, WORK);
    assert_eq!(note, "info string go: unknown word 'sideways' ignored");
    let search = engine.bestmove(WORK);
    assert!(legal.contains(&search.best), "{}", search.best);
    // `position startpos c j`: the error names the missing word.
    engine.send_error("position startpos c j", |line| line.contains("'moves'"));
    for command in [
        "uci now",
        "isready now",
        "ucinewgame please",
        "stop now",
        "moves c",
        "result now",
        "d 3",
    ] {
        engine.send_error(command, |_| true);
    }
    // None of that changed the position or left a search running.
    assert!(engine.sync().is_empty());
    assert_eq!(engine.position_string(), before);
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn very_long_lines_and_binary_junk_do_not_crash() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position startpos moves {OPENING}"));

    // A 2 MB line.
    let mut long = vec![b'x'; 2 << 20];
    long.push(b'\n');
    engine.send_bytes(&long);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string "),
        "{lines:?}"
    );

    // A 2 MB position command: rejected, the position stays.
    let mut long = b"position startpos moves".to_vec();
    while long.len() < 2 << 20 {
        long.extend_from_slice(b" c");
    }
    long.push(b'\n');
    engine.send_bytes(&long);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    assert_eq!(engine.position_string(), AFTER_OPENING);

    // Half a megabyte of moves (under the line limit): an error, not a crash.
    let mut long = String::from("position startpos moves c j");
    while long.len() < 500_000 {
        long.push_str(" c7d7s");
    }
    engine.send_error(&long, |line| line.len() < 2000);
    assert_eq!(engine.position_string(), AFTER_OPENING);

    // Invalid UTF-8 and control characters.
    engine.send_bytes(b"\xff\xfe\xfd\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string unknown command"),
        "{lines:?}"
    );
    engine.send_bytes(b"position fen \xc3\x28 \xa0\xa1 s 0 0 --\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    engine.send_bytes(b"setoption name Hash\xff value 1\x00\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    engine.send_malformed_go(b"go depth 3\xff");
    engine.send_bytes(b"\x00\x01\x02\x1b[2J\x7f\n");
    assert_eq!(engine.sync().len(), 1);
    engine.send_bytes(&[0x80; 10_000]);
    engine.send_bytes(b"\n");
    assert_eq!(engine.sync().len(), 1);
    let mut junk: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    junk.push(b'\n');
    engine.send_bytes(&junk);
    engine.sync();

    // Still alive, still in the same position, still searching.
    assert_eq!(engine.position_string(), AFTER_OPENING);
    engine.go_checked("go depth 4", WORK);
    engine.send("quit");
    let status = engine.wait_exit(WORK);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn crlf_line_endings_are_accepted() {
    let mut engine = Engine::spawn();
    engine.send_bytes(b"uci\r\n");
    engine.expect_line("uciok", |line| line == "uciok", READY);
    engine.send_bytes(b"isready\r\n");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send_bytes(b"setoption name Ka Entry value jump\r\n");
    engine.send_bytes(b"position startpos\r\n");
    assert!(engine.sync().is_empty());
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 745);
    engine.send_bytes(b"setoption name Ka Entry value slide\r\n");
    engine.send_bytes(format!("position startpos moves {OPENING}\r\n").as_bytes());
    assert!(engine.sync().is_empty());
    assert_eq!(engine.position_string(), AFTER_OPENING);
    engine.send_bytes(b"moves\r\n");
    let line = engine.expect_line("moves", |line| line.starts_with("moves"), READY);
    assert_eq!(
        set(&line
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect::<Vec<_>>()),
        set(&strings(AFTER_OPENING_MOVES))
    );
    engine.send_bytes(b"go depth 3\r\n");
    let search = engine.bestmove(WORK);
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
    engine.send_bytes(b"quit\r\n");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
}
