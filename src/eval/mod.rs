//! Static evaluation, in centipoints (100 = one point of score) from the
//! side to move's view.
//!
//! The point margin is the base. Because a player with no capturing move
//! loses outright (suntuk) whatever the score, freedom to move matters too:
//! mobility counts each side's legal moves, and a side down to one or two
//! moves is in danger.

pub mod features;
pub mod wdl;
mod weights;

use crate::movegen::{MoveProfile, ka_move_profile, move_profile};
use crate::position::{Phase, Position};
use crate::rules::Rules;
use features::{ALL_POINTS, COUNT, Terms, add_opponent_terms, index, own_terms};
use weights::{SCALE, WEIGHTS};

/// The evaluation's terms grouped for display, each in centipoints.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct EvalParts {
    /// The point margin, 100 a point, and its adjustment by how much is
    /// left to take.
    pub margin: i32,
    /// Own and the opponent's number of moves (alone and with how much is
    /// left to take), how short of moves each is, and the points each
    /// ka can reach.
    pub mobility: i32,
    /// Stalemate danger: a side down to one, two or three moves.
    pub danger: i32,
    /// The richest capture each side has.
    pub threats: i32,
    /// The bonus of being the side to move.
    pub tempo: i32,
    /// The evaluation: the weighted sum of all terms, which the parts
    /// add up to.
    pub total: i32,
}

/// Whether the move terms apply: in phase 3 of the side to move.
#[inline(always)]
pub(crate) fn moves_matter(position: &Position) -> bool {
    position.phase() == Phase::KaMove
}

/// The shipped weight of every term in centipoints per unit, for the
/// tuner (the `cli` feature) to measure them against a refit.
#[cfg(feature = "cli")]
pub(crate) fn weights_in_centipoints() -> [f64; COUNT] {
    WEIGHTS.map(|weight| f64::from(weight) / f64::from(SCALE))
}

/// The weighted sum of `terms`, in 1/SCALE centipoints.
#[inline(always)]
const fn weighted(terms: &Terms) -> i32 {
    weighted_by(&WEIGHTS, terms)
}

/// The sum of `terms` weighted by `weights` (1/SCALE centipoint a unit).
#[inline(always)]
pub(crate) const fn weighted_by(weights: &[i32; COUNT], terms: &Terms) -> i32 {
    let mut sum = 0;
    let mut term = 0;
    while term < COUNT {
        sum += weights[term] * terms[term];
        term += 1;
    }
    sum
}

/// All terms of `position`, whose side to move's moves are `own`.
pub fn terms_of(position: &Position, rules: &Rules, own: MoveProfile) -> Terms {
    let matter = moves_matter(position);
    let mut terms = own_terms(position, own, matter);
    if matter {
        let opponent = ka_move_profile(position, rules, position.side_to_move().opponent());
        add_opponent_terms(&mut terms, opponent, position.material_left() as i32);
    }
    terms
}

/// Which terms each part of an [`EvalParts`] sums: margin, mobility,
/// danger, threats, tempo. Every term is in exactly one part.
const PARTS: [&[usize]; 5] = {
    use index::*;
    [
        &[MARGIN, MARGIN_LEFT],
        &[
            OWN_MOVES,
            OPP_MOVES,
            OWN_FEW,
            OPP_FEW,
            OWN_REACH,
            OPP_REACH,
            OWN_MOVES_LEFT,
            OPP_MOVES_LEFT,
        ],
        &[OWN_ONE, OWN_TWO, OWN_THREE, OPP_ONE, OPP_TWO, OPP_THREE],
        &[OWN_BEST, OPP_BEST],
        &[TEMPO, TEMPO_LEFT],
    ]
};

/// Evaluates `position`, whose side to move has the moves `own` (at least
/// one: positions without moves are scored by the search).
pub fn evaluate_with(position: &Position, rules: &Rules, own: MoveProfile) -> EvalParts {
    let terms = terms_of(position, rules, own);
    // Each part is its running sum rounded less the running sum before it
    // rounded, so the parts add up to the total exactly.
    let mut parts = [0; PARTS.len()];
    let (mut running, mut shown) = (0, 0);
    for (part, members) in parts.iter_mut().zip(PARTS) {
        running += members.iter().map(|&t| WEIGHTS[t] * terms[t]).sum::<i32>();
        *part = running / SCALE - shown;
        shown = running / SCALE;
    }
    let [margin, mobility, danger, threats, tempo] = parts;
    EvalParts {
        margin,
        mobility,
        danger,
        threats,
        tempo,
        total: weighted(&terms) / SCALE,
    }
}

/// The weighted sum of the opponent's terms alone.
#[inline(always)]
const fn opponent_sum(opponent: MoveProfile, left: i32) -> i32 {
    opponent_sum_by(&WEIGHTS, opponent, left)
}

/// The same under `weights`.
#[inline(always)]
pub(crate) const fn opponent_sum_by(
    weights: &[i32; COUNT],
    opponent: MoveProfile,
    left: i32,
) -> i32 {
    weighted_by(weights, &features::opponent_terms(opponent, left))
}

