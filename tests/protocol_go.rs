//! `go` in all its forms: depth, nodes, movetime, clocks, infinite, ponder,
//! searchmoves, multipv, mate, and `go` on a finished game.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::protocol::*;

// ---------------------------------------------------------------------------
// Searches

#[test]
fn go_depth_reports_every_field_and_one_bestmove() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let search = engine.go_checked("go depth 6", WORK);
    let reports = search.reports();
    let depths: Vec<u32> = reports.iter().filter_map(|info| info.depth).collect();
    assert_eq!(depths.first(), Some(&1), "{:?}", search.lines);
    assert_eq!(search.deepest(), 6);
    assert!(
        depths.windows(2).all(|pair| pair[0] <= pair[1]),
        "depths never decrease: {depths:?}"
    );
    for info in &reports {
        assert!(info.seldepth.unwrap() >= 1);
        assert!(info.multipv == Some(1));
    }
    let nodes: Vec<u64> = reports.iter().filter_map(|info| info.nodes).collect();
    assert!(nodes.windows(2).all(|pair| pair[0] <= pair[1]), "{nodes:?}");

    // Searching again from the opening's end also works.
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go depth 4", WORK);
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
}

#[test]
fn go_nodes_is_deterministic_with_one_thread() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Threads value 1");
    let mut results = Vec::new();
    for _ in 0..2 {
        engine.send_silent("ucinewgame");
        engine.send_silent(MIDDLEGAME);
        let search = engine.go_checked("go nodes 30000", WORK);
        let nodes = search.final_info().and_then(|info| info.nodes).unwrap();
        assert!(
            nodes <= 30000 + 4096,
            "a nodes limit is kept roughly: {nodes}"
        );
        results.push((search.best, nodes));
    }
    // A second process gives the same too.
    let mut other = Engine::spawn();
    other.send_silent(MIDDLEGAME);
    let search = other.go_checked("go nodes 30000", WORK);
    let nodes = search.final_info().and_then(|info| info.nodes).unwrap();
    results.push((search.best, nodes));
    assert!(
        results.windows(2).all(|pair| pair[0] == pair[1]),
        "same bestmove and node count every time: {results:?}"
    );
}

#[test]
fn go_movetime_ends() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go movetime 200", Duration::from_millis(200) + WORK);
}

#[test]
fn go_with_clocks_ends_with_a_legal_move() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go wtime 1000 btime 1000 winc 10 binc 10", WORK);
    engine.go_checked("go wtime 2000 btime 2000 movestogo 10", WORK);
    engine.go_checked("go stime 500 ntime 500 sinc 5 ninc 5", WORK);
    // A clock that ran out (GUIs may send negative times).
    engine.go_checked("go wtime -50 btime -50", WORK);
    engine.send_silent("position startpos moves c");
    engine.go_checked("go btime 600 wtime 600 binc 0 winc 0", WORK);
    engine.go_checked("go ntime 400 stime 400", WORK);
}

/// With a tiny clock for the side to move and a huge one for the other,
/// the search ends on its own (reading the huge clock, it would run for a
/// minute, past the liveness bound); swapped, it is still searching when
/// watched and ends on `stop`. Only answers are checked, not durations.
#[test]
fn clocks_are_read_for_the_side_to_move() {
    let mut engine = Engine::spawn();
    // South to move, then North to move.
    for (position, own_tiny, own_huge) in [
        (
            MIDDLEGAME,
            ["go wtime 300 btime 600000", "go stime 300 ntime 600000"],
            ["go wtime 600000 btime 300", "go stime 600000 ntime 300"],
        ),
        (
            "position startpos moves c j b4c4n",
            ["go wtime 600000 btime 300", "go stime 600000 ntime 300"],
            ["go wtime 300 btime 600000", "go stime 300 ntime 600000"],
        ),
    ] {
        engine.send_silent(position);
        let legal = engine.moves();
        for command in own_tiny {
            engine.go_checked(command, WORK);
        }
        for command in own_huge {
            engine.go_until_released(
                command,
                &format!("bestmove soon after '{command}' with the own clock at 600 s"),
                "stop",
                &legal,
            );
        }
    }
}

