//! How the engine ends: `quit`, end of input, during a search, with
//! searches queued, a closed output pipe, and logging only to stderr.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use std::io::{Read, Write};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::browser::KillOnDrop;
use common::protocol::*;

// ---------------------------------------------------------------------------
// Exit

#[test]
fn quit_exits_with_code_zero() {
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn end_of_input_exits_with_code_zero() {
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.close_stdin();
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
}

#[test]
fn quit_during_a_search_answers_its_bestmove_first() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    engine.expect_no_bestmove_within("bestmove", Duration::from_millis(100));
    engine.send("quit");
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn end_of_input_during_a_search_answers_its_bestmove_first() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go depth 100");
    engine.expect_no_bestmove_within("bestmove", Duration::from_millis(100));
    engine.close_stdin();
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn quit_with_queued_searches_answers_each() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.send("go infinite\ngo depth 60\nquit");
    let first = engine.bestmove(AFTER_STOP);
    let second = engine.bestmove(AFTER_STOP);
    assert_ne!(first.best, "(none)");
    assert_ne!(second.best, "(none)");
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
}

#[test]
fn a_closed_output_pipe_does_not_crash_the_engine() {
    // The GUI stops reading (or dies) while the engine still talks. What
    // it says goes nowhere, so the debug log on stderr shows how far it
    // got. The engine is killed if the test fails before it exits.
    let mut child = KillOnDrop(
        common::pasang()
            .env("RUST_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the pasang binary starts"),
    );
    let child = &mut child.0;
    drop(child.stdout.take());
    let log = Arc::new(Mutex::new(String::new()));
    let mut stderr = child.stderr.take().expect("piped stderr");
    let reader = {
        let log = Arc::clone(&log);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(read @ 1..) = stderr.read(&mut chunk) {
                log.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&chunk[..read]));
            }
        })
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(b"uci\nisready\ngo depth 5\nd\nbench 2\ngo infinite\n")
        .expect("the engine reads its input");
    stdin.flush().expect("flush");
    // Everything before `go infinite` has answered into the closed pipe
    // (bench's last line), and the search after it has too.
    common::wait_until(
        WORK,
        "the engine answering into its closed output up to go infinite's info lines",
        || {
            let log = log.lock().unwrap();
            log.find(">> Nodes/second")
                .is_some_and(|bench| log[bench..].contains(">> info depth"))
        },
    );
    let _ = stdin.write_all(b"stop\nquit\n");
    drop(stdin);
    let deadline = Instant::now() + WORK;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the engine did not exit after quit with its output closed");
        }
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(status.code(), Some(0), "{status}");
    reader
        .join()
        .expect("the stderr reader ends with the engine");
}

#[test]
fn logging_goes_to_stderr_only_and_only_when_asked() {
    // Silent without RUST_LOG.
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.go_checked("go depth 3", WORK);
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert_eq!(engine.stderr_after_exit(), "", "stderr without RUST_LOG");

    // RUST_LOG=debug shows the lines in and out on stderr; stdout stays
    // pure protocol.
    let mut engine = Engine::spawn_with_log(Some("debug"));
    let lines = engine.handshake();
    assert!(lines.iter().all(|line| line.starts_with("id ")
        || line.starts_with("option ")
        || line.starts_with("info string built for ")));
    engine.send("isready");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
    let log = engine.stderr_after_exit();
    assert!(log.contains("isready"), "stderr: {log}");
    assert!(log.contains("readyok"), "stderr: {log}");
}
