//! Parallel iterative-deepening alpha-beta (principal variation search)
//! with a shared transposition table (Lazy SMP).
//!
//! The search never prints: it reports through a [`Listener`]. Only the
//! main thread (index 0) manages time and reports; helper threads search
//! the same root at staggered depths, share what they find through the
//! table, and put off the moves another thread is busy with (`busy`).
//! Proofs of large subtrees also go into a store that outlives the table
//! (`proven`). With 40 stones or fewer, the endgame is also solved
//! outright (`worker::solve`): by the main thread between iterations when
//! it is alone, otherwise by the helpers while the main thread iterates.

mod busy;
pub mod limits;
mod proven;
pub mod reference;
pub mod skill;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::tt::TranspositionTable;

pub use limits::{Limits, TimeBudget};
pub use proven::{Proof, ProvenResults};
pub use reference::Reference;
use worker::Worker;

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

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Centipoints(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// One principal-variation report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Receives the search's reports; called from the main search thread.
pub trait Listener: Sync {
    /// A principal variation, once per line per completed iteration.
    fn info(&self, info: &Info);
    /// The root move being searched (only after the first second).
    fn current_move(&self, _depth: u32, _mv: Move, _number: usize) {}
}

/// A listener that ignores everything.
pub struct Silent;

impl Listener for Silent {
    fn info(&self, _: &Info) {}
}

/// Cross-thread signals from the protocol: `stop` and `ponderhit` apply to
/// every search whose id is at most the stored one, so a `stop` received
/// while idle never cuts a later search short.
#[derive(Default)]
pub struct Signals {
    stop_up_to: AtomicU64,
    ponderhit_up_to: AtomicU64,
}

impl Signals {
    /// Stops searches up to `id`.
    pub fn stop(&self, id: u64) {
        self.stop_up_to.fetch_max(id, Ordering::Relaxed);
    }

    /// Ends pondering of searches up to `id`.
    pub fn ponderhit(&self, id: u64) {
        self.ponderhit_up_to.fetch_max(id, Ordering::Relaxed);
    }

    /// Whether search `id` was told to stop.
    #[inline(always)]
    pub fn stopped(&self, id: u64) -> bool {
        self.stop_up_to.load(Ordering::Relaxed) >= id
    }

    /// Whether search `id` had its ponderhit.
    #[inline(always)]
    pub fn ponderhit_received(&self, id: u64) -> bool {
        self.ponderhit_up_to.load(Ordering::Relaxed) >= id
    }
}

/// Engine settings that shape a search.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept back from the clock for communication.
    pub move_overhead: u64,
    /// 0 (weakest) to 20 (full strength).
    pub skill_level: u8,
    /// A reference player instead of the search (strength measurement).
    pub reference: Reference,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            skill_level: skill::MAX_LEVEL,
            reference: Reference::Off,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best_move: Option<Move>,
    /// The expected reply.
    pub ponder_move: Option<Move>,
    /// The last exact report of the best line (`None` without moves).
    pub final_info: Option<Info>,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Whether the score is the game's exact result.
    pub proven: bool,
}

/// A node counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
struct PaddedCounter(AtomicU64);

/// State shared by the threads of one search.
struct Shared<'a> {
    rules: Rules,
    table: &'a TranspositionTable,
    proven: &'a ProvenResults,
    signals: &'a Signals,
    id: u64,
    limits: &'a Limits,
    settings: &'a Settings,
    listener: &'a dyn Listener,
    /// Set when the search must end (limit reached or stop).
    abort: AtomicBool,
    node_counters: Vec<PaddedCounter>,
    start: Instant,
    /// The deepest iteration a helper thread completed (single-line
    /// searches): its best move is worth more than a shallower one of the
    /// main thread. Locked once per helper iteration, never per node.
    deepest_helper: Mutex<Option<Info>>,
    /// Moves being searched, with more than one thread.
    busy: Option<busy::BusyMoves>,
    /// A helper thread's solution of the root (score and move), if one
    /// solved it first.
    solution: OnceLock<(i32, Move)>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.node_counters
            .iter()
            .map(|counter| counter.0.load(Ordering::Relaxed))
            .sum()
    }

    /// Whether the main thread searches without helpers.
    #[inline(always)]
    fn single_threaded(&self) -> bool {
        self.node_counters.len() == 1
    }

    #[inline(always)]
    fn should_abort(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.signals.stopped(self.id)
    }
}

