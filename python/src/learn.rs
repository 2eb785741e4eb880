//! The board as the five planes of `pasang.learn`'s data-set readers,
//! and the rule sets of the packed datagen format. The action ids and the
//! full observation planes are the core's (`pasang::rl`, bound in
//! [`crate::rl`]).

use pyo3::prelude::*;

use pasang::bitboard::{SIZE, Square};
use pasang::position::{Colour, Player, Position};

/// Planes of [`planes`]: white stones, black stones, South's ka, North's
/// ka, South to move.
pub(crate) const PLANES: usize = 5;

/// The position as `PLANES` planes of 11 x 11 bytes, 1 where a plane's
/// feature is: plane-major, then rank (1 first), then file (a first).
pub(crate) fn planes(position: &Position) -> Vec<u8> {
    let points = SIZE * SIZE;
    let mut bytes = vec![0u8; PLANES * points];
    for square in Square::all() {
        let at = square.rank() * SIZE + square.file();
        match position.stone_at(square) {
            Some(Colour::White) => bytes[at] = 1,
            Some(Colour::Black) => bytes[points + at] = 1,
            None => {}
        }
    }
    for (plane, player) in [(2, Player::South), (3, Player::North)] {
        if let Some(square) = position.ka(player) {
            bytes[plane * points + square.rank() * SIZE + square.file()] = 1;
        }
    }
    if position.side_to_move() == Player::South {
        bytes[4 * points..].fill(1);
    }
    bytes
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("ACTIONS", pasang::rl::action::ACTIONS)?;
    module.add("PLANES", PLANES)?;
    module.add_function(wrap_pyfunction!(datagen_rule_sets, module)?)?;
    Ok(())
}

/// The rule sets in the order of the packed datagen format's rule-set
/// byte (`pasang::rules::Rules::all`): pattern, ka entry, second
/// column and centre, as the protocol's values.
#[pyfunction]
fn datagen_rule_sets() -> Vec<(String, String, String, String)> {
    pasang::rules::Rules::all()
        .into_iter()
        .map(|rules| {
            (
                rules.pattern.to_string(),
                rules.ka_entry.to_string(),
                rules.second_column.to_string(),
                rules.centre.to_string(),
            )
        })
        .collect()
}
