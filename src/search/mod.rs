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
pub mod params;
mod proven;
pub(crate) mod reference;
mod report;
mod score;
mod searcher;
mod signals;
pub(crate) mod skill;
mod threads;
mod worker;

use crate::moves::Move;

pub use limits::Limits;
pub(crate) use limits::TimeBudget;
pub use params::{ParamError, Params, TUNABLES, Tunable};
pub(crate) use proven::Proof;
pub use proven::ProvenResults;
pub use reference::{Reference, ReferenceError};
use report::elapsed_ms;
pub use report::{Info, Listener, Silent};
pub(crate) use score::{INFINITY, MAX_PLY};
pub use score::{MATE, MATE_BOUND, Score};
pub use searcher::{Searcher, Task};
pub use signals::{Control, Signals, StopHandle};
use threads::Shared;

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
    /// Seeds the random error of a level below 20 (`None`: fresh
    /// randomness each search), so that a caller's seeded run repeats.
    pub skill_seed: Option<u64>,
    /// A reference player instead of the search (strength measurement).
    pub reference: Reference,
    /// The search's tunable constants (hidden options; see [`params`]).
    pub params: Params,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            skill_level: skill::MAX_LEVEL,
            skill_seed: None,
            reference: Reference::Off,
            params: Params::default(),
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