/// Clocks and increments up to `i64::MAX` milliseconds (what a GUI may
/// send) give a search like any other, not an overflow: one bounded by
/// depth ends with a legal move, and one bounded by the clock alone is
/// still running when watched and ends on `stop`.
#[test]
fn the_largest_clocks_do_not_overflow() {
    const MOST: i64 = i64::MAX;
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    let clocks = format!("wtime {MOST} btime {MOST} winc {MOST} binc {MOST}");
    engine.go_checked(&format!("go {clocks} movestogo 1 depth 3"), WORK);
    engine.go_checked(
        &format!("go stime {MOST} ntime {MOST} sinc {MOST} depth 3"),
        WORK,
    );
    engine.go_checked(&format!("go movetime {MOST} depth 3"), WORK);
    engine.go_until_released(
        &format!("go {clocks}"),
        "bestmove with clocks of i64::MAX ms",
        "stop",
        &legal,
    );
    engine.sync();
}

#[test]
fn a_missing_own_clock_does_not_mean_unlimited_time() {
    // Only the other side's clock is given: a clocked game all the same,
    // not an endless search.
    let mut engine = Engine::spawn();
    engine.send_silent("position startpos moves c"); // North to move
    engine.go_checked("go wtime 500 winc 0", WORK);
    engine.send_silent(MIDDLEGAME); // South to move
    engine.go_checked("go btime 500", WORK);
}

#[test]
fn go_infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    let start = Instant::now();
    engine.send("go infinite");
    let mut lines = engine.expect_no_bestmove_within("bestmove during go infinite", WATCH);
    lines.extend(engine.sync_within(READY));
    lines.extend(
        engine.expect_no_bestmove_within("bestmove during go infinite", Duration::from_millis(100)),
    );
    // currmove lines only after the first second.
    if start.elapsed() < Duration::from_millis(900) {
        assert!(
            lines.iter().all(|line| !line.contains("currmove")),
            "currmove within the first second: {lines:?}"
        );
    }
    engine.send("stop");
    let mut search = engine.bestmove(AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
    engine.expect_quiet_after_bestmove();
}

#[test]
fn stop_right_after_go_infinite_is_not_lost() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    for _ in 0..3 {
        engine.send("go infinite\nstop");
        let search = engine.bestmove(AFTER_STOP);
        if let Err(problem) = search.check(&legal) {
            engine.fail(&problem);
        }
        engine.expect_quiet_after_bestmove();
    }
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_result_is_proven() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let legal = engine.moves();
    engine.go_until_released("go infinite", "bestmove before stop", "stop", &legal);
}

#[test]
fn stop_while_idle_does_not_cut_short_the_next_search() {
    let mut engine = Engine::spawn();
    engine.send_silent("stop");
    let search = engine.go_checked("go depth 8", WORK);
    assert_eq!(search.deepest(), 8, "{:?}", search.lines);

    // Also after a finished search.
    engine.go_checked("go depth 2", WORK);
    engine.send_silent("stop");
    engine.send_silent("stop");
    let search = engine.go_checked("go depth 8", WORK);
    assert_eq!(search.deepest(), 8, "{:?}", search.lines);
}

#[test]
fn ponderhit_and_stop_with_nothing_running_are_harmless() {
    let mut engine = Engine::spawn();
    engine.send_silent("ponderhit");
    engine.send_silent("stop");
    engine.send_silent("ponderhit");
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 4", WORK);
    engine.send_silent("ponderhit");

    // A ponderhit received while idle does not release a later ponder search.
    let legal = engine.moves();
    engine.go_until_released(
        "go ponder depth 3",
        "bestmove while pondering",
        "ponderhit",
        &legal,
    );
}

