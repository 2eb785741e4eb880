//! The lines of `d` and `eval`, rendered from the engine's typed state.

use std::fmt::Write as _;

use crate::engine::Engine;
use crate::notation::{board_char, format_position};
use crate::position::{Player, Position};

/// The board diagram and details of `d`.
pub(crate) fn display(engine: &Engine) -> String {
    let position = engine.position();
    let mut text = diagram(position);
    let _ = writeln!(text, "Position: {}", format_position(position));
    let _ = writeln!(text, "Side to move: {}", position.side_to_move());
    let _ = writeln!(text, "Phase: {}", position.phase());
    let _ = writeln!(
        text,
        "Scores: south {} north {}",
        position.score(Player::South),
        position.score(Player::North)
    );
    let rules = engine.game_rules();
    text.push_str("Rules:");
    for option in &crate::rules::RULE_OPTIONS {
        let _ = write!(text, " {} {}", option.flag, option.value(rules));
    }
    text.push('\n');
    let _ = writeln!(text, "Key: {:016X}", position.key());
    let _ = write!(text, "Status: {}", engine.status());
    text
}

/// The evaluation and its terms, for `eval`.
pub(crate) fn eval_report(engine: &Engine) -> String {
    let evaluation = engine.evaluation();
    format!(
        "margin {} mobility {} danger {} threats {} tempo {} total {} (centipoints, side to move: {})",
        evaluation.margin,
        evaluation.mobility,
        evaluation.danger,
        evaluation.threats,
        evaluation.tempo,
        evaluation.total,
        engine.position().side_to_move(),
    )
}

/// A board diagram with coordinates, rank 11 at the top.
fn diagram(position: &Position) -> String {
    let mut text = String::new();
    for rank in (0..11).rev() {
        let _ = write!(text, "{:>2} ", rank + 1);
        for file in 0..11 {
            let square = crate::bitboard::Square::new(rank, file).expect("on the board");
            let _ = write!(text, " {}", board_char(position, square));
        }
        text.push('\n');
    }
    text.push_str("    a b c d e f g h i j k\n");
    text
}
