//! The extensions that do long work (`perft`, `go perft`, `bench`, `eval`),
//! `stop` and `quit` during them, and a flood of input during a search.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use std::time::Duration;

use common::protocol::*;

// ---------------------------------------------------------------------------
// Perft, bench, eval

#[test]
fn go_perft_divides_without_a_bestmove() {
    let mut engine = Engine::spawn();
    let (divide, total) = perft_output(&mut engine, "go perft 3");
    assert_eq!(total, 850);
    assert_eq!(divide.len(), 11);
    assert_eq!(divide.iter().map(|(_, count)| count).sum::<u64>(), 850);
    let moves = engine.moves();
    assert_eq!(
        set(&divide.iter().map(|(mv, _)| mv.clone()).collect::<Vec<_>>()),
        set(&moves)
    );
    let after = engine.sync();
    assert!(
        after.iter().all(|line| !line.starts_with("bestmove")),
        "go perft gives no bestmove: {after:?}"
    );
    assert!(after.is_empty(), "{after:?}");

    assert_eq!(perft_output(&mut engine, "perft 4").1, 12912);
    assert_eq!(perft_output(&mut engine, "perft 1").1, 11);
    assert_eq!(perft_output(&mut engine, "go perft 0").1, 1);
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    assert_eq!(perft_output(&mut engine, "perft 1").1, 4);
    engine.send_error("perft", |_| true);
    engine.send_error("perft x", |_| true);
    engine.send_error("perft 1 2", |_| true);
}

#[test]
fn bench_node_count_is_reproducible() {
    let mut engine = Engine::spawn();
    let first = bench_nodes(&mut engine, "bench 6");
    assert!(engine.sync().is_empty(), "nothing after Nodes/second");
    let second = bench_nodes(&mut engine, "bench 6");
    // Bench leaves the engine's own state alone and uses one thread, even
    // with Threads 2 set.
    engine.send_silent("setoption name Threads value 2");
    let third = bench_nodes(&mut engine, "bench 6");
    let mut other = Engine::spawn();
    let fourth = bench_nodes(&mut other, "bench 6");
    assert_eq!([first, first, first], [second, third, fourth]);
    assert!(bench_nodes(&mut other, "bench 3") < first);
    assert_eq!(engine.position_string(), START_1);
    engine.send_error("bench x", |_| true);
    engine.send_error("bench 1 2", |_| true);
}

#[test]
fn eval_prints_an_info_string() {
    let mut engine = Engine::spawn();
    for position in [
        "position startpos".to_string(),
        MIDDLEGAME.to_string(),
        format!("position fen {OVER_NORTH_LOST}"),
    ] {
        engine.send_silent(&position);
        engine.send("eval");
        let lines = engine.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string "), "{lines:?}");
    }
    engine.send_error("eval now", |_| true);
}

// ---------------------------------------------------------------------------
// Long commands: stop, quit, and a flood of input

/// A perft that runs for minutes unless stopped.
const LONG_PERFT: &str = "perft 14";

/// Reads a stopped perft's output: the `stopped` mark, a blank line and
/// `Nodes searched: N` last. Returns N.
fn stopped_perft(engine: &mut Engine) -> u64 {
    let lines = engine.read_until(
        "'Nodes searched:' after stop",
        |line| line.starts_with("Nodes searched:"),
        AFTER_STOP,
    );
    let n = lines.len();
    if n < 3 || lines[n - 3] != "info string stopped: partial count" || !lines[n - 2].is_empty() {
        engine.fail(&format!("a stopped perft ends badly: {lines:?}"));
    }
    lines[n - 1]
        .strip_prefix("Nodes searched: ")
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| engine.fail("malformed 'Nodes searched:' line"))
}

/// Reads a stopped bench's output: the `stopped` mark and its usual four
/// closing lines. Returns the node count.
fn stopped_bench(engine: &mut Engine) -> u64 {
    let lines = engine.read_until(
        "'Nodes/second' after stop",
        |line| line.starts_with("Nodes/second    : "),
        AFTER_STOP,
    );
    let n = lines.len();
    if n < 5
        || lines[n - 5] != "info string stopped: partial count"
        || !lines[n - 4].starts_with("=====")
        || !lines[n - 3].starts_with("Total time (ms) : ")
    {
        engine.fail(&format!("a stopped bench ends badly: {lines:?}"));
    }
    lines[n - 2]
        .strip_prefix("Nodes searched  : ")
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| engine.fail("malformed 'Nodes searched  :' line"))
}

#[test]
fn stop_ends_a_running_perft_with_its_partial_count() {
    let mut engine = Engine::spawn();
    for command in [LONG_PERFT, "go perft 14"] {
        engine.send(command);
        // Divide lines may come first; the total must wait for the stop.
        engine.expect_none_within(
            "a total before stop",
            |line| line.starts_with("Nodes searched"),
            WATCH,
        );
        // isready is answered at once while it runs.
        engine.send("isready");
        engine.expect_line("readyok", |line| line == "readyok", READY);
        engine.send("stop");
        let counted = stopped_perft(&mut engine);
        assert!(counted > 0, "{command}: counted nothing in {WATCH:?}");
        assert!(engine.sync().is_empty());
    }
    // The next perft runs in full.
    assert_eq!(perft_output(&mut engine, "perft 3").1, 850);
}

