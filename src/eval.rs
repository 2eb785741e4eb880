//! Static evaluation, in centipoints (100 = one point of score) from the
//! side to move's view.
//!
//! The point margin is the base. Because a player with no capturing move
//! loses outright (suntuk) whatever the score, freedom to move matters too:
//! mobility counts each side's legal moves, and a side down to one or two
//! moves is in danger.

use crate::movegen::{count_ka_moves_of, count_moves};
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
    count_ka_moves_of(position, rules, position.side_to_move().opponent()) as i32
}

/// Evaluates `position`, whose side to move has `own_moves` legal moves
/// (at least one: positions without moves are scored by the search).
#[inline]
pub fn evaluate_with(position: &Position, rules: &Rules, own_moves: u32) -> Evaluation {
    let margin = margin(position);
    if position.phase() != Phase::KaMove {
        return Evaluation {
            margin,
            mobility: 0,
            danger: 0,
        };
    }
    let own = own_moves as i32;
    let theirs = opponent_moves(position, rules);
    Evaluation {
        margin,
        mobility: MOBILITY_WEIGHT * (own - theirs),
        danger: danger_of(theirs) - danger_of(own),
    }
}

/// Most the opponent's moves can add to the evaluation: with exactly one
/// move it is in danger (+DANGER[1]) and gives up one move of mobility.
const OPPONENT_TERMS_MAX: i32 = DANGER[1] - MOBILITY_WEIGHT;

/// The evaluation's total, or an upper bound of it that is at most
/// `alpha` when the opponent's moves could not lift it above `alpha`:
/// counting them is the dearest part of a leaf, and a search leaf below
/// its window needs no more than that bound.
#[inline]
pub fn evaluate_above(position: &Position, rules: &Rules, own_moves: u32, alpha: i32) -> i32 {
    let margin = margin(position);
    if position.phase() != Phase::KaMove {
        return margin;
    }
    let own = own_moves as i32;
    let own_terms = margin + MOBILITY_WEIGHT * own - danger_of(own);
    if own_terms + OPPONENT_TERMS_MAX <= alpha {
        return own_terms + OPPONENT_TERMS_MAX;
    }
    let theirs = opponent_moves(position, rules);
    own_terms - MOBILITY_WEIGHT * theirs + danger_of(theirs)
}

/// 100 x (own score - opponent's score).
fn margin(position: &Position) -> i32 {
    let side = position.side_to_move();
    100 * (position.score(side) as i32 - position.score(side.opponent()) as i32)
}

fn danger_of(moves: i32) -> i32 {
    DANGER.get(moves as usize).copied().unwrap_or(0)
}

/// Evaluates `position` from scratch.
pub fn evaluate(position: &Position, rules: &Rules) -> Evaluation {
    evaluate_with(position, rules, count_moves(position, rules) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Along random games: the bounded evaluation is the total when the
    /// total is above `alpha`, and otherwise a bound between the total and
    /// `alpha`.
    #[test]
    fn bounded_evaluation_is_exact_above_alpha_and_a_bound_below() {
        let rules = Rules::default();
        let mut random = SmallRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..40 {
            let mut position =
                crate::notation::parse_position(&rules.pattern.start_position_string()).unwrap();
            loop {
                let moves = legal_moves(&position, &rules);
                if moves.is_empty() || !position.has_stones() {
                    break;
                }
                let total = evaluate(&position, &rules).total();
                let own = moves.len() as u32;
                for alpha in [total - 200, total - 1, total, total + 1, total + 150] {
                    let bounded = evaluate_above(&position, &rules, own, alpha);
                    if total > alpha {
                        assert_eq!(bounded, total);
                    } else {
                        assert!(bounded >= total && bounded <= alpha);
                    }
                    checked += 1;
                }
                position = position.play(moves[random.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 1000);
    }
}
