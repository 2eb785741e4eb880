//! Move-path enumeration counts, to check the move generator against the
//! rule book's figures and to measure its speed.

use rayon::prelude::*;

use crate::bitboard::Square;
use crate::movegen::{
    count_ka_moves_at, count_moves, generate_ka_moves_from, generate_moves, legal_moves,
};
use crate::moves::{Move, MoveList};
use crate::position::{Player, Position};
use crate::rules::{Centre, Rules};

/// Number of move sequences of length `depth` from `position`. The last
/// ply is counted, never made.
pub fn perft(position: &Position, rules: &Rules, depth: u32) -> u64 {
    // Once both kas are on the board every later move is a ka move: the
    // rest is counted without asking the phase again.
    let side = position.side_to_move();
    if let (Some(mover), Some(waiting)) = (position.ka(side), position.ka(side.opponent())) {
        return match rules.centre {
            Centre::Wall => perft_ka_moves::<false>(position, depth, side, mover, waiting),
            Centre::Open => perft_ka_moves::<true>(position, depth, side, mover, waiting),
        };
    }
    match depth {
        0 => 1,
        1 => count_moves(position, rules),
        _ => {
            let mut moves = MoveList::new();
            generate_moves(position, rules, &mut moves);
            let mut total = 0;
            for &mv in moves.iter() {
                let mut child = *position;
                child.make_unkeyed(mv);
                total += perft(&child, rules, depth - 1);
            }
            total
        }
    }
}

/// [`perft`] where both kas are on the board, the hole open when `OPEN`:
/// `side` to move, its ka on `mover`, the other on `waiting`. The caller
/// knows all three from the parent and the move, so neither the generator
/// nor the count waits on reading them back from the freshly made copy.
fn perft_ka_moves<const OPEN: bool>(
    position: &Position,
    depth: u32,
    side: Player,
    mover: Square,
    waiting: Square,
) -> u64 {
    match depth {
        0 => 1,
        1 => count_ka_moves_at::<OPEN>(position, mover.rank(), mover.file()),
        _ => {
            let mut moves = MoveList::new();
            generate_ka_moves_from::<OPEN>(position, mover, &mut moves);
            let mut total = 0;
            // One level above the leaves the children are counted in this
            // loop, with no call per child.
            if depth == 2 {
                // The counted ka's rank and file, looked up once for all
                // children.
                let (rank, file) = (waiting.rank(), waiting.file());
                for &mv in moves.iter() {
                    let mut child = *position;
                    child.make_ka_move_from(mv, side, mover);
                    total += count_ka_moves_at::<OPEN>(&child, rank, file);
                }
            } else {
                for &mv in moves.iter() {
                    let mut child = *position;
                    child.make_ka_move_from(mv, side, mover);
                    total += perft_ka_moves::<OPEN>(
                        &child,
                        depth - 1,
                        side.opponent(),
                        waiting,
                        mv.to(),
                    );
                }
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

/// A count that may have been stopped before it finished.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub(crate) struct PartialDivide {
    /// The count below each root move finished, in generation order.
    pub moves: Vec<(Move, u64)>,
    /// Move paths counted, the unfinished root move's included.
    pub total: u64,
    /// Whether `stop` ended the count early.
    pub stopped: bool,
}

/// [`divide`] on one thread that hands each root move's count to
/// `finished` as it completes, asks `stop` now and then (at every node
/// three or more plies from the leaves, never below) and, once it answers
/// true, returns what it counted so far.
pub(crate) fn divide_until(
    position: &Position,
    rules: &Rules,
    depth: u32,
    stop: &dyn Fn() -> bool,
    finished: &mut dyn FnMut(Move, u64),
) -> PartialDivide {
    let mut result = PartialDivide::default();
    if depth == 0 {
        result.total = 1;
        return result;
    }
    if stop() {
        result.stopped = true;
        return result;
    }
    for &mv in legal_moves(position, rules).iter() {
        let (count, stopped) = perft_until(&position.play(mv), rules, depth - 1, stop);
        result.total += count;
        if stopped {
            result.stopped = true;
            return result;
        }
        finished(mv, count);
        result.moves.push((mv, count));
    }
    result
}

/// [`perft`] that checks `stop` at nodes of depth three or more; returns
/// the count and whether it was stopped.
fn perft_until(
    position: &Position,
    rules: &Rules,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> (u64, bool) {
    if depth < 3 {
        return (perft(position, rules, depth), false);
    }
    if stop() {
        return (0, true);
    }
    let mut total = 0;
    for &mv in legal_moves(position, rules).iter() {
        let mut child = *position;
        child.make_unkeyed(mv);
        let (count, stopped) = perft_until(&child, rules, depth - 1, stop);
        total += count;
        if stopped {
            return (total, true);
        }
    }
    (total, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::start_position;
    use std::cell::Cell;

    #[test]
    fn an_unstopped_count_matches_divide() {
        let rules = Rules::default();
        let start = start_position(rules.pattern);
        let partial = divide_until(&start, &rules, 4, &|| false, &mut |_, _| {});
        assert!(!partial.stopped);
        assert_eq!(partial.moves, divide(&start, &rules, 4, false));
        assert_eq!(partial.total, perft(&start, &rules, 4));
        assert_eq!(
            divide_until(&start, &rules, 0, &|| false, &mut |_, _| {}).total,
            1
        );
    }

    #[test]
    fn a_stopped_count_keeps_what_it_counted() {
        let rules = Rules::default();
        let start = start_position(rules.pattern);
        // Stopped before it starts: nothing counted.
        let none = divide_until(&start, &rules, 5, &|| true, &mut |_, _| {});
        assert!(none.stopped && none.moves.is_empty() && none.total == 0);
        // Stopped after a few checks: a prefix of the full divide.
        let calls = Cell::new(0);
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > 40
        };
        let mut seen = Vec::new();
        let partial = divide_until(&start, &rules, 5, &stop, &mut |mv, count| {
            seen.push((mv, count))
        });
        assert_eq!(seen, partial.moves);
        assert!(partial.stopped);
        let full = divide(&start, &rules, 5, false);
        assert!(partial.moves.len() < full.len());
        assert_eq!(partial.moves[..], full[..partial.moves.len()]);
        let finished: u64 = partial.moves.iter().map(|(_, count)| count).sum();
        assert!(partial.total >= finished);
        assert!(partial.total < full.iter().map(|(_, count)| count).sum());
    }
}
