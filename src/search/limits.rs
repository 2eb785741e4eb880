//! What bounds a search (`go` parameters) and how a clock becomes a time
//! budget.

use std::time::Duration;

use crate::moves::Move;
use crate::position::Player;
use crate::search::Params;
use crate::search::params::index;

/// The limits of one search, as `go` gives them.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long (milliseconds).
    pub movetime: Option<u64>,
    /// Remaining clock time per player (South, North), in milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per move per player, in milliseconds.
    pub increment: [u64; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: no clock until `ponderhit`.
    pub ponder: bool,
    /// Stop once a win in this many moves is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves.
    pub search_moves: Vec<Move>,
}

/// The time a search may take: a soft bound checked between iterations and
/// a hard bound checked while searching.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) struct TimeBudget {
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

impl Limits {
    /// The budget for `side` with `stones_left` on the board, keeping
    /// `overhead` milliseconds for communication, shaped by the time-use
    /// tunables of `params`. `None`: no clock. The arithmetic saturates: a
    /// GUI may send any clock up to `i64::MAX`.
    pub(crate) fn budget(
        &self,
        side: Player,
        stones_left: u32,
        overhead: u64,
        params: &Params,
    ) -> Option<TimeBudget> {
        if self.infinite {
            return None;
        }
        if let Some(movetime) = self.movetime {
            // Use all of it: the soft bound lies past the hard one, so a
            // new iteration always starts and the hard bound ends it.
            let time = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
            return Some(TimeBudget {
                soft: time.saturating_mul(2),
                hard: time,
            });
        }
        // A GUI that sends only the other side's clock still expects a
        // timed search: assume equal clocks rather than searching forever.
        let remaining = self.time[side.index()].or(self.time[side.opponent().index()])?;
        let increment = self.increment[side.index()];
        // Every move captures at least one stone and a typical one about
        // four, so the game is shorter the fewer stones are left: one move
        // of ours per `TimeStonesPerMove` (8) stones. The endgame solve
        // decides most games with `TimeDecidedStones` left and plays the
        // rest almost at once, so the clock goes to the moves before.
        let per_move = params.get(index::TIME_STONES_PER_MOVE).max(1) as u32;
        let decided = params.get(index::TIME_DECIDED_STONES).max(0) as u32;
        let expected_moves = (stones_left.saturating_sub(decided) / per_move).clamp(4, 20) as u64;
        // `TimeIncrementPercent` (75) and `TimeHardPercent` (300).
        let increment_share = params.get(index::TIME_INCREMENT).max(0) as u64;
        let hard_share = params.get(index::TIME_HARD).max(100) as u64;
        let moves_to_go = self.moves_to_go.map_or(expected_moves, |n| {
            (n as u64).clamp(1, expected_moves.max(1))
        });
        let usable = remaining.saturating_sub(overhead).max(1);
        let soft = (usable / moves_to_go)
            .saturating_add(increment.saturating_mul(increment_share) / 100)
            .min(usable / 2);
        let hard = (soft.saturating_mul(hard_share) / 100)
            .min(usable.saturating_mul(3) / 4)
            .max(soft);
        Some(TimeBudget {
            soft: Duration::from_millis(soft.max(1)),
            hard: Duration::from_millis(hard.max(1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let budget = limits
            .budget(Player::South, 100, 10, &Params::default())
            .unwrap();
        assert_eq!(budget.hard, Duration::from_millis(90));
    }

    #[test]
    fn clock_budget_stays_well_inside_the_clock() {
        let limits = Limits {
            time: [Some(1000), Some(50)],
            increment: [100, 0],
            ..Limits::default()
        };
        let south = limits
            .budget(Player::South, 100, 10, &Params::default())
            .unwrap();
        assert!(south.soft <= south.hard);
        assert!(south.hard < Duration::from_millis(990));
        let north = limits
            .budget(Player::North, 100, 10, &Params::default())
            .unwrap();
        assert!(north.hard <= Duration::from_millis(40));
        assert_eq!(
            Limits::default().budget(Player::South, 100, 10, &Params::default()),
            None
        );
    }

    /// The budget before its factors became tunables (at a88ce43).
    fn budget_before(
        limits: &Limits,
        side: Player,
        stones_left: u32,
        overhead: u64,
    ) -> Option<TimeBudget> {
        let remaining = limits.time[side.index()].or(limits.time[side.opponent().index()])?;
        let increment = limits.increment[side.index()];
        let expected_moves = (stones_left / 8).clamp(4, 20) as u64;
        let moves_to_go = limits.moves_to_go.map_or(expected_moves, |n| {
            (n as u64).clamp(1, expected_moves.max(1))
        });
        let usable = remaining.saturating_sub(overhead).max(1);
        let soft = (usable / moves_to_go)
            .saturating_add(increment.saturating_mul(3) / 4)
            .min(usable / 2);
        let hard = soft
            .saturating_mul(3)
            .min(usable.saturating_mul(3) / 4)
            .max(soft);
        Some(TimeBudget {
            soft: Duration::from_millis(soft.max(1)),
            hard: Duration::from_millis(hard.max(1)),
        })
    }

    #[test]
    fn default_tunables_keep_the_budget_as_it_was() {
        let params = Params::default();
        for time in [1, 7, 100, 999, 1000, 30_000, 600_000] {
            for increment in [0, 1, 3, 50, 100, 2_000] {
                for moves_to_go in [None, Some(1), Some(13), Some(40)] {
                    for stones in [1, 20, 33, 80, 120] {
                        let limits = Limits {
                            time: [Some(time), Some(time / 2)],
                            increment: [increment, increment],
                            moves_to_go,
                            ..Limits::default()
                        };
                        for side in [Player::South, Player::North] {
                            assert_eq!(
                                limits.budget(side, stones, 10, &params),
                                budget_before(&limits, side, stones, 10)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_clock_goes_to_the_moves_before_the_game_is_decided() {
        let limits = Limits {
            time: [Some(1000), Some(1000)],
            increment: [100, 100],
            ..Limits::default()
        };
        let mut params = Params::default();
        let soft = |params: &Params, stones| {
            limits
                .budget(Player::South, stones, 0, params)
                .unwrap()
                .soft
        };
        let before = soft(&params, 120);
        params
            .set(
                crate::search::params::find("TimeDecidedStones").unwrap(),
                40,
            )
            .unwrap();
        // 80 stones to play instead of 120: 10 moves expected, not 15.
        assert_eq!(soft(&params, 120), Duration::from_millis(1000 / 10 + 75));
        assert!(soft(&params, 120) > before);
        // Within the decided stones, still at most a quarter of the clock.
        assert_eq!(soft(&params, 30), Duration::from_millis(1000 / 4 + 75));
    }

    #[test]
    fn the_largest_clocks_saturate_instead_of_overflowing() {
        let most = i64::MAX as u64;
        for limits in [
            Limits {
                time: [Some(most), Some(most)],
                increment: [most, most],
                moves_to_go: Some(1),
                ..Limits::default()
            },
            Limits {
                movetime: Some(u64::MAX),
                ..Limits::default()
            },
        ] {
            let budget = limits
                .budget(Player::South, 120, 0, &Params::default())
                .unwrap();
            assert!(budget.soft > Duration::from_secs(1 << 40));
            assert!(budget.hard > Duration::from_secs(1 << 40));
        }
    }
}
