//! Scores: the internal scale (wins and losses counted in plies from the
//! root), the form the protocol reports, and the form the table stores.

use crate::eval::wdl::Wdl;

/// Deepest ply the search reaches (a game has at most 120 moves).
pub const MAX_PLY: usize = 128;
/// Score of a win at the root; a win `p` plies away scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;

/// A score as the protocol reports it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Score {
    /// 100 x the expected point margin for the side to move.
    Centipoints(i32),
    /// The side to move wins in n of its own moves (negative: loses).
    Mate(i32),
}

impl Score {
    /// The protocol form of an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Centipoints(score)
        }
    }
}

impl Score {
    /// Win, draw and loss chances at this score: certain for a proven
    /// win or loss, from the evaluation's model otherwise.
    pub fn wdl(self) -> Wdl {
        match self {
            Score::Centipoints(centipoints) => Wdl::of_centipoints(centipoints),
            Score::Mate(moves) if moves > 0 => Wdl::WON,
            Score::Mate(_) => Wdl::LOST,
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Centipoints(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

#[inline(always)]
pub(super) fn score_to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
pub(super) fn score_from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_own_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(250), Score::Centipoints(250));
    }
}
