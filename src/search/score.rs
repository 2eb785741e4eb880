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

    /// Back to the internal scale, for a number that keeps both kinds
    /// (data files, `pasang.rl.teach`'s `scores`): centipoints as they
    /// are, `mate n` (n > 0) as `MATE - (2n - 1)`, `mate -n` as
    /// `-(MATE - 2n)` and `mate 0` (a loss by one's own move) as
    /// `-(MATE - 1)`, the shortest line of each; [`Score::from_internal`]
    /// gives the same score back. Centipoints beyond [`MATE_BOUND`] are
    /// held inside it.
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Centipoints(cp) => cp.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1),
            Score::Mate(moves) if moves > 0 => MATE - (2 * moves.min(MAX_PLY as i32) - 1),
            Score::Mate(0) => -(MATE - 1),
            Score::Mate(moves) => -(MATE - 2 * (-moves).min(MAX_PLY as i32 / 2)),
        }
    }

    /// Whether it is a proven win or loss.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
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

    #[test]
    fn the_internal_form_gives_the_same_score_back() {
        for score in [
            Score::Mate(1),
            Score::Mate(5),
            Score::Mate(0),
            Score::Mate(-1),
            Score::Mate(-7),
            Score::Centipoints(-420),
            Score::Centipoints(0),
        ] {
            assert_eq!(Score::from_internal(score.to_internal()), score);
        }
        assert_eq!(Score::Mate(1).to_internal(), MATE - 1);
        assert_eq!(Score::Mate(-1).to_internal(), -(MATE - 2));
        assert!(Score::Centipoints(i32::MAX).to_internal() < MATE_BOUND);
    }
}