/// Searches `position` and returns the best move found; `id` identifies the
/// search for [`Signals`].
#[allow(clippy::too_many_arguments)]
pub fn search(
    position: &Position,
    rules: &Rules,
    table: &TranspositionTable,
    proven: &ProvenResults,
    limits: &Limits,
    settings: &Settings,
    signals: &Signals,
    id: u64,
    listener: &dyn Listener,
) -> SearchResult {
    if settings.reference != Reference::Off {
        return reference_search(position, rules, settings.reference);
    }
    table.new_search();
    let threads = settings.threads.max(1);
    let level = settings.skill_level.min(skill::MAX_LEVEL);
    let mut limits = limits.clone();
    let mut settings = settings.clone();
    if level < skill::MAX_LEVEL {
        let cap = skill::depth_cap(level);
        limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
        settings.multipv = settings.multipv.max(skill::CANDIDATE_LINES);
    }
    let (limits, settings) = (&limits, &settings);
    let shared = Shared {
        rules: *rules,
        table,
        proven,
        signals,
        id,
        limits,
        settings,
        listener,
        abort: AtomicBool::new(false),
        node_counters: (0..threads).map(|_| PaddedCounter::default()).collect(),
        start: Instant::now(),
        deepest_helper: Mutex::new(None),
        solution: OnceLock::new(),
        busy: (threads > 1).then(|| busy::BusyMoves::new(threads)),
    };
    std::thread::scope(|scope| {
        for index in 1..threads {
            let shared = &shared;
            let position = *position;
            // Helper threads need their own large stack frames for deep
            // searches; 8 MiB matches the main thread's default.
            let spawned = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn_scoped(scope, move || {
                    let mut worker = Worker::new(index, shared, position);
                    worker.iterate();
                });
            if let Err(error) = spawned {
                log::warn!("could not start search thread {index}: {error}");
            }
        }
        let mut main = Worker::new(0, &shared, *position);
        let result = main.iterate();
        shared.abort.store(true, Ordering::Relaxed);
        result
    })
    .finish(&shared, level)
}

/// A reference player's answer in the shape of a search result.
fn reference_search(position: &Position, rules: &Rules, reference: Reference) -> SearchResult {
    let start = Instant::now();
    match reference::choose(reference, position, rules) {
        Some((mv, score, nodes)) => {
            let info = Info {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score: Score::Centipoints(score),
                nodes,
                time_ms: elapsed_ms(start),
                hashfull: 0,
                pv: vec![mv],
            };
            SearchResult {
                best_move: Some(mv),
                ponder_move: None,
                final_info: Some(info),
                nodes,
                proven: false,
            }
        }
        None => SearchResult {
            best_move: None,
            ponder_move: None,
            final_info: None,
            nodes: 0,
            proven: false,
        },
    }
}

/// Milliseconds since `start`.
fn elapsed_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

/// A time budget measured from some instant (the start, or the ponderhit).
#[derive(Copy, Clone)]
struct Clock {
    budget: Option<TimeBudget>,
    from: Instant,
}

impl Clock {
    fn past_hard(&self) -> bool {
        self.budget
            .is_some_and(|budget| self.from.elapsed() >= budget.hard)
    }

    fn past_soft(&self, fraction: f64) -> bool {
        self.budget.is_some_and(|budget| {
            self.from.elapsed() >= Duration::from_secs_f64(budget.soft.as_secs_f64() * fraction)
        })
    }
}

/// What the main thread's iteration produced, before the final report.
pub(crate) struct MainOutcome {
    /// The lines of the last complete iteration, best first.
    lines: Vec<Info>,
    proven: bool,
}

impl MainOutcome {
    fn finish(mut self, shared: &Shared<'_>, level: u8) -> SearchResult {
        let nodes = shared.total_nodes();
        let noise: Vec<f64> = (0..self.lines.len())
            .map(|_| rand::random_range(0.0..1.0))
            .collect();
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
    fn signals_apply_to_earlier_searches_only() {
        let signals = Signals::default();
        signals.stop(3);
        assert!(signals.stopped(2));
        assert!(signals.stopped(3));
        assert!(!signals.stopped(4));
    }
}