/// The most the opponent's terms can add with `left` points on the board,
/// in 1/SCALE centipoints: the bound that lets a leaf below its window
/// skip counting them.
const OPPONENT_TERMS_MAX: [i32; ALL_POINTS as usize + 1] = opponent_terms_max(&WEIGHTS);

/// [`OPPONENT_TERMS_MAX`] under `weights`. The terms of moves, of the
/// richest capture and of reach add up separately, so each is maximised
/// on its own.
pub(crate) const fn opponent_terms_max(weights: &[i32; COUNT]) -> [i32; ALL_POINTS as usize + 1] {
    /// The largest sum with one field of the profile at 0..=most and
    /// the others 0 (field 0 moves, 1 best, 2 reach).
    const fn best_over(weights: &[i32; COUNT], field: usize, most: u32, left: i32) -> i32 {
        let mut best = i32::MIN;
        let mut value = 0;
        while value <= most {
            let profile = match field {
                0 => MoveProfile {
                    moves: value,
                    best: 0,
                    reach: 0,
                },
                1 => MoveProfile {
                    moves: 0,
                    best: value,
                    reach: 0,
                },
                _ => MoveProfile {
                    moves: 0,
                    best: 0,
                    reach: value,
                },
            };
            let sum = opponent_sum_by(weights, profile, left);
            if sum > best {
                best = sum;
            }
            value += 1;
        }
        best
    }
    let mut table = [0; ALL_POINTS as usize + 1];
    let mut left = 0;
    while left <= ALL_POINTS {
        let none = opponent_sum_by(
            weights,
            MoveProfile {
                moves: 0,
                best: 0,
                reach: 0,
            },
            left,
        );
        // No side has more than 40 moves (two lines at each of 20
        // landings), no line more than 10 stones (20 points).
        table[left as usize] = best_over(weights, 0, 40, left)
            + (best_over(weights, 1, 20, left) - none)
            + (best_over(weights, 2, 20, left) - none);
        left += 1;
    }
    table
}

/// The evaluation's total, or an upper bound of it that is at most
/// `alpha` when the opponent's moves could not lift it above `alpha`:
/// counting them is the dearest part of a leaf, and a search leaf below
/// its window needs no more than that bound.
#[inline]
pub fn evaluate_above(position: &Position, rules: &Rules, own: MoveProfile, alpha: i32) -> i32 {
    let matter = moves_matter(position);
    let own_sum = weighted(&own_terms(position, own, matter));
    if !matter {
        return own_sum / SCALE;
    }
    let left = position.material_left() as usize;
    let bound = (own_sum + OPPONENT_TERMS_MAX[left]) / SCALE;
    if bound <= alpha {
        return bound;
    }
    // The own and the opponent's terms fill disjoint slots, so their sums
    // add up.
    let opponent = ka_move_profile(position, rules, position.side_to_move().opponent());
    (own_sum + opponent_sum(opponent, left as i32)) / SCALE
}

/// Evaluates `position` from scratch.
pub fn evaluate(position: &Position, rules: &Rules) -> EvalParts {
    evaluate_with(position, rules, move_profile(position, rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn every_term_is_in_exactly_one_part() {
        let mut seen = [0; COUNT];
        for term in PARTS.iter().flat_map(|members| members.iter()) {
            seen[*term] += 1;
        }
        assert_eq!(seen, [1; COUNT], "{:?}", features::NAMES);
    }

    /// The parts of `eval` add up to its total, in the position of the
    /// protocol's example too.
    #[test]
    fn the_parts_add_up_to_the_total() {
        let rules = Rules::default();
        let moves = ["c", "j", "b4c4n", "k7j7w", "c4c7ew", "j7k7s"];
        let start = crate::notation::start_position(rules.pattern);
        let mut positions = vec![start];
        crate::notation::play_moves(start, &rules, &moves, |mv| {
            let last = *positions.last().unwrap();
            positions.push(last.play(mv));
        })
        .unwrap();
        let mut random = SmallRng::seed_from_u64(11);
        let mut position = *positions.last().unwrap();
        while !legal_moves(&position, &rules).is_empty() && position.has_stones() {
            let moves = legal_moves(&position, &rules);
            position = position.play(moves[random.random_range(0..moves.len())]);
            positions.push(position);
        }
        assert!(positions.len() > 10);
        for position in &positions {
            if legal_moves(position, &rules).is_empty() {
                continue;
            }
            let e = evaluate(position, &rules);
            let sum = e.margin + e.mobility + e.danger + e.threats + e.tempo;
            assert_eq!(sum, e.total, "{position:?}: {e:?}");
        }
        let example = evaluate(&positions[moves.len()], &rules);
        assert_eq!(example.total, -406);
    }

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
                let total = evaluate(&position, &rules).total;
                let own = move_profile(&position, &rules);
                assert_eq!(own.moves as usize, moves.len());
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
