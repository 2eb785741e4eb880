//! `position` and `ucinewgame`: start positions, move lists, and bad
//! positions or moves that leave the previous position in place.
//! The engine runs as a subprocess through tests/common/protocol.rs.

mod common;

use common::protocol::*;

// ---------------------------------------------------------------------------
// Positions

#[test]
fn position_startpos_with_the_worked_opening() {
    let mut engine = Engine::spawn();
    assert_eq!(engine.position_string(), START_1, "the default position");
    assert_eq!(engine.result(), "result none");
    assert_eq!(engine.moves().len(), 11);

    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let display = engine.display();
    let expected_lines = [
        format!("Position: {AFTER_OPENING}"),
        "Side to move: south".to_string(),
        "Scores: south 14 north 20".to_string(),
        "Status: none".to_string(),
    ];
    for expected in &expected_lines {
        assert!(
            display.contains(expected),
            "'d' lacks '{expected}': {display:#?}"
        );
    }
    assert!(display.iter().any(|line| line.starts_with("Phase: 3")));
    assert!(display.iter().any(|line| line.starts_with("Key: ")));
    // The diagram: rank 7 holds both kas, coordinates below.
    assert!(
        display
            .iter()
            .any(|line| line.split_whitespace().collect::<Vec<_>>()
                == ["7", ".", ".", "S", ".", "w", "b", ".", ".", ".", ".", "N"]),
        "rank 7 of the diagram: {display:#?}"
    );
    assert!(
        display
            .iter()
            .any(|line| line.split_whitespace().collect::<String>() == "abcdefghijk")
    );
    let moves = engine.moves();
    assert_eq!(set(&moves), set(&strings(AFTER_OPENING_MOVES)));
    assert_eq!(engine.result(), "result none");

    // The same position from its string: same moves, same key.
    let key = engine.display_field("Key: ");
    engine.send_silent(&format!("position fen {AFTER_OPENING}"));
    assert_eq!(engine.position_string(), AFTER_OPENING);
    assert_eq!(engine.display_field("Key: "), key);
    assert_eq!(set(&engine.moves()), set(&strings(AFTER_OPENING_MOVES)));

    // Moves after a position string; directions may be omitted when only
    // one line can be captured.
    engine.send_silent(&format!("position fen {AFTER_OPENING} moves c7d7"));
    let after = engine.position_string();
    assert!(after.ends_with(" n 15 20 cj"), "{after}");
    engine.send_silent(&format!("position fen {AFTER_OPENING} moves c7d7s"));
    assert_eq!(engine.position_string(), after);

    // A partial opening, and the North-to-move phases.
    engine.send_silent("position startpos moves c");
    let display = engine.display();
    assert!(display.contains(&"Side to move: north".to_string()));
    assert!(display.contains(&"Scores: south 8 north 0".to_string()));
    assert_eq!(engine.moves(), strings(&["g", "h", "i", "j", "k"]));
    engine.send_silent("position startpos moves");
    assert_eq!(engine.position_string(), START_1);
}

#[test]
fn bad_positions_and_illegal_moves_keep_the_previous_position() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let bad = [
        "position fen garbage".to_string(),
        "position fen".to_string(),
        "position".to_string(),
        "position sideways".to_string(),
        "position startpos moves c c".to_string(),
        "position startpos moves c j zz".to_string(),
        "position startpos moves c f".to_string(),
        "position startpos moves c j b1c1".to_string(),
        "position startpos moves c j b4c4x".to_string(),
        format!("position fen {AFTER_OPENING} moves c7c8e"),
        // A start layout with a11 turned black: 59 white, 61 black.
        format!("position fen bw{} s 0 0 --", &START_1[2..START_1.len() - 7]),
        // North to move before any passage.
        format!("position fen {} n 0 0 --", &START_1[..START_1.len() - 7]),
        // Scores beyond the points on the board.
        format!("position fen {} s 100 100 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        // Ten ranks.
        "position fen .........../.........../.........../.........../.........../.....+...../.........../.........../.........../........SN. s 7 7 bc".to_string(),
        // A hole out of place.
        "position fen .........../.........../.........../.........../.........../......+..../.........../.........../.........../.........../.........SN s 7 7 bc".to_string(),
        // Two South kas.
        "position fen S........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 7 7 bc".to_string(),
        // A bad side, a bad score, bad passages, too many fields.
        format!("position fen {} x 14 20 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {} s 14 -1 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {} s 14 20 cz", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {AFTER_OPENING} 7"),
    ];
    for command in &bad {
        engine.send_error(command, |_| true);
        assert_eq!(
            engine.position_string(),
            AFTER_OPENING,
            "position kept after '{command}'"
        );
        assert_eq!(set(&engine.moves()), set(&strings(AFTER_OPENING_MOVES)));
    }
    // An error names the offending move.
    let message = engine.send_error("position startpos moves c j b4c4n zz9", |_| true);
    assert!(message.contains("zz9"), "{message}");
    // Still usable.
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn ucinewgame_keeps_working() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 5", WORK);
    engine.send_silent("ucinewgame");
    engine.send_silent("position startpos moves c");
    engine.go_checked("go depth 5", WORK);
    engine.send_silent("ucinewgame");
    engine.send_silent("ucinewgame");
    assert!(engine.sync_within(READY).is_empty());
}