#[test]
fn go_ponder_then_ponderhit_gives_the_bestmove() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Ponder value true");
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    let mut lines = engine.expect_no_bestmove_within("bestmove while pondering", WATCH);
    lines.extend(engine.sync_within(READY));
    engine.send("ponderhit");
    // After the ponderhit the clock applies: 1 s for the game.
    let mut search = engine.bestmove(Duration::from_secs(1) + AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
    engine.expect_quiet_after_bestmove();

    // stop also ends a ponder search.
    engine.send("go ponder wtime 1000 btime 1000");
    engine.expect_no_bestmove_within("bestmove while pondering", Duration::from_millis(100));
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut engine = Engine::spawn();
    for _ in 0..2 {
        let search = engine.go_checked("go searchmoves c d depth 4", WORK);
        assert!(
            search.best == "c" || search.best == "d",
            "bestmove {}",
            search.best
        );
        let search = engine.go_checked("go depth 3 searchmoves k", WORK);
        assert_eq!(search.best, "k");
    }
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go searchmoves c7d7s c7c2e depth 4", WORK);
    assert!(["c7d7s", "c7c2e"].contains(&search.best.as_str()));

    // An illegal searchmove is reported; all moves are searched.
    engine.send("go searchmoves zz depth 2");
    let search = engine.bestmove(WORK);
    assert!(
        search.lines[0].starts_with("info string error:"),
        "{:?}",
        search.lines
    );
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
}

#[test]
fn multipv_reports_several_lines_per_depth() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name MultiPV value 3");
    engine.send_silent(MIDDLEGAME);
    let search = engine.go_checked("go depth 4", WORK);
    let reports = search.reports();
    // Every depth but the final repeat has lines 1, 2 and 3.
    for depth in 1..=4 {
        let lines: BTreeSet<u32> = reports
            .iter()
            .filter(|info| info.depth == Some(depth))
            .filter_map(|info| info.multipv)
            .collect();
        assert_eq!(
            lines,
            BTreeSet::from([1, 2, 3]),
            "depth {depth}: {:?}",
            search.lines
        );
    }
    // The three first moves differ within an iteration.
    let firsts: BTreeSet<String> = reports
        .iter()
        .filter(|info| info.depth == Some(4))
        .filter_map(|info| info.pv.as_ref().map(|pv| pv[0].clone()))
        .collect();
    assert_eq!(firsts.len(), 3, "{:?}", search.lines);
    assert_eq!(search.final_info().unwrap().multipv, Some(1));

    // More lines than moves: only as many lines as legal moves.
    engine.send_silent("setoption name MultiPV value 10");
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go depth 3", WORK);
    let most = search
        .reports()
        .iter()
        .filter_map(|info| info.multipv)
        .max();
    assert_eq!(most, Some(4), "{:?}", search.lines);
}

#[test]
fn threads_and_hash_settings_search_normally() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Threads value 2");
    engine.send_silent("setoption name Hash value 4");
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 7", WORK);
    engine.go_checked("go nodes 20000", WORK);
    engine.send("go infinite");
    engine.expect_no_bestmove_within("bestmove during go infinite", Duration::from_millis(150));
    engine.send("stop");
    engine.bestmove(AFTER_STOP);
    engine.send_silent("setoption name Clear Hash");
    engine.send_silent("setoption name Threads value 1");
    engine.go_checked("go depth 4", WORK);
    // The most threads allowed, far more than cores.
    engine.send_silent("setoption name Threads value 256");
    engine.go_checked("go depth 4", WORK);
}

#[test]
fn debug_log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("pasang-protocol-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut engine = Engine::spawn();
    engine.send_silent(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    engine.send("isready");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send_silent("setoption name Debug Log File value <empty>");
    let log = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert!(log.contains("<< isready"), "{log}");
    assert!(log.contains(">> readyok"), "{log}");
    engine.send_error(
        "setoption name Debug Log File value /no/such/directory/pasang.log",
        |_| true,
    );
}

#[test]
fn extreme_limits_give_legal_moves() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go nodes 1", WORK);
    engine.go_checked("go movetime 0", WORK);
    engine.go_checked("go depth 1", WORK);
    engine.go_checked("go depth 0", WORK);
    engine.go_checked("go nodes 0", WORK);
    engine.go_checked("go wtime 0 btime 0", WORK);
    engine.go_checked("go depth 4294967295 nodes 5000", WORK);
    // depth 200 is clamped, and a small endgame is solved at once.
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let search = engine.go_checked("go depth 200", WORK);
    let score = search.final_info().unwrap().score.unwrap();
    assert_eq!(score.0, "mate", "{:?}", search.lines);
    // depth 200 in a rich position: a legal move once stopped.
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go depth 200");
    engine.expect_no_bestmove_within("bestmove of a deep search", Duration::from_millis(100));
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
}

