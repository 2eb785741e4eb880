//! Iterative deepening: one iteration after another until a limit, a proof
//! or a stop ends the search, and what each iteration reports.

use std::sync::atomic::Ordering;

use super::{RootMove, Worker};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::search::params::index;
use crate::search::report::elapsed_ms;
use crate::search::threads::MainOutcome;
use crate::search::{INFINITY, Info, MATE, MATE_BOUND, MAX_PLY, Params, Score};

impl Worker<'_> {
    /// Iterative deepening; the main thread's outcome is its last complete
    /// iteration.
    pub(in crate::search) fn iterate(&mut self) -> MainOutcome {
        let rules = self.shared.rules;
        let limits = self.shared.limits;
        let legal = legal_moves(&self.root, &rules);
        let mut chosen: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| limits.search_moves.is_empty() || limits.search_moves.contains(mv))
            .collect();
        if chosen.is_empty() {
            chosen = legal.to_vec();
        }
        let root = self.root;
        chosen.sort_by_key(|mv| -(root.capture(*mv).points() as i32));
        self.root_moves = chosen
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
                proven: false,
                effort: 0,
            })
            .collect();
        let mut outcome = MainOutcome {
            lines: Vec::new(),
            proven: false,
        };
        if self.root_moves.is_empty() {
            return outcome;
        }
        let max_depth = limits.depth.map_or(MAX_PLY as u32 - 1, |depth| {
            depth.clamp(1, MAX_PLY as u32 - 1)
        });
        let multipv = self.shared.settings.multipv.clamp(1, self.root_moves.len());
        let mut previous_score = 0;
        // How many completed iterations in a row kept the same best move.
        let mut stable_iterations = 0;
        let mut previous_best: Option<Move> = None;
        let first_depth = if self.is_main() {
            1
        } else {
            1 + (self.index % 2) as u32
        };
        for depth in first_depth..=max_depth {
            self.must_complete = self.is_main() && depth == 1;
            let horizon_before = self.horizon_hits;
            self.seldepth = 0;
            let score = self.aspiration(depth as i32, previous_score, multipv);
            if self.stopped {
                // A helper may have stopped this iteration by solving the
                // root: its solution stands for the last one completed.
                if let Some(solution) = self.helper_solution()
                    && let Some(line) = outcome.lines.first_mut()
                {
                    self.flush_nodes();
                    self.mark_solved(line, solution);
                    line.nodes = self.shared.total_nodes();
                    line.time_ms = elapsed_ms(self.shared.start);
                    self.shared.listener.info(line);
                    outcome.proven = true;
                }
                break;
            }
            let score_drop = if depth > first_depth {
                previous_score - score
            } else {
                0
            };
            previous_score = score;
            self.root_moves.sort_by_key(|root_move| -root_move.score);
            let best = self.root_moves[0].mv;
            stable_iterations = if previous_best == Some(best) {
                stable_iterations + 1
            } else {
                0
            };
            previous_best = Some(best);
            // A tree that reached the end of the game everywhere is exact. So
            // is a win or loss whose whole line lies within this depth: the
            // mate bound came out of an exact window.
            let mate_plies = MATE - score.abs();
            // A win needs only its own line proven.
            let proven = self.horizon_hits == horizon_before
                || (score.abs() >= MATE_BOUND && mate_plies <= depth as i32)
                || (score >= MATE_BOUND && self.root_moves[0].proven);
            let solved = if !proven && self.may_solve(depth, multipv) {
                self.solve()
            } else {
                None
            };
            if !self.is_main() {
                self.offer_deepest(depth, multipv);
                if let Some(solution) = solved {
                    self.publish_solution(solution);
                }
                if proven || solved.is_some() {
                    break;
                }
                continue;
            }
            let solved = solved.or_else(|| self.helper_solution());
            self.flush_nodes();
            let mut lines: Vec<Info> = self.root_moves[..multipv]
                .iter()
                .enumerate()
                .map(|(line, root_move)| Info {
                    depth,
                    seldepth: self.seldepth.max(1) as u32,
                    multipv: line + 1,
                    score: Score::from_internal(root_move.score),
                    nodes: self.shared.total_nodes(),
                    time_ms: elapsed_ms(self.shared.start),
                    hashfull: self.shared.table.hashfull(),
                    pv: root_move.pv.clone(),
                })
                .collect();
            let proven = proven || solved.is_some();
            if let Some(solution) = solved {
                self.mark_solved(&mut lines[0], solution);
            }
            for info in &lines {
                self.shared.listener.info(info);
            }
            outcome.lines = lines;
            outcome.proven = proven;
            let total_effort: u64 = self
                .root_moves
                .iter()
                .map(|root_move| root_move.effort)
                .sum();
            let clock = ClockSignals {
                stable_iterations,
                score_drop,
                best_effort_percent: (self.root_moves[0].effort * 100 / total_effort.max(1)) as u32,
                solving: self.within_solve_reach(depth),
            };
            let time_scale = time_scale(&self.params, &clock);
            if proven || self.iteration_limits_reached(score, time_scale) {
                break;
            }
        }
        if self.is_main() {
            self.flush_nodes();
            self.shared.abort.store(true, Ordering::Relaxed);
            self.wait_for_release();
        }
        outcome
    }

    /// A helper's completed iteration, kept if it is the deepest so far.
    pub(super) fn offer_deepest(&self, depth: u32, multipv: usize) {
        if multipv != 1 {
            return;
        }
        let mut deepest = self
            .shared
            .deepest_helper
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if deepest.as_ref().is_none_or(|info| depth > info.depth) {
            let best = &self.root_moves[0];
            *deepest = Some(Info {
                depth,
                seldepth: self.seldepth.max(1) as u32,
                multipv: 1,
                score: Score::from_internal(best.score),
                nodes: 0,
                time_ms: 0,
                hashfull: 0,
                pv: best.pv.clone(),
            });
        }
    }
}

