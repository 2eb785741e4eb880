//! The handshake, `isready` and `setoption`: identity, every option, values
//! accepted and refused, and options applied during and after searches.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use common::protocol::*;

// ---------------------------------------------------------------------------
// Handshake, isready, options

#[test]
fn handshake_announces_identity_and_every_option() {
    let mut engine = Engine::spawn();
    let lines = engine.handshake();
    assert!(
        lines[0].starts_with("id name pasang"),
        "first line: {lines:?}"
    );
    assert!(lines[1].starts_with("id author "), "second line: {lines:?}");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(
        options.len(),
        lines.len() - 3,
        "only id, option and the build lines before uciok: {lines:?}"
    );
    let build = lines.last().expect("lines before uciok");
    assert!(
        build.starts_with(&format!("info string built for {}", std::env::consts::ARCH)),
        "last line before uciok names the build: {lines:?}"
    );
    let expected = [
        ("Hash", "spin"),
        ("Threads", "spin"),
        ("MultiPV", "spin"),
        ("Move Overhead", "spin"),
        ("Ponder", "check"),
        ("Clear Hash", "button"),
        ("Pattern", "combo"),
        ("Ka Entry", "combo"),
        ("Second Column", "combo"),
        ("Centre", "combo"),
    ];
    for (name, kind) in expected {
        let prefix = format!("option name {name} type {kind}");
        let count = options
            .iter()
            .filter(|line| **line == &prefix || line.starts_with(&format!("{prefix} ")))
            .count();
        assert_eq!(count, 1, "one '{prefix}' line expected in {options:?}");
    }
    let combo = |name: &str| -> String {
        options
            .iter()
            .find(|line| line.starts_with(&format!("option name {name} type combo")))
            .map(|line| line.to_string())
            .unwrap()
    };
    assert!(combo("Pattern").contains("default 1"));
    for value in ["var 1", "var 2"] {
        assert!(combo("Pattern").contains(value));
    }
    for value in ["default slide", "var slide", "var jump", "var both"] {
        assert!(combo("Ka Entry").contains(value));
    }
    for value in ["default opposite", "var opposite", "var any"] {
        assert!(combo("Second Column").contains(value));
    }
    for value in ["default wall", "var wall", "var open"] {
        assert!(combo("Centre").contains(value));
    }
    for line in options.iter().filter(|line| line.contains(" type spin")) {
        for field in [" default ", " min ", " max "] {
            assert!(line.contains(field), "spin option without{field}: {line}");
        }
    }

    // Repeated uci gives the same answer; the engine still works.
    let again = engine.handshake();
    assert_eq!(lines, again);
    assert!(engine.sync_within(READY).is_empty());
    engine.go_checked("go depth 2", WORK);
}

#[test]
fn isready_answers_readyok_and_debug_is_accepted() {
    let mut engine = Engine::spawn();
    for _ in 0..3 {
        assert!(engine.sync_within(READY).is_empty());
    }
    engine.send_silent("debug on");
    engine.send_silent("debug off");
    engine.send_error("debug maybe", |_| true);
    // While idle, readyok follows the output of the commands before it.
    engine.send("eval");
    engine.send("setoption name Hash value 32");
    engine.send("setoption name Hash value 0");
    let lines = engine.sync_within(WORK);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string eval"), "{lines:?}");
    assert!(lines[1].starts_with("info string error"), "{lines:?}");
}

/// UCI's `isready` is the GUI's barrier: once `readyok` arrives, every
/// command sent before it has been carried out (a GUI waits for it after
/// `setoption name Hash` before starting its clock). During a search the
/// reader thread answers at once, as it should; right after a `bestmove`
/// the search must already count as finished, or an `isready` sent then
/// overtakes the commands sent ahead of it (it did, about one time in ten,
/// until the engine counted the search done before printing `bestmove`).
#[test]
fn isready_right_after_bestmove_waits_for_earlier_commands() {
    let mut engine = Engine::spawn();
    for round in 0..300 {
        let command = if round % 2 == 0 {
            "go depth 1"
        } else {
            "go nodes 1"
        };
        engine.go(command, WORK);
        eval_answers_before_readyok(&mut engine, &format!("round {round}"));
    }
    for round in 0..100 {
        engine.send("go perft 1");
        engine.expect_line(
            "perft total",
            |line| line.starts_with("Nodes searched"),
            WORK,
        );
        eval_answers_before_readyok(&mut engine, &format!("go perft, round {round}"));
    }
}

