//! The weights of the evaluation's terms, fitted by `pasang tune` to the
//! 821,658 positions of 22,464 self-play games of `strength-baseline`
//! (docs/strength.md has the commands).

use super::features::COUNT;

/// Weights are in 1/SCALE centipoint per unit of their term.
pub const SCALE: i32 = 1024;

/// One weight per term of [`super::features::NAMES`]; the margin's is
/// 100 centipoints a point by definition.
pub const WEIGHTS: [i32; COUNT] = [
    100 * SCALE, // margin
    -308,        // margin_left
    19225,       // tempo
    32,          // tempo_left
    -447,        // own_moves
    10938,       // opp_moves
    96050,       // own_best
    -63685,      // opp_best
    49917,       // own_one
    22458,       // own_two
    17542,       // own_three
    -55664,      // opp_one
    -35548,      // opp_two
    -24208,      // opp_three
    -21506,      // own_few
    18863,       // opp_few
    13975,       // own_reach
    -17716,      // opp_reach
    91,          // own_moves_left
    -160,        // opp_moves_left
];
