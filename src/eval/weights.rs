//! The weights of the evaluation's terms. These are the hand-set weights
//! of the evaluation before tuning (margin, mobility 6, danger 120 and 40),
//! so that this table reproduces it exactly; `pasang tune` fits new ones.

use super::features::COUNT;

/// Weights are in 1/SCALE centipoint per unit of their term.
pub const SCALE: i32 = 1024;

/// One weight per term of [`super::features::NAMES`]; the margin's is
/// 100 centipoints a point by definition.
pub const WEIGHTS: [i32; COUNT] = [
    100 * SCALE,  // margin
    0,            // margin_left
    0,            // tempo
    0,            // tempo_left
    6 * SCALE,    // own_moves
    -6 * SCALE,   // opp_moves
    0,            // own_best
    0,            // opp_best
    -120 * SCALE, // own_one
    -40 * SCALE,  // own_two
    0,            // own_three
    120 * SCALE,  // opp_one
    40 * SCALE,   // opp_two
    0,            // opp_three
    0,            // own_few
    0,            // opp_few
    0,            // own_reach
    0,            // opp_reach
    0,            // own_moves_left
    0,            // opp_moves_left
];
