//! What the threads of one search share, and how their outcomes become the
//! search's result (Lazy SMP's vote, then the skill level's choice).

use crate::host::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::moves::Move;
use crate::rules::Rules;
use crate::tt::TranspositionTable;

use super::{
    Info, Limits, Listener, ProvenResults, SearchResult, Settings, Signals, busy, elapsed_ms, skill,
};

/// A node counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
pub(super) struct PaddedCounter(pub(super) AtomicU64);

/// State shared by the threads of one search.
pub(super) struct Shared<'a> {
    pub(super) rules: Rules,
    pub(super) table: &'a TranspositionTable,
    pub(super) proven: &'a ProvenResults,
    pub(super) signals: &'a Signals,
    pub(super) id: u64,
    pub(super) limits: &'a Limits,
    pub(super) settings: &'a Settings,
    pub(super) listener: &'a dyn Listener,
    /// Set when the search must end (limit reached or stop).
    pub(super) abort: AtomicBool,
    pub(super) node_counters: Vec<PaddedCounter>,
    pub(super) start: Instant,
    /// The deepest iteration a helper thread completed (single-line
    /// searches): its best move is worth more than a shallower one of the
    /// main thread. Locked once per helper iteration, never per node.
    pub(super) deepest_helper: Mutex<Option<Info>>,
    /// Moves being searched, with more than one thread.
    pub(super) busy: Option<busy::BusyMoves>,
    /// A helper thread's solution of the root (score and move), if one
    /// solved it first.
    pub(super) solution: OnceLock<(i32, Move)>,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.node_counters
            .iter()
            .map(|counter| counter.0.load(Ordering::Relaxed))
            .sum()
    }

    /// Whether the main thread searches without helpers.
    #[inline(always)]
    pub(super) fn single_threaded(&self) -> bool {
        self.node_counters.len() == 1
    }

    #[inline(always)]
    pub(super) fn should_abort(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.signals.stopped(self.id)
    }
}

/// What the main thread's iteration produced, before the final report.
pub(super) struct MainOutcome {
    /// The lines of the last complete iteration, best first.
    pub(super) lines: Vec<Info>,
    pub(super) proven: bool,
}

impl MainOutcome {
    pub(super) fn finish(mut self, shared: &Shared<'_>, level: u8) -> SearchResult {
        let nodes = shared.total_nodes();
        let noise: Vec<f64> = match shared.settings.skill_seed {
            Some(seed) => skill::seeded_noise(seed, self.lines.len()),
            None => (0..self.lines.len())
                .map(|_| crate::host::random_unit())
                .collect(),
        };
        // Lazy SMP's vote, in its simplest form: a helper that completed a
        // deeper iteration than the main thread decides the move.
        let helper = shared
            .deepest_helper
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
        // A proven result stands whatever a helper saw.
        if let Some(helper) = helper
            && !self.proven
            && level >= skill::MAX_LEVEL
            && shared.settings.multipv == 1
            && self
                .lines
                .first()
                .is_some_and(|main| helper.depth > main.depth)
        {
            self.lines = vec![helper];
        }
        let chosen = skill::choose(&self.lines, level, &noise);
        let best = (chosen < self.lines.len()).then(|| self.lines.swap_remove(chosen));
        let final_info = best.map(|mut info| {
            info.nodes = nodes;
            info.time_ms = elapsed_ms(shared.start);
            info.hashfull = shared.table.hashfull();
            info.multipv = 1;
            info
        });
        SearchResult {
            best_move: final_info
                .as_ref()
                .and_then(|info| info.pv.first().copied()),
            ponder_move: final_info.as_ref().and_then(|info| info.pv.get(1).copied()),
            final_info,
            nodes,
            proven: self.proven,
        }
    }
}