/// What an iteration tells the clock.
pub(super) struct ClockSignals {
    /// Completed iterations in a row that kept the same best move.
    pub(super) stable_iterations: u32,
    /// How far the score fell from the iteration before, in centipoints.
    pub(super) score_drop: i32,
    /// The best move's share of the nodes searched under the root moves.
    pub(super) best_effort_percent: u32,
    /// Whether an endgame within the solve's reach is still unproven.
    pub(super) solving: bool,
}

/// How much of the usual share of the clock the next iteration may start
/// in: more while the best move keeps changing or the score falls, less
/// once one move has stood for several iterations (`TimeStability0`-`4`:
/// 1.4, 1.15, 1.0, 0.85, 0.7; `TimeFallBig` 1.3 for a fall of 100
/// centipoints or more, `TimeFallSmall` 1.15 for 50 or more). A best move
/// that took `TimeEffortPercent` of the nodes or more stands alone
/// (`TimeEffortScale`); an endgame the solve may still prove gets
/// `TimeSolveScale`, since a proof decides the game. The last three are
/// 1.0 by default.
pub(super) fn time_scale(params: &Params, clock: &ClockSignals) -> f64 {
    let stability =
        params.fraction(index::TIME_STABILITY + clock.stable_iterations.min(4) as usize);
    let falling = if clock.score_drop >= 100 {
        params.fraction(index::TIME_FALL_BIG)
    } else if clock.score_drop >= 50 {
        params.fraction(index::TIME_FALL_SMALL)
    } else {
        1.0
    };
    let alone = if clock.best_effort_percent >= params.get(index::TIME_EFFORT).max(0) as u32 {
        params.fraction(index::TIME_EFFORT_SCALE)
    } else {
        1.0
    };
    let solving = if clock.solving {
        params.fraction(index::TIME_SOLVE_SCALE)
    } else {
        1.0
    };
    stability * falling * alone * solving
}

#[cfg(test)]
mod tests {
    use super::{ClockSignals, time_scale};
    use crate::search::Params;
    use crate::search::params::find;

    fn signals(stable_iterations: u32, score_drop: i32) -> ClockSignals {
        ClockSignals {
            stable_iterations,
            score_drop,
            best_effort_percent: 50,
            solving: false,
        }
    }

    #[test]
    fn unstable_or_falling_searches_get_more_time() {
        let params = Params::default();
        let time_scale = |stable, drop| time_scale(&params, &signals(stable, drop));
        assert!(time_scale(0, 0) > time_scale(1, 0));
        assert!(time_scale(1, 0) > time_scale(4, 0));
        assert_eq!(time_scale(4, 0), time_scale(9, 0));
        assert!(time_scale(2, 120) > time_scale(2, 60));
        assert!(time_scale(2, 60) > time_scale(2, 0));
        assert_eq!(time_scale(2, -300), time_scale(2, 0));
        // Never below half, never above twice the usual share.
        assert!(time_scale(9, 0) >= 0.5 && time_scale(0, 500) <= 2.0);
    }

    #[test]
    fn a_lone_best_move_and_a_near_proof_scale_only_when_set() {
        let defaults = Params::default();
        let alone = ClockSignals {
            best_effort_percent: 100,
            solving: true,
            ..signals(2, 0)
        };
        // The default build keeps its time use.
        assert_eq!(
            time_scale(&defaults, &alone),
            time_scale(&defaults, &signals(2, 0))
        );
        let mut params = defaults;
        params.set(find("TimeEffortPercent").unwrap(), 90).unwrap();
        params.set(find("TimeEffortScale").unwrap(), 60).unwrap();
        params.set(find("TimeSolveScale").unwrap(), 150).unwrap();
        let base = time_scale(&params, &signals(2, 0));
        let lone = ClockSignals {
            best_effort_percent: 95,
            ..signals(2, 0)
        };
        assert!((time_scale(&params, &lone) - base * 0.6).abs() < 1e-9);
        let near_proof = ClockSignals {
            solving: true,
            ..signals(2, 0)
        };
        assert!((time_scale(&params, &near_proof) - base * 1.5).abs() < 1e-9);
    }
}
