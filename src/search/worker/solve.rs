//! The endgame solve: with few stones left, a thread searches the root to
//! the end of the game, asking only for the outcome. Alone, the main thread
//! solves between its iterations; with helpers, the helpers solve without
//! pause and hand a solution over to the main thread, which keeps
//! iterating: an endgame too big to solve in the time then costs the main
//! thread's search nothing.
//!
//! Every move captures a stone, so a search as deep as the stones left
//! meets no horizon and all its scores are exact. Null windows at the draw
//! and at the win settle the outcome with far fewer nodes than the exact
//! scores of the iterations: a win needs one refutation per node, not the
//! shortest. The main thread's solve pauses when it has spent as many nodes
//! as the search before it, so a solve that cannot finish costs about half
//! the time of a move; the next iteration resumes it, since every finished
//! subtree is stored as proven.

use super::{PROVEN_DEPTH, Worker};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::search::{INFINITY, Info, MATE_BOUND, MAX_PLY, Score};

/// The first iteration after which a thread tries to solve an endgame:
/// the ordering it leaves behind is good enough.
const SOLVE_FROM_DEPTH: u32 = 8;

/// The most stones with which a thread tries to solve: beyond, a solve
/// rarely ends in the time of a move.
const SOLVE_STONES: u32 = 40;

impl Worker<'_> {
    /// Whether the thread tries to solve the endgame after this iteration:
    /// with few stones left, one line, and no depth or shortest mate asked
    /// for; the main thread only when it is alone.
    pub(super) fn may_solve(&self, depth: u32, multipv: usize) -> bool {
        let limits = self.shared.limits;
        multipv == 1
            && (!self.is_main() || self.shared.single_threaded())
            && limits.depth.is_none()
            && limits.mate.is_none()
            && self.within_solve_reach(depth)
    }

    /// Whether the root lies within the solve's reach at this depth, with
    /// or without this thread solving it.
    pub(super) fn within_solve_reach(&self, depth: u32) -> bool {
        depth >= SOLVE_FROM_DEPTH && self.root.stone_count() <= SOLVE_STONES
    }

    /// Solves the root, or pauses (see the module notes). Null windows ask:
    /// a draw or better, and if so a win? Returns the score (a win or loss
    /// within the moves its line takes, not always the fewest; or 0 for a
    /// draw) and a move that gets it.
    pub(super) fn solve(&mut self) -> Option<(i32, Move)> {
        // Alone, the main thread lets the solve spend as many nodes as the
        // search before it; a helper has nothing better to do.
        self.solve_limit = if self.is_main() {
            self.nodes.saturating_mul(2)
        } else {
            u64::MAX
        };
        let depth = self.root.stone_count() as i32;
        self.selective = false;
        let result = self.null_window_root(depth, -1).and_then(|(score, mv)| {
            if score.abs() >= MATE_BOUND {
                Some((score, mv))
            } else if score >= 0 {
                // A draw or better, and exact: a draw unless it is a win.
                self.null_window_root(depth, MATE_BOUND - 1)
                    .map(|(win, winning_move)| {
                        if win >= MATE_BOUND {
                            (win, winning_move)
                        } else {
                            (0, mv)
                        }
                    })
            } else {
                None
            }
        });
        self.solve_limit = u64::MAX;
        self.selective = true;
        if self.solve_paused {
            self.solve_paused = false;
            self.stopped = false;
        }
        result
    }

    /// Hands a helper thread's solution to the main thread, which stops
    /// its search and reports it (the first solution stands).
    pub(super) fn publish_solution(&self, solution: (i32, Move)) {
        let _ = self.shared.solution.set(solution);
    }

    /// A helper thread's solution, if one solved the root.
    pub(super) fn helper_solution(&self) -> Option<(i32, Move)> {
        self.shared.solution.get().copied()
    }

    /// Reports `solution` on `line`: its score, and its move with the
    /// proven line after it.
    pub(super) fn mark_solved(&self, line: &mut Info, (score, mv): (i32, Move)) {
        line.score = Score::from_internal(score);
        line.pv = self.proven_line(mv);
    }

    /// A null-window search of every root move at `alpha` until one beats
    /// it: the best score (fail-soft) and its move, or `None` if stopped.
    fn null_window_root(&mut self, depth: i32, alpha: i32) -> Option<(i32, Move)> {
        let root = self.root;
        let mut best = (-INFINITY, self.root_moves[0].mv);
        for index in 0..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            let score = -self.negamax(&root.play(mv), depth - 1, -alpha - 1, -alpha, 1, false);
            if self.stopped {
                return None;
            }
            if score > best.0 {
                best = (score, mv);
            }
            if score > alpha {
                break;
            }
        }
        Some(best)
    }

    /// `first` and the best moves the table holds for proven results after
    /// it: the line of a solved root.
    fn proven_line(&self, first: Move) -> Vec<Move> {
        let rules = self.shared.rules;
        let mut line = vec![first];
        let mut position = self.root.play(first);
        while let Some(entry) = self.shared.table.probe(position.key())
            && entry.depth >= PROVEN_DEPTH
            && let Some(mv) = entry.best_move
            && legal_moves(&position, &rules).contains(mv)
            && line.len() < MAX_PLY
        {
            line.push(mv);
            position = position.play(mv);
        }
        line
    }
}
