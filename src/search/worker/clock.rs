//! When a search thread stops: node counts, the clock, pondering, and the
//! limits checked while searching and between iterations.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::Worker;
use crate::host::Instant;
use crate::search::params::index;
use crate::search::{MATE, MATE_BOUND, TimeBudget};

/// Nodes between clock checks and counter flushes.
const CHECK_INTERVAL: u64 = 512;

/// A time budget measured from some instant (the start, or the ponderhit).
#[derive(Copy, Clone)]
pub(super) struct Deadline {
    pub(super) budget: Option<TimeBudget>,
    pub(super) from: Instant,
}

impl Deadline {
    fn past_hard(&self) -> bool {
        self.budget
            .is_some_and(|budget| self.from.elapsed() >= budget.hard)
    }

    fn past_soft(&self, fraction: f64) -> bool {
        self.budget.is_some_and(|budget| {
            // Saturates: a clock near `i64::MAX` ms stretched by `fraction`
            // is past what a `Duration` holds.
            let soft = Duration::try_from_secs_f64(budget.soft.as_secs_f64() * fraction)
                .unwrap_or(Duration::MAX);
            self.from.elapsed() >= soft
        })
    }
}

impl Worker<'_> {
    /// Infinite and ponder searches give their bestmove only after `stop`
    /// (or `ponderhit`), even when they finished early.
    pub(super) fn wait_for_release(&self) {
        let shared = self.shared;
        shared.signals.wait_for_release(shared.limits, shared.id);
    }

    /// Limits checked between iterations (main thread). `time_scale`
    /// stretches or shrinks the share of a clock's soft bound after which
    /// no new iteration starts (see `iterate::time_scale`); a fixed
    /// `movetime` is kept whatever it says.
    pub(super) fn iteration_limits_reached(&mut self, score: i32, time_scale: f64) -> bool {
        let limits = self.shared.limits;
        if let Some(moves) = limits.mate
            && score >= MATE_BOUND
            && (MATE - score + 1) / 2 <= moves as i32
        {
            return true;
        }
        if let Some(nodes) = limits.nodes
            && self.shared.total_nodes() >= nodes
        {
            return true;
        }
        self.update_ponder();
        if self.pondering {
            return false;
        }
        // A forced move needs no thought when a clock is running.
        if self.root_moves.len() == 1 && limits.movetime.is_none() && self.deadline.budget.is_some()
        {
            return true;
        }
        // The next iteration would most likely not finish in time.
        let scale = if limits.movetime.is_some() {
            1.0
        } else {
            time_scale
        };
        // `TimeSoftPercent`: 60.
        self.deadline
            .past_soft(self.params.fraction(index::TIME_SOFT) * scale)
    }

    pub(super) fn update_ponder(&mut self) {
        if self.pondering && self.shared.signals.ponderhit_received(self.shared.id) {
            self.pondering = false;
            self.deadline.from = Instant::now();
        }
    }

    #[inline(always)]
    pub(super) fn flush_nodes(&self) {
        self.shared.node_counters[self.index]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node and, every so often, checks the limits.
    #[inline(always)]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        let limits = self.shared.limits;
        if let Some(limit) = limits.nodes
            && self.shared.single_threaded()
            && self.nodes >= limit
        {
            self.stop();
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.flush_nodes();
            // In a browser, the page hears `stop` only while the search
            // pauses (natively, nothing).
            crate::host::pause_if_due();
            if self.nodes >= self.solve_limit {
                self.stopped = true;
                self.solve_paused = true;
            }
            if self.is_main() {
                self.update_ponder();
                if (!self.pondering && self.deadline.past_hard())
                    || limits
                        .nodes
                        .is_some_and(|limit| self.shared.total_nodes() >= limit)
                    || self.shared.solution.get().is_some()
                {
                    self.stop();
                }
            }
            if self.shared.should_abort() {
                self.stop();
            }
        }
    }

    #[inline(always)]
    pub(super) fn stop(&mut self) {
        if !self.must_complete {
            self.stopped = true;
            self.solve_paused = false;
        }
    }
}