/// Sends `eval` then `isready`: `readyok` must come after eval's line.
fn eval_answers_before_readyok(engine: &mut Engine, round: &str) {
    engine.send("eval");
    engine.send("isready");
    let first = engine.expect_line("a line", |_| true, WORK);
    if first == "readyok" {
        engine.fail(&format!(
            "{round}: readyok came before the output of 'eval' sent ahead of it"
        ));
    }
    engine.expect_line("readyok", |line| line == "readyok", WORK);
}

#[test]
fn valid_option_values_are_accepted_silently() {
    let mut engine = Engine::spawn();
    for command in [
        "setoption name Hash value 1",
        "setoption name Hash value 64",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name MultiPV value 2",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 0",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "setoption name Ponder value false",
        "setoption name Clear Hash",
        "setoption name Pattern value 2",
        "setoption name Pattern value 1",
        "setoption name Ka Entry value jump",
        "setoption name Ka Entry value both",
        "setoption name Ka Entry value slide",
        "setoption name Second Column value any",
        "setoption name Second Column value opposite",
        "setoption name Centre value open",
        "setoption name Centre value wall",
    ] {
        engine.send_silent(command);
    }
    engine.send_silent("ucinewgame");
    engine.send_silent("position startpos");
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn invalid_option_values_give_an_error_naming_the_option() {
    let mut engine = Engine::spawn();
    let cases = [
        ("Hash", "0"),
        ("Hash", "lots"),
        ("Hash", "99999999999"),
        ("Threads", "0"),
        ("Threads", "100000"),
        ("Threads", "two"),
        ("MultiPV", "0"),
        ("MultiPV", "1000"),
        ("Move Overhead", "-1"),
        ("Move Overhead", "99999999"),
        ("Ponder", "maybe"),
        ("Pattern", "3"),
        ("Ka Entry", "fly"),
        ("Second Column", "mirror"),
        ("Centre", "closed"),
    ];
    for (name, value) in cases {
        engine.send_error(&format!("setoption name {name} value {value}"), |line| {
            line.to_lowercase().contains(&name.to_lowercase())
        });
    }
    // Options that need a value, without one.
    for name in [
        "Hash", "Threads", "MultiPV", "Pattern", "Ka Entry", "Centre",
    ] {
        engine.send_error(&format!("setoption name {name}"), |line| {
            line.to_lowercase().contains(&name.to_lowercase())
        });
    }
    engine.send_error("setoption name No Such Option value 1", |line| {
        line.contains("No Such Option")
    });
    engine.send_error("setoption", |_| true);
    engine.send_error("setoption value 3", |_| true);
    engine.send_error("setoption name", |_| true);

    // Nothing changed: the defaults still hold and the engine still works.
    assert!(engine.display_field("Rules: ").contains("pattern 1"));
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
    let search = engine.go_checked("go depth 3", WORK);
    assert!(
        search.reports().iter().all(|info| info.multipv == Some(1)),
        "MultiPV stayed 1"
    );
}

#[test]
fn option_names_are_case_insensitive() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name hash value 8");
    engine.send_silent("setoption name THREADS value 1");
    engine.send_silent("setoption name multipv value 2");
    engine.send_silent("setoption name move overhead value 20");
    engine.send_silent("setoption name clear hash");
    engine.send_silent("setoption name KA ENTRY value jump");
    engine.send_silent("position startpos");
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 745);
    let search = engine.go_checked("go depth 2", WORK);
    assert!(
        search.reports().iter().any(|info| info.multipv == Some(2)),
        "lowercase multipv took effect: {:?}",
        search.lines
    );
}

#[test]
fn rule_options_apply_to_positions_set_afterwards() {
    let mut engine = Engine::spawn();
    engine.send_silent("position startpos");

    // Pattern: the current position is kept until a new one is set.
    engine.send_silent("setoption name Pattern value 2");
    assert_eq!(engine.position_string(), START_1);
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
    engine.send_silent("position startpos");
    assert_eq!(engine.position_string(), START_2);
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 800);
    engine.send_silent("setoption name Pattern value 1");

    // The other rule options, each against RULES.md's perft table.
    for (option, value, depth, count) in [
        ("Ka Entry", "jump", 3, 745),
        ("Ka Entry", "both", 3, 1595),
        ("Second Column", "any", 2, 110),
        ("Centre", "open", 3, 950),
    ] {
        engine.send_silent(&format!("setoption name {option} value {value}"));
        engine.send_silent("position startpos");
        let (_, total) = perft_output(&mut engine, &format!("go perft {depth}"));
        assert_eq!(total, count, "{option} {value}, perft {depth}");
        let rules = engine.display_field("Rules: ");
        assert!(
            rules.contains(value),
            "'d' shows the rules in force: {rules}"
        );
        engine.go_checked("go depth 3", WORK);
        // Back to the default.
        let default = match option {
            "Ka Entry" => "slide",
            "Second Column" => "opposite",
            _ => "wall",
        };
        engine.send_silent(&format!("setoption name {option} value {default}"));
    }
    engine.send_silent("position startpos");
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
}

