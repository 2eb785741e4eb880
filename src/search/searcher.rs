//! The search's long-lived state: the transposition table, the store of
//! proven results and the helper threads, kept from one search to the
//! next so that a `go` neither reallocates nor starts threads.

use crate::host::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::position::Position;
use crate::rules::Rules;
use crate::tt::TranspositionTable;

use super::reference::{self, Reference};
use super::threads::{PaddedCounter, Shared};
use super::worker::Worker;
use super::{
    Control, Info, Limits, Listener, ProvenResults, Score, SearchResult, Settings, busy,
    elapsed_ms, skill,
};

/// Stack of each helper thread: deep searches need large frames, and
/// 8 MiB matches the main thread's default.
const HELPER_STACK: usize = 8 << 20;

/// Searches positions, keeping what outlives one search: the table, the
/// proven results and a pool of helper threads.
pub struct Searcher {
    table: TranspositionTable,
    proven: ProvenResults,
    /// The helper threads of the last search with more than one thread,
    /// kept for the next; remade when the number of threads changes.
    /// Locked once per search, never during one by the workers.
    helpers: Mutex<Option<Helpers>>,
}

/// What to search: the position, its rules, the limits and the settings.
#[derive(Copy, Clone)]
pub struct Task<'a> {
    /// The position searched.
    pub position: &'a Position,
    /// The rules it is played under.
    pub rules: &'a Rules,
    /// When to stop.
    pub limits: &'a Limits,
    /// Threads, lines, skill and evaluation.
    pub settings: &'a Settings,
}

/// A pool of helper threads for searches on `threads` threads (the
/// caller's thread is the main one, so the pool holds `threads - 1`).
struct Helpers {
    threads: usize,
    pool: rayon::ThreadPool,
}

impl Searcher {
    /// A searcher with `table` and an empty store of proven results; no
    /// thread is started until a search asks for more than one.
    pub fn new(table: TranspositionTable) -> Searcher {
        Searcher {
            table,
            proven: ProvenResults::new(),
            helpers: Mutex::new(None),
        }
    }

    /// The transposition table.
    pub fn table(&self) -> &TranspositionTable {
        &self.table
    }

    /// Replaces the transposition table (a new size); the proven results
    /// stay.
    pub fn set_table(&mut self, table: TranspositionTable) {
        self.table = table;
    }

    /// The store of proven results.
    pub fn proven(&self) -> &ProvenResults {
        &self.proven
    }

    /// Forgets everything learned: the table and the proven results are
    /// emptied.
    pub fn forget(&mut self) {
        self.table.clear();
        self.proven.clear();
    }

    /// Searches `task.position` and returns the best move found; `control`
    /// stops it.
    pub fn search(
        &self,
        task: &Task<'_>,
        control: Control<'_>,
        listener: &dyn Listener,
    ) -> SearchResult {
        let Task {
            position,
            rules,
            limits,
            settings,
        } = *task;
        if settings.reference != Reference::Off {
            return reference_search(position, rules, settings.reference);
        }
        self.table.new_search();
        let level = settings.skill_level.min(skill::MAX_LEVEL);
        let mut limits = limits.clone();
        let mut settings = settings.clone();
        if level < skill::MAX_LEVEL {
            let cap = skill::depth_cap(level);
            limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
            settings.multipv = settings.multipv.max(skill::CANDIDATE_LINES);
        }
        let mut helpers = self
            .helpers
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let pool = helper_pool(&mut helpers, settings.threads.max(1));
        // Without helpers (one thread asked, or none could be started) the
        // main thread searches alone, and knows it.
        let threads = pool.map_or(1, |_| settings.threads.max(1));
        let (limits, settings) = (&limits, &settings);
        let shared = Shared {
            rules: *rules,
            table: &self.table,
            proven: &self.proven,
            signals: control.signals,
            id: control.id,
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
        let run_main = || {
            let mut main = Worker::new(0, &shared, *position);
            let result = main.iterate();
            shared.abort.store(true, Ordering::Relaxed);
            result
        };
        let outcome = match pool {
            None => run_main(),
            // The main worker runs on this thread; the scope returns when
            // every helper has seen `abort` and ended.
            Some(pool) => pool.in_place_scope(|scope| {
                for index in 1..threads {
                    let shared = &shared;
                    let position = *position;
                    scope.spawn(move |_| {
                        Worker::new(index, shared, position).iterate();
                    });
                }
                run_main()
            }),
        };
        outcome.finish(&shared, level)
    }
}

/// The pool of helpers for `threads` threads, made (or remade) if the kept
/// one is for another number; `None` for one thread, or when the threads
/// cannot be started (the search then runs on the caller's thread alone).
fn helper_pool(kept: &mut Option<Helpers>, threads: usize) -> Option<&rayon::ThreadPool> {
    if threads <= 1 {
        return None;
    }
    if kept
        .as_ref()
        .is_none_or(|helpers| helpers.threads != threads)
    {
        // Drop the old pool first: its threads end as the new ones start.
        *kept = None;
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .stack_size(HELPER_STACK)
            .thread_name(|index| format!("search helper {}", index + 1))
            .build();
        match built {
            Ok(pool) => *kept = Some(Helpers { threads, pool }),
            Err(error) => log::warn!("could not start {} search threads: {error}", threads - 1),
        }
    }
    kept.as_ref().map(|helpers| &helpers.pool)
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
