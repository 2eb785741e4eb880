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
pub(crate) mod limits;
mod proven;
pub(crate) mod reference;
mod report;
mod score;
mod signals;
pub(crate) mod skill;
mod threads;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::tt::TranspositionTable;

pub use limits::Limits;
pub(crate) use limits::TimeBudget;
pub(crate) use proven::Proof;
pub use proven::ProvenResults;
pub use reference::{Reference, ReferenceError};
use report::elapsed_ms;
pub use report::{Info, Listener, Silent};
pub(crate) use score::{INFINITY, MAX_PLY};
pub use score::{MATE, MATE_BOUND, Score};
pub use signals::Signals;
use threads::{PaddedCounter, Shared};
use worker::Worker;

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