#[test]
fn show_wdl_adds_win_draw_loss_in_per_mille() {
    let mut engine = Engine::spawn();
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|line| line == "option name UCI_ShowWDL type check default false"),
        "{lines:?}"
    );
    engine.send("position startpos moves c j b4c4n k7j7w");
    let plain = engine.go("go depth 3", WORK);
    assert!(plain.lines.iter().all(|line| !line.contains(" wdl ")));

    engine.send("setoption name UCI_ShowWDL value true");
    let shown = engine.go_checked("go depth 3", WORK);
    let reports: Vec<&String> = shown
        .lines
        .iter()
        .filter(|line| line.starts_with("info depth"))
        .collect();
    assert!(!reports.is_empty());
    for line in reports {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|word| *word == "wdl")
            .unwrap_or_else(|| panic!("no wdl in {line}"));
        assert_eq!(words[at - 3], "score", "wdl right after the score: {line}");
        let chances: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|word| word.parse().expect("per mille"))
            .collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }

    // A finished game's result is certain.
    engine.send("position fen .........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc");
    let over = engine.go("go depth 3", WORK);
    assert!(
        over.lines
            .iter()
            .any(|line| line == "info depth 0 score mate 0 wdl 0 0 1000"),
        "{:?}",
        over.lines
    );
    engine.send_error("setoption name UCI_ShowWDL value maybe", |_| true);
    engine.send("setoption name UCI_ShowWDL value false");
    engine.send("position startpos moves c j");
    let plain = engine.go("go depth 2", WORK);
    assert!(plain.lines.iter().all(|line| !line.contains(" wdl ")));
}

// ---------------------------------------------------------------------------
// The search's tunable constants: hidden options (docs/spsa.md)

/// The nodes of `go depth 7` from the start after `setoption`s of `setup`.
fn nodes_at_depth_7(setup: &[(&str, &str)]) -> u64 {
    let mut engine = Engine::spawn();
    for (name, value) in setup {
        engine.send_silent(&format!("setoption name {name} value {value}"));
    }
    engine.send_silent("position startpos");
    let search = engine.go("go depth 7", std::time::Duration::from_secs(60));
    search
        .final_info()
        .and_then(|info| info.nodes)
        .expect("a final info line with nodes")
}

#[test]
fn tunable_constants_are_hidden_options_with_checked_ranges() {
    let mut engine = Engine::spawn();
    let lines = engine.handshake();
    assert!(
        lines.iter().all(|line| !line.contains("Futility")),
        "not announced: {lines:?}"
    );
    engine.send_silent("setoption name FutilityMargin1 value 80");
    engine.send_silent("setoption name futilitymargin1 value 10");
    for (command, error) in [
        (
            "setoption name FutilityMargin1 value 9",
            "option 'FutilityMargin1' value 9 is out of range 10..400",
        ),
        (
            "setoption name FutilityMargin1 value 401",
            "option 'FutilityMargin1' value 401 is out of range 10..400",
        ),
        (
            "setoption name NarrowMoves value three",
            "option 'NarrowMoves' value 'three' is not an integer",
        ),
        (
            "setoption name AspirationDelta",
            "option 'AspirationDelta' needs a value",
        ),
        (
            "setoption name HistoryLimit value 99999999999999999999",
            "option 'HistoryLimit' value '99999999999999999999' is not an integer",
        ),
    ] {
        engine.send_error(command, |line| {
            line == format!("info string error: {error}")
        });
    }
}

#[test]
fn tunable_constants_change_the_search_and_defaults_do_not() {
    let default = nodes_at_depth_7(&[]);
    let same = nodes_at_depth_7(&[("FutilityMargin1", "75"), ("NarrowMoves", "3")]);
    assert_eq!(same, default, "setting the defaults changes nothing");
    let other = nodes_at_depth_7(&[("NarrowMoves", "0"), ("FutilityDepth", "2")]);
    assert_ne!(other, default, "other values search another tree");
}
