//! Static evaluation, in centipoints (100 = one point of score) from the
//! side to move's view.
//!
//! The point margin is the base. Because a player with no capturing move
//! loses outright (suntuk) whatever the score, freedom to move matters too:
//! mobility counts each side's legal moves, and a side down to one or two
//! moves is in danger.

use crate::movegen::count_moves;
use crate::position::{Phase, Position};
use crate::rules::Rules;

/// Centipoints per legal move of difference.
const MOBILITY_WEIGHT: i32 = 6;
/// Penalty for having only one legal move, and for two.
const DANGER: [i32; 3] = [0, 120, 40];

/// The terms of an evaluation, for display.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Evaluation {
    /// 100 x (own score - opponent's score).
    pub margin: i32,
    /// Mobility term.
    pub mobility: i32,
    /// Stalemate-danger term.
    pub danger: i32,
}

impl Evaluation {
    /// The sum of the terms.
    pub fn total(&self) -> i32 {
        self.margin + self.mobility + self.danger
    }
}

/// Moves the opponent would have if it were to move (phase 3 only, where
/// the opponent's ka is on the board; 0 otherwise).
fn opponent_moves(position: &Position, rules: &Rules) -> i32 {
    let flipped = position.with_side_to_move(position.side_to_move().opponent());
    if flipped.phase() == Phase::KaMove {
        count_moves(&flipped, rules) as i32
    } else {
        0
    }
}

/// Evaluates `position`, whose side to move has `own_moves` legal moves
/// (at least one: positions without moves are scored by the search).
#[inline]
pub fn evaluate_with(position: &Position, rules: &Rules, own_moves: u32) -> Evaluation {
    let side = position.side_to_move();
    let margin = 100 * (position.score(side) as i32 - position.score(side.opponent()) as i32);
    if position.phase() != Phase::KaMove {
        return Evaluation {
            margin,
            mobility: 0,
            danger: 0,
        };
    }
    let own = own_moves as i32;
    let theirs = opponent_moves(position, rules);
    let danger_of = |moves: i32| DANGER.get(moves as usize).copied().unwrap_or(0);
    Evaluation {
        margin,
        mobility: MOBILITY_WEIGHT * (own - theirs),
        danger: danger_of(theirs) - danger_of(own),
    }
}

/// Evaluates `position` from scratch.
pub fn evaluate(position: &Position, rules: &Rules) -> Evaluation {
    evaluate_with(position, rules, count_moves(position, rules) as u32)
}
