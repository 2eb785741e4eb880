//! The root: every root move searched in turn, within a window around the
//! previous iteration's score (aspiration), for one or several lines.

use super::Worker;
use crate::search::params::index;
use crate::search::report::elapsed_ms;
use crate::search::{INFINITY, MATE_BOUND, MAX_PLY};

impl Worker<'_> {
    /// Searches the root with a window around the previous score, widening
    /// it on failure.
    pub(super) fn aspiration(&mut self, depth: i32, previous: i32, multipv: usize) -> i32 {
        if depth < 4 || multipv > 1 || previous.abs() >= MATE_BOUND {
            return self.search_root(depth, -INFINITY, INFINITY, multipv);
        }
        let mut delta = self.params.get(index::ASPIRATION_DELTA);
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.search_root(depth, alpha, beta, multipv);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta;
            if delta > 2000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    pub(super) fn search_root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        multipv: usize,
    ) -> i32 {
        let mut best = -INFINITY;
        let root = self.root;
        for index in 0..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            // Announced once per depth (not again on aspiration re-searches).
            if self.is_main()
                && elapsed_ms(self.shared.start) > 1000
                && self.announced < (depth as u32, index + 1)
            {
                self.announced = (depth as u32, index + 1);
                self.shared
                    .listener
                    .current_move(depth as u32, mv, index + 1);
            }
            // With several lines, a move must beat the last reported one.
            let floor = if multipv > 1 && index >= multipv {
                let mut scores: Vec<i32> = self.root_moves[..index]
                    .iter()
                    .map(|root_move| root_move.score)
                    .collect();
                scores.sort_unstable_by(|a, b| b.cmp(a));
                scores[multipv - 1]
            } else {
                -INFINITY
            };
            let window_floor = alpha.max(floor);
            let child = root.play(mv);
            let horizon_before_move = self.horizon_hits;
            let nodes_before_move = self.nodes;
            let full_window = index == 0 || (multipv > 1 && index < multipv);
            let mut score;
            if full_window {
                score = -self.negamax(&child, depth - 1, -beta, -window_floor, 1, true);
            } else {
                score = -self.negamax(
                    &child,
                    depth - 1,
                    -window_floor - 1,
                    -window_floor,
                    1,
                    false,
                );
                if score > window_floor && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -window_floor, 1, true);
                }
            }
            self.root_moves[index].effort += self.nodes - nodes_before_move;
            if self.stopped {
                return best;
            }
            let root_move = &mut self.root_moves[index];
            root_move.proven = self.horizon_hits == horizon_before_move;
            if full_window || score > window_floor {
                root_move.score = score;
                root_move.pv.clear();
                root_move.pv.push(mv);
                let length = self.pv_len[1];
                for ply in 1..length {
                    root_move.pv.push(self.pv[MAX_PLY + 1 + ply]);
                }
            } else {
                root_move.score = -INFINITY;
            }
            best = best.max(score);
            if multipv == 1 && score > alpha {
                alpha = score;
                if score >= beta {
                    for later in &mut self.root_moves[index + 1..] {
                        later.score = -INFINITY;
                    }
                    break;
                }
            }
        }
        best
    }
}