#[test]
fn stop_ends_a_running_bench_with_its_partial_count() {
    let mut engine = Engine::spawn();
    engine.send("bench 40");
    engine.expect_none_within(
        "bench totals before stop",
        |line| line.starts_with("Nodes searched"),
        WATCH,
    );
    engine.send("stop");
    stopped_bench(&mut engine);
    assert!(engine.sync().is_empty());
}

#[test]
fn stop_drops_the_long_commands_queued_behind_it() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send(&format!(
        "{LONG_PERFT}\nbench 40\ngo perft 14\ngo depth 60\nd\n{LONG_PERFT}"
    ));
    // Once `readyok` is back the engine has taken every line above:
    // `isready` is answered at once while a long command is queued or
    // runs, and only after the lines before it are read. So the `stop`
    // reaches the running perft and the commands queued behind it.
    engine.sync_within(READY);
    engine.send("stop");
    // The running perft ends with what it counted, the queued ones with
    // nothing; the queued search answers at once; `d` still runs.
    stopped_perft(&mut engine);
    assert_eq!(stopped_bench(&mut engine), 0);
    assert_eq!(stopped_perft(&mut engine), 0);
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best), "{}", search.best);
    engine.expect_line(
        "the output of d",
        |line| line.starts_with("Status:"),
        AFTER_STOP,
    );
    assert_eq!(stopped_perft(&mut engine), 0);
    // A perft sent after the stop runs normally.
    assert_eq!(perft_output(&mut engine, "perft 1").1, legal.len() as u64);
}

#[test]
fn quit_and_end_of_input_end_any_long_command() {
    for command in [LONG_PERFT, "go perft 14", "bench 40", "go infinite"] {
        for end in ["quit", "quit now", "end of input"] {
            let mut engine = Engine::spawn();
            engine.send_silent(MIDDLEGAME);
            engine.send(command);
            engine.send(LONG_PERFT); // queued behind it
            // `readyok` at once: the engine has read both and the long
            // command is queued or running when the end comes.
            engine.sync_within(READY);
            if end == "end of input" {
                engine.close_stdin();
            } else {
                engine.send(end);
            }
            // Generous: the figure measured is a few milliseconds.
            let status = engine.wait_exit(Duration::from_secs(3));
            assert_eq!(status.code(), Some(0), "{command} then {end}");
        }
    }
}

/// VmHWM (peak resident memory) of a process in KiB, where /proc has it.
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_flood_of_input_during_a_search_is_bounded_and_stop_still_works() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    // More lines than the queue holds, long ones among them.
    let mut flood = String::new();
    for index in 0..30_000 {
        flood.push_str(match index % 4 {
            0 => "bench\n",
            1 => "flood of junk with several words in it\n",
            2 => "position startpos moves c j b4c4n k7j7w\n",
            _ => "perft 12\n",
        });
    }
    engine.send_bytes(flood.as_bytes());
    engine.send("isready");
    // The report of dropped input comes at once, from the reader.
    let mut lines = engine.read_until("readyok", |line| line == "readyok", WORK);
    engine.send("stop");
    let search_lines = engine.read_until(
        "bestmove after the flood",
        |line| line.starts_with("bestmove"),
        WORK,
    );
    let search = Search::from_lines(
        search_lines
            .iter()
            .filter(|line| !line.starts_with("info string error"))
            .cloned()
            .collect(),
    );
    assert!(legal.contains(&search.best));
    lines.extend(search_lines);
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string error: ")
                && line.contains("dropped until there is room")),
        "no report of dropped input"
    );
    // The queued commands drain quickly; the dropped lines are counted.
    // The count goes in before the first line that fits again, or right
    // after it when that line had to wait for room: read past both.
    engine.send("d");
    let count_line = |line: &str| line.contains("input line(s) dropped while the queue was full");
    let mut lines = engine.read_until(
        "the count of dropped lines",
        |line| count_line(line),
        Duration::from_secs(30),
    );
    if !lines.iter().any(|line| line.starts_with("Status:")) {
        lines.extend(engine.read_until(
            "the end of the queue",
            |line| line.starts_with("Status:"),
            Duration::from_secs(30),
        ));
    }
    assert!(lines.iter().any(|line| count_line(line)));
    if let Some(peak) = peak_memory_kib(engine.pid()) {
        // Hash 16 MiB + 64 MiB, the bound of issue 20.
        assert!(peak < (16 + 64) * 1024, "peak resident memory {peak} KiB");
    }
    engine.go_checked("go depth 3", WORK);
}
