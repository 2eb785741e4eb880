//! Move-path enumeration counts, to check the move generator against the
//! rule book's figures and to measure its speed.

use rayon::prelude::*;

use crate::movegen::{count_moves, legal_moves};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Number of move sequences of length `depth` from `position`. The last
/// ply is counted, never made.
pub fn perft(position: &Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(position, rules),
        // One level above the leaves the children are counted in this
        // loop, with no call per child.
        2 => {
            let mut total = 0;
            for &mv in legal_moves(position, rules).iter() {
                let mut child = *position;
                child.make_unkeyed(mv);
                total += count_moves(&child, rules);
            }
            total
        }
        _ => {
            let mut total = 0;
            for &mv in legal_moves(position, rules).iter() {
                let mut child = *position;
                child.make_unkeyed(mv);
                total += perft(&child, rules, depth - 1);
            }
            total
        }
    }
}

/// The count below each root move, in generation order; the root moves
/// are shared across rayon's pool when `parallel` is set.
pub fn divide(position: &Position, rules: &Rules, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = legal_moves(position, rules);
    let count = |mv: &Move| (*mv, perft(&position.play(*mv), rules, depth - 1));
    if parallel {
        moves.as_slice().par_iter().map(count).collect()
    } else {
        moves.iter().map(count).collect()
    }
}
