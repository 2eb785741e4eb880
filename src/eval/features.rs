//! The evaluation's terms as numbers: what the tuner fits weights to and
//! what the search sums with those weights. One function computes them for
//! both, so the fitted weights mean in the search what they meant in the
//! fit.

use crate::movegen::MoveProfile;
use crate::position::Position;

/// Number of terms.
pub const COUNT: usize = 20;

/// Points of all 120 stones: the scale of "how much is left".
pub const ALL_POINTS: i32 = 180;

/// Index of each term in a [`Terms`] array.
#[allow(missing_docs)]
pub mod index {
    pub const MARGIN: usize = 0;
    pub const MARGIN_LEFT: usize = 1;
    pub const TEMPO: usize = 2;
    pub const TEMPO_LEFT: usize = 3;
    pub const OWN_MOVES: usize = 4;
    pub const OPP_MOVES: usize = 5;
    pub const OWN_BEST: usize = 6;
    pub const OPP_BEST: usize = 7;
    pub const OWN_ONE: usize = 8;
    pub const OWN_TWO: usize = 9;
    pub const OWN_THREE: usize = 10;
    pub const OPP_ONE: usize = 11;
    pub const OPP_TWO: usize = 12;
    pub const OPP_THREE: usize = 13;
    pub const OWN_FEW: usize = 14;
    pub const OPP_FEW: usize = 15;
    pub const OWN_REACH: usize = 16;
    pub const OPP_REACH: usize = 17;
    pub const OWN_MOVES_LEFT: usize = 18;
    pub const OPP_MOVES_LEFT: usize = 19;
}

/// Names of the terms, as the tuner prints them.
pub const NAMES: [&str; COUNT] = [
    "margin",
    "margin_left",
    "tempo",
    "tempo_left",
    "own_moves",
    "opp_moves",
    "own_best",
    "opp_best",
    "own_one",
    "own_two",
    "own_three",
    "opp_one",
    "opp_two",
    "opp_three",
    "own_few",
    "opp_few",
    "own_reach",
    "opp_reach",
    "own_moves_left",
    "opp_moves_left",
];

/// The value of every term in one position.
pub type Terms = [i32; COUNT];

/// A side with fewer moves than this is short of them: `*_few` counts how
/// many short.
const FEW: i32 = 8;

/// The terms that need only the side to move's own moves; the opponent's
/// are zero.
#[inline(always)]
pub fn own_terms(position: &Position, own: MoveProfile, moves_matter: bool) -> Terms {
    let side = position.side_to_move();
    let margin = position.score(side) as i32 - position.score(side.opponent()) as i32;
    let left = position.material_left() as i32;
    let mut terms = [0; COUNT];
    terms[index::MARGIN] = margin;
    terms[index::MARGIN_LEFT] = margin * left;
    terms[index::TEMPO] = 1;
    terms[index::TEMPO_LEFT] = left;
    if moves_matter {
        add_side_terms(&mut terms, own, left, &OWN);
    }
    terms
}

/// Where one side's move terms go in a [`Terms`] array.
struct SideIndices {
    moves: usize,
    best: usize,
    one: usize,
    two: usize,
    three: usize,
    few: usize,
    reach: usize,
    moves_left: usize,
}

const OWN: SideIndices = SideIndices {
    moves: index::OWN_MOVES,
    best: index::OWN_BEST,
    one: index::OWN_ONE,
    two: index::OWN_TWO,
    three: index::OWN_THREE,
    few: index::OWN_FEW,
    reach: index::OWN_REACH,
    moves_left: index::OWN_MOVES_LEFT,
};

const OPPONENT: SideIndices = SideIndices {
    moves: index::OPP_MOVES,
    best: index::OPP_BEST,
    one: index::OPP_ONE,
    two: index::OPP_TWO,
    three: index::OPP_THREE,
    few: index::OPP_FEW,
    reach: index::OPP_REACH,
    moves_left: index::OPP_MOVES_LEFT,
};

/// Fills one side's move terms from its profile, `left` points being on
/// the board.
#[inline(always)]
const fn add_side_terms(terms: &mut Terms, profile: MoveProfile, left: i32, at: &SideIndices) {
    let moves = profile.moves as i32;
    terms[at.moves] = moves;
    terms[at.best] = profile.best as i32;
    terms[at.one] = (moves == 1) as i32;
    terms[at.two] = (moves == 2) as i32;
    terms[at.three] = (moves == 3) as i32;
    terms[at.few] = if moves < FEW { FEW - moves } else { 0 };
    terms[at.reach] = profile.reach as i32;
    terms[at.moves_left] = moves * left;
}

/// Adds the opponent's terms to `terms`.
#[inline(always)]
pub const fn add_opponent_terms(terms: &mut Terms, opponent: MoveProfile, left: i32) {
    add_side_terms(terms, opponent, left, &OPPONENT);
}

/// The terms of the opponent alone, for a given profile and points left
/// (the rest zero).
pub const fn opponent_terms(opponent: MoveProfile, left: i32) -> Terms {
    let mut terms = [0; COUNT];
    add_opponent_terms(&mut terms, opponent, left);
    terms
}
