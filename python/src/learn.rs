//! What an agent learns from: the board as planes of 0/1 bytes and the
//! legal moves as numbers of a fixed action space. `pasang.learn`
//! (Python) turns them into NumPy arrays.
//!
//! The actions: 0-10 are the passages on files a-k; a ka move is
//! `11 + (from * 20 + slot) * 15 + directions - 1`, where `from` is the
//! origin's index (a1 = 0, b1 = 1, ..., k11 = 120), `slot` the landing
//! point among the 20 a rook reaches on an empty board (0-9: the other
//! files of the origin's rank, a-k; 10-19: the other ranks of its file,
//! 1-11) and `directions` the captured lines' flags (n 1, s 2, e 4, w 8).
//! Every ka move (an entry slides or jumps along a rank, a ka moves as a
//! rook) has a number, and different moves have different numbers.

use pyo3::prelude::*;

use pasang::bitboard::{SIZE, Square};
use pasang::moves::Move;
use pasang::position::{Colour, Player, Position};

/// Ranks or files a rook reaches from a point, on both lines.
const SLOTS: usize = 2 * (SIZE - 1);
/// Sets of capture directions (n, s, e, w; at least one).
const DIRECTION_SETS: usize = 15;
/// The size of the action space.
pub(crate) const ACTIONS: usize = SIZE + SIZE * SIZE * SLOTS * DIRECTION_SETS;
/// Planes of [`planes`]: white stones, black stones, South's ka, North's
/// ka, South to move.
pub(crate) const PLANES: usize = 5;

/// The number of `mv` (see the module's documentation).
pub(crate) fn action_of(mv: Move) -> usize {
    if mv.is_passage() {
        return mv.passage_file();
    }
    let (from, to) = (mv.from(), mv.to());
    let other = |target: usize, origin: usize| if target < origin { target } else { target - 1 };
    let slot = if from.rank() == to.rank() {
        other(to.file(), from.file())
    } else {
        SIZE - 1 + other(to.rank(), from.rank())
    };
    SIZE + (from.index() * SLOTS + slot) * DIRECTION_SETS + usize::from(mv.directions()) - 1
}

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
    module.add("ACTIONS", ACTIONS)?;
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