#[test]
fn go_mate_finds_the_win() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let search = engine.go_checked("go mate 2", WORK);
    let score = search.final_info().unwrap().score.unwrap();
    assert_eq!(
        (score.0.as_str(), score.1),
        ("mate", 2),
        "{:?}",
        search.lines
    );
}

#[test]
fn setoption_during_a_search_applies_afterwards() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    engine.expect_no_bestmove_within("bestmove", Duration::from_millis(100));
    engine.send("setoption name MultiPV value 2");
    engine.send("setoption name Hash value 2");
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Clear Hash");
    engine.send("position startpos moves c");
    engine.send("ucinewgame");
    engine.sync_within(READY);
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    // The search ran on the old position to the end.
    assert!(legal.contains(&search.best), "{}", search.best);
    assert!(
        search.reports().iter().all(|info| info.multipv == Some(1)),
        "MultiPV changed mid-search: {:?}",
        search.lines
    );
    // Afterwards: the queued commands took effect, silently.
    assert!(engine.sync().is_empty());
    assert_eq!(engine.moves(), strings(&["g", "h", "i", "j", "k"]));
    engine.send_silent("position startpos moves c");
    let search = engine.go_checked("go depth 3", WORK);
    assert!(
        search.reports().iter().any(|info| info.multipv == Some(2)),
        "MultiPV 2 afterwards: {:?}",
        search.lines
    );
}

// ---------------------------------------------------------------------------
// Finished games

/// `go` on a finished game: `info depth 0 score <score>` then
/// `bestmove (none)`, and the `result` line.
fn check_game_over(fen: &str, score: &str, result: &str) {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {fen}"));
    assert_eq!(engine.moves(), Vec::<String>::new());
    assert_eq!(engine.result(), result);
    assert_eq!(
        engine.display_field("Status: "),
        result.trim_start_matches("result ")
    );
    for command in [
        "go depth 5",
        "go nodes 1000",
        "go movetime 50",
        "go wtime 1000 btime 1000",
    ] {
        let search = engine.go(command, WORK);
        assert_eq!(search.best, "(none)", "{command}");
        assert_eq!(search.ponder, None);
        assert_eq!(
            search.lines,
            [format!("info depth 0 score {score}")],
            "{command}"
        );
        engine.expect_quiet_after_bestmove();
    }
    // Ponder: only after ponderhit.
    engine.send("go ponder wtime 1000 btime 1000");
    let mut lines =
        engine.expect_no_bestmove_within("bestmove before ponderhit", Duration::from_millis(100));
    engine.send("ponderhit");
    lines.extend(engine.read_until("bestmove", |line| line.starts_with("bestmove"), AFTER_STOP));
    assert_eq!(
        lines,
        [
            format!("info depth 0 score {score}"),
            "bestmove (none)".to_string()
        ]
    );
    // Infinite: still only after stop.
    engine.send("go infinite");
    let mut lines =
        engine.expect_no_bestmove_within("bestmove before stop", Duration::from_millis(200));
    engine.send("stop");
    lines.extend(engine.read_until("bestmove", |line| line.starts_with("bestmove"), AFTER_STOP));
    assert_eq!(
        lines,
        [
            format!("info depth 0 score {score}"),
            "bestmove (none)".to_string()
        ]
    );
    // No move is legal, so any move is an error and the position stays.
    engine.send_error(&format!("position fen {fen} moves a1a2n"), |_| true);
    assert_eq!(engine.result(), result);
}

#[test]
fn game_over_side_to_move_lost() {
    check_game_over(OVER_NORTH_LOST, "mate 0", "result south score 10-4");
}

#[test]
fn game_over_side_to_move_won_on_points() {
    check_game_over(OVER_SOUTH_WON, "cp 600", "result south score 10-4");
    check_game_over(OVER_NORTH_WON, "cp 200", "result north score 7-9");
}

#[test]
fn game_over_drawn() {
    check_game_over(OVER_DRAW, "cp 0", "result draw score 7-7");
}

#[test]
fn game_over_suntuk() {
    check_game_over(SUNTUK, "mate 0", "result north suntuk 50-60");
}
